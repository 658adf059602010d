"""Perfect rankings of cube corner configurations, for BFS distance tables.

``CornerSpace(n)`` numbers the placements and twists of the 8 corners of any ``n`` cube:
``8! * 3^7 = 88,179,840`` ranks (Korf's corner table for the 3x3x3). With
``fixed_corner=True`` the DBL corner must be home and untwisted (the moves R, U, F never move it):
``7! * 3^6 = 3,674,160`` ranks, every position of the 2x2x2 counted once up to whole-cube
rotation. Rank = ``perm_rank * 3^k + twist_rank``.

Only the corner facelets are read; :meth:`CornerSpace.unrank` writes them into a solved cube,
so for n >= 3 the other facelets are "don't care".
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
from numba import njit

from exact.errors import StateError
from exact.puzzles.cube.cubies import CORNER_NAMES, corner_colours, corner_slots
from exact.puzzles.cube.moves import check_size
from exact.puzzles.cube.state import solved_state
from exact.ranking import orientation_unrank, permutation_unrank

FIXED = CORNER_NAMES.index("DBL")


@njit(cache=True)
def _rank_kernel(states, slots, piece_lut, twist_lut, fixed, out):  # pragma: no cover - numba
    """Rank each row into ``out``; -1 for a row whose corners are not a valid placement."""
    k = slots.shape[0]
    piece = np.empty(k, np.int64)
    for b in range(states.shape[0]):
        ok = True
        twist_rank = 0
        twist_sum = 0
        for i in range(k):
            code = states[b, slots[i, 0]] * 36 + states[b, slots[i, 1]] * 6 + states[b, slots[i, 2]]
            p = piece_lut[code]
            if p < 0 or (fixed >= 0 and p == fixed):
                ok = False
                break
            piece[i] = p - 1 if (fixed >= 0 and p > fixed) else p
            t = twist_lut[code]
            twist_sum += t
            if i < k - 1:
                twist_rank = twist_rank * 3 + t
        if not ok or twist_sum % 3 != 0:
            out[b] = -1
            continue
        perm_rank = 0
        for i in range(k):
            smaller = 0
            for j in range(i + 1, k):
                if piece[j] < piece[i]:
                    smaller += 1
                elif piece[j] == piece[i]:
                    ok = False
            perm_rank = perm_rank * (k - i) + smaller
        out[b] = perm_rank * 3 ** (k - 1) + twist_rank if ok else -1


class CornerSpace:
    """A :class:`~exact.bfs.RankedSpace` of corner placements and twists.

    Args:
        n: Cube size.
        fixed_corner: Hold the DBL corner home (the 2x2x2 with moves R, U, F).
    """

    def __init__(self, n: int, fixed_corner: bool = False) -> None:
        self.n = check_size(n)
        self.fixed_corner = bool(fixed_corner)
        self.k = 7 if self.fixed_corner else 8
        self.size = int(np.prod(np.arange(1, self.k + 1))) * 3 ** (self.k - 1)

    def __repr__(self) -> str:
        return f"CornerSpace(n={self.n}, fixed_corner={self.fixed_corner}, size={self.size})"

    @cached_property
    def _slots(self) -> np.ndarray:
        slots = corner_slots(self.n)
        return slots[[i for i in range(8) if not (self.fixed_corner and i == FIXED)]]

    @cached_property
    def _lookup(self) -> tuple[np.ndarray, np.ndarray]:
        # (c0, c1, c2) colours read clockwise from the reference facelet -> piece and twist.
        piece = np.full(216, -1, dtype=np.int64)
        twist = np.full(216, -1, dtype=np.int64)
        for p, cols in enumerate(corner_colours()):
            for o in range(3):
                c = np.roll(cols, o)
                piece[c[0] * 36 + c[1] * 6 + c[2]] = p
                twist[c[0] * 36 + c[1] * 6 + c[2]] = o
        return piece, twist

    def rank(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)`` ranks of facelet states ``(B, 6*n*n)``.

        Raises:
            StateError: a slot holds no real corner, a corner appears twice, the twists do not
                sum to 0 mod 3, or (fixed) DBL is not home and untwisted.
        """
        s = np.asarray(states)
        if s.ndim != 2 or s.shape[1] != 6 * self.n * self.n:
            raise StateError(f"{self!r}: states must have shape (B, {6 * self.n * self.n}), got {s.shape}")
        piece_lut, twist_lut = self._lookup
        out = np.empty(s.shape[0], np.int64)
        _rank_kernel(s, self._slots, piece_lut, twist_lut, FIXED if self.fixed_corner else -1, out)
        if (out < 0).any():
            b = int(np.flatnonzero(out < 0)[0])
            fix = " and DBL home and untwisted (turn the whole cube first)" if self.fixed_corner else ""
            raise StateError(
                f"{self!r}: state {b} is not a valid corner placement: each corner once, twists summing to 0{fix}"
            )
        if self.fixed_corner:
            home = s[:, corner_slots(self.n)[FIXED]]
            if not (home == corner_colours()[FIXED]).all():
                raise StateError(f"{self!r}: the DBL corner must be home and untwisted; turn the whole cube first")
        return out

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """uint8 ``(B, 6*n*n)`` states (corners set, other facelets solved) of int ``ranks``."""
        r = np.asarray(ranks, dtype=np.int64).reshape(-1)
        piece = permutation_unrank(r // 3 ** (self.k - 1), self.k).astype(np.int64)
        twist = orientation_unrank(r % 3 ** (self.k - 1), self.k, 3).astype(np.int64)
        if self.fixed_corner:
            piece = np.where(piece >= FIXED, piece + 1, piece)
        # Facelet j of a slot shows the piece's colour number (j - twist) mod 3.
        cols = corner_colours()[piece[..., None], (np.arange(3) - twist[..., None]) % 3]
        out = np.broadcast_to(solved_state(self.n), (len(r), 6 * self.n * self.n)).copy()
        out[:, self._slots] = cols
        return out
