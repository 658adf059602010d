"""The Sokoban move table of an ``H x W`` grid (conventions in :mod:`exact.puzzles.sokoban`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.sokoban.level import DIRECTIONS, grid_step

FLOOR, WALL, BOX, PLAYER = 0, 1, 2, 3
"""Content labels of positions ``0 .. H*W - 1``."""

NUM_LABELS = 4

MAX_CELLS = 4096
"""Largest grid (64 x 64): the table holds about ``8 * H*W`` rows of ``2 * H*W`` int64."""


def check_grid(height: int, width: int) -> tuple[int, int]:
    """Validate a grid size and return it as Python ints.

    Raises:
        PuzzleoptError: a side that is not an integer >= 1, or more than :data:`MAX_CELLS` cells.
    """
    for what, v in (("height", height), ("width", width)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise PuzzleoptError(f"sokoban grid: {what} must be an integer >= 1, got {v!r}")
    if int(height) * int(width) > MAX_CELLS:
        raise PuzzleoptError(
            f"sokoban grid {height}x{width} has {int(height) * int(width)} cells; at most {MAX_CELLS} are supported "
            "(the move table grows with the square of the cell count)"
        )
    return int(height), int(width)


def sokoban_moves(height: int, width: int) -> MoveTable:
    """The move table of every level on an ``height x width`` grid.

    Rows, in order: the walks ``u d l r`` (for each direction, one row per cell ``p`` that has a
    neighbour ``q`` that way, row-major), then the pushes ``U D L R`` (one row per cell ``p`` with
    ``q`` and ``r`` two steps that way on the grid). A walk swaps ``p`` and ``q`` under the guard
    ``[(p, PLAYER), (q, FLOOR)]``; a push sends the box at ``q`` to ``r`` and the player to ``q``
    under ``[(p, PLAYER), (q, BOX), (r, FLOOR)]``. The goal flags ``H*W ..`` never move.
    ``inverse`` pairs each walk with the opposite walk; pushes have none (``-1``).

    Args:
        height: Grid rows ``H``.
        width: Grid columns ``W``.

    Returns:
        A :class:`~exact.movetable.MoveTable` with ``P = 2 * H * W`` positions (cached per size).
    """
    return _sokoban_moves(*check_grid(height, width))


@cache
def _sokoban_moves(height: int, width: int) -> MoveTable:
    n = height * width
    ident = np.arange(2 * n, dtype=np.int64)
    names: list[str] = []
    perms: list[np.ndarray] = []
    gpos: list[list[int]] = []
    gval: list[list[int]] = []
    for d, letter in enumerate(DIRECTIONS):
        for p in range(n):
            q = grid_step(p, d, height, width)
            if q < 0:
                continue
            perm = ident.copy()
            perm[p], perm[q] = q, p
            names.append(letter)
            perms.append(perm)
            gpos.append([p, q, -1])
            gval.append([PLAYER, FLOOR, -1])
    for d, letter in enumerate(DIRECTIONS):
        for p in range(n):
            q = grid_step(p, d, height, width)
            r = -1 if q < 0 else grid_step(q, d, height, width)
            if r < 0:
                continue
            perm = ident.copy()
            # new[r] = old[q] (the box), new[q] = old[p] (the player), new[p] = old[r] (the floor)
            perm[r], perm[q], perm[p] = q, p, r
            names.append(letter.upper())
            perms.append(perm)
            gpos.append([p, q, r])
            gval.append([PLAYER, BOX, FLOOR])
    return MoveTable(
        names=tuple(names),
        perms=np.array(perms, dtype=np.int64).reshape(len(perms), 2 * n),
        guard_pos=np.array(gpos, dtype=np.int64).reshape(len(perms), 3),
        guard_val=np.array(gval, dtype=np.int64).reshape(len(perms), 3),
        description=f"sokoban {height}x{width}",
        metadata={"puzzle": "sokoban", "height": height, "width": width},
    )


def move_rows(height: int, width: int) -> np.ndarray:
    """The table row of each move from each cell.

    Returns:
        Read-only int64 ``(2, 4, H*W)``: ``[0, d, p]`` is the walk in direction ``d`` (index into
        :data:`~exact.puzzles.sokoban.level.DIRECTIONS`) with the player at ``p``, ``[1, d, p]``
        the push; ``-1`` where the move would leave the grid.
    """
    return _move_rows(*check_grid(height, width))


@cache
def _move_rows(height: int, width: int) -> np.ndarray:
    table = _sokoban_moves(height, width)
    out = np.full((2, 4, height * width), -1, dtype=np.int64)
    for m, name in enumerate(table.names):
        out[int(name.isupper()), DIRECTIONS.index(name.lower()), table.guard_pos[m, 0]] = m
    out.setflags(write=False)
    return out


def level_state(level) -> np.ndarray:
    """The state of a :class:`~exact.puzzles.sokoban.level.Level` on its own grid: uint8
    ``(2 * height * width,)`` (contents, then goal flags)."""
    n = level.height * level.width
    s = np.zeros(2 * n, dtype=np.uint8)
    s[list(level.walls)] = WALL
    s[list(level.boxes)] = BOX
    s[level.player] = PLAYER
    s[n + np.array(sorted(level.goals), dtype=np.int64)] = 1
    return s
