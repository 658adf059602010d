"""Bidirectional breadth-first search, written once: :func:`search` over two :class:`Side` s.

A side holds one direction of the search: its layers, every state it has seen and how it
reached each. :func:`search` always grows the side with the smaller frontier by one whole layer.
Before the sides meet, a search that has reached depth ``a`` from the start and ``b`` from the
goal has proven that no path of ``a + b`` moves or fewer exists (such a path would already have a
state in both), so the first layer that meets the other side gives a shortest path, of
``a + b`` moves after the growth. A side whose next layer is empty has exhausted its component
without meeting the other: there is no path at all. A depth, state or time limit ends with the
proven bound ``a + b + 1``.

Two kinds of side:

* :class:`TableSide`: states of a :class:`~exact.movetable.MoveTable` (label vectors), kept as
  bytes in a dict, guards honoured. The backward side applies the inverse permutations
  (unguarded tables) or, on guarded tables, the moves themselves, which needs an inverse row for
  every move.
* :class:`CodeSide`: states numbered by int64 codes with a layer function (e.g. the cubical sliding
  puzzle's configurations, :class:`exact.hypercube.space.RingSpace`), kept in sorted arrays.
* :class:`HashSide`: a :class:`CodeSide` over the states of an unguarded move table, grown a
  whole layer at a time in numpy, told apart by a 64-bit hash of their labels: ten times the pace of
  :class:`TableSide` and a fraction of its memory. Equal states hash alike, so no meeting is
  missed and every bound stands; a path two different states with one hash would join is caught
  by the replay every result gets (:meth:`exact.result.SolveResult.build`).

This module knows no puzzle.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from exact.contract import Limits, single_goal, table_puzzle
from exact.deadline import left
from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.options import Option
from exact.provenance import toolkit
from exact.result import SolveResult, Status
from exact.solvers import register_method


class Side(Protocol):
    """One direction of a bidirectional search.

    Attributes:
        depth: Layers grown so far.
        sizes: The number of states in each layer, the root layer first.
        frontier_size: States in the last layer.
        seen_size: States seen in all layers.
    """

    depth: int
    sizes: list[int]

    @property
    def frontier_size(self) -> int: ...

    @property
    def seen_size(self) -> int: ...

    def root_layer(self) -> Sequence: ...

    def grow(self) -> Sequence:
        """Add the next layer (states not seen before); return it (empty: the side is exhausted)."""
        ...

    def first_known(self, layer: Sequence) -> Hashable | None:
        """A state of ``layer`` (another side's) that this side has seen, or ``None``."""
        ...

    def path(self, key: Hashable) -> list[int]:
        """Move rows in the order they are applied: root to ``key`` on the forward side, ``key``
        to the root on the backward side."""
        ...


@dataclass(frozen=True)
class Meeting:
    """What :func:`search` found.

    Attributes:
        rows: A shortest path's move rows (``outcome == "met"``), else ``None``.
        outcome: ``"met"``; ``"exhausted"`` (a side's component holds no state of the other: no
            path exists); ``"depth"``, ``"stored"`` or ``"time"`` (a limit).
        bound: A proven lower bound on the length (the length when met; ``None`` when exhausted).
        expanded: States whose children were generated.
        forward_layers, backward_layers: Layer sizes of each side.
        seen: States held by both sides together.
        exhausted: ``"start"`` or ``"goal"``: the side that ran out (``outcome == "exhausted"``).
    """

    rows: list[int] | None
    outcome: str
    bound: int | None
    expanded: int
    forward_layers: list[int] = field(default_factory=list)
    backward_layers: list[int] = field(default_factory=list)
    seen: int = 0
    exhausted: str | None = None

    def extra(self) -> dict:
        """The search's figures for :attr:`exact.result.SolveResult.extra`."""
        out = {"forward_layers": self.forward_layers, "backward_layers": self.backward_layers, "states_seen": self.seen}
        if self.exhausted is not None:
            out["exhausted"] = self.exhausted
        return out


def search(
    forward: Side,
    backward: Side,
    *,
    max_depth: int | None = None,
    max_stored: int | None = None,
    time_limit: float | None = None,
) -> Meeting:
    """A shortest path between the roots of ``forward`` and ``backward`` (module docstring).

    Args:
        forward: The side grown from the start.
        backward: The side grown from the goal.
        max_depth: Stop once paths of this length are ruled out (``None``: no limit).
        max_stored: States both sides may hold together: a layer that would take them past it,
            at the growth of its side's layers so far, is not started.
        time_limit: Seconds of wall clock; a layer that would end past it, at the rate of the
            layers before, is not started.
    """
    t0 = time.perf_counter()
    expanded = 0

    def end(rows, outcome, bound, exhausted=None) -> Meeting:
        return Meeting(
            rows, outcome, bound, expanded, list(forward.sizes), list(backward.sizes),
            forward.seen_size + backward.seen_size, exhausted,
        )  # fmt: skip

    meet = backward.first_known(forward.root_layer())
    if meet is not None:
        return end([], "met", 0)
    while True:
        reached = forward.depth + backward.depth
        if max_depth is not None and reached >= max_depth:
            return end(None, "depth", reached + 1)
        side, other = (forward, backward) if forward.frontier_size <= backward.frontier_size else (backward, forward)
        # Like the time, the memory is looked at before a layer: one that would take the sides
        # past max_stored, at the growth of this side's layers so far, is not started (a layer
        # that overshot would be stored before it could be refused).
        held = forward.seen_size + backward.seen_size
        if max_stored is not None and held + _next_layer_size(side) > max_stored:
            return end(None, "stored", reached + 1)
        # A layer is not interrupted, so the next one is refused when, at the rate of the layers
        # so far, it would end past the limit (layers grow by the branching factor).
        spent = time.perf_counter() - t0
        if time_limit is not None and spent + (spent / max(expanded, 1)) * side.frontier_size > time_limit:
            return end(None, "time", reached + 1)
        expanded += side.frontier_size
        layer = side.grow()
        if len(layer) == 0:
            return end(None, "exhausted", None, "start" if side is forward else "goal")
        meet = other.first_known(layer)
        if meet is not None:
            rows = forward.path(meet) + backward.path(meet)
            return end(rows, "met", len(rows))


def _next_layer_size(side: Side) -> int:
    """The size ``side``'s next layer is expected to have: its last one times the growth from
    the one before (nothing known yet: the last one's size)."""
    sizes = side.sizes
    if len(sizes) < 2 or sizes[-2] == 0:
        return sizes[-1]
    return int(sizes[-1] * max(1.0, sizes[-1] / sizes[-2]))


class TableSide:
    """A side over the states of a move table (module docstring).

    Args:
        table: The moves.
        roots: ``(P,)`` or ``(B, P)``: the side's root states (several goals on the backward side).
        backward: Grow towards the roots (the goal side) rather than away from them.
    """

    def __init__(self, table: MoveTable, roots: np.ndarray, *, backward: bool = False) -> None:
        roots = np.asarray(roots)
        roots = roots[None] if roots.ndim == 1 else roots
        self.table = table
        self.backward = backward
        self._inverse_rows: np.ndarray | None = None
        self.perms = table.perms
        if backward and table.guarded:
            if (table.inverse < 0).any():
                raise PuzzleoptError(
                    f"bidirectional BFS: the guarded table {table.description} needs an inverse row for every "
                    "move to search backwards; add the inverse moves"
                )
            self._inverse_rows = table.inverse
        elif backward:
            # state[perms_back[m]] is the state that move m takes to this one
            self.perms = np.argsort(table.perms, axis=1)
        # seen[key] = (neighbour key, move): forward, the parent and the move from it; backward,
        # the state one step nearer the root and the move that leads there.
        self.seen: dict[bytes, tuple[bytes | None, int]] = {}
        for r in roots:
            self.seen.setdefault(r.tobytes(), (None, -1))
        self.frontier = np.unique(roots, axis=0)
        self._roots = [r.tobytes() for r in self.frontier]
        self.depth = 0
        self.sizes = [len(self.frontier)]

    @property
    def frontier_size(self) -> int:
        return len(self.frontier)

    @property
    def seen_size(self) -> int:
        return len(self.seen)

    def root_layer(self) -> list[bytes]:
        return self._roots

    def grow(self) -> list[bytes]:
        states = self.frontier
        if self.table.guarded:
            b, m = np.nonzero(self.table.applicable(states))
        else:
            b, m = np.divmod(np.arange(len(states) * self.table.num_moves), self.table.num_moves)
        kids = states[b[:, None], self.perms[m]]
        step = m if self._inverse_rows is None else self._inverse_rows[m]
        parents = [s.tobytes() for s in states]
        fresh, keys = [], []
        for i in range(len(kids)):
            key = kids[i].tobytes()
            if key not in self.seen:
                self.seen[key] = (parents[b[i]], int(step[i]))
                fresh.append(i)
                keys.append(key)
        self.frontier = kids[fresh]
        self.depth += 1
        self.sizes.append(len(keys))
        return keys

    def first_known(self, layer: Sequence[bytes]) -> bytes | None:
        return next((k for k in layer if k in self.seen), None)

    def path(self, key: bytes) -> list[int]:
        rows: list[int] = []
        at: bytes | None = key
        while True:
            at, m = self.seen[at]
            if at is None:
                break
            rows.append(m)
        return rows if self.backward else rows[::-1]


class CodeSide:
    """A side over states numbered by int64 codes (module docstring).

    Args:
        root: The root's code.
        next_layer: ``(frontier, seen) -> (codes, parent, row)``: the codes one move from
            ``frontier`` (int64, sorted) that ``seen`` (sorted) lacks, sorted and distinct, with the
            index in ``frontier`` of a parent of each and the move row from there.
        inverse: ``inverse[row]``, the row that undoes ``row``; given, the side is a backward one
            (it grows with the same moves and undoes them on its paths).
    """

    def __init__(
        self,
        root: int,
        next_layer: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
        inverse: np.ndarray | None = None,
    ) -> None:
        c = np.array([root], dtype=np.int64)
        self.codes, self.parents, self.rows = [c], [np.array([-1])], [np.array([-1])]
        self.seen = c
        self.sizes = [1]
        self._next = next_layer
        self._inverse = inverse

    @property
    def depth(self) -> int:
        return len(self.codes) - 1

    @property
    def frontier_size(self) -> int:
        return len(self.codes[-1])

    @property
    def seen_size(self) -> int:
        return len(self.seen)

    def root_layer(self) -> np.ndarray:
        return self.codes[0]

    def grow(self) -> np.ndarray:
        codes, parent, row = self._next(self.codes[-1], self.seen)
        self.codes.append(codes)
        self.parents.append(parent)
        self.rows.append(row)
        # codes are sorted and new: placed into seen without sorting it again (one new array)
        self.seen = np.insert(self.seen, np.searchsorted(self.seen, codes), codes)
        self.sizes.append(len(codes))
        return codes

    def first_known(self, layer: np.ndarray) -> int | None:
        meet = np.intersect1d(layer, self.seen, assume_unique=True)
        return int(meet[0]) if len(meet) else None

    def path(self, code: int) -> list[int]:
        depth, i = self._locate(code)
        rows = []
        while depth > 0:
            rows.append(int(self.rows[depth][i]))
            i = int(self.parents[depth][i])
            depth -= 1
        if self._inverse is None:
            return rows[::-1]
        return [int(self._inverse[r]) for r in rows]

    def _locate(self, code: int) -> tuple[int, int]:
        for depth, layer in enumerate(self.codes):
            i = int(np.searchsorted(layer, code))
            if i < len(layer) and layer[i] == code:
                return depth, i
        raise KeyError(code)  # pragma: no cover - only called for seen codes


CHUNK_LABELS = 1 << 25
"""Child labels :class:`HashSide` makes at once (8 bytes each while hashed: 256 MiB)."""
COMPACT_CODES = 1 << 25
"""New codes :class:`HashSide` holds from its chunks before it drops their repeats (then twice
what is left, so a layer is merged a logarithmic number of times)."""


def _merge(codes: list[np.ndarray], first: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The distinct codes of chunks held in order, each with its first child: one np.unique keeps
    the first of equal codes, the earliest chunk's, so merging in steps keeps what merging once
    would."""
    out, pick = np.unique(np.concatenate(codes), return_index=True)
    return [out], [np.concatenate(first)[pick]]


class HashSide(CodeSide):
    """A :class:`CodeSide` whose codes are 64-bit hashes of the states of an unguarded move table,
    each layer grown in numpy a chunk of parents at a time (module docstring).

    Args:
        perms: int64 ``(M, P)``: the moves (``new = state[perms[m]]``).
        roots: ``(P,)`` or ``(B, P)``: the side's root states.
        inverse: ``inverse[row]``, the row undoing ``row``; given, the side is a backward one.
        seed: Seeds the hash's weights.
    """

    def __init__(self, perms: np.ndarray, roots: np.ndarray, inverse: np.ndarray | None = None, seed: int = 0) -> None:
        roots = np.asarray(roots)
        roots = roots[None] if roots.ndim == 1 else roots
        self.perms = np.asarray(perms)
        self._weights = np.random.default_rng(seed).integers(1, 2**63, size=roots.shape[1], dtype=np.uint64) | 1
        codes, first = np.unique(self.hash(roots), return_index=True)
        super().__init__(0, self._layer, inverse)
        self.codes, self.parents, self.rows = [codes], [np.full(len(codes), -1)], [np.full(len(codes), -1)]
        self.seen, self.sizes = codes, [len(codes)]
        self.states = [roots[first]]  # each layer's states, in the order of its codes

    def hash(self, states: np.ndarray) -> np.ndarray:
        """uint64 ``(B,)``: a hash of each state's labels."""
        with np.errstate(over="ignore"):
            return (states.astype(np.uint64) * self._weights).sum(axis=1, dtype=np.uint64)

    def _layer(self, frontier: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # The children are made, hashed and thinned a chunk of parents at a time, and only their
        # codes and numbers are kept until the layer is known: what a layer holds at once is
        # about its new states, not every child (times 8 bytes a label while hashed).
        m, p = self.perms.shape
        parents = self.states[-1]
        step = max(1, CHUNK_LABELS // (m * p))
        codes, first = [np.zeros(0, np.uint64)], [np.zeros(0, np.int64)]
        held, compact = 0, COMPACT_CODES
        for lo in range(0, len(parents), step):
            block = parents[lo : lo + step][:, self.perms].reshape(-1, p)
            c, f = np.unique(self.hash(block), return_index=True)
            at = np.searchsorted(seen, c)
            fresh = (at >= len(seen)) | (seen[np.minimum(at, len(seen) - 1)] != c)
            codes.append(c[fresh])
            first.append(f[fresh] + lo * m)
            held += int(fresh.sum())
            if held > compact:  # the chunks' repeats dropped, so what is held stays near the layer's size
                codes, first = _merge(codes, first)
                held = len(codes[0])
                compact = max(compact, 2 * held)
        out, kid = _merge(codes, first)
        out, kid = out[0], kid[0]
        # parents and rows in the narrowest types: with the labels they are what a state costs
        parent = (kid // m).astype(np.int32 if len(parents) < 2**31 else np.int64)
        row = (kid % m).astype(np.int16 if m < 2**15 else np.int64)
        states = np.empty((len(out), p), dtype=parents.dtype)
        for lo in range(0, len(out), step * m):
            states[lo : lo + step * m] = parents[parent[lo : lo + step * m, None], self.perms[row[lo : lo + step * m]]]
        self.states.append(states)
        return out, parent, row


# ------------------------------------------------------------------------------ the "bfs" method
def _bfs(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, max_depth=40) -> SolveResult:
    """Bidirectional BFS over the move table (guarded tables need inverse rows)."""
    t0 = time.perf_counter()
    start = np.asarray(start)
    stored = 1_000_000 if limits.stored is None else limits.stored
    met = search(
        TableSide(puzzle.table, start), TableSide(puzzle.table, _goal_states(puzzle, start), backward=True),
        max_depth=int(max_depth), max_stored=stored, time_limit=left(limits.time),
    )  # fmt: skip
    done = SolveResult.recorder(
        puzzle, start, solver="bfs", solver_version=toolkit(),
        settings={"max_depth": max_depth, "stored": stored}, since=t0,
    )  # fmt: skip
    extra = met.extra()
    if met.outcome == "met":
        return done(met.rows, Status.OPTIMAL, met.bound, met.expanded, extra | {"proof": "bidirectional BFS"})
    if met.outcome == "exhausted":
        return done([], Status.UNSOLVABLE, None, met.expanded, extra | {"proof": f"the {met.exhausted} side's component"
                    " holds no state of the other"})  # fmt: skip
    limit = {"depth": f"depth {max_depth}", "stored": f"{stored:,} stored states", "time": f"{limits.time} s"}
    return done([], Status.LIMIT, met.bound, met.expanded, extra | {"limit": limit[met.outcome]})


def _goal_states(puzzle, start: np.ndarray) -> np.ndarray:
    """``(G, P)``: the goal states the backward search grows from: a puzzle solved in any
    orientation (:meth:`~exact.puzzle.Puzzle.frame`) has one per whole turn, of which only the
    one whose reference positions match the start's is reachable where no move shifts them."""
    frame = puzzle.frame()
    goal = np.asarray(puzzle.goal)
    if frame is None:
        return goal[None]
    rotations, reference = frame
    goals = np.unique(goal[np.asarray(rotations)], axis=0)
    if puzzle.goal_spec(start).state is not None:  # the reference never moves
        goals = goals[(goals[:, reference] == start[reference]).all(axis=1)]
    return goals if len(goals) else goal[None]


def _bfs_applies(puzzle) -> bool:
    # the backward side undoes moves: by inverse permutations, or on guarded tables by inverse rows
    if not table_puzzle(puzzle):
        return False
    table = puzzle.table
    return (not table.guarded or bool((table.inverse >= 0).all())) and single_goal(puzzle)


register_method("bfs", _bfs, applies=_bfs_applies, stored=True, rank=80,
                options=(Option("max_depth", "count", 40, "give up beyond this many moves"),))  # fmt: skip
