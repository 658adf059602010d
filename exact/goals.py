"""Partial goals: solve until some positions show what a mask asks, the rest anything.

A cube solver's users ask for a cross, an F2L pair or a pattern rather than the solved cube. A
partial goal is a :class:`~exact.puzzle.Goal` of ``allowed`` labels, ``(P, K)`` bool (a row of
all ``True`` is "any label here"); :func:`with_goal` wraps a puzzle so that every method sees it:

* the time-indexed models (MIP, CP-SAT) state it as constraints on the last step's labels
  (:func:`exact.timeindexed.label_domains`), as they do for Sokoban;
* IDA* (:func:`solve_partial`) works on the puzzle's *pieces* (:meth:`Puzzle.pieces` and
  :meth:`Puzzle.distinct_labels`): a piece slot whose every position the mask names must hold
  the one piece, in the one orientation, whose colours fit (:func:`pins`). The labels are then
  renamed so that each pinned sticker's label is the position it must reach, which makes the
  goal "these labels at home" and lets the projection pattern databases of :mod:`exact.pdb`
  (two stickers a piece fix a piece; two pieces a table, the tables combined by their maximum)
  give an admissible heuristic for any mask. The search stops where the pinned positions hold
  their labels.

Methods that cannot honour a partial goal (the full-goal tables, BFS from the goal) do not
apply to a wrapped puzzle (:attr:`exact.contract.Method.goals`).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from exact.contract import Setup
from exact.deadline import left
from exact.errors import PuzzleoptError, StateError, UnsolvableError, first_line
from exact.provenance import toolkit
from exact.puzzle import Goal, Puzzle
from exact.result import SolveResult, Status
from exact.solvers import register_method

PAIR_TABLES = 6
"""Pinned pieces are tracked two to a table: every pair while that makes at most this many
tables (a cross: 4 edges, 6 tables), else consecutive pairs."""


class GoalPuzzle(Puzzle):
    """``base`` with a partial goal (see the module docstring). Everything else is the base's.

    Args:
        base: The puzzle.
        goal: ``Goal(allowed=...)``, ``(P, K)`` bool.
        label: The goal's name, for results and messages (``"cross"``, a mask, ...).
    """

    def __init__(self, base: Puzzle, goal: Goal, label: str = "partial") -> None:
        if goal.allowed is None:
            raise PuzzleoptError(f"{base.name}: a partial goal is Goal(allowed=(P, K) bool), got another kind")
        allowed = np.asarray(goal.allowed, dtype=bool)
        if allowed.shape != (base.num_positions, base.num_labels):
            raise PuzzleoptError(
                f"{base.name}: a partial goal's mask has shape (P, K) = ({base.num_positions}, {base.num_labels}), "
                f"got {allowed.shape}"
            )
        if not allowed.any(axis=1).all():
            empty = np.flatnonzero(~allowed.any(axis=1)).tolist()
            raise PuzzleoptError(f"{base.name}: the goal allows no label at positions {empty}; allow at least one")
        super().__init__(f"{base.name}[{label}]", base.table, base.goal, base.num_labels)
        self.base = base
        self.partial_goal = Goal(allowed=allowed)
        self.goal_label = label
        self.spec = getattr(base, "spec", None)
        self._tables: dict = {}  # pdb_dir -> (renamed puzzle, heuristic), filled on first search

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        s = self.states(states).astype(np.int64)
        return self.partial_goal.allowed[np.arange(s.shape[1]), s].all(axis=1)

    def goal_spec(self, start: np.ndarray | None = None) -> Goal:
        return self.partial_goal

    def check_state(self, state: object) -> np.ndarray:
        return self.base.check_state(state)

    def unsolvable(self, state: np.ndarray) -> str | None:
        """What rules the goal out from ``state``: a mask that names one whole state the puzzle's
        rules reject, or that lies on the other side of an invariant from the start; for a mask
        of some positions, the same invariants restricted to what it names
        (:func:`exact.reachable.unreachable`: labels per orbit, colours no piece has, a piece
        turned in place, a parity)."""
        from exact.reachable import unreachable

        allowed = self.partial_goal.allowed
        if (allowed.sum(axis=1) == 1).all():
            target = allowed.argmax(axis=1).astype(np.uint8)
            try:
                target = self.base.check_state(target)
            except PuzzleoptError as exc:
                return f"the goal {self.goal_label} is not a state of the puzzle: {first_line(exc)}"
            if self.base.unsolvable(state) is None and (why := self.base.unsolvable(target)) is not None:
                return f"the goal {self.goal_label} cannot be reached from a solvable start: {why}"
        why = unreachable(self.base, allowed, state)
        return None if why is None else f"the goal {self.goal_label} cannot be reached: {why}"

    # the mask names positions as they are: no whole-puzzle turn makes another state a goal
    def frame(self):
        return None

    def distinct_labels(self, state):
        return self.base.distinct_labels(state)

    def pieces(self):
        return self.base.pieces()

    def inverse_state(self, state):
        return None  # a partial goal is many states: no one inverse reaches them all

    def svg(self, state):
        return self.base.svg(state)

    def format_state(self, state) -> str:
        return self.base.format_state(state)

    def parse_state(self, text: str):
        return self.base.parse_state(text)

    @cached_property
    def pinned(self) -> Pins:
        """The pieces the mask fixes (:func:`pins`)."""
        return pins(self.base, self.partial_goal.allowed)

    def search_tables(self, pdb_dir=None, progress: bool = False) -> tuple[Puzzle, object]:
        """The renamed puzzle and the pattern-database heuristic :func:`solve_partial` searches
        with, loaded (or built) once per folder for all the starts this goal is asked of."""
        from exact.pdb import projection

        key = None if pdb_dir is None else str(pdb_dir)
        if key not in self._tables:
            renamed, pats = self.search_patterns()
            self._tables[key] = (renamed, projection.heuristic(renamed, pats, pdb_dir=pdb_dir, progress=progress))
        return self._tables[key]

    def search_patterns(self) -> tuple[Puzzle, list]:
        """The renamed puzzle :func:`solve_partial` searches and the patterns of its tables (pairs
        of the pinned pieces), without building anything: what the set-up estimate reads."""
        return _Renamed(self.base, self.pinned.positions), patterns(self.pinned, self.base.num_positions)


def with_goal(puzzle: Puzzle, goal: Goal | str, label: str | None = None) -> GoalPuzzle:
    """``puzzle`` with a partial goal: a :class:`~exact.puzzle.Goal` of allowed labels, or text
    the puzzle reads (:meth:`Puzzle.parse_goal`: a cube's ``"cross"``, ``"f2l"``, a facelet
    mask, ...)."""
    if isinstance(puzzle, GoalPuzzle):
        puzzle = puzzle.base
    if not isinstance(goal, (str, Goal)):
        raise TypeError(f"goal is text the puzzle reads (e.g. 'cross') or a Goal, got {type(goal).__name__}")
    if isinstance(goal, str):
        return GoalPuzzle(puzzle, puzzle.parse_goal(goal), label or goal)
    return GoalPuzzle(puzzle, goal, label or "partial")


@dataclass(frozen=True)
class Pins:
    """What a mask fixes, in the distinct labels of :meth:`Puzzle.distinct_labels`.

    Attributes:
        slots: For each pinned piece, its slot's positions (the piece's turning order).
        stickers: For each pinned piece, the label (home position) each slot position must hold.
        fixed: Masked positions in no piece that no move changes (a 3x3's centres).
    """

    slots: tuple[tuple[int, ...], ...]
    stickers: tuple[tuple[int, ...], ...]
    fixed: tuple[int, ...]

    @property
    def positions(self) -> np.ndarray:
        return np.array([q for s in self.slots for q in s], dtype=np.int64)

    @property
    def labels(self) -> np.ndarray:
        return np.array([v for s in self.stickers for v in s], dtype=np.int64)


def pins(puzzle: Puzzle, allowed: np.ndarray) -> Pins:
    """The pieces a mask fixes: each slot whose every position is masked (allows fewer than all
    labels) must hold the one piece, turned the one way, whose goal labels the mask allows.

    Raises:
        UnsolvableError: no piece fits a slot, or one piece is asked for in two slots (no state
            meets the mask; :meth:`GoalPuzzle.unsolvable` says so before any search).
        PuzzleoptError: the puzzle tells no pieces apart, a slot is masked in part, or several
            pieces fit a slot; the message says which and that the MIP and CP-SAT take any mask.
    """
    allowed = np.asarray(allowed, dtype=bool)
    masked = ~allowed.all(axis=1)
    pieces = [tuple(int(q) for q in p) for p in puzzle.pieces()]
    hint = "; the MIP and CP-SAT (method='mip' or 'cp-sat' with a horizon) take any mask"
    if not pieces or puzzle.distinct_labels(puzzle.goal) is None:
        raise PuzzleoptError(f"{puzzle.name}: IDA* with a partial goal needs pieces told apart{hint}")
    colour = np.asarray(puzzle.goal, dtype=np.int64)
    in_piece = np.zeros(puzzle.num_positions, dtype=bool)
    slots, stickers, used = [], [], {}
    for slot in pieces:
        in_piece[list(slot)] = True
        m = masked[list(slot)]
        if not m.any():
            continue
        if not m.all():
            raise PuzzleoptError(
                f"{puzzle.name}: the mask names positions {[q for q in slot if masked[q]]} of the piece at "
                f"{list(slot)} but not all of it; IDA* needs whole pieces{hint}"
            )
        fits = [
            tuple(home[(j + o) % len(home)] for j in range(len(slot)))
            for home in pieces
            if len(home) == len(slot)
            for o in range(len(home))
            if all(allowed[slot[j], colour[home[(j + o) % len(home)]]] for j in range(len(slot)))
        ]
        if len(fits) != 1:
            what = "no piece" if not fits else f"{len(fits)} pieces or turns"
            raise (PuzzleoptError if fits else UnsolvableError)(
                f"{puzzle.name}: {what} of the puzzle fit the mask at positions {list(slot)}; "
                f"name colours one piece has{hint if fits else ''}"
            )
        key = frozenset(fits[0])
        if key in used:
            raise UnsolvableError(
                f"{puzzle.name}: the mask asks for one piece at positions {used[key]} and {list(slot)}; "
                "no state has a piece in two places"
            )
        used[key] = list(slot)
        slots.append(slot)
        stickers.append(fits[0])
    still = (puzzle.table.perms == np.arange(puzzle.num_positions)).all(axis=0)
    loose = [int(q) for q in np.flatnonzero(masked & ~in_piece) if not still[q]]
    if loose:
        raise PuzzleoptError(f"{puzzle.name}: the mask names positions {loose} that no piece holds{hint}")
    fixed = tuple(int(q) for q in np.flatnonzero(masked & ~in_piece))
    return Pins(tuple(slots), tuple(stickers), fixed)


class _Renamed(Puzzle):
    """The distinct-label puzzle in which each pinned sticker's label is its target position:
    the goal is "these positions hold their own label" (and nothing about the rest)."""

    def __init__(self, base: Puzzle, positions: np.ndarray) -> None:
        p = base.num_positions
        super().__init__(f"{base.name}-stickers", base.table, np.arange(p), p)
        self.positions = positions
        allowed = np.ones((p, p), dtype=bool)
        allowed[positions] = False
        allowed[positions, positions] = True
        self._goal = Goal(allowed=allowed)

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        s = self.states(states)
        return (s[:, self.positions] == self.positions).all(axis=1)

    def goal_spec(self, start=None) -> Goal:
        # a set of goal states: the move-parity argument for one goal state does not hold
        return self._goal


def renaming(pinned: Pins, num_positions: int) -> np.ndarray:
    """int64 ``(P,)``: the new label of each distinct label (pinned stickers: their target
    position; the others: the labels left over, in order)."""
    new = np.full(num_positions, -1, dtype=np.int64)
    new[pinned.labels] = pinned.positions
    free = np.setdiff1d(np.arange(num_positions), pinned.positions)
    new[new < 0] = free
    return new


def patterns(pinned: Pins, num_positions: int, per_table: int = 2):
    """The projections of :func:`solve_partial`: two stickers of each pinned piece (they fix its
    place and turn), ``per_table`` pieces a table."""
    from exact.pdb.projection import Projection

    pieces = [tuple(s[:2]) for s in pinned.slots]  # target positions = renamed labels
    if len(pieces) <= per_table:
        groups = [pieces]
    else:
        every = list(itertools.combinations(pieces, per_table))
        groups = every if len(every) <= PAIR_TABLES else [pieces[i : i + per_table] for i in range(0, len(pieces), 2)]
    return [Projection(num_positions, tuple(q for piece in g for q in piece)) for g in groups]


def solve_partial(
    puzzle: GoalPuzzle, start: np.ndarray, *, time_limit=None, node_limit=None, stop_at=None, pdb_dir=None,
    progress=False,
) -> SolveResult:  # fmt: skip
    """A shortest solution to a partial goal by IDA* (see the module docstring), replayed on
    ``puzzle`` (the mask itself) before it is returned.

    Raises:
        PuzzleoptError: the mask does not fix whole pieces (:func:`pins`), or the start's pieces
            cannot be told apart (a 3x3 seen from another side: turn it so that its centres are home).
    """
    from exact.ida import ida

    t0 = time.perf_counter()
    start = np.asarray(start)
    base = puzzle.base
    pinned = puzzle.pinned
    stickers = base.distinct_labels(start)
    if stickers is None:
        raise StateError(
            f"{base.name}: this start's pieces cannot be told apart (are its centres home?); "
            "turn the cube so that they are, or use method='mip' or 'cp-sat'"
        )
    settings = {"goal": puzzle.goal_label, "time_limit": time_limit, "node_limit": node_limit, "stop_at": stop_at}
    done = SolveResult.recorder(
        puzzle, start, solver="ida*-goal", solver_version=toolkit(), settings=settings, since=t0
    )
    fixed = list(pinned.fixed)
    if fixed and not puzzle.partial_goal.allowed[fixed, start[fixed].astype(np.int64)].all():
        return done([], Status.UNSOLVABLE, None, 0, {"proof": f"positions {fixed} never move and show other labels"})
    if not pinned.slots:
        return done([], Status.OPTIMAL, 0, 0, {"proof": "the start meets the goal"})
    renamed, h = puzzle.search_tables(pdb_dir, progress)
    left = None if time_limit is None else time_limit - (time.perf_counter() - t0)  # the tables' build counts
    if left is not None and left <= 0:
        return done([], Status.LIMIT, 0, 0, {"limit": f"{time_limit} s (building the tables)"})
    r = ida(
        renamed, renaming(pinned, base.num_positions)[stickers].astype(np.uint8), h,
        time_limit=left, node_limit=node_limit, stop_at=stop_at, goal_positions=pinned.positions,
    )  # fmt: skip
    rows = base.table.parse(" ".join(r.moves), start) if r.moves else []
    extra = dict(r.extra) | {"heuristic": h.name, "pinned_pieces": len(pinned.slots)}
    return done(rows, r.status, r.lower_bound, r.nodes, extra)


def _run(puzzle, start, limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """IDA* to a partial goal (a cross, an F2L pair, a pattern) that fixes whole pieces, with
    pattern databases over pairs of the pieces it fixes."""
    return solve_partial(puzzle, np.asarray(start), time_limit=left(limits.time), node_limit=limits.nodes,
                         stop_at=stop_at, pdb_dir=pdb_dir, progress=progress)  # fmt: skip


def _applies(puzzle) -> bool:
    # pieces the mask fixes whole (pins); a mask that names part of a piece is the models'
    if getattr(puzzle, "partial_goal", None) is None:
        return False
    try:
        return puzzle.pinned is not None
    except UnsolvableError:
        return True  # no state meets the mask: every solve ends unsolvable before any search
    except PuzzleoptError:
        return False


COMPILE_SECONDS = 1.4
"""numba's first compile of the generic IDA* kernel and the projections' on 2 cores, for a goal:
a 3x3 walk of 6 to the cross, cache removed 3.9 s (median of 3), cached 3.3 s; a walk of 20 to
f2l under a 2 s limit, 3.6 s and 2.2 s (2026-11-28)."""


def _setups(puzzle: Any, options: Any, pdb_dir: Any) -> list[Setup]:
    """The pairs' pattern databases (:meth:`GoalPuzzle.search_tables`) and the kernels' first
    compile; nothing where no state meets the goal (the solve ends at once)."""
    from exact.ida import generic
    from exact.kernels import with_compile
    from exact.pdb import projection
    from exact.pdb.store import setup_estimate

    try:
        renamed, pats = puzzle.search_patterns()
    except UnsolvableError:
        return []
    specs = [projection.spec(renamed, p) for p in pats]
    ways = [Setup({}, sum(s.nbytes for s in specs), *setup_estimate(specs, pdb_dir))]
    return with_compile(ways, generic, projection, seconds=COMPILE_SECONDS)


register_method("ida*-goal", _run, applies=_applies, goals=True, nodes=True, rank=60, setups=_setups)
