"""The sliding-tile move table (conventions in :mod:`exact.puzzles.tiles`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.movetable import MoveTable
from exact.puzzles.tiles.board import DIRECTIONS, STEPS, check_shape


def tile_moves(rows: int, cols: int) -> MoveTable:
    """The guarded move table of an ``rows x cols`` sliding-tile board.

    One row per (direction, blank cell) where the blank has a neighbour in that direction,
    grouped by direction in the order U, D, L, R (so ``table.actions == ("U", "D", "L", "R")``)
    and by cell within a direction. Row ``m`` for the blank at cell ``c`` moving to cell ``t``
    has the guard "label 0 at cell ``c``" and swaps cells ``c`` and ``t``. ``table.inverse`` pairs
    U at ``c`` with D at ``c - cols`` and L at ``c`` with R at ``c - 1``.

    Args:
        rows: Board rows ``R`` (>= 2).
        cols: Board columns ``C`` (>= 2); ``R * C <= 256``.

    Returns:
        A :class:`~exact.movetable.MoveTable` with ``P = R * C`` positions and
        ``M = 2 * (R * (C - 1) + C * (R - 1))`` rows (cached per shape; tables are immutable).

    Raises:
        PuzzleoptError: a side below 2 or more than 256 cells.
    """
    return _tile_moves(*check_shape(rows, cols))


@cache
def _tile_moves(rows: int, cols: int) -> MoveTable:
    p = rows * cols
    names: list[str] = []
    perms: list[np.ndarray] = []
    guards: list[int] = []
    for name, (dr, dc) in zip(DIRECTIONS, STEPS):
        for c in range(p):
            r, k = divmod(c, cols)
            if not (0 <= r + dr < rows and 0 <= k + dc < cols):
                continue
            t = (r + dr) * cols + k + dc
            perm = np.arange(p, dtype=np.int64)
            perm[c], perm[t] = t, c
            names.append(name)
            perms.append(perm)
            guards.append(c)
    g = np.array(guards, dtype=np.int64)[:, None]
    return MoveTable(
        names=tuple(names),
        perms=np.stack(perms),
        guard_pos=g,
        guard_val=np.zeros_like(g),
        description=f"tiles{p - 1} ({rows}x{cols})",
        metadata={"puzzle": "tiles", "rows": rows, "cols": cols},
    )
