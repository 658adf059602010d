"""The tight formulation: binary moves, a flow of labels along arcs, a "done" chain.

For steps ``t = 0..T-1``, moves ``m``, positions ``p``, labels ``c``, arcs ``a = q -> d``
(:func:`exact.timeindexed.arcs`):

* ``y[m,t]`` binary: move ``m`` is made at step ``t``; ``done[t] = 1 - sum_m y[m,t]``;
* ``z[p,c,t]`` in [0, 1]: label ``c`` is at ``p`` at step ``t`` (fixed at ``t = 0``, and at
  ``t = T`` for a fixed goal); only (p, c, t) in the label domain exist;
* ``f[a,c,t]`` >= 0: label ``c`` travels along arc ``a`` from step ``t`` to ``t + 1``.

Constraints (numbers as in ``docs/mip.md``):

* (T1) one action per step: ``sum_m y[m,t] <= 1``;
* (T2) done is final: ``sum_m y[m,t+1] <= sum_m y[m,t]``;
* (T3) arc capacity: ``sum_c f[a,c,t] = sum_{m uses a} y[m,t] (+ done[t] on self-loops)``;
* (T4) out-flow: ``sum_{a from p} f[a,c,t] = z[p,c,t]``;
* (T5) in-flow: ``sum_{a into d} f[a,c,t] = z[d,c,t+1]``;
* (T6) guards: ``y[m,t] <= z[p,v,t]`` for each guard ``(p, v)`` of ``m``;
* (T7) goal: ``z[p,goal[p],T] = 1``, or for groups ``z[p,c,T] = u[g(p),c]`` with ``u`` binary,
  one label per group and (as many groups as labels) one group per label;
* (T9) pieces (with distinct labels): the stickers of one piece move together,
  ``z[p,i,t] = z[q,j,t]`` for each link of :func:`exact.timeindexed.piece_links`;
* (T8) symmetry breaking: ``y[a,t] + y[b,t+1] <= 1`` for each forbidden pair, and
  ``y[a,t] + y[b,t+1] + y[c,t+2] <= 2`` for each forbidden triple;
* objective: minimise ``sum y``, the number of moves.

Only ``y`` (and ``u``) are integer: with ``y`` fixed, (T3)-(T5) are the flow of each label along
the one permutation chosen, so ``z`` and ``f`` follow integrally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
import pyomo.environ as pyo

from exact.movetable import MoveTable
from exact.puzzle import Goal
from exact.timeindexed import arcs, label_domains, move_parity, move_rules


def build_tight(
    table: MoveTable,
    start: np.ndarray,
    goal: Goal,
    T: int,
    num_labels: int,
    max_moves: int | None = None,
    links: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
) -> pyo.ConcreteModel:
    """The tight model (see the module docstring).

    ``max_moves`` adds ``sum y <= max_moves``; ``links`` are pairs ``((p, i), (q, j))`` with
    ``z[p,i,t] = z[q,j,t]`` at every step (T9, stickers of one piece, see
    :func:`exact.timeindexed.piece_links`).
    """
    arc = arcs(table)
    dom = label_domains(table, start, goal, T, num_labels)
    rules = move_rules(table)
    M, P, K = table.num_moves, table.num_positions, num_labels
    steps = range(T)
    m = pyo.ConcreteModel(name=f"{table.description} tight T={T}")
    m.T = T
    m.infeasible = pyo.ConstraintList()  # holds "0 >= 1" when reachability alone refutes T

    def add(cl: pyo.ConstraintList, lhs, rhs) -> None:
        if isinstance(lhs, (int, float)) and isinstance(rhs, (int, float)):
            if lhs != rhs:
                m.infeasible.add(m.never >= 1)
            return
        cl.add(lhs == rhs)

    m.never = pyo.Var(bounds=(0, 0))
    if not dom[0, np.arange(P), np.asarray(start)].all() or not dom.any(axis=2).all():
        m.infeasible.add(m.never >= 1)

    # Moves that can matter: a guard that can never hold rules a move out at that step.
    m.y = pyo.Var([(k, t) for k in range(M) for t in steps], domain=pyo.Binary)

    def fixed(t: int) -> bool:
        return t == 0 or (t == T and goal.state is not None)

    zidx = [(p, c, t) for t in range(T + 1) if not fixed(t) for p in range(P) for c in np.flatnonzero(dom[t, p])]
    m.z = pyo.Var([(p, int(c), t) for p, c, t in zidx], bounds=(0, 1))

    def z(p: int, c: int, t: int):
        if fixed(t):
            return 1 if dom[t, p, c] else 0
        return m.z[p, c, t] if dom[t, p, c] else 0

    fidx = []
    for t in steps:
        ok = dom[t][arc.src] & dom[t + 1][arc.dst]  # (A, K)
        for a, c in zip(*np.nonzero(ok)):
            fidx.append((int(a), int(c), t))
    m.f = pyo.Var(fidx, domain=pyo.NonNegativeReals)
    by_arc = defaultdict(list)
    out_of = defaultdict(list)
    into = defaultdict(list)
    for a, c, t in fidx:
        by_arc[a, t].append(m.f[a, c, t])
        out_of[int(arc.src[a]), c, t].append(m.f[a, c, t])
        into[int(arc.dst[a]), c, t + 1].append(m.f[a, c, t])

    def moves_at(t: int):
        return sum(m.y[k, t] for k in range(M))

    m.one_action = pyo.Constraint(steps, rule=lambda _, t: moves_at(t) <= 1)  # (T1)
    m.done_final = pyo.Constraint(range(T - 1), rule=lambda _, t: moves_at(t + 1) <= moves_at(t))  # (T2)
    self_loops = set(arc.self_loop.tolist())
    m.capacity = pyo.ConstraintList()  # (T3)
    for t in steps:
        for a in range(len(arc.src)):
            rhs = sum(m.y[k, t] for k in arc.moves[a]) + ((1 - moves_at(t)) if a in self_loops else 0)
            add(m.capacity, sum(by_arc.get((a, t), [])), rhs)
    m.outflow = pyo.ConstraintList()  # (T4)
    m.inflow = pyo.ConstraintList()  # (T5)
    for t in range(T + 1):
        for p in range(P):
            for c in np.flatnonzero(dom[t, p]):
                c = int(c)
                if t < T:
                    add(m.outflow, sum(out_of.get((p, c, t), [])), z(p, c, t))
                if t > 0:
                    add(m.inflow, sum(into.get((p, c, t), [])), z(p, c, t))
    m.guard = pyo.ConstraintList()  # (T6)
    for k in range(M):
        for gp, gv in zip(table.guard_pos[k], table.guard_val[k]):
            if gp >= 0:
                for t in steps:
                    m.guard.add(m.y[k, t] <= z(int(gp), int(gv), t))
    if goal.groups is not None:  # (T7); a fixed goal is already in z(., ., T)
        groups = np.asarray(goal.groups)
        names = np.unique(groups)
        m.u = pyo.Var([(int(g), c) for g in names for c in range(K)], domain=pyo.Binary)
        m.goal = pyo.ConstraintList()
        for g in names:
            m.goal.add(sum(m.u[int(g), c] for c in range(K)) == 1)
        if len(names) == K:
            for c in range(K):
                m.goal.add(sum(m.u[int(g), c] for g in names) == 1)
        for p in range(P):
            for c in range(K):
                add(m.goal, z(p, c, T), m.u[int(groups[p]), c])
    m.symmetry = pyo.ConstraintList()  # (T8)
    for a, b in rules.pairs:
        for t in range(T - 1):
            m.symmetry.add(m.y[a, t] + m.y[b, t + 1] <= 1)
    for a, b, c in rules.triples:
        for t in range(T - 2):
            m.symmetry.add(m.y[a, t] + m.y[b, t + 1] + m.y[c, t + 2] <= 2)
    m.links = pyo.ConstraintList()  # (T9)
    for t in range(1, T + 1):
        if not fixed(t):
            for (p, i), (q, j) in links:
                add(m.links, z(p, i, t), z(q, j, t))
    parity = move_parity(table, start, goal)
    if parity is not None:  # (T10) the number of moves has the start's parity
        m.half = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(0, T // 2))
        m.parity = pyo.Constraint(expr=sum(moves_at(t) for t in steps) == 2 * m.half + parity)
    if max_moves is not None:
        m.cutoff = pyo.Constraint(expr=sum(moves_at(t) for t in steps) <= max_moves)
    m.moves = pyo.Objective(expr=sum(moves_at(t) for t in steps), sense=pyo.minimize)
    return m


def length_bound(objective_bound: float) -> int:
    """Lower bound on the solution length from a bound on the objective (the number of moves)."""
    return max(0, int(np.ceil(objective_bound - 1e-6)))


def chosen_moves(model: pyo.ConcreteModel, num_moves: int) -> list[int | None]:
    """The move at each step of a solved tight model (``None`` for done)."""
    out: list[int | None] = []
    for t in range(model.T):
        pick = [k for k in range(num_moves) if (model.y[k, t].value or 0) > 0.5]
        out.append(pick[0] if pick else None)
    return out
