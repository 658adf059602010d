"""Reading and writing Lights Out boards: the lights string, bool arrays and states.

Conventions are in :mod:`exact.puzzles.lightsout`. Three forms of one board, with round trips:

* the lights string ``"0101..."`` (row-major, ``1`` lit): :func:`parse_lights` / :func:`format_lights`;
* the lights, bool ``(R, C)``;
* the state, uint8 ``(2 * R * C,)`` in the two-slot encoding: :func:`lights_to_state` /
  :func:`state_to_lights`.
"""

from __future__ import annotations

import numpy as np

from exact.errors import StateError
from exact.puzzles.lightsout.board import check_shape, column_letters


def parse_lights(text: str, rows: int, cols: int | None = None) -> np.ndarray:
    """Read a lights string: ``rows * cols`` characters ``0``/``1``, row-major; whitespace is ignored.

    Args:
        text: e.g. ``"110001000"`` for 3x3, or the same written as rows (``"110 001 000"``).
        rows: Board rows.
        cols: Board columns (default ``rows``).

    Returns:
        bool ``(rows, cols)``, True where lit.

    Raises:
        StateError: quoting the text and the first bad character (with its position), or giving
            the number of cells found and expected.
    """
    rows, cols = check_shape(rows, cols)
    n = rows * cols
    fix = f"write the {n} lights of the {rows}x{cols} board row by row, 1 for lit and 0 for off"
    if not isinstance(text, str):
        raise StateError(f"lightsout {rows}x{cols}: lights must be given as text, got {type(text).__name__}; {fix}")
    where = f"lightsout {rows}x{cols} lights {text.strip()!r}"
    chars = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if ch not in "01":
            raise StateError(f"{where}: character {pos + 1}, {ch!r}, is not 0 or 1; {fix}")
        chars.append(ch == "1")
    if len(chars) != n:
        raise StateError(f"{where}: expected {n} lights ({rows}x{cols}), got {len(chars)}; {fix}")
    return np.array(chars, dtype=bool).reshape(rows, cols)


def format_lights(lights: np.ndarray) -> str:
    """Write lights as the row-major lights string that :func:`parse_lights` reads back.

    Args:
        lights: 0/1 or bool, ``(R, C)`` or ``(R * C,)``.

    Returns:
        e.g. ``"110001000"``.
    """
    a = _zero_one(lights, "format_lights")
    return "".join("1" if v else "0" for v in a.ravel())


def lights_to_state(lights: np.ndarray) -> np.ndarray:
    """The state of lights in the two-slot encoding (slot ``2i`` lit, slot ``2i + 1`` its complement).

    Args:
        lights: 0/1 or bool, ``(R, C)`` or ``(R * C,)``.

    Returns:
        uint8 ``(2 * R * C,)``; all lights off gives the goal ``0 1 0 1 ...``.
    """
    a = _zero_one(lights, "lights_to_state").ravel().astype(np.uint8)
    state = np.empty(2 * a.size, dtype=np.uint8)
    state[0::2] = a
    state[1::2] = 1 - a
    return state


def state_to_lights(state: np.ndarray, rows: int, cols: int | None = None) -> np.ndarray:
    """The lights of a state (inverse of :func:`lights_to_state`).

    Args:
        state: Integer ``(2 * rows * cols,)``: each cell's two slots hold ``1 0`` (lit) or ``0 1`` (off).
        rows: Board rows.
        cols: Board columns (default ``rows``).

    Returns:
        bool ``(rows, cols)``.

    Raises:
        StateError: wrong shape, or a cell whose two slots are not ``1 0`` or ``0 1`` (naming it).
    """
    rows, cols = check_shape(rows, cols)
    s = np.asarray(state)
    p = 2 * rows * cols
    if s.ndim != 1 or s.shape[0] != p or s.dtype.kind not in "iub":
        raise StateError(
            f"lightsout {rows}x{cols}: a state is an integer array of shape ({p},) (two slots per cell), "
            f"got {s.dtype} {s.shape}"
        )
    lit, off = s[0::2].astype(np.int64), s[1::2].astype(np.int64)
    bad = np.flatnonzero(~(((lit == 1) & (off == 0)) | ((lit == 0) & (off == 1))))
    if bad.size:
        i = int(bad[0])
        raise StateError(
            f"lightsout {rows}x{cols}: cell {i} (slots {2 * i}, {2 * i + 1}) holds {int(lit[i])} {int(off[i])}; "
            "each cell's slots must be 1 0 (lit) or 0 1 (off)"
        )
    return (lit == 1).reshape(rows, cols)


def draw_lights(lights: np.ndarray) -> str:
    """The board as a picture: ``#`` lit, ``.`` off, columns lettered and rows numbered as presses are named.

    Args:
        lights: 0/1 or bool ``(R, C)``.

    Returns:
        Lines such as ``"   a b c"`` then ``" 1 # . #"`` ..., joined by newlines.
    """
    a = _zero_one(lights, "draw_lights")
    if a.ndim != 2:
        raise StateError(f"draw_lights takes lights of shape (R, C), got {a.shape}")
    rows, cols = a.shape
    labels = [column_letters(c) for c in range(cols)]
    width = max(len(x) for x in labels)
    pad = len(str(rows))
    head = " " * pad + " " + " ".join(x.rjust(width) for x in labels)
    body = [f"{r + 1:>{pad}} " + " ".join(("#" if v else ".").rjust(width) for v in a[r]) for r in range(rows)]
    return "\n".join([head, *body])


def _zero_one(lights: np.ndarray, what: str) -> np.ndarray:
    a = np.asarray(lights)
    if a.ndim not in (1, 2) or a.size == 0 or a.dtype.kind not in "biu" or ((a != 0) & (a != 1)).any():
        raise StateError(
            f"{what} takes lights: a non-empty 0/1 or bool array of shape (R, C) or (R*C,), got {a.dtype} {a.shape}"
        )
    return a.astype(bool)
