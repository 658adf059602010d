"""A Lights Out board as an SVG picture: lit cells yellow, dark ones grey, each cell's
``<rect>`` named by its press (``data-name``, ``a1`` top-left; :mod:`exact.puzzles.lightsout`)."""

from __future__ import annotations

import numpy as np

from exact import svg
from exact.errors import StateError
from exact.puzzles.lightsout.board import press_name
from exact.puzzles.lightsout.text import _zero_one

LIT, OFF = "#ffd84d", "#3a3a3a"


def board_svg(lights: np.ndarray, cell: float = 40.0) -> str:
    """The lights (0/1 or bool ``(R, C)``) as SVG."""
    a = _zero_one(lights, "board_svg")
    if a.ndim != 2:
        raise StateError(f"board_svg takes lights of shape (R, C), got {a.shape}")
    rows, cols = a.shape
    fills = [LIT if v else OFF for v in a.reshape(-1).tolist()]
    names = [press_name(i, cols) for i in range(rows * cols)]
    return svg.to_string(svg.grid(rows, cols, fills, names=names, cell=cell))
