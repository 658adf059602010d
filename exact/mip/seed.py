"""The seed formulation: the case study's big-M model, written from the move table.

Turns ``t = 1..T`` (turn ``t`` takes the state at ``t-1`` to ``t``); positions ``i`` (the
case study's ``(f, r, c)``); colours ``n = 1..K``; moves ``m``; ``A(i)`` the moves that carry the
label at ``i`` elsewhere; ``lm(m, i, j)`` move ``m`` carries position ``i`` to ``j``;
``M = K - 1`` (the largest colour difference).

* (1) ``x[i,t]`` integer in ``1..K``, the colour at ``i`` at turn ``t``; ``x[i,0]`` is the start;
* (2) ``z[i,t,n]`` binary one-hot colours: ``sum_n z[i,t,n] = 1``;
* (3) ``x[i,t] = sum_n n z[i,t,n]``;
* (4) ``y[m,t]`` binary, at most one move per turn: ``sum_m y[m,t] <= 1``;
* (5), (6) a move carries colours: ``x[j,t] - x[i,t-1] <= M (1 - y[m,t])`` and
  ``x[i,t-1] - x[j,t] <= M (1 - y[m,t])`` for each ``lm(m, i, j)``, ``i != j``;
* (7), (8) without a move of ``A(i)`` position ``i`` keeps its colour:
  ``x[i,t] - x[i,t-1] <= M sum_{m in A(i)} y[m,t]`` and the same with the sides swapped;
* (9) ``v[f,t,n]`` binary, face ``f`` complete in colour ``n``: ``v[f,t,n] <= z[i,t,n]`` for
  every ``i`` on ``f``;
* (10) ``d[t]`` binary, the cube solved at turn ``t``: ``d[t] <= sum_n v[f,t,n]`` for each ``f``;
* (11) solved at some turn: ``sum_t d[t] >= 1``;
* (12) objective: minimise ``sum_{m,t} t y[m,t]``.

With moves weighted by their turn, ``L`` moves cost at least ``1 + ... + L = L(L+1)/2``, reached
by making them at turns ``1..L``; so the optimum has the fewest moves, and a bound ``B`` on the
objective proves ``L >= min{L : L(L+1)/2 >= B}``. Guards (tiles) are stated with big-M too:
``x[p,t-1] - v <= M (1 - y[m,t])`` and ``v - x[p,t-1] <= M (1 - y[m,t])``.
"""

from __future__ import annotations

import math

import numpy as np
import pyomo.environ as pyo

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzle import Goal


def build_seed(
    table: MoveTable,
    start: np.ndarray,
    goal: Goal,
    T: int,
    num_labels: int,
    max_moves: int | None = None,
    links: object = (),
) -> pyo.ConcreteModel:
    """The seed model (see the module docstring); ``max_moves`` adds ``sum y <= max_moves``.

    ``links`` is accepted for a common signature and ignored: the seed model is the case study's.
    """
    M, P, K = table.num_moves, table.num_positions, num_labels
    if goal.allowed is not None:
        raise PuzzleoptError(
            "the seed formulation states a goal as one state or label groups, not a set of allowed labels; "
            "use formulation tight or pairs"
        )
    big = K - 1
    turns = range(1, T + 1)
    groups = np.asarray(goal.groups) if goal.groups is not None else np.arange(P)  # a fixed goal: one group each
    m = pyo.ConcreteModel(name=f"{table.description} seed T={T}")
    m.T = T
    m.x = pyo.Var([(i, t) for i in range(P) for t in range(T + 1)], domain=pyo.Integers, bounds=(1, K))  # (1)
    for i in range(P):
        m.x[i, 0].fix(int(start[i]) + 1)
    m.z = pyo.Var([(i, t, n) for i in range(P) for t in range(T + 1) for n in range(K)], domain=pyo.Binary)
    m.onehot = pyo.Constraint(
        [(i, t) for i in range(P) for t in range(T + 1)], rule=lambda _, i, t: sum(m.z[i, t, n] for n in range(K)) == 1
    )  # (2)
    m.link = pyo.Constraint(
        [(i, t) for i in range(P) for t in range(T + 1)],
        rule=lambda _, i, t: m.x[i, t] == sum((n + 1) * m.z[i, t, n] for n in range(K)),
    )  # (3)
    m.y = pyo.Var([(k, t) for k in range(M) for t in turns], domain=pyo.Binary)
    m.one_move = pyo.Constraint(turns, rule=lambda _, t: sum(m.y[k, t] for k in range(M)) <= 1)  # (4)
    m.carry = pyo.ConstraintList()  # (5), (6)
    moved_by: list[list[int]] = [[] for _ in range(P)]
    for k in range(M):
        for j, i in enumerate(table.perms[k].tolist()):
            if i == j:
                continue
            moved_by[i].append(k)
            for t in turns:
                m.carry.add(m.x[j, t] - m.x[i, t - 1] <= big * (1 - m.y[k, t]))
                m.carry.add(m.x[i, t - 1] - m.x[j, t] <= big * (1 - m.y[k, t]))
    m.keep = pyo.ConstraintList()  # (7), (8)
    for i in range(P):
        for t in turns:
            moving = sum(m.y[k, t] for k in moved_by[i])
            m.keep.add(m.x[i, t] - m.x[i, t - 1] <= big * moving)
            m.keep.add(m.x[i, t - 1] - m.x[i, t] <= big * moving)
    m.guard = pyo.ConstraintList()
    for k in range(M):
        for gp, gv in zip(table.guard_pos[k], table.guard_val[k]):
            if gp >= 0:
                for t in turns:
                    m.guard.add(m.x[int(gp), t - 1] - (int(gv) + 1) <= big * (1 - m.y[k, t]))
                    m.guard.add((int(gv) + 1) - m.x[int(gp), t - 1] <= big * (1 - m.y[k, t]))
    faces = [int(g) for g in np.unique(groups)]
    m.v = pyo.Var([(f, t, n) for f in faces for t in range(T + 1) for n in range(K)], domain=pyo.Binary)
    m.complete = pyo.ConstraintList()  # (9)
    for i in range(P):
        allowed = [int(goal.state[i])] if goal.state is not None else range(K)
        for t in range(T + 1):
            for n in range(K):
                if n in allowed:
                    m.complete.add(m.v[int(groups[i]), t, n] <= m.z[i, t, n])
                else:
                    m.v[int(groups[i]), t, n].fix(0)
    m.d = pyo.Var(range(T + 1), domain=pyo.Binary)
    m.solved = pyo.Constraint(
        [(f, t) for f in faces for t in range(T + 1)],
        rule=lambda _, f, t: m.d[t] <= sum(m.v[f, t, n] for n in range(K)),
    )  # (10)
    m.some_turn = pyo.Constraint(expr=sum(m.d[t] for t in range(T + 1)) >= 1)  # (11)
    if max_moves is not None:
        m.cutoff = pyo.Constraint(expr=sum(m.y[k, t] for k in range(M) for t in turns) <= max_moves)
    m.cost = pyo.Objective(expr=sum(t * m.y[k, t] for k in range(M) for t in turns), sense=pyo.minimize)  # (12)
    return m


def length_bound(objective_bound: float) -> int:
    """The fewest moves ``L`` whose cost ``L(L+1)/2`` reaches ``objective_bound``."""
    b = max(0.0, objective_bound - 1e-6)
    return max(0, math.ceil((math.sqrt(1 + 8 * b) - 1) / 2))


def chosen_moves(model: pyo.ConcreteModel, num_moves: int) -> list[int | None]:
    """The move at each turn of a solved seed model (``None`` where no move is made)."""
    out: list[int | None] = []
    for t in range(1, model.T + 1):
        pick = [k for k in range(num_moves) if (model.y[k, t].value or 0) > 0.5]
        out.append(pick[0] if pick else None)
    return out
