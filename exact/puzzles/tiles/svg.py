"""A sliding-tile board as an SVG picture: tiles numbered, the blank dark, tiles already on
their goal cell in a lighter shade (cells row-major, as every tiles state;
:func:`exact.svg.grid` gives each cell's ``<rect>`` its ``data-cell``)."""

from __future__ import annotations

import numpy as np

from exact import svg
from exact.errors import StateError

TILE, HOME, BLANK = "#f2dcb3", "#cfe8c4", "#3a3a3a"
"""Fills: a tile, a tile on its goal cell, the blank."""


def board_svg(state: np.ndarray, rows: int, cols: int, goal: np.ndarray | None = None, cell: float = 40.0) -> str:
    """The board ``state`` (``(rows*cols,)``, 0 the blank) as SVG; tiles equal to ``goal`` at
    their cell are shaded as home."""
    s = np.asarray(state)
    if s.ndim != 1 or s.size != rows * cols:
        raise StateError(f"board_svg: a {rows}x{cols} board is {rows * cols} cells, got shape {s.shape}")
    home = np.zeros(s.size, bool) if goal is None else (np.asarray(goal) == s)
    fills = [BLANK if v == 0 else (HOME if h else TILE) for v, h in zip(s.tolist(), home.tolist())]
    labels = ["" if v == 0 else str(v) for v in s.tolist()]
    return svg.to_string(svg.grid(rows, cols, fills, labels, cell=cell))
