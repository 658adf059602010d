"""The Pyraminx as an SVG net: F upright in the middle, L, R and D folded out from its three
edges (each face seen from outside), in the WCA colours (F green, L red, R blue, D yellow).

Each face is cut into 9 triangles read as :mod:`exact.puzzles.pyraminx` reads its stickers (rows
from the face's top corner; without tips the three corner triangles are left grey). A sticker's
``<polygon>`` has ``data-face``, ``data-index`` (its position in the state) and ``data-color``
(the face whose colour it shows).
"""

from __future__ import annotations

import numpy as np

from exact import svg
from exact.errors import StateError
from exact.puzzles.pyraminx.geometry import COLOURS, FACES, OPPOSITE, _corners

FILL = {"g": "#009b48", "r": "#b71234", "b": "#0046ad", "y": "#ffd500"}
"""Fill of each colour letter."""
NO_TIP = "#d0d0d0"


def _net(side: float) -> dict[str, dict[str, np.ndarray]]:
    """Each face's vertices in the plane: F upright, the others unfolded across its edges."""
    h = side * np.sqrt(3) / 2
    top, left, right = _corners("F")
    where = {top: np.array([side, 0.0]), left: np.array([side / 2, h]), right: np.array([1.5 * side, h])}
    out = {"F": dict(where)}
    for f in FACES[1:]:
        shared = [v for v in where if v != OPPOSITE[f]]  # the two corners F and f have in common
        third = next(v for v in where if v not in shared)
        back = OPPOSITE["F"]
        out[f] = {v: where[v] for v in shared} | {back: where[shared[0]] + where[shared[1]] - where[third]}
    return out


def _triangles(top: np.ndarray, left: np.ndarray, right: np.ndarray) -> list[list[np.ndarray]]:
    """The 9 triangles of a face in sticker order (row by row from the top corner)."""

    def p(i: int, j: int) -> np.ndarray:
        return top + (i / 3) * (left - top) + (j / 3) * (right - left)

    out = []
    for i in range(3):
        for j in range(2 * i + 1):
            k = j // 2
            if j % 2 == 0:
                out.append([p(i, k), p(i + 1, k), p(i + 1, k + 1)])
            else:
                out.append([p(i, k), p(i, k + 1), p(i + 1, k + 1)])
    return out


def net_svg(state: np.ndarray, tips: bool = True, side: float = 120.0) -> str:
    """The state (uint8 ``(36,)`` with tips, ``(24,)`` without: the home position of the sticker
    at each position) as an SVG net."""
    per_face = 9 if tips else 6
    s = np.asarray(state)
    if s.ndim != 1 or s.size != 4 * per_face or s.min() < 0 or s.max() >= s.size:
        raise StateError(f"pyraminx net_svg: a state is {4 * per_face} positions 0..{4 * per_face - 1}, got {s.shape}")
    net = _net(side)
    h = side * np.sqrt(3) / 2
    root = svg.document(2 * side + 8, 2 * h + 8)
    g = svg.group(root, {"transform": "translate(4,4)"})
    pos = 0
    for f in FACES:
        top, left, right = _corners(f)
        for k, tri in enumerate(_triangles(net[f][top], net[f][left], net[f][right])):
            if not tips and k in (0, 4, 8):
                svg.polygon(g, [tuple(q) for q in tri], NO_TIP, data_face=f)
                continue
            colour = COLOURS[FACES[int(s[pos]) // per_face]]
            svg.polygon(g, [tuple(q) for q in tri], FILL[colour], data_face=f, data_index=pos, data_color=colour)
            pos += 1
    return svg.to_string(root)
