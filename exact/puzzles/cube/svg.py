"""The net of a cube state as an SVG picture, in the standard colours.

Layout as :mod:`exact.puzzles.cube.net` (each face seen from outside, U above F, D below F)::

        U
      L F R B
        D

Colours: the Western scheme of the WCA (U white, R red, F green, D yellow, L orange, B blue):
colour ``v`` of a state (the colour of face ``FACES[v]`` when solved) is drawn as
:data:`COLOURS` ``[v]``. Each sticker is a ``<rect>`` with ``data-face``, ``data-row``,
``data-col`` (its place) and ``data-color`` (the face letter of its colour).
"""

from __future__ import annotations

import math

import numpy as np

from exact import svg
from exact.errors import FaceletError
from exact.puzzles.cube.geometry import FACES

COLOURS = ("#ffffff", "#b71234", "#009b48", "#ffd500", "#ff5800", "#0046ad")
"""Fill of the colours of U R F D L B (white, red, green, yellow, orange, blue)."""

_PLACE = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
"""Each face's cell (column, row) in the 4 x 3 layout of the net."""


def net_svg(state: np.ndarray, n: int | None = None, sticker: float = 0.0, title: str | None = None) -> str:
    """The state drawn as an unfolded net.

    Args:
        state: uint8 ``(6*n*n,)`` colours 0..5 (faces U R F D L B), as every cube state.
        n: Cube size (default: from the state's length).
        sticker: Side of a sticker in SVG units (default: 90 units per face, at least 8 per sticker).
        title: A ``<title>`` for the picture (shown as a tooltip).

    Returns:
        An SVG document (text).
    """
    s = np.asarray(state)
    size = math.isqrt(s.size // 6) if s.ndim == 1 else 0
    if n is None:
        n = size
    if s.ndim != 1 or n < 1 or s.size != 6 * n * n or (s.size and (s.min() < 0 or s.max() > 5)):
        raise FaceletError(f"net_svg: a cube state must be 6*n*n colours 0..5, got shape {s.shape} for n={n}")
    sticker = sticker or max(8.0, 90.0 / n)
    gap = sticker / 4
    face = n * sticker
    width = 4 * face + 5 * gap
    height = 3 * face + 4 * gap
    root = svg.document(width, height, title)
    faces = s.reshape(6, n, n)
    for f, letter in enumerate(FACES):
        col, row = _PLACE[letter]
        x0 = gap + col * (face + gap)
        y0 = gap + row * (face + gap)
        g = svg.group(root, {"data-face": letter})
        for r in range(n):
            for c in range(n):
                v = int(faces[f, r, c])
                svg.rect(
                    g, x0 + c * sticker, y0 + r * sticker, sticker, sticker, COLOURS[v],
                    rx=sticker / 8, data_face=letter, data_row=r, data_col=c, data_color=FACES[v],
                )  # fmt: skip
    return svg.to_string(root)
