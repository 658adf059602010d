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
* (T10) parity: ``sum y = 2h + pi`` with ``h`` integer where every move is odd (see
  :func:`exact.timeindexed.move_parity`);
* objective: minimise ``sum y``, the number of moves.

**Steps of several moves** (``moves_per_step = L``, the ``pairs`` formulation has ``L = 2``):
the same model over ``ceil(T / L)`` steps whose actions are sequences of ``L`` moves (or fewer,
as the last action: (T11) ``sum_{short} y[k,t] + sum_k y[k,t+1] <= 1``), from
:func:`exact.timeindexed.steps_of`. Each move counts in the objective and in ``sum <= T``.
(T8) then forbids a step ending in ``a`` followed by one starting with ``b`` for each rule pair,
as one clique row per pair and boundary. With ``L = 2`` the parity falls on the short step:
``sum_{short} y = pi``. The LP now sees pairs of consecutive moves, which no fractional mix of
single moves can fake: on 3x3 ``layers`` QTM 6-move scrambles the root LP bound is the optimum,
where the one-move model stalls (``docs/mip.md``).

Only ``y`` (and ``u``) are integer: with ``y`` fixed, (T3)-(T5) are the flow of each label along
the one permutation chosen, so ``z`` and ``f`` follow integrally.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyomo.environ as pyo
from pyomo.core.expr.numeric_expr import LinearExpression

from exact.movetable import MoveTable
from exact.puzzle import Goal
from exact.timeindexed import MoveRules, Steps, arcs, label_domains, move_parity, move_rules, steps_of


def build_tight(
    table: MoveTable,
    start: np.ndarray,
    goal: Goal,
    T: int,
    num_labels: int,
    max_moves: int | None = None,
    links: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
    moves_per_step: int = 1,
) -> pyo.ConcreteModel:
    """The tight model (see the module docstring).

    ``max_moves`` adds ``sum y <= max_moves``; ``links`` are pairs ``((p, i), (q, j))`` with
    ``z[p,i,t] = z[q,j,t]`` at every step (T9, stickers of one piece, see
    :func:`exact.timeindexed.piece_links`). With ``moves_per_step = L > 1`` each of the
    ``ceil(T / L)`` steps makes a sequence of ``L`` moves (or fewer, as the last action; see
    :func:`exact.timeindexed.steps_of`), ``y[k,t]`` chooses sequence ``k`` and the objective
    counts moves (``sum cost[k] y[k,t]``).
    """
    rules = move_rules(table)
    b = _Tight.of(table, start, goal, T, num_labels, steps_of(table, moves_per_step, rules))
    _flows(b)  # (T1)-(T5)
    _guards(b)  # (T6)
    _goal(b)  # (T7)
    _symmetry(b, rules)  # (T8)
    _links(b, links)  # (T9)
    _counts(b, table, start, max_moves)  # (T10), (T11), the horizon, the cutoff and the objective
    return b.m


@dataclass
class _Tight:
    """The model being built and what its constraint families share: the steps' actions, the
    label domains at each step, the arcs, the sizes, and the variables ``y`` and ``z``."""

    m: pyo.ConcreteModel
    acts: Steps
    dom: np.ndarray  # (S + 1, P, K) bool
    arc: Any
    goal: Goal
    T: int
    S: int
    P: int
    K: int
    M: int
    y_at: list[list[Any]] = field(default_factory=list)  # y_at[t][k] is y[k, t], fetched once

    @classmethod
    def of(cls, table: MoveTable, start: np.ndarray, goal: Goal, T: int, num_labels: int, acts: Steps) -> _Tight:
        L = acts.length
        S = -(-T // L)  # steps of the model
        base = label_domains(table, start, goal, T, num_labels)
        # At step s, L*s moves are made (or the goal is reached already, which those domains hold too).
        dom = base[[min(L * s, T) for s in range(S + 1)]]
        m = pyo.ConcreteModel(name=f"{table.description} tight T={T}" + (f" L={L}" if L > 1 else ""))
        m.T, m.num_steps, m.actions = T, S, acts.seqs
        m.infeasible = pyo.ConstraintList()  # holds "0 >= 1" when reachability alone refutes T
        m.never = pyo.Var(bounds=(0, 0))
        b = cls(m, acts, dom, arcs(acts.table), goal, T, S, table.num_positions, num_labels, acts.table.num_moves)
        if not dom[0, np.arange(b.P), np.asarray(start)].all() or not dom.any(axis=2).all():
            m.infeasible.add(m.never >= 1)
        m.y = pyo.Var([(k, t) for k in range(b.M) for t in range(S)], domain=pyo.Binary)
        b.y_at = [[m.y[k, t] for k in range(b.M)] for t in range(S)]
        zidx = [
            (p, c, t) for t in range(S + 1) if not b.fixed(t) for p in range(b.P) for c in np.flatnonzero(dom[t, p])
        ]
        m.z = pyo.Var([(p, int(c), t) for p, c, t in zidx], bounds=(0, 1))
        return b

    def fixed(self, t: int) -> bool:
        return t == 0 or (t == self.S and self.goal.state is not None)

    def z(self, p: int, c: int, t: int):
        if self.fixed(t):
            return 1 if self.dom[t, p, c] else 0
        return self.m.z[p, c, t] if self.dom[t, p, c] else 0

    def add(self, cl: pyo.ConstraintList, lhs, rhs) -> None:
        """``lhs == rhs``; between two numbers, nothing when they agree, else "infeasible"."""
        if isinstance(lhs, (int, float)) and isinstance(rhs, (int, float)):
            if lhs != rhs:
                self.m.infeasible.add(self.m.never >= 1)
            return
        cl.add(lhs == rhs)

    def ys(self, ks, t: int) -> list:
        """The variables ``y[k, t]`` for ``k`` in ``ks``."""
        y = self.y_at[t]
        return [y[k] for k in ks]

    def actions_at(self, t: int):
        return total(self.ys(range(self.M), t))

    def moves_in_all(self):
        cost = self.acts.cost.tolist()
        return total([cost[k] * self.y_at[t][k] for k in range(self.M) for t in range(self.S)])


def total(terms: list) -> Any:
    """``sum(terms)`` of linear terms (variables, or coefficient times variable) as one Pyomo
    linear expression, and ``0`` for none (which :meth:`_Tight.add` compares as a number).

    Built at once, not by ``+`` term by term: Python's ``sum`` makes Pyomo grow the expression one
    term at a time, which took most of the build of large models (the 5x5 Sokoban ``pairs`` model
    at T = 7: 326,000 rows, 7 million additions).
    """
    return LinearExpression(terms) if terms else 0


def _flows(b: _Tight) -> None:
    """The label flow ``f`` along arcs; (T1) one action a step, (T2) done is final, (T3) arc
    capacity, (T4) out-flow and (T5) in-flow."""
    m, dom, arc, S = b.m, b.dom, b.arc, b.S
    fidx = []
    for t in range(S):
        ok = dom[t][arc.src] & dom[t + 1][arc.dst]  # (A, K)
        for a, c in zip(*np.nonzero(ok)):
            fidx.append((int(a), int(c), t))
    m.f = pyo.Var(fidx, domain=pyo.NonNegativeReals)
    by_arc, out_of, into = defaultdict(list), defaultdict(list), defaultdict(list)
    for a, c, t in fidx:
        by_arc[a, t].append(m.f[a, c, t])
        out_of[int(arc.src[a]), c, t].append(m.f[a, c, t])
        into[int(arc.dst[a]), c, t + 1].append(m.f[a, c, t])
    m.one_action = pyo.Constraint(range(S), rule=lambda _, t: b.actions_at(t) <= 1)  # (T1)
    m.done_final = pyo.Constraint(range(S - 1), rule=lambda _, t: b.actions_at(t + 1) <= b.actions_at(t))  # (T2)
    # A self-loop's right side, sum_{k uses a} y + 1 - sum_k y, is written 1 - sum_{k moves p} y: the
    # same row without the terms that cancel, which would make it as dense as there are actions.
    moving = {int(a): np.setdiff1d(np.arange(b.M), arc.moves[a]).tolist() for a in arc.self_loop}
    m.capacity = pyo.ConstraintList()  # (T3)
    for t in range(S):
        for a in range(len(arc.src)):
            rhs = 1 - total(b.ys(moving[a], t)) if a in moving else total(b.ys(arc.moves[a], t))
            b.add(m.capacity, total(by_arc.get((a, t), [])), rhs)
    m.outflow = pyo.ConstraintList()  # (T4)
    m.inflow = pyo.ConstraintList()  # (T5)
    for t in range(S + 1):
        for p in range(b.P):
            for c in np.flatnonzero(dom[t, p]):
                c = int(c)
                if t < S:
                    b.add(m.outflow, total(out_of.get((p, c, t), [])), b.z(p, c, t))
                if t > 0:
                    b.add(m.inflow, total(into.get((p, c, t), [])), b.z(p, c, t))


def _guards(b: _Tight) -> None:
    """(T6) a guarded move only where its guards hold."""
    table = b.acts.table
    rows = [
        (k, int(gp), int(gv), t)
        for k in range(b.M)
        for gp, gv in zip(table.guard_pos[k], table.guard_val[k])
        if gp >= 0
        for t in range(b.S)
    ]

    def row(_, i: int):
        k, p, v, t = rows[i - 1]
        return b.y_at[t][k] <= b.z(p, v, t)

    b.m.guard = pyo.Constraint(range(1, len(rows) + 1), rule=row)  # half the cost of ConstraintList.add


def _goal(b: _Tight) -> None:
    """(T7) label groups: one label per group (and one group per label); a fixed goal is already
    in ``z(., ., T)``."""
    if b.goal.groups is None:
        return
    m, K = b.m, b.K
    groups = np.asarray(b.goal.groups)
    names = np.unique(groups)
    m.u = pyo.Var([(int(g), c) for g in names for c in range(K)], domain=pyo.Binary)
    m.goal = pyo.ConstraintList()
    for g in names:
        m.goal.add(total([m.u[int(g), c] for c in range(K)]) == 1)
    if len(names) == K:
        for c in range(K):
            m.goal.add(total([m.u[int(g), c] for g in names]) == 1)
    for p in range(b.P):
        for c in range(K):
            b.add(m.goal, b.z(p, c, b.S), m.u[int(groups[p]), c])


def _symmetry(b: _Tight, rules: MoveRules) -> None:
    """(T8) the move rules: no forbidden pair or triple of consecutive moves."""
    m, S = b.m, b.S
    m.symmetry = pyo.ConstraintList()
    if b.acts.length > 1:
        _rules_across_steps(m, b.acts, rules, S)
        return
    for a, c in rules.pairs:
        for t in range(S - 1):
            m.symmetry.add(m.y[a, t] + m.y[c, t + 1] <= 1)
    for a, c, d in rules.triples:
        for t in range(S - 2):
            m.symmetry.add(m.y[a, t] + m.y[c, t + 1] + m.y[d, t + 2] <= 2)


def _links(b: _Tight, links: Sequence[tuple[tuple[int, int], tuple[int, int]]]) -> None:
    """(T9) the stickers of one piece move together."""
    b.m.links = pyo.ConstraintList()
    for t in range(1, b.S + 1):
        if not b.fixed(t):
            for (p, i), (q, j) in links:
                b.add(b.m.links, b.z(p, i, t), b.z(q, j, t))


def _counts(b: _Tight, table: MoveTable, start: np.ndarray, max_moves: int | None) -> None:
    """(T10) parity, (T11) a short step is the last, the horizon in moves, the cutoff, and the
    objective: the number of moves."""
    m, S, T, L = b.m, b.S, b.T, b.acts.length
    short = np.flatnonzero(~b.acts.full).tolist()
    parity = move_parity(table, start, b.goal)
    if parity is not None:  # (T10) the number of moves has the start's parity
        m.half = pyo.Var(domain=pyo.NonNegativeIntegers, bounds=(0, T // 2))
        m.parity = pyo.Constraint(expr=b.moves_in_all() == 2 * m.half + parity)
        if L == 2:  # full steps make an even number: the one short step carries the parity
            m.parity_short = pyo.Constraint(expr=total([m.y[k, t] for k in short for t in range(S)]) == parity)
    if L > 1:
        # (T11) a step of fewer than L moves is the last one
        m.short_last = pyo.Constraint(
            range(S - 1), rule=lambda _, t: total(b.ys(short, t) + b.ys(range(b.M), t + 1)) <= 1
        )
        if L * S > T:
            m.horizon = pyo.Constraint(expr=b.moves_in_all() <= T)
    if max_moves is not None:
        m.cutoff = pyo.Constraint(expr=b.moves_in_all() <= max_moves)
    m.moves = pyo.Objective(expr=b.moves_in_all(), sense=pyo.minimize)


def _rules_across_steps(m: pyo.ConcreteModel, acts: Steps, rules: MoveRules, S: int) -> None:
    """(T8) for steps of several moves: the move rules where one step meets the next.

    A forbidden pair ``(a, b)``: no full step ending in ``a`` is followed by a step starting with
    ``b``; as one clique row per pair, since each step has one action. A forbidden triple
    ``(a, b, c)`` spans the boundary as the step ``... a b`` then ``c ...``, or ``... a`` then
    ``b c ...``.
    """
    M = acts.table.num_moves
    full = acts.full
    ending: dict[int, list[int]] = defaultdict(list)
    starting: dict[int, list[int]] = defaultdict(list)
    ending2: dict[tuple[int, int], list[int]] = defaultdict(list)
    starting2: dict[tuple[int, int], list[int]] = defaultdict(list)
    for k in range(M):
        seq = acts.seqs[k]
        starting[seq[0]].append(k)
        if len(seq) >= 2:
            starting2[seq[0], seq[1]].append(k)
        if full[k]:  # only a full step can be followed by another
            ending[seq[-1]].append(k)
            if len(seq) >= 2:
                ending2[seq[-2], seq[-1]].append(k)
    rows = [(ending[a], starting[b]) for a, b in rules.pairs]
    for a, b, c in rules.triples:
        rows.append((ending2[a, b], starting[c]))
        rows.append((ending[a], starting2[b, c]))
    for before, after in rows:
        if before and after:
            for t in range(S - 1):
                m.symmetry.add(total([m.y[k, t] for k in before] + [m.y[k, t + 1] for k in after]) <= 1)


def length_bound(objective_bound: float) -> int:
    """Lower bound on the solution length from a bound on the objective (the number of moves)."""
    return max(0, int(np.ceil(objective_bound - 1e-6)))


def chosen_moves(model: pyo.ConcreteModel, num_moves: int) -> list[int | None]:
    """The moves of a solved tight model, step by step (``None`` for done)."""
    out: list[int | None] = []
    actions = model.actions
    for t in range(model.num_steps):
        pick = [k for k in range(len(actions)) if (model.y[k, t].value or 0) > 0.5]
        out.extend(actions[pick[0]] if pick else [None])
    return out
