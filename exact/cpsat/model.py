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
from exact.timeindexed import check_horizon, check_start, label_domains, move_parity, move_rules


def time_order(T: int) -> list[int]:
    """Steps in time order: the search extends the solution from the start."""
    return list(range(T))


def middle_order(T: int) -> list[int]:
    """Steps from the middle outwards: each choice cuts the distance between the two ends that
    propagation has to bridge (measured: about a quarter of the conflicts of the time order on
    refutations)."""
    return sorted(range(T), key=lambda t: abs(2 * t - (T - 1)))


@dataclass
class CpsatModel:
    """A built CP-SAT model and its move literals ``y[(m, t)]``."""

    model: cp_model.CpModel
    y: dict[tuple[int, int], cp_model.IntVar]
    T: int
    num_moves: int

    def branching(self, order: Sequence[int]) -> cp_model.CpModel:
        """A copy of the model whose search branches on the moves of the steps in ``order``."""
        mdl = self.model.clone()
        mdl.proto.search_strategy.clear()
        lits = [mdl.get_bool_var_from_proto_index(self.y[m, t].index) for t in order for m in range(self.num_moves)]
        mdl.add_decision_strategy(lits, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
        return mdl

    def chosen_moves(self, solver: cp_model.CpSolver) -> list[int | None]:
        out: list[int | None] = []
        for t in range(self.T):
            pick = [m for m in range(self.num_moves) if solver.boolean_value(self.y[m, t])]
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


class _Proto:
    """Constraints written straight into the model's proto with integer literals (``v`` for
    variable ``v``, ``~v == -v - 1`` for its negation), built with numpy: the Python wrappers
    cost about as much as solving the smaller horizons (measured)."""

    def __init__(self, mdl: cp_model.CpModel):
        self.mdl = mdl
        self.add = mdl.proto.constraints.add
        self.true = mdl.new_constant(1).index
        self.false = ~self.true

    def bools(self, n: int, name: str) -> np.ndarray:
        return np.array([self.mdl.new_bool_var(f"{name}{i}").index for i in range(n)], dtype=np.int64)

    def clauses(self, rows: np.ndarray | list) -> None:
        for row in rows.tolist() if isinstance(rows, np.ndarray) else rows:
            self.add().bool_or.literals.extend(row)

    def exactly_one(self, lits) -> None:
        self.add().exactly_one.literals.extend(np.asarray(lits, dtype=np.int64).tolist())


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
    """The CP-SAT model (see the module docstring); its search branches on the moves in time order
    (:meth:`CpsatModel.branching` gives other orders).

    Args:
        table: The move table.
        start: The start state, int ``(P,)``.
        goal: The goal.
        T: The horizon (time steps).
        num_labels: The number of distinct labels in ``start``.
        exact_moves: Require a move at every one of the ``T`` steps (iterative deepening): no
            ``done`` literals and no objective.
        max_moves: With ``exact_moves=False``, at most this many moves.
        pieces: Rigid pieces as tuples of positions (labels must be home positions, as
            :func:`exact.timeindexed.prepare` makes them): only one label per piece is modelled.
    """
    T = check_horizon(T)
    start = check_start(table, start, num_labels)
    dom = label_domains(table, start, goal, T, num_labels)
    M, P = table.num_moves, table.num_positions
    mdl = cp_model.CpModel()
    out = _Proto(mdl)
    infeasible = not dom[0, np.arange(P), np.asarray(start)].all() or not dom.any(axis=2).all()
    distinct = np.unique(np.asarray(start)).size == P
    labels = modelled_labels(start, num_labels, pieces if goal.state is not None else ())
    z = _label_literals(out, dom, labels, num_labels, T, goal.state is not None, pieces, distinct)
    y, Y, D = _action_literals(mdl, out, T, M, exact_moves)
    _transitions(out, table, z, Y, D, labels, distinct)
    if goal.groups is not None:  # a fixed goal or allowed labels are already in the domains of step T
        _goal_groups(out, np.asarray(goal.groups), z[T], num_labels)
    _move_rules(out, move_rules(table), Y, T)
    # Branch on the moves step by step: with the transitions both ways, each choice propagates
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
        out.clauses([[out.false]])  # reachability alone refutes this horizon
    return CpsatModel(mdl, y, T, M)


def _label_literals(out: _Proto, dom: np.ndarray, labels: np.ndarray, num_labels: int, T: int, fixed_end: bool,
                    pieces: Sequence[np.ndarray], distinct: bool) -> np.ndarray:  # fmt: skip
    """``z[t, p, c]``: the literal "label c at p at step t" (the constant false outside the
    domain, true where fixed), with one label per position (or piece slot) and, for distinct
    labels, one position per label."""
    T1, P = T + 1, dom.shape[1]
    reduced = labels.size < num_labels
    mask = np.zeros(num_labels, dtype=bool)
    mask[labels] = True
    dom &= mask
    in_piece = np.zeros(P, dtype=bool)
    if reduced:
        for piece in pieces:
            in_piece[np.asarray(piece)] = True
    z = np.full((T1, P, num_labels), out.false, dtype=np.int64)
    for t in range(T1):
        if t == 0 or (t == T and fixed_end):
            z[t][dom[t]] = out.true
            continue
        z[t][dom[t]] = out.bools(int(dom[t].sum()), f"z{t}_")
        if reduced:
            for piece in pieces:  # each slot holds one modelled label
                out.exactly_one(z[t, np.asarray(piece)][dom[t, np.asarray(piece)]])
        for p in range(P) if not reduced else np.flatnonzero(~in_piece):
            out.exactly_one(z[t, p][dom[t, p]])
        if distinct:
            for c in labels:
                out.exactly_one(z[t, :, c][dom[t, :, c]])
    return z


def _action_literals(mdl, out: _Proto, T: int, M: int, exact_moves: bool):
    """``y[m, t]`` (and ``Y``, their literals ``(T, M)``), ``done[t]`` unless every step moves:
    one action a step, and done is final."""
    y = {(m, t): mdl.new_bool_var(f"y{m}_{t}") for t in range(T) for m in range(M)}
    Y = np.array([[y[m, t].index for m in range(M)] for t in range(T)], dtype=np.int64).reshape(T, M)
    D = None if exact_moves else out.bools(T, "done")
    for t in range(T):
        out.exactly_one(list(Y[t]) + ([D[t]] if D is not None else []))
    if D is not None and T > 1:
        out.clauses(np.stack([~D[:-1], D[1:]], axis=1))
    return y, Y, D


def _transitions(out: _Proto, table: MoveTable, z: np.ndarray, Y: np.ndarray, D, labels, distinct: bool) -> None:
    """Both ways: act and ``z[q,c,t]`` -> ``z[d,c,t+1]``; act and ``z[d,c,t+1]`` -> ``z[q,c,t]``;
    the guards; for distinct labels, the explanations (a label that moves, moved by a move)."""
    M, P = table.num_moves, table.num_positions
    carriers = _carriers(table) if distinct else {}
    actions = [(m, table.perms[m]) for m in range(M)] + ([(None, np.arange(P))] if D is not None else [])
    for t in range(Y.shape[0]):
        after = z[t + 1]
        for m, q in actions:
            act = Y[t, m] if m is not None else D[t]
            before = z[t, q]
            fwd = (before != out.false) & (after != out.true)
            back = (after != out.false) & (before != out.true)
            na = np.full(int(fwd.sum()), ~act)
            out.clauses(np.stack([na, ~before[fwd], after[fwd]], axis=1))
            nb = np.full(int(back.sum()), ~act)
            out.clauses(np.stack([nb, ~after[back], before[back]], axis=1))
        for m in range(M):
            for gp, gv in zip(table.guard_pos[m], table.guard_val[m]):
                if gp >= 0:
                    out.clauses([[~int(Y[t, m]), int(z[t, gp, gv])]])
        if distinct:
            _explanations(carriers, labels, z[t], z[t + 1], Y[t], None if D is None else int(D[t]), out)


def _goal_groups(out: _Proto, groups: np.ndarray, zT: np.ndarray, num_labels: int) -> None:
    """One label per group (and, as many groups as labels, one group per label):
    ``z[p,c,T] == u[group(p), c]``."""
    names = [int(g) for g in np.unique(groups)]
    u = {g: out.bools(num_labels, f"u{g}_") for g in names}
    for g in names:
        out.exactly_one(u[g])
    if len(names) == num_labels:
        for c in range(num_labels):
            out.exactly_one([u[g][c] for g in names])
    for p in range(len(groups)):
        uu, zz = u[int(groups[p])], zT[p]
        out.clauses(np.stack([~zz, uu], axis=1))
        out.clauses(np.stack([zz, ~uu], axis=1))


def _move_rules(out: _Proto, rules, Y: np.ndarray, T: int) -> None:
    """No forbidden pair or triple of consecutive moves."""
    if T > 1 and rules.pairs:
        a, b = np.array(rules.pairs).T
        out.clauses(np.stack([~Y[:-1, a], ~Y[1:, b]], axis=2).reshape(-1, 2))
    if T > 2 and rules.triples:
        a, b, c = np.array(rules.triples).T
        out.clauses(np.stack([~Y[:-2, a], ~Y[1:-1, b], ~Y[2:, c]], axis=2).reshape(-1, 3))


def _carriers(table: MoveTable) -> dict[tuple[int, int], list[int]]:
    """The moves that carry position ``q`` to ``d``, for each ``(q, d)``."""
    out: dict[tuple[int, int], list[int]] = {}
    for m in range(table.num_moves):
        for d, q in enumerate(table.perms[m].tolist()):
            out.setdefault((q, d), []).append(m)
    return out


def _explanations(carriers, labels, now, after, Yt, done, out: _Proto) -> None:
    """With distinct labels: label ``c`` at ``q`` then at ``d`` means an action carrying ``q`` to
    ``d`` (``now``, ``after``: the literals ``z[t]``, ``z[t+1]``; ``Yt``: the moves of step ``t``)."""
    everything = len(Yt) + (done is not None)
    rows = []
    Yl = Yt.tolist()
    for c in labels.tolist():
        qs = np.flatnonzero(now[:, c] != out.false).tolist()
        ds = np.flatnonzero(after[:, c] != out.false).tolist()
        nq, nd = (~now[:, c]).tolist(), (~after[:, c]).tolist()
        for q in qs:
            for d in ds:
                ms = carriers.get((q, d), ())
                acts = [Yl[m] for m in ms] + ([done] if done is not None and q == d else [])
                if len(acts) < everything:
                    rows.append([nq[q], nd[d], *acts])
    out.clauses(rows)
