"""Lights Out boards: the shape check, press names and the press matrix over GF(2).

Conventions are in :mod:`exact.puzzles.lightsout`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError

MAX_CELLS = 1024
"""Largest board (e.g. 32 x 32): the move table holds ``R*C`` rows of ``2*R*C`` int64 (16 MiB here)."""


def check_shape(rows: int, cols: int | None = None) -> tuple[int, int]:
    """Validate a board shape and return it as Python ints (``cols`` defaults to ``rows``).

    Raises:
        PuzzleoptError: a side that is not an integer >= 1, or more than :data:`MAX_CELLS` cells.
    """
    cols = rows if cols is None else cols
    for what, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise PuzzleoptError(f"lightsout board: {what} must be an integer, got {v!r}")
        if v < 1:
            raise PuzzleoptError(
                f"lightsout board: {what} = {v} is too small; a board needs at least 1 row and 1 column"
            )
    rows, cols = int(rows), int(cols)
    if rows * cols > MAX_CELLS:
        raise PuzzleoptError(
            f"lightsout board {rows}x{cols} has {rows * cols} cells; at most {MAX_CELLS} are supported "
            "(the move table grows with the square of the cell count)"
        )
    return rows, cols


def column_letters(c: int) -> str:
    """The letters of column ``c`` (0-based): ``a`` .. ``z``, then ``aa``, ``ab``, ... (bijective base 26)."""
    out = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def press_name(cell: int, cols: int) -> str:
    """The name of the press at row-major ``cell``: column letters, then the row counted from 1 (``"a1"``)."""
    r, c = divmod(int(cell), cols)
    return f"{column_letters(c)}{r + 1}"


def neighbourhood(cell: int, rows: int, cols: int) -> list[int]:
    """The cells a press at ``cell`` toggles (itself and its orthogonal neighbours), ascending."""
    r, c = divmod(int(cell), cols)
    # Steps up, left, self, right, down: row-major order, so the list comes out sorted.
    steps = ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0))
    return [(r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols]


def press_matrix(rows: int, cols: int) -> np.ndarray:
    """The press matrix ``A`` over GF(2): ``A[i, j]`` is True when pressing cell ``j`` toggles cell ``i``.

    Pressing the set ``x`` (bool ``(N,)``, ``N = rows * cols``) toggles the lights ``A @ x mod 2``.
    ``A`` is symmetric (a cell toggles its neighbour iff the neighbour toggles it).

    Returns:
        Read-only bool ``(N, N)`` (cached per shape).
    """
    return _press_matrix(*check_shape(rows, cols))


@cache
def _press_matrix(rows: int, cols: int) -> np.ndarray:
    n = rows * cols
    a = np.zeros((n, n), dtype=bool)
    for j in range(n):
        a[neighbourhood(j, rows, cols), j] = True
    a.setflags(write=False)
    return a
