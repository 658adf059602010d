"""A perfect ranking of the solvable boards, for exhaustive search (:func:`exact.bfs.distance_table`).

The rank of a board is the partial-permutation rank (:mod:`exact.ranking`) of the cells of tiles
``0 .. N-3``, ``N = rows * cols``. The two remaining tiles fill the two free cells in the one
order that satisfies the parity rule (:func:`~exact.puzzles.tiles.board.is_solvable`), so the
ranks ``0 .. N!/2 - 1`` are exactly the solvable boards.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError, StateError
from exact.puzzles.tiles.board import check_goal, check_shape, goal_state, is_solvable
from exact.ranking import partial_unrank_row, permutation_parity

MAX_CELLS = 20
"""``20! / 2`` is the largest board count whose ranks fit in int64."""


@njit(cache=True)
def _rank_kernel(states, cols, goal_blank, goal_parity, out):  # pragma: no cover - numba
    """Fill ``out`` with ranks, -1 for rows that are not solvable boards."""
    n_rows, p = states.shape
    pos = np.empty(p, np.int64)
    for b in range(n_rows):
        out[b] = _rank_row(states[b], cols, goal_blank, goal_parity, p - 2, pos)


@njit(cache=True)
def _rank_row(state, cols, goal_blank, goal_parity, k, pos):  # pragma: no cover - numba
    p = state.shape[0]
    pos[:] = -1
    for i in range(p):
        v = np.int64(state[i])
        if v < 0 or v >= p or pos[v] >= 0:
            return -1
        pos[v] = i
    # Lehmer digits of the cells of tiles 0..N-1: the first k give the rank, all of them the
    # parity (a permutation and its inverse have the same parity).
    r = np.int64(0)
    parity = np.int64(0)
    for i in range(p):
        pi = pos[i]
        d = pi
        for j in range(i):
            if pos[j] < pi:
                d -= 1
        if i < k:
            r = r * (p - i) + d
        parity += d
    blank = pos[0]
    dist = abs(blank // cols - goal_blank // cols) + abs(blank % cols - goal_blank % cols)
    if ((parity ^ goal_parity) & 1) != (dist & 1):
        return -1
    return r


@njit(cache=True)
def _unrank_kernel(ranks, cols, goal_blank, goal_parity, out):  # pragma: no cover - numba
    n_rows, p = out.shape
    k = p - 2
    pos = np.empty(k, np.int64)
    digits = np.empty(k, np.int64)
    chosen = np.empty(k, np.int64)
    for b in range(n_rows):
        _unrank_row(ranks[b], cols, goal_blank, goal_parity, out[b], pos, digits, chosen)


@njit(cache=True)
def _unrank_row(rank, cols, goal_blank, goal_parity, row, pos, digits, chosen):  # pragma: no cover - numba
    p = row.shape[0]
    k = p - 2
    partial_unrank_row(rank, p, pos, digits, chosen)
    for t in range(k):
        row[pos[t]] = t
    first = -1
    second = -1
    j = 0
    for cell in range(p):
        if j < k and chosen[j] == cell:
            j += 1
        elif first < 0:
            first = cell
        else:
            second = cell
    # With tile N-2 in the lower free cell the last two Lehmer digits are 0, so the parity
    # is the sum of the first k digits.
    parity = np.int64(0)
    for t in range(k):
        parity += digits[t]
    blank = pos[0]
    dist = abs(blank // cols - goal_blank // cols) + abs(blank % cols - goal_blank % cols)
    if ((parity ^ goal_parity) & 1) == (dist & 1):
        row[first] = p - 2
        row[second] = p - 1
    else:
        row[first] = p - 1
        row[second] = p - 2


class TilesSpace:
    """The solvable boards of a ``rows x cols`` puzzle, ranked ``0 .. N!/2 - 1``.

    Implements :class:`exact.bfs.RankedSpace`. Construction is cheap (no tables).

    Attributes:
        rows: Board rows.
        cols: Board columns.
        goal_kind: ``"korf"`` or ``"blank-last"``: which half of the ``N!`` boards is solvable.
        size: ``N! / 2``.
    """

    def __init__(self, rows: int, cols: int, goal: str = "korf") -> None:
        self.rows, self.cols = check_shape(rows, cols)
        self.goal_kind = check_goal(goal)
        p = self.rows * self.cols
        if p > MAX_CELLS:
            raise PuzzleoptError(
                f"TilesSpace: the {math.factorial(p) // 2} solvable boards of a {self.rows}x{self.cols} puzzle do not "
                f"fit int64 ranks; boards of at most {MAX_CELLS} cells can be ranked (use pattern databases instead)"
            )
        self.num_positions = p
        self.size = math.factorial(p) // 2
        g = goal_state(self.rows, self.cols, goal)
        self._goal = g
        self._goal_blank = int(np.flatnonzero(g == 0)[0])
        self._goal_parity = int(permutation_parity(g, check=False))

    def __repr__(self) -> str:
        return f"TilesSpace({self.rows}, {self.cols}, goal={self.goal_kind!r}, size={self.size})"

    def goal_states(self) -> np.ndarray:
        """uint8 ``(1, P)``: the goal board."""
        return self._goal[None].copy()

    def rank(self, states: np.ndarray) -> np.ndarray:
        """Ranks of solvable boards.

        Args:
            states: Integer ``(B, P)`` (or ``(P,)``), each a solvable board.

        Returns:
            int64 ``(B,)`` (0-d for 1-D input) in ``0 .. size - 1``.

        Raises:
            StateError: a row is not a permutation of the tiles, or is unsolvable (it has no rank).
        """
        s = np.asarray(states)
        single = s.ndim == 1
        s = s[None] if single else s
        if s.ndim != 2 or s.shape[1] != self.num_positions or s.dtype.kind not in "iu":
            raise StateError(
                f"{self!r}: states must be integer (B, {self.num_positions}), got {s.dtype} {np.shape(states)}"
            )
        if s.dtype != np.uint8:
            s = s.astype(np.int64)
        s = np.ascontiguousarray(s)
        out = np.empty(s.shape[0], np.int64)
        _rank_kernel(s, self.cols, self._goal_blank, self._goal_parity, out)
        if out.size and out.min() < 0:
            bad = int(np.flatnonzero(out < 0)[0])
            board = " ".join(str(int(v)) for v in s[bad])
            is_solvable(s[bad], self.rows, self.cols, self.goal_kind)  # raises for a non-permutation
            raise StateError(f"{self!r}: row {bad}, board '{board}', is unsolvable and has no rank")
        return out[0, ...] if single else out

    def unrank(self, ranks: np.ndarray | int) -> np.ndarray:
        """Boards of the given ranks.

        Args:
            ranks: int ``(B,)`` or a scalar, in ``0 .. size - 1``.

        Returns:
            uint8 ``(B, P)`` (``(P,)`` for a scalar rank).
        """
        r = np.asarray(ranks)
        if r.dtype.kind not in "iu" or r.ndim > 1:
            raise StateError(f"{self!r}: ranks must be an integer scalar or (B,) array, got {r.dtype} {r.shape}")
        single = r.ndim == 0
        r = np.ascontiguousarray(r.reshape(-1), dtype=np.int64)
        if r.size and (r.min() < 0 or r.max() >= self.size):
            bad = int(r[(r < 0) | (r >= self.size)][0])
            raise StateError(f"{self!r}: rank {bad} is out of range 0..{self.size - 1}")
        out = np.empty((r.shape[0], self.num_positions), np.uint8)
        _unrank_kernel(r, self.cols, self._goal_blank, self._goal_parity, out)
        return out[0] if single else out
