"""The CP-SAT model: one-hot Boolean states, clause transitions, the same move rules as the MIP.

For steps ``t < T``: ``y[m,t]`` (move ``m`` at step ``t``) and, when the number of moves is not
fixed, ``done[t]`` (no more moves); ``z[p,c,t]`` (label ``c`` at ``p``), only inside the label
domains of :func:`exact.timeindexed.label_domains`.

* exactly one label per position and step; with distinct labels also exactly one position per
  label;
* exactly one action per step (``done`` only at the end: ``done[t] -> done[t+1]``);
* transitions as clauses both ways: ``y[m,t] and z[q,c,t] -> z[d,c,t+1]`` and
  ``y[m,t] and z[d,c,t+1] -> z[q,c,t]`` for each arc ``q -> d`` of ``m`` (and the same for
  ``done`` on every position), so that propagation runs from the goal as well as from the start;
* with distinct labels, *explanations*: ``z[q,c,t] and z[d,c,t+1]`` imply one of the actions
  that carry ``q`` to ``d``, so a label's path fixes the moves;
* with rigid pieces (``pieces``, distinct labels), only one label per piece is modelled: its
  position fixes the piece's place and twist, the others would only repeat it. Each piece slot
  then holds exactly one modelled label. (Measured on 3x3 `layers` QTM depth 8: the model is
  about a third of the size and CP-SAT's proofs two to five times faster.)
* guards ``y[m,t] -> z[p,v,t]``; the goal as fixed literals or one label per group;
* with a move parity (:func:`exact.timeindexed.move_parity`), the number of moves has it;
* the move rules as clauses; objective: the number of moves (unless it is fixed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from exact.movetable import MoveTable
from exact.puzzle import Goal
from exact.timeindexed import label_domains, move_parity, move_rules


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


def modelled_labels(start: np.ndarray, num_labels: int, pieces: Sequence[np.ndarray]) -> np.ndarray:
    """The labels the model tracks: one per rigid piece (its first sticker) and every label that
    belongs to no piece; all labels when the labels are not distinct or there are no pieces."""
    start = np.asarray(start)
    if not pieces or np.unique(start).size != start.size:
        return np.arange(num_labels)
    keep = np.ones(num_labels, dtype=bool)
    for piece in pieces:
        keep[np.asarray(piece)[1:]] = False
    return np.flatnonzero(keep)


def build_cpsat(
    table: MoveTable,
    start: np.ndarray,
    goal: Goal,
    T: int,
    num_labels: int,
    *,
    exact_moves: bool = False,
    max_moves: int | None = None,
    pieces: Sequence[np.ndarray] = (),
) -> CpsatModel:
    """The CP-SAT model (see the module docstring).

    Args:
        table, start, goal, T, num_labels: The problem (``start`` int ``(P,)``).
        exact_moves: Require a move at every one of the ``T`` steps (iterative deepening): no
            ``done`` literals and no objective.
        max_moves: With ``exact_moves=False``, at most this many moves.
        pieces: Rigid pieces as tuples of positions (labels must be home positions, as
            :func:`exact.timeindexed.prepare` makes them): only one label per piece is modelled.
    """
    dom = label_domains(table, start, goal, T, num_labels)
    rules = move_rules(table)
    M, P = table.num_moves, table.num_positions
    mdl = cp_model.CpModel()
    infeasible = not dom[0, np.arange(P), np.asarray(start)].all() or not dom.any(axis=2).all()
    fixed_end = goal.state is not None
    distinct = np.unique(np.asarray(start)).size == P
    labels = modelled_labels(start, num_labels, pieces if fixed_end else ())
    reduced = labels.size < num_labels
    mask = np.zeros(num_labels, dtype=bool)
    mask[labels] = True
    dom &= mask
    in_piece = np.zeros(P, dtype=bool)
    if reduced:
        for piece in pieces:
            in_piece[np.asarray(piece)] = True

    z: dict[tuple[int, int, int], object] = {}
    for t in range(T + 1):
        fixed = t == 0 or (t == T and fixed_end)
        for p in range(P):
            for c in np.flatnonzero(dom[t, p]):
                z[p, int(c), t] = True if fixed else mdl.new_bool_var(f"z{p}_{c}_{t}")
        if fixed:
            continue
        if reduced:
            for piece in pieces:  # each slot holds one modelled label
                mdl.add_exactly_one([z[p, int(c), t] for p in piece for c in np.flatnonzero(dom[t, p])])
        for p in range(P) if not reduced else np.flatnonzero(~in_piece):
            mdl.add_exactly_one([z[p, int(c), t] for c in np.flatnonzero(dom[t, p])])
        if distinct:
            for c in labels:
                mdl.add_exactly_one([z[int(p), int(c), t] for p in np.flatnonzero(dom[t, :, c])])

    def lit(p: int, c: int, t: int):
        return z.get((p, c, t), False)

    y = {(m, t): mdl.new_bool_var(f"y{m}_{t}") for m in range(M) for t in range(T)}
    done = {} if exact_moves else {t: mdl.new_bool_var(f"done{t}") for t in range(T)}
    for t in range(T):
        mdl.add_exactly_one([y[m, t] for m in range(M)] + ([done[t]] if done else []))
        if done and t + 1 < T:
            mdl.add_implication(done[t], done[t + 1])

    def implies(premises, conclusions) -> None:
        # all premises -> one of the conclusions; constants are folded, trivial clauses dropped.
        out = []
        for x in premises:
            if x is False:
                return
            if x is not True:
                out.append(x.Not())
        for x in conclusions:
            if x is True:
                return
            if x is not False:
                out.append(x)
        mdl.add_bool_or(out)

    def carry(act, q: int, d: int, t: int) -> None:
        for c in np.flatnonzero(dom[t, q] | dom[t + 1, d]):
            a, b = lit(q, int(c), t), lit(d, int(c), t + 1)
            implies([act, a], [b])
            implies([act, b], [a])

    for t in range(T):
        for m in range(M):
            for d, q in enumerate(table.perms[m].tolist()):
                carry(y[m, t], q, d, t)
            for gp, gv in zip(table.guard_pos[m], table.guard_val[m]):
                if gp >= 0:
                    implies([y[m, t]], [lit(int(gp), int(gv), t)])
        if done:
            for p in range(P):
                carry(done[t], p, p, t)
        if distinct:
            _explanations(table, dom, labels, t, y, done, lit, implies)
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
    # Branch on the moves in time order: with the transitions both ways, each choice propagates
    # the labels' positions, which is what makes the search fast (measured; see docs/mip.md).
    mdl.add_decision_strategy(
        [y[m, t] for t in range(T) for m in range(M)], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
    )
    if not exact_moves:
        total = sum(y.values())
        parity = move_parity(table, start, goal)
        if parity is not None:  # the number of moves has the start's parity
            half = mdl.new_int_var(0, T // 2, "half")
            mdl.add(total == 2 * half + parity)
        if max_moves is not None:
            mdl.add(total <= max_moves)
        mdl.minimize(total)
    if infeasible:
        never = mdl.new_bool_var("never")  # reachability alone refutes this horizon
        mdl.add(never == 1)
        mdl.add(never == 0)
    return CpsatModel(mdl, y, T)


def _explanations(table: MoveTable, dom, labels, t: int, y, done, lit, implies) -> None:
    """With distinct labels: label ``c`` at ``q`` then at ``d`` means an action carrying ``q`` to ``d``."""
    M = table.num_moves
    carriers: dict[tuple[int, int], list[int]] = {}
    for m in range(M):
        for d, q in enumerate(table.perms[m].tolist()):
            carriers.setdefault((q, d), []).append(m)
    for c in labels:
        for q in np.flatnonzero(dom[t, :, c]).tolist():
            for d in np.flatnonzero(dom[t + 1, :, c]).tolist():
                ms = carriers.get((q, d), [])
                acts = [y[m, t] for m in ms] + ([done[t]] if done and q == d else [])
                if len(acts) < M + (1 if done else 0):
                    implies([lit(q, int(c), t), lit(d, int(c), t + 1)], acts)
