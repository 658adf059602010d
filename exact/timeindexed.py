"""What the time-indexed models (MIP and CP-SAT) share: arcs, label domains, move rules.

A time-indexed model of horizon ``T`` has the state at steps ``t = 0..T`` and one action per
step ``t = 0..T-1``: a move of the table, or "done" (no move; once done, done for good). All of
it is derived from the :class:`~exact.movetable.MoveTable`, so the same builders serve every cube
size, move set and metric, and any puzzle whose moves are guarded permutations.

* **Arcs** ``q -> d``: a move carries the label at ``q`` to ``d`` (``d`` with ``perm[d] = q``).
  The moves of one arc are ``arc_moves[a]``; "done" uses every self-loop.
* **Label domains** ``dom[t, p, c]``: label ``c`` can be at ``p`` at step ``t`` (reachable from
  the start in ``t`` steps and, for a fixed goal, able to reach the goal in ``T - t``). Variables
  outside the domain are never created.
* **Move parity**: when every move is an odd permutation and the labels are distinct, the
  number of moves of any solution has the parity of the start's permutation (relative to the
  goal): the face-turn QTM cube and the sliding tiles. The models then only consider lengths of
  that parity (:func:`move_parity`).
* **Move rules**: sequences that no shortest solution contains (a move then its inverse; two
  moves whose product is one move or nothing, like ``R R`` in HTM; three like ``R R R`` in QTM;
  commuting moves of one axis out of layer order). Forbidding them keeps at least one optimal
  solution (sort each run of same-axis moves by layer; a run that then contains a collapsible
  pair or triple was not shortest), so they are valid symmetry-breaking constraints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from exact.errors import PuzzleoptError, StateError
from exact.movetable import MoveTable
from exact.puzzle import Goal, Puzzle, home_positions
from exact.ranking import permutation_parity
from exact.resources import MAX_THREADS, cores
from exact.result import Status

MAX_HORIZON = 200


def check_horizon(T: object) -> int:
    """Validate a horizon: an integer from 0 to :data:`MAX_HORIZON`."""
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or not 0 <= int(T) <= MAX_HORIZON:
        raise PuzzleoptError(
            f"horizon T={T!r} must be an integer from 0 to {MAX_HORIZON} (the number of turns allowed)"
        )
    return int(T)


def horizon_for(stop_at: int | None, horizon: int | None, method: str) -> int:
    """The horizon a model is built with: ``horizon``, else ``stop_at - 1`` (proving that no
    solution shorter than a given one of length ``stop_at`` exists).

    Raises:
        PuzzleoptError: neither is given, naming ``method``.
    """
    if horizon is not None:
        return int(horizon)
    if stop_at is not None:
        return int(stop_at) - 1
    raise PuzzleoptError(f"method {method!r} needs horizon= (the most moves; or stop_at=L to prove a length L)")


def decide(
    found: Sequence[int] | None, *, proven: bool = False, infeasible: bool = False, bound: int | None = None,
    hint: Sequence[int] | None = None, T: int,
) -> tuple[list[int], Status, int | None]:  # fmt: skip
    """The one set of rules that turns how a model's search ended into moves, a status and a
    bound: the MIP's whole model, its split, and CP-SAT all end here.

    Args:
        found: A solution the model gave (move rows, replayed), or ``None``.
        proven: The solver proved ``found`` shortest within its model.
        infeasible: The solver proved the model has no solution: nothing shorter than ``hint``
            (whose length the model was cut below), or nothing within ``T``.
        bound: A proven lower bound on the length (the model's objective bound), if any.
        hint: The incumbent the model was asked to beat.
        T: The horizon.

    Returns:
        ``(moves, status, lower bound)``: a found solution is optimal when proven or when the bound
        reaches its length, else feasible; an infeasible model makes the hint optimal, or says
        nothing exists within ``T`` (bound ``T + 1``); otherwise (a limit) the hint is feasible,
        or the status is ``limit``, with the bound (at most ``T + 1``).
    """
    bound = None if bound is None else min(int(bound), T + 1)
    if found is not None and proven:
        return list(found), Status.OPTIMAL, len(found)
    if found is None and infeasible:
        if hint is not None:
            return list(hint), Status.OPTIMAL, len(hint)
        return [], Status.INFEASIBLE_WITHIN_HORIZON, T + 1
    moves = found if found is not None else hint
    if moves is None:
        return [], Status.LIMIT, bound
    if bound is not None and bound >= len(moves):
        return list(moves), Status.OPTIMAL, len(moves)
    return list(moves), Status.FEASIBLE, bound


def model_ready(options) -> bool:
    """Whether ``options`` give a model its horizon (:func:`horizon_for`): ``method="auto"`` passes
    over the models otherwise."""
    return options.get("horizon") is not None or options.get("stop_at") is not None


def model_applies(puzzle) -> bool:
    """Any move table whose goal a :class:`~exact.puzzle.Goal` states (one state, label groups,
    allowed labels: Sokoban's boxes on flags too)."""
    return isinstance(getattr(puzzle, "table", None), MoveTable) and hasattr(puzzle, "goal_spec")


@dataclass(frozen=True)
class Arcs:
    """Position-to-position arcs of a move table.

    Attributes:
        src, dst: int64 ``(A,)``: arc ``a`` carries the label at ``src[a]`` to ``dst[a]``.
        moves: For each arc, the rows that use it (tuple of ints); self-loops list the rows that
            leave the position in place.
        self_loop: int64 ``(P,)``: the index of the arc ``p -> p``.
    """

    src: np.ndarray
    dst: np.ndarray
    moves: tuple[tuple[int, ...], ...]
    self_loop: np.ndarray


def arcs(table: MoveTable) -> Arcs:
    """All arcs of ``table``, self-loops included (for "done" and for positions a move keeps)."""
    p = table.num_positions
    by_arc: dict[tuple[int, int], list[int]] = {(i, i): [] for i in range(p)}
    for m in range(table.num_moves):
        for d, q in enumerate(table.perms[m].tolist()):
            by_arc.setdefault((q, d), []).append(m)
    keys = sorted(by_arc)
    src = np.array([k[0] for k in keys], dtype=np.int64)
    dst = np.array([k[1] for k in keys], dtype=np.int64)
    index = {k: i for i, k in enumerate(keys)}
    self_loop = np.array([index[(i, i)] for i in range(p)], dtype=np.int64)
    return Arcs(src, dst, tuple(tuple(by_arc[k]) for k in keys), self_loop)


def label_domains(table: MoveTable, start: np.ndarray, goal: Goal, T: int, num_labels: int) -> np.ndarray:
    """bool ``(T+1, P, K)``: which labels each position can hold at each step.

    Forward from the start along the arcs; for a fixed goal also backward from it, so a label
    survives only where it can still reach its goal cell in the steps left.
    """
    a = arcs(table)
    p = table.num_positions
    fwd = np.zeros((T + 1, p, num_labels), dtype=bool)
    fwd[0, np.arange(p), np.asarray(start, dtype=np.int64)] = True
    for t in range(T):
        np.logical_or.at(fwd[t + 1], a.dst, fwd[t][a.src])
    if goal.allowed is not None:
        fwd[T] &= np.asarray(goal.allowed)[:, :num_labels]
        return fwd
    if goal.state is None:
        return fwd
    back = np.zeros_like(fwd)
    back[T, np.arange(p), np.asarray(goal.state, dtype=np.int64)] = True
    for t in range(T - 1, -1, -1):
        np.logical_or.at(back[t], a.src, back[t + 1][a.dst])
    return fwd & back


def move_parity(table: MoveTable, start: np.ndarray, goal: Goal) -> int | None:
    """The parity (0 or 1) every solution length has, or ``None`` when lengths of both parities
    may occur.

    With distinct labels a state is a permutation of the goal; if every move is an odd
    permutation of the positions, each move flips the state's parity, so a solution has as many
    moves, modulo 2, as the start's parity relative to the goal.
    """
    if goal.state is None or not table.odd:
        return None
    home = home_positions(goal.state, start)
    return None if home is None else int(permutation_parity(home, check=False))


@dataclass(frozen=True)
class MoveRules:
    """Move sequences excluded without losing every optimal solution (see the module docstring).

    Attributes:
        pairs: ``(a, b)``: ``b`` never directly follows ``a``.
        triples: ``(a, b, c)``: never three in a row.
    """

    pairs: tuple[tuple[int, int], ...]
    triples: tuple[tuple[int, int, int], ...]


def move_rules(table: MoveTable) -> MoveRules:
    """The symmetry-breaking rules of ``table``."""
    m = table.num_moves
    pairs: set[tuple[int, int]] = set()
    for a in range(m):
        if table.inverse[a] >= 0:
            pairs.add((a, int(table.inverse[a])))
    if table.guarded:
        return MoveRules(tuple(sorted(pairs)), ())
    single = {p.tobytes() for p in table.perms} | {np.arange(table.num_positions).tobytes()}
    for a, b in product(range(m), repeat=2):
        if table.perms[a][table.perms[b]].tobytes() in single:
            pairs.add((a, b))
    if table.axis is not None and table.layer is not None:
        for a, b in product(range(m), repeat=2):
            if table.axis[a] == table.axis[b] and table.layer[b] < table.layer[a] and table.commutes[a, b]:
                pairs.add((a, b))
    # a b c is one move (or none) iff the pair a b equals s[c^-1] for a single move s: one lookup a
    # pair instead of composing every triple (254^3 of them for 255 pancakes)
    inverse = np.argsort(table.perms, axis=1)
    ends: dict[bytes, set[int]] = {}
    for s in [*table.perms, np.arange(table.num_positions)]:
        for c in range(m):
            ends.setdefault(s[inverse[c]].tobytes(), set()).add(c)
    triples: set[tuple[int, int, int]] = set()
    groups = [range(m)] if table.axis is None else [np.flatnonzero(table.axis == x) for x in np.unique(table.axis)]
    for group in groups:
        members = {int(g) for g in group}
        for a, b in product(members, repeat=2):
            if (a, b) in pairs:
                continue
            for c in ends.get(table.perms[a][table.perms[b]].tobytes(), ()):
                if c in members and (b, c) not in pairs:
                    triples.add((a, b, c))
    return MoveRules(tuple(sorted(pairs)), tuple(sorted(triples)))


@dataclass(frozen=True)
class Steps:
    """The actions of a model whose steps make up to ``length`` moves each.

    A step of ``length`` moves is one action of the model; shorter sequences are allowed only as
    the last action before "done", so every solution of at most ``T`` moves is a run of full
    steps and at most one short one. Sequences that break a move rule (:func:`move_rules`)
    inside one step are left out; the rules across two steps are the model's business.

    Attributes:
        length: Most moves per step (1: the plain moves).
        seqs: The move rows of each action, in order; ``K`` of them.
        table: The actions as one move table (composed permutations; a guard of a later move is
            moved back to the position it reads at the start of the step).
        cost: int64 ``(K,)``: moves per action.
    """

    length: int
    seqs: tuple[tuple[int, ...], ...]
    table: MoveTable
    cost: np.ndarray

    @property
    def full(self) -> np.ndarray:
        """bool ``(K,)``: the actions of ``length`` moves."""
        return self.cost == self.length


def steps_of(table: MoveTable, length: int, rules: MoveRules) -> Steps:
    """All actions of up to ``length`` moves of ``table`` that keep ``rules`` inside the step."""
    if length < 1:
        raise PuzzleoptError(f"moves per step must be at least 1, got {length}")
    if length == 1:
        seqs = tuple((k,) for k in range(table.num_moves))
        return Steps(1, seqs, table, np.ones(table.num_moves, dtype=np.int64))
    pairs, triples = set(rules.pairs), set(rules.triples)
    p_count = table.num_positions
    seqs, perms, guards = [], [], []
    frontier: list[tuple[tuple[int, ...], np.ndarray, dict[int, int]]] = [((), np.arange(p_count), {})]
    for _ in range(length):
        grown = []
        for seq, perm, guard in frontier:
            for k in range(table.num_moves):
                if seq and (seq[-1], k) in pairs or len(seq) >= 2 and (seq[-2], seq[-1], k) in triples:
                    continue
                g = dict(guard)
                ok = True
                for gp, gv in zip(table.guard_pos[k].tolist(), table.guard_val[k].tolist()):
                    if gp < 0:
                        continue
                    at = int(perm[gp])  # where the guarded label sits at the start of the step
                    if g.setdefault(at, gv) != gv:
                        ok = False
                if ok:
                    grown.append((seq + (k,), perm[table.perms[k]], g))
        for seq, perm, g in grown:
            seqs.append(seq)
            perms.append(perm)
            guards.append(sorted(g.items()))
        frontier = grown
    width = max((len(g) for g in guards), default=0)
    gpos = np.full((len(seqs), width), -1, dtype=np.int64)
    gval = np.zeros((len(seqs), width), dtype=np.int64)
    for i, g in enumerate(guards):
        for j, (at, v) in enumerate(g):
            gpos[i, j], gval[i, j] = at, v
    composed = MoveTable(
        names=tuple(" ".join(table.names[k] for k in seq) for seq in seqs),
        perms=np.stack(perms),
        guard_pos=gpos,
        guard_val=gval,
        description=f"{table.description}, up to {length} moves per step",
    )
    return Steps(length, tuple(seqs), composed, np.array([len(q) for q in seqs], dtype=np.int64))


def check_start(table: MoveTable, start: np.ndarray, num_labels: int) -> np.ndarray:
    """The start as int64 ``(P,)``, checked against the table's size and the label range."""
    s = np.asarray(start)
    if s.shape != (table.num_positions,):
        raise StateError(f"start state must have shape ({table.num_positions},) for {table.description}, got {s.shape}")
    if s.min(initial=0) < 0 or s.max(initial=0) >= num_labels:
        raise StateError(f"start state labels must be in 0..{num_labels - 1}")
    return s.astype(np.int64)


@dataclass(frozen=True)
class Problem:
    """What a time-indexed model is built for: a table, a start, a goal, and how its moves map
    back to the puzzle's own (:meth:`lift`)."""

    table: MoveTable
    start: np.ndarray
    goal: Goal
    num_labels: int
    frame: tuple[np.ndarray, np.ndarray] | None = None  # (rotations, reference) when reduced
    frame_start: np.ndarray | None = None  # the start, turned into the frame, in the puzzle's labels
    pieces: tuple[np.ndarray, ...] = ()  # with distinct labels: positions that move as one piece

    def lift(self, original: MoveTable, start: np.ndarray, moves: list[int]) -> list[int]:
        """The puzzle's moves for a solution of this problem (the same rows without a frame)."""
        if self.frame is None:
            return list(moves)
        rotations, _ = self.frame
        real = np.asarray(start)
        canon = np.asarray(self.frame_start)
        out: list[int] = []
        for k in moves:
            canon = canon[self.table.perms[k]]
            for m in range(original.num_moves):
                nxt = real[original.perms[m]]
                if any(np.array_equal(nxt[r], canon) for r in rotations):
                    out.append(m)
                    real = nxt
                    break
            else:  # pragma: no cover - the reduction guarantees a match
                raise StateError("no puzzle move matches a move of the reduced model")
        return out


def prepare(puzzle, start: np.ndarray, reduce_frame: bool = True) -> Problem:
    """The model's problem for ``puzzle`` from ``start``.

    When the goal is "solved in any orientation" and the puzzle has a frame (its whole-puzzle
    rotations and reference positions that fix an orientation, see ``Puzzle.frame``), the model
    is built in the frame where the reference stays home: each move is followed by the rotation
    that brings the reference back, the start is turned so that the reference is home, and the
    goal becomes the one solved state. Shortest lengths are unchanged (rotations commute with
    the goal), the goal is fixed (so label domains prune from both ends), and solutions are
    lifted back to the puzzle's moves by :meth:`Problem.lift`.

    When the goal is one state because no move turns the reference (face turns of an odd cube
    never move the centres), a start whose reference is not home (a cube seen from another
    side) is turned whole so that it is: the puzzle's goal is solved in any orientation, so
    modelling the unturned start against the one solved state would "prove" a solvable cube
    unsolvable. The moves are lifted back to the start's own frame in the same way.
    """
    table = puzzle.table
    s = check_start(table, start, puzzle.num_labels)
    goal = puzzle.goal_spec(s)
    frame = puzzle.frame()
    problem = Problem(table, s, goal, puzzle.num_labels)
    if frame is not None and goal.groups is not None and reduce_frame:
        problem = _reduce(puzzle, s, frame)
    elif frame is not None and goal.state is not None:
        turned = _turned_home(puzzle, s, frame)
        if not np.array_equal(turned, s):
            problem = Problem(table, turned, goal, puzzle.num_labels, frame, turned)
    return _distinct(puzzle, problem)


def _turned_home(puzzle, s: np.ndarray, frame: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``s`` turned whole so that the frame's reference positions hold the solved state's labels."""
    rotations, reference = frame
    home = np.asarray(puzzle.goal)[reference]
    for r in rotations:
        if np.array_equal(s[r][reference], home):
            return s[r]
    raise StateError(f"{puzzle.name}: the start's reference pieces cannot be turned home; is it a valid state?")


def _reduce(puzzle, s: np.ndarray, frame: tuple[np.ndarray, np.ndarray]) -> Problem:
    table = puzzle.table
    rotations, reference = frame
    solved = np.asarray(puzzle.goal, dtype=np.int64)
    start = _turned_home(puzzle, s, frame)
    perms = []
    for m in range(table.num_moves):
        back = [r for r in rotations if np.array_equal(table.perms[m][r][reference], reference)]
        perms.append(table.perms[m][back[0]])
    reduced = MoveTable(
        names=table.names,
        perms=np.stack(perms),
        axis=table.axis,
        layer=table.layer,
        description=f"{table.description} (reference kept home)",
        metadata=dict(table.metadata),
    )
    return Problem(reduced, start, Goal(state=solved), puzzle.num_labels, frame, start)


def _distinct(puzzle, problem: Problem) -> Problem:
    """Relabel so that no two positions share a label, where the puzzle can tell them apart.

    Colours say little about which sticker is where: with every sticker its own label, each
    label must travel from its start to its one home, the label domains shrink to the pieces'
    own paths and the LP relaxation of the flow model tightens.
    """
    goal = problem.goal
    if goal.state is None or not np.array_equal(goal.state, puzzle.goal):
        return problem
    home = puzzle.distinct_labels(problem.start)
    if home is None:
        return problem
    p = problem.table.num_positions
    return Problem(
        problem.table, home, Goal(state=np.arange(p)), p, problem.frame, problem.frame_start, tuple(puzzle.pieces())
    )


def piece_links(pieces: tuple[np.ndarray, ...]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs ``((p, i), (q, j))`` with "label i at p" equal to "label j at q" at every step.

    With distinct labels (each label its home position), a piece's stickers travel together: if
    the sticker of home ``H[k]`` is at slot position ``S[j]``, the one of ``H[k+1]`` is at
    ``S[j+1]`` (indices cyclic, both tuples in the same turning order).
    """
    out = []
    for slot in pieces:
        for home in pieces:
            if len(home) != len(slot):
                continue
            k = len(slot)
            for o in range(k):
                for j in range(k - 1):
                    out.append(((int(slot[j]), int(home[(j + o) % k])), (int(slot[j + 1]), int(home[(j + 1 + o) % k]))))
    return out


def replay_until_goal(puzzle: Puzzle, start: np.ndarray, chosen: Sequence[int | None]) -> list[int]:
    """The model's moves in order, cut at the first state that is solved (``puzzle.is_goal``,
    which for a cube accepts any orientation)."""

    state = np.asarray(start)
    out: list[int] = []
    if puzzle.solved(state):
        return out
    for m in chosen:
        if m is None:
            continue
        state = puzzle.table.apply(state, m)
        out.append(int(m))
        if puzzle.solved(state):
            break
    return out


def check_solve_args(
    puzzle, start: np.ndarray, T: int, threads: int, time_limit: float | None, hint: Sequence[int] | None
) -> tuple[np.ndarray, list[int] | None]:
    """Validate what every time-indexed solve takes besides the start (checked once, before:
    :func:`exact.invariants.checked_start`); returns the start (int64) and the hint."""
    if not 1 <= threads <= MAX_THREADS:
        raise PuzzleoptError(f"threads={threads} must be in 1..{MAX_THREADS} (this machine has {cores()} cores)")
    if time_limit is not None and not time_limit > 0:
        raise PuzzleoptError(f"time limit {time_limit} must be a positive number of seconds")
    start = np.asarray(start).astype(np.int64)
    return start, check_hint(puzzle, start, hint, T)


def check_hint(puzzle: Puzzle, start: np.ndarray, hint: Sequence[int] | None, T: int) -> list[int] | None:
    """Validate a hint (move rows): it must solve ``start`` in at most ``T`` moves."""
    if hint is None:
        return None
    hint = [int(m) for m in hint]
    end = puzzle.table.apply(np.asarray(start), hint)
    if not puzzle.solved(end):
        raise PuzzleoptError(
            f"hint {puzzle.table.format(hint)!r} does not solve the start state; give a solving sequence"
        )
    if len(hint) > T:
        raise PuzzleoptError(f"hint has {len(hint)} moves, more than the horizon T={T}; raise --turns or shorten it")
    return hint
