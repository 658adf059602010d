"""Pattern databases for any puzzle with a move table, in Fast Downward's manner.

A :class:`Projection` keeps the positions of some *tracked* labels and forgets the others. Its
abstract states are the tuples of those positions, ranked as partial permutations
(:func:`exact.ranking.partial_rank_row`): ``P! / (P - k)!`` entries for ``k`` tracked labels.
Every tracked label must appear exactly once in the goal (a puzzle whose labels repeat, like
Lights Out, has no projection of this kind).

A move maps the label at position ``perm[q]`` to position ``q``. In the abstraction a guard
``(position, label)`` holds when the label is tracked and there, or when the label is not
tracked and no tracked label is there; the abstraction may so allow more moves than the puzzle,
never fewer, so its distances are lower bounds.

Costs are 0-1: a move costs 1 when it moves a *counted* label (by default every tracked label)
and 0 otherwise. Tracking a label without counting it (the blank of the sliding tiles) keeps the
guards exact while leaving its moves free. Disjoint patterns are *additive* (their values sum to
a lower bound, Korf & Felner) when no move can move counted labels of two patterns:
:func:`additive_ok` checks that from the table alone (every row moves at most one position whose
label is not pinned by its guard to an uncounted label); otherwise the patterns are combined by
their maximum.

The table is filled by a 0-1 breadth-first search from the abstract goal (:func:`build`), layer
by layer: first every state of cost ``d`` reachable by free moves, then the cost-1 moves out of
them seed layer ``d + 1``. It is stored by :mod:`exact.pdb.store` (:func:`spec`) and evaluated
by :class:`PdbHeuristic`.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from exact.errors import PuzzleoptError
from exact.heuristic import UNREACHABLE
from exact.movetable import MoveTable
from exact.pdb.store import TableSpec, load
from exact.ranking import partial_rank_row, partial_unrank_row

UNSEEN = 255
MAX_ENTRIES = 1 << 31


@dataclass(frozen=True)
class Projection:
    """One pattern: the labels whose positions it keeps.

    Attributes:
        num_positions: ``P``.
        tracked: Tracked labels, in ranking order.
        counted: The tracked labels whose moves cost 1 (default: all of them).
    """

    num_positions: int
    tracked: tuple[int, ...]
    counted: tuple[int, ...] = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        tracked = tuple(int(v) for v in self.tracked)
        counted = tracked if self.counted is None else tuple(int(v) for v in self.counted)
        if not tracked or len(set(tracked)) != len(tracked):
            raise PuzzleoptError(f"a pattern tracks distinct labels, at least one; got {list(self.tracked)}")
        if not set(counted) <= set(tracked):
            raise PuzzleoptError(
                f"pattern {list(tracked)}: counted labels {sorted(set(counted) - set(tracked))} are not tracked"
            )
        if len(tracked) >= self.num_positions:
            raise PuzzleoptError(f"pattern {list(tracked)}: track fewer labels than the {self.num_positions} positions")
        if self.entries > MAX_ENTRIES:
            raise PuzzleoptError(
                f"pattern {list(tracked)}: {self.entries:,} entries is more than {MAX_ENTRIES:,}; track fewer labels"
            )
        object.__setattr__(self, "tracked", tracked)
        object.__setattr__(self, "counted", counted)

    @property
    def entries(self) -> int:
        return math.perm(self.num_positions, len(self.tracked))

    @property
    def name(self) -> str:
        free = [v for v in self.tracked if v not in self.counted]
        return ".".join(map(str, self.tracked)) + ("~" + ".".join(map(str, free)) if free else "")

    def positions(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B, k)``: where each tracked label is in each state ``(B, P)``."""
        s = np.atleast_2d(np.asarray(states))
        where = np.argsort(s, axis=1, kind="stable")
        return where[:, list(self.tracked)].astype(np.int64)


def check_goal(goal: np.ndarray, patterns: Sequence[Projection]) -> None:
    """Every tracked label appears exactly once in ``goal``."""
    counts = np.bincount(np.asarray(goal, dtype=np.int64), minlength=256)
    for p in patterns:
        bad = [v for v in p.tracked if counts[v] != 1]
        if bad:
            raise PuzzleoptError(
                f"pattern {p.name}: labels {bad} do not appear exactly once in the goal; "
                "a projection tracks labels that tell pieces apart"
            )


def additive_ok(table: MoveTable, patterns: Sequence[Projection]) -> bool:
    """Whether the patterns' values may be summed: disjoint counted labels, and no row that can
    move counted labels of two patterns (see the module docstring)."""
    counted: set[int] = set()
    for p in patterns:
        if counted & set(p.counted):
            return False
        counted |= set(p.counted)
    for m in range(table.num_moves):
        moved = set(np.flatnonzero(table.perms[m] != np.arange(table.num_positions)).tolist())
        pinned = {int(q) for q, v in zip(table.guard_pos[m], table.guard_val[m]) if q >= 0 and int(v) not in counted}
        if len(moved - pinned) > 1:
            return False
    return True


def _guard_index(table: MoveTable, p: Projection) -> tuple[np.ndarray, np.ndarray]:
    """Guards in the abstraction: positions and the tracked index of their label (-1 untracked)."""
    index = {v: i for i, v in enumerate(p.tracked)}
    gpos = np.asarray(table.guard_pos, dtype=np.int64).reshape(table.num_moves, -1)
    gidx = np.array([[index.get(int(v), -1) for v in row] for row in table.guard_val], dtype=np.int64)
    return gpos, gidx.reshape(gpos.shape)


@njit(cache=True)
def _step(items, m, dest, gpos, gidx, counted, out):  # pragma: no cover - numba
    """The abstract move ``m`` from tracked positions ``items``: returns -1 if its guard fails,
    else its cost (0/1), with the new positions in ``out``."""
    k = items.shape[0]
    for g in range(gpos.shape[1]):
        q = gpos[m, g]
        if q < 0:
            continue
        j = gidx[m, g]
        if j >= 0:
            if items[j] != q:
                return -1
        else:
            for i in range(k):
                if items[i] == q:
                    return -1
    cost = 0
    for i in range(k):
        out[i] = dest[m, items[i]]
        if out[i] != items[i] and counted[i]:
            cost = 1
    return cost


@njit(cache=True, parallel=True)
def _layer(dist, depth, n, k, dest, gpos, gidx, counted, want):  # pragma: no cover - numba
    """One pass over the states of cost ``depth``: moves of cost ``want`` (0: give unseen
    successors ``depth``; 1: give them ``depth + 1``). Returns the number of states written."""
    total = 0
    for r in prange(dist.shape[0]):
        if dist[r] != depth:
            continue
        items = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        chosen = np.empty(k, np.int64)
        out = np.empty(k, np.int64)
        partial_unrank_row(r, n, items, digits, chosen)
        for m in range(dest.shape[0]):
            c = _step(items, m, dest, gpos, gidx, counted, out)
            if c != want:
                continue
            q = partial_rank_row(out, n)
            if dist[q] == UNSEEN:
                dist[q] = depth + want
                total += 1
    return total


def build(
    table: MoveTable, goal: np.ndarray, pattern: Projection, advance: Callable[[int], None] | None = None
) -> np.ndarray:
    """The table of ``pattern``: uint8 ``(pattern.entries,)``, each abstract state's least cost
    to the abstract goal (:data:`UNSEEN` where the goal is out of reach).

    Every move must have an inverse row (then distances from the goal are distances to it).

    Args:
        table: The puzzle's moves.
        goal: The goal state ``(P,)``.
        pattern: The projection.
        advance: Progress callback, called with the number of states settled.
    """
    if (table.inverse < 0).any():
        raise PuzzleoptError(f"{table.description}: a pattern database needs every move to have an inverse row")
    check_goal(goal, [pattern])
    n, k = table.num_positions, len(pattern.tracked)
    dest = np.argsort(table.perms, axis=1).astype(np.int64)  # dest[m, p]: where position p's label goes
    gpos, gidx = _guard_index(table, pattern)
    counted = np.array([v in pattern.counted for v in pattern.tracked], dtype=np.bool_)
    dist = np.full(pattern.entries, UNSEEN, dtype=np.uint8)
    dist[int(partial_rank_row(pattern.positions(goal)[0], n))] = 0
    depth = 0
    while True:
        if depth >= UNSEEN - 1:  # pragma: no cover - no puzzle here is this deep
            raise OverflowError("pattern distances exceed 254")
        done = int(np.count_nonzero(dist == depth))
        # free moves first, to a fixed point: the states of cost `depth` are complete after it
        while (more := _layer(dist, depth, n, k, dest, gpos, gidx, counted, 0)) > 0:
            done += more
        if done == 0:
            break
        if advance is not None:
            advance(done)
        _layer(dist, depth, n, k, dest, gpos, gidx, counted, 1)
        depth += 1
    return dist


SECONDS_PER_ENTRY = 2.0e-8
"""Build seconds per entry of a projection table on 2 cores, besides :data:`SECONDS_PER_TABLE`
(``docs/benchmarks/setup_rates.md``: the Pyraminx's default pattern, 1.4 million entries, and a
3x3 goal's pair, 7.6 million; the breadth-first search itself is a small part of either)."""
SECONDS_PER_TABLE = 0.25
"""And per table, whatever its size: the audit's random walks, the file written and read back."""


def spec(puzzle, pattern: Projection) -> TableSpec:
    """The stored table of ``pattern`` on ``puzzle`` (one byte per entry), audited on every load
    by random walks (:func:`walk_violation`)."""
    table, goal = puzzle.table, np.asarray(puzzle.goal)
    ident = puzzle.spec.to_dict() if getattr(puzzle, "spec", None) is not None else {"name": puzzle.name}
    # the file name must change with the moves and the goal, not only with the pattern
    digest = hashlib.sha256(np.ascontiguousarray(table.perms).tobytes() + goal.tobytes()).hexdigest()[:10]
    return TableSpec(
        name=f"{puzzle.name}-{digest}-{_short(pattern.name)}",
        puzzle=puzzle.name,
        pattern={
            "kind": "projection",
            "spec": ident,
            "tracked": list(pattern.tracked),
            "counted": list(pattern.counted),
        },
        entries=pattern.entries,
        packed=False,
        build=lambda advance: build(table, goal, pattern, advance),
        audit=lambda stored: walk_violation(table, goal, pattern, np.asarray(stored.data), np.random.default_rng(0)),
        seconds_per_entry=SECONDS_PER_ENTRY + SECONDS_PER_TABLE / pattern.entries,
    )


def _short(name: str) -> str:
    """A pattern's name for a file: itself, or a digest of it when long (file names stay short
    and two patterns never share one)."""
    return name if len(name) <= 80 else "p" + hashlib.sha256(name.encode()).hexdigest()[:16]


def walk_violation(
    table: MoveTable,
    goal: np.ndarray,
    pattern: Projection,
    values: np.ndarray,
    rng: np.random.Generator,
    walks: int = 128,
    steps: int = 30,
) -> str | None:
    """Random walks from the goal: each state's value must be at most the walk's cost so far (the
    walk played backwards is a path of that cost), and the goal's 0. ``None`` if all hold, else
    one line naming the violation (a damaged or forged table)."""
    n = table.num_positions
    rank = lambda s: partial_rank_row(pattern.positions(s)[0], n)  # noqa: E731
    if int(values[rank(goal)]) != 0:
        return f"pattern table {pattern.name}: the goal has value {int(values[rank(goal)])}, not 0"
    counted = np.isin(np.arange(256), pattern.counted)
    for _ in range(walks):
        s, cost = np.asarray(goal).copy(), 0
        for step in range(steps):
            ok = table.applicable(s[None])[0]
            m = int(rng.choice(np.flatnonzero(ok)))
            t = s[table.perms[m]]
            cost += bool(counted[s[t != s]].any()) if (t != s).any() else 0
            s = t
            v = int(values[rank(s)])
            if v > cost:
                return (
                    f"pattern table {pattern.name}: value {v} for a state its pattern reaches in {cost} moves "
                    f"(step {step + 1} of a walk from the goal); the table is damaged or forged"
                )
    return None


@njit(cache=True)
def pdb_value(state, args):  # pragma: no cover - numba
    """The heuristic of one state: ``args = (tracked (np, kmax) -1 padded, sizes (np,), offsets
    (np,), tables uint8, mode (1,): 1 sum, 0 max)``. An unreached entry (255) gives
    :data:`UNREACHABLE`: its abstraction cannot reach the goal, so neither can the state."""
    tracked, sizes, offsets, tables, mode = args
    n = state.shape[0]
    where = np.empty(256, np.int64)
    for p in range(n):
        where[state[p]] = p
    buf = np.empty(tracked.shape[1], np.int64)
    total = 0
    for i in range(sizes.shape[0]):
        k = sizes[i]
        for j in range(k):
            buf[j] = where[tracked[i, j]]
        v = np.int64(tables[offsets[i] + partial_rank_row(buf[:k], n)])
        if v == UNSEEN:
            return np.int64(UNREACHABLE)
        if mode[0] == 1:
            total += v
        elif v > total:
            total = v
    return total


@dataclass(frozen=True)
class PdbHeuristic:
    """Pattern databases over projections, summed when :func:`additive_ok`, else their maximum.
    Admissible; consistent only when combined by max of consistent 0-1 tables is not claimed
    (a table keeps the least cost over the forgotten labels, so one move may change a value by
    more than 1)."""

    name: str
    patterns: tuple[Projection, ...]
    tables: tuple[np.ndarray, ...]
    additive: bool
    admissible: bool = True
    consistent: bool = False

    @property
    def kernel(self) -> tuple:
        kmax = max(len(p.tracked) for p in self.patterns)
        tracked = np.full((len(self.patterns), kmax), -1, dtype=np.int64)
        for i, p in enumerate(self.patterns):
            tracked[i, : len(p.tracked)] = p.tracked
        sizes = np.array([len(p.tracked) for p in self.patterns], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum([len(t) for t in self.tables])[:-1]]).astype(np.int64)
        data = np.concatenate([np.asarray(t, dtype=np.uint8) for t in self.tables])
        return pdb_value, (tracked, sizes, offsets, data, np.array([1 if self.additive else 0], dtype=np.int64))

    def __call__(self, states: np.ndarray) -> np.ndarray:
        s = np.atleast_2d(np.asarray(states, dtype=np.uint8))
        fn, args = self.kernel
        return np.array([fn(row, args) for row in s], dtype=np.int64)


def heuristic(puzzle, patterns: Sequence[Projection], *, pdb_dir=None, progress: bool = True) -> PdbHeuristic:
    """The pattern database heuristic of ``patterns`` on ``puzzle``, its tables loaded from
    ``pdb_dir`` (the user cache by default) or built there first."""
    patterns = tuple(patterns)
    check_goal(puzzle.goal, patterns)
    tables = tuple(np.asarray(load(spec(puzzle, p), pdb_dir, progress=progress).data) for p in patterns)
    add = len(patterns) > 1 and additive_ok(puzzle.table, patterns)
    name = ("+" if add else "|").join(p.name for p in patterns)
    return PdbHeuristic(f"pdb[{name}]", patterns, tables, add)


def default_patterns(puzzle, size: int | None = None, entries: int = 4_000_000) -> list[Projection]:
    """Patterns for a puzzle that names none: its distinct goal labels cut into groups as large
    as ``entries`` allows (or of ``size`` labels), in label order. Disjoint groups; the
    heuristic sums them when the table allows (:func:`additive_ok`), else takes the maximum."""
    goal = np.asarray(puzzle.goal, dtype=np.int64)
    counts = np.bincount(goal)
    labels = [int(v) for v in np.unique(goal) if counts[v] == 1]
    if not labels:
        raise PuzzleoptError(f"{puzzle.name}: no label appears once in the goal, so no projection applies")
    n = len(goal)
    if size is None:
        size = 1
        while size + 1 < min(n, len(labels) + 1) and math.perm(n, size + 1) <= entries:
            size += 1
    return [Projection(n, tuple(labels[i : i + size])) for i in range(0, len(labels), size)]
