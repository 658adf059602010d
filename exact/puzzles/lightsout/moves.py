"""The Lights Out move table (conventions in :mod:`exact.puzzles.lightsout`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.movetable import MoveTable
from exact.puzzles.lightsout.board import check_shape, neighbourhood, press_name


def lightsout_moves(rows: int, cols: int | None = None) -> MoveTable:
    """The move table of an ``rows x cols`` Lights Out board.

    Row ``m`` presses cell ``m`` (row-major) and is named like a chess square: column letter, then
    row number from 1 at the top (``"a1"`` top-left, ``"g7"`` bottom-right on 7x7). Its
    permutation swaps slots ``2i`` and ``2i + 1`` of every cell ``i`` the press toggles, so every
    row is its own inverse (``table.inverse[m] == m``) and all rows commute. No guards.

    Args:
        rows: Board rows ``R`` (>= 1).
        cols: Board columns ``C`` (>= 1); default ``rows``.

    Returns:
        A :class:`~exact.movetable.MoveTable` with ``P = 2 * R * C`` positions and ``M = R * C``
        rows (cached per shape; tables are immutable).

    Raises:
        PuzzleoptError: a side below 1 or more than :data:`~exact.puzzles.lightsout.board.MAX_CELLS` cells.
    """
    return _lightsout_moves(*check_shape(rows, cols))


@cache
def _lightsout_moves(rows: int, cols: int) -> MoveTable:
    n = rows * cols
    perms = np.broadcast_to(np.arange(2 * n, dtype=np.int64), (n, 2 * n)).copy()
    for m in range(n):
        cells = np.array(neighbourhood(m, rows, cols), dtype=np.int64)
        # Swapping the two slots of a cell flips its light: (lit, off) <-> (off, lit).
        perms[m, 2 * cells] = 2 * cells + 1
        perms[m, 2 * cells + 1] = 2 * cells
    return MoveTable(
        names=tuple(press_name(m, cols) for m in range(n)),
        perms=perms,
        description=f"lightsout {rows}x{cols}",
        metadata={"puzzle": "lightsout", "rows": rows, "cols": cols},
    )
