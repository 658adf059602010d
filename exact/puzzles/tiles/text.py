"""Reading and writing tile boards as text (Korf convention: numbers row by row, 0 the blank)."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from exact.errors import StateError
from exact.puzzles.tiles.board import check_shape

_SEP = re.compile(r"[\s,]+")


def parse_board(text: str, rows: int, cols: int) -> np.ndarray:
    """Read a board: ``rows * cols`` integers separated by whitespace and/or commas.

    Args:
        text: e.g. ``"1 2 3 4 0 5 6 7 8"``, ``"1,2,3,4,0,5,6,7,8"`` or the same as a grid.
        rows: Board rows.
        cols: Board columns.

    Returns:
        uint8 ``(rows * cols,)``. Solvability is not checked here (see
        :func:`~exact.puzzles.tiles.board.require_solvable`).

    Raises:
        StateError: quoting the text and saying what is wrong: the number of values, a token that
            is not an integer, values out of range, repeated or missing tiles.
    """
    rows, cols = check_shape(rows, cols)
    n = rows * cols
    if not isinstance(text, str):
        raise StateError(f"tiles {rows}x{cols}: a board must be given as text, got {type(text).__name__}")
    where = f"tiles {rows}x{cols} board {text.strip()!r}"
    fix = f"write the {n} tiles 0..{n - 1} row by row, 0 for the blank"
    tokens = [t for t in _SEP.split(text.strip()) if t]
    values = []
    for i, tok in enumerate(tokens):
        try:
            values.append(int(tok))
        except ValueError:
            raise StateError(f"{where}: value {i + 1}, {tok!r}, is not an integer; {fix}") from None
    if len(values) != n:
        raise StateError(f"{where}: expected {n} numbers ({rows}x{cols}), got {len(values)}; {fix}")
    out_of_range = sorted({v for v in values if not 0 <= v < n})
    if out_of_range:
        raise StateError(f"{where}: value(s) {_list(out_of_range)} out of range 0..{n - 1}; {fix}")
    counts = Counter(values)
    repeated = sorted(v for v, c in counts.items() if c > 1)
    if repeated:
        missing = sorted(set(range(n)) - set(counts))
        raise StateError(
            f"{where}: tile(s) {_list(repeated)} appear more than once and tile(s) {_list(missing)} are missing; {fix}"
        )
    return np.array(values, dtype=np.uint8)


def format_board(state: np.ndarray, rows: int | None = None, cols: int | None = None, grid: bool = False) -> str:
    """Write a board as text that :func:`parse_board` reads back.

    Args:
        state: Integer ``(P,)``.
        rows: Board rows; for ``grid`` output of a non-square board. Default: square.
        cols: Board columns; default ``P // rows``.
        grid: One line per board row with right-aligned columns, instead of one line.

    Returns:
        ``"0 1 2 ..."`` or, with ``grid``, e.g. ``" 1  2  3\\n 4  0  5\\n..."``.
    """
    s = np.asarray(state)
    if s.ndim != 1 or s.dtype.kind not in "iu":
        raise StateError(f"format_board takes one board, an integer array of shape (P,), got {s.dtype} {s.shape}")
    p = s.shape[0]
    if rows is None and cols is None:
        side = int(round(p**0.5))
        rows = cols = side if side * side == p else None
        if rows is None and grid:
            raise StateError(f"format_board: a board of {p} cells is not square; pass rows and cols")
    elif rows is None or cols is None:
        given = rows if rows is not None else cols
        if given < 1 or p % given:
            raise StateError(f"format_board: board of {p} cells has no side of length {given}")
        rows, cols = (given, p // given) if rows is not None else (p // given, given)
    if rows is not None and rows * cols != p:
        raise StateError(f"format_board: board of {p} cells does not fit {rows}x{cols}")
    cells = [str(int(v)) for v in s]
    if not grid:
        return " ".join(cells)
    width = max(len(c) for c in cells)
    return "\n".join(" ".join(c.rjust(width) for c in cells[r * cols : (r + 1) * cols]) for r in range(rows))


def _list(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)
