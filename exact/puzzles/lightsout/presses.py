"""The press matrix over GF(2), reduced once per board shape: which boards can be turned off
(the puzzle's invariant, :meth:`LightsOutPuzzle.unsolvable`) and the algebra the exact solver
(:mod:`exact.lightsout.gf2`) builds on."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from exact.puzzles.lightsout.board import check_shape, press_matrix


@dataclass(frozen=True, eq=False)
class PressSystem:
    """The press matrix of one board shape, reduced once and reused for every board.

    Attributes:
        rows: Board rows ``R``.
        cols: Board columns ``C``.
        transform: int32 ``(N, N)`` 0/1, the row operations ``E`` with ``E A`` in reduced row echelon form.
        pivots: int64 ``(rank,)``, the pivot column of each of the first ``rank`` rows.
        null_basis: bool ``(nullity, N)``, press sets that change no light (a basis of the null space).
    """

    rows: int
    cols: int
    transform: np.ndarray
    pivots: np.ndarray
    null_basis: np.ndarray

    @property
    def num_cells(self) -> int:
        return self.rows * self.cols

    @property
    def rank(self) -> int:
        return int(self.pivots.size)

    @property
    def nullity(self) -> int:
        return self.num_cells - self.rank

    def solvable(self, lights: np.ndarray) -> np.ndarray:
        """bool ``(B,)``: which boards (bool ``(B, N)``) some press set turns off."""
        return ~self._reduced(lights)[:, self.rank :].any(axis=1)

    def particular(self, lights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One press set per board and whether it solves it.

        Args:
            lights: bool ``(B, N)``.

        Returns:
            ``presses`` bool ``(B, N)`` (free variables 0; all False where unsolvable) and
            ``solvable`` bool ``(B,)``.
        """
        c = self._reduced(lights)
        ok = ~c[:, self.rank :].any(axis=1)
        x = np.zeros(c.shape, dtype=bool)
        x[:, self.pivots] = c[:, : self.rank]
        x[~ok] = False
        return x, ok

    def _reduced(self, lights: np.ndarray) -> np.ndarray:
        b = np.asarray(lights, dtype=np.int32).reshape(-1, self.num_cells)
        return ((b @ self.transform.T) & 1).astype(bool)


def press_system(rows: int, cols: int | None = None) -> PressSystem:
    """The reduced press matrix of an ``rows x cols`` board (cached per shape)."""
    return _press_system(*check_shape(rows, cols))


@cache
def _press_system(rows: int, cols: int) -> PressSystem:
    a = press_matrix(rows, cols)
    n = a.shape[0]
    # Rows of [A | I] bit-packed, so each elimination step XORs n / 4 bytes per row, not 2n.
    m = np.packbits(np.concatenate([a, np.eye(n, dtype=bool)], axis=1), axis=1)
    pivots: list[int] = []
    r = 0
    for c in range(n):
        byte, shift = c >> 3, 7 - (c & 7)
        below = np.flatnonzero((m[r:, byte] >> shift) & 1)
        if below.size == 0:
            continue
        p = r + int(below[0])
        if p != r:
            m[[r, p]] = m[[p, r]]
        hit = ((m[:, byte] >> shift) & 1).astype(bool)
        hit[r] = False
        m[hit] ^= m[r]
        pivots.append(c)
        r += 1
        if r == n:
            break
    full = np.unpackbits(m, axis=1, count=2 * n).astype(bool)
    reduced, transform = full[:, :n], full[:, n:].astype(np.int32)
    piv = np.array(pivots, dtype=np.int64)
    free = np.setdiff1d(np.arange(n), piv)
    # Free variable f set alone: the pivot variables follow from the reduced rows (R x = 0).
    basis = np.zeros((free.size, n), dtype=bool)
    basis[np.arange(free.size), free] = True
    basis[:, piv] = reduced[: piv.size][:, free].T
    for arr in (transform, piv, basis):
        arr.setflags(write=False)
    return PressSystem(rows, cols, transform, piv, basis)
