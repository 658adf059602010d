"""Optimal solutions of the cubical sliding puzzle by bidirectional breadth-first search.

Both searches expand whole layers, the smaller frontier first. Before the first meeting, a
search that has reached depth ``a`` from the start and ``b`` from the target has proven that no
solution of ``a + b`` moves or fewer exists (such a path would already have a node in both), so
the first layer that meets the other side gives a shortest solution: the least of ``a + 1 + b'``
over the meeting configurations (``b'`` their depth on the other side), which is ``a + 1 + b``.
A side whose next layer is empty has exhausted its component without meeting the other side: the
instance is proven ``unsolvable``. A state or time limit ends as ``limit`` with the bound
``a + b + 1``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from exact.hypercube.space import RingSpace, check_start
from exact.puzzles.hypercube.puzzle import HypercubePuzzle
from exact.result import SolveResult, Status

DEFAULT_MAX_STATES = 30_000_000


@dataclass
class _Side:
    """One direction of the search: its layers and every configuration it has seen (sorted)."""

    codes: list[np.ndarray]
    parents: list[np.ndarray]
    rows: list[np.ndarray]
    seen: np.ndarray
    sizes: list[int] = field(default_factory=list)

    @classmethod
    def root(cls, code: int) -> _Side:
        c = np.array([code], dtype=np.int64)
        return cls([c], [np.array([-1])], [np.array([-1])], c, [1])

    @property
    def depth(self) -> int:
        return len(self.codes) - 1

    def grow(self, space: RingSpace) -> np.ndarray:
        """Expand the frontier by one layer; returns the new layer's codes (sorted)."""
        codes, parent, row = space.next_layer(self.codes[-1], self.seen)
        self.codes.append(codes)
        self.parents.append(parent)
        self.rows.append(row)
        self.seen = np.union1d(self.seen, codes)
        self.sizes.append(len(codes))
        return codes

    def locate(self, code: int) -> tuple[int, int]:
        """The layer holding ``code`` and its index there."""
        for depth, layer in enumerate(self.codes):
            i = int(np.searchsorted(layer, code))
            if i < len(layer) and layer[i] == code:
                return depth, i
        raise KeyError(code)  # pragma: no cover - only called for seen codes

    def path(self, code: int) -> list[int]:
        """The rows from this side's root to ``code``, in the order they are applied."""
        depth, i = self.locate(code)
        rows = []
        while depth > 0:
            rows.append(int(self.rows[depth][i]))
            i = int(self.parents[depth][i])
            depth -= 1
        return rows[::-1]


def solve_bibfs(
    puzzle: HypercubePuzzle,
    start: np.ndarray,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> SolveResult:
    """A shortest solution of ``start`` in ``puzzle``, or a proof that there is none.

    Args:
        puzzle: The puzzle (its ``k`` and target).
        start: The start state, uint8 ``(2^d,)``: 0 empty, ``1..R`` the rings of the target.
        max_states: Most configurations kept by both searches together (memory: about 40 bytes
            each); ``None`` for no limit.
        time_limit: Seconds; ``None`` for no limit.

    Returns:
        ``optimal`` (a shortest solution; its length is proven by the exhausted layers),
        ``unsolvable`` (start and target lie in different components) or ``limit``.
    """
    t0 = time.perf_counter()
    space, s, a, b = check_start(puzzle, start)
    settings = {"k": puzzle.k, "d": puzzle.d, "max_states": max_states, "time_limit": time_limit}
    done = SolveResult.recorder(puzzle, s, solver="bibfs", solver_version="1", settings=settings, since=t0)
    if a == b:
        return done([], Status.OPTIMAL, 0, 0)
    fwd, bwd = _Side.root(a), _Side.root(b)
    expanded = 0
    while True:
        seen = len(fwd.seen) + len(bwd.seen)
        over_states = max_states is not None and seen > max_states
        over_time = time_limit is not None and time.perf_counter() - t0 > time_limit
        if over_states or over_time:
            return done([], Status.LIMIT, fwd.depth + bwd.depth + 1, expanded, _extra(fwd, bwd))
        side, other = (fwd, bwd) if len(fwd.codes[-1]) <= len(bwd.codes[-1]) else (bwd, fwd)
        expanded += len(side.codes[-1])
        layer = side.grow(space)
        if len(layer) == 0:
            exhausted = "start" if side is fwd else "target"
            extra = _extra(fwd, bwd) | {"component_size": int(len(side.seen)), "exhausted": exhausted}
            return done([], Status.UNSOLVABLE, None, expanded, extra)
        meet = np.intersect1d(layer, other.seen, assume_unique=True)
        if len(meet):
            x = int(meet[0])  # every meeting point gives the same length (module docstring)
            forward = fwd.path(x)
            inverse = puzzle.table.inverse
            backward = [int(inverse[r]) for r in bwd.path(x)[::-1]]
            moves = forward + backward
            return done(moves, Status.OPTIMAL, len(moves), expanded, _extra(fwd, bwd))


def _extra(fwd: _Side, bwd: _Side) -> dict:
    return {
        "forward_layers": fwd.sizes,
        "backward_layers": bwd.sizes,
        "states_seen": int(len(fwd.seen) + len(bwd.seen)),
    }
