"""The CP-SAT model: one-hot Boolean states, clause transitions, the same move rules as the MIP.

For steps ``t < T``: ``y[m,t]`` (move ``m`` at step ``t``) and, when the number of moves is not
fixed, ``done[t]`` (no more moves); ``z[p,c,t]`` (label ``c`` at ``p``), only inside the label
domains of :func:`exact.timeindexed.label_domains`.

* exactly one label per position and step;
* exactly one action per step (``done`` only at the end: ``done[t] -> done[t+1]``);
* transitions as clauses ``not y[m,t] or not z[q,c,t] or z[d,c,t+1]`` for each arc ``q -> d`` of
  ``m`` (and the same for ``done`` on every position);
* guards ``y[m,t] -> z[p,v,t]``; the goal as fixed literals or one label per group;
* the move rules as clauses; objective: the number of moves (unless it is fixed).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from exact.movetable import MoveTable
from exact.puzzle import Goal
from exact.timeindexed import label_domains, move_rules


@dataclass
class CpsatModel:
    """A built CP-SAT model and its move literals ``y[(m, t)]``."""

    model: cp_model.CpModel
    y: dict[tuple[int, int], cp_model.IntVar]
    T: int

    def chosen_moves(self, solver: cp_model.CpSolver, num_moves: int) -> list[int | None]:
        out: list[int | None] = []
        for t in range(self.T):
            pick = [m for m in range(num_moves) if (m, t) in self.y and solver.boolean_value(self.y[m, t])]
            out.append(pick[0] if pick else None)
        return out


def build_cpsat(
    table: MoveTable,
    start: np.ndarray,
    goal: Goal,
    T: int,
    num_labels: int,
    *,
    exact_moves: bool = False,
    max_moves: int | None = None,
) -> CpsatModel:
    """The CP-SAT model (see the module docstring).

    Args:
        exact_moves: Require a move at every one of the ``T`` steps (iterative deepening): no
            ``done`` literals and no objective.
        max_moves: With ``exact_moves=False``, at most this many moves.
    """
    dom = label_domains(table, start, goal, T, num_labels)
    rules = move_rules(table)
    M, P = table.num_moves, table.num_positions
    mdl = cp_model.CpModel()
    infeasible = not dom[0, np.arange(P), np.asarray(start)].all() or not dom.any(axis=2).all()
    fixed_end = goal.state is not None

    z: dict[tuple[int, int, int], object] = {}
    for t in range(T + 1):
        for p in range(P):
            labels = np.flatnonzero(dom[t, p])
            if t == 0 or (t == T and fixed_end):
                for c in labels:
                    z[p, int(c), t] = True
                continue
            lits = [mdl.new_bool_var(f"z{p}_{c}_{t}") for c in labels]
            for c, lit in zip(labels, lits):
                z[p, int(c), t] = lit
            mdl.add_exactly_one(lits)

    def lit(p: int, c: int, t: int):
        return z.get((p, c, t), False)

    y = {(m, t): mdl.new_bool_var(f"y{m}_{t}") for m in range(M) for t in range(T)}
    done = {} if exact_moves else {t: mdl.new_bool_var(f"done{t}") for t in range(T)}
    for t in range(T):
        mdl.add_exactly_one([y[m, t] for m in range(M)] + ([done[t]] if done else []))
        if done and t + 1 < T:
            mdl.add_implication(done[t], done[t + 1])

    def clause(act, src, dst) -> None:
        # act and src imply dst; constants are folded so the model holds no trivial clauses.
        if src is False or dst is True:
            return
        lits = [act.Not()] + ([] if src is True else [src.Not()]) + ([] if dst is False else [dst])
        mdl.add_bool_or(lits)

    for t in range(T):
        for m in range(M):
            for d, q in enumerate(table.perms[m].tolist()):
                for c in np.flatnonzero(dom[t, q]):
                    clause(y[m, t], lit(q, int(c), t), lit(d, int(c), t + 1))
            for gp, gv in zip(table.guard_pos[m], table.guard_val[m]):
                if gp >= 0:
                    g = lit(int(gp), int(gv), t)
                    if g is False:
                        mdl.add(y[m, t] == 0)
                    elif g is not True:
                        mdl.add_implication(y[m, t], g)
        if done:
            for p in range(P):
                for c in np.flatnonzero(dom[t, p]):
                    clause(done[t], lit(p, int(c), t), lit(p, int(c), t + 1))
    if not fixed_end:
        groups = np.asarray(goal.groups)
        names = [int(g) for g in np.unique(groups)]
        u = {(g, c): mdl.new_bool_var(f"u{g}_{c}") for g in names for c in range(num_labels)}
        for g in names:
            mdl.add_exactly_one([u[g, c] for c in range(num_labels)])
        if len(names) == num_labels:
            for c in range(num_labels):
                mdl.add_exactly_one([u[g, c] for g in names])
        for p in range(P):
            for c in range(num_labels):
                zz = lit(p, c, T)
                if zz is False:
                    mdl.add(u[int(groups[p]), c] == 0)
                else:
                    mdl.add(zz == u[int(groups[p]), c])
    for a, b in rules.pairs:
        for t in range(T - 1):
            mdl.add_bool_or([y[a, t].Not(), y[b, t + 1].Not()])
    for a, b, c in rules.triples:
        for t in range(T - 2):
            mdl.add_bool_or([y[a, t].Not(), y[b, t + 1].Not(), y[c, t + 2].Not()])
    if not exact_moves:
        total = sum(y.values())
        if max_moves is not None:
            mdl.add(total <= max_moves)
        mdl.minimize(total)
    if infeasible:
        never = mdl.new_bool_var("never")  # reachability alone refutes this horizon
        mdl.add(never == 1)
        mdl.add(never == 0)
    return CpsatModel(mdl, y, T)
