"""Where the Pyraminx's stickers are and how a turn moves them (conventions in
:mod:`exact.puzzles.pyraminx`).

A sticker is named by the face it lies on, its kind (tip, axial or edge) and the vertex (tips,
axials) or the two vertices (edges) it belongs to. A turn at vertex ``v`` is a rigid rotation of
the layer at ``v``; it maps a sticker to the sticker with every vertex ``w`` replaced by
``sigma(w)`` (faces too, a face being named by its opposite vertex), where ``sigma`` is the
rotation's action on the vertices, computed here from coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

VERTICES = ("U", "L", "R", "B")
"""Vertex names; vertex ``i`` is ``VERTICES[i]``."""

FACES = ("F", "L", "R", "D")
"""Face names in text order."""

OPPOSITE = {"F": "B", "L": "R", "R": "L", "D": "U"}
"""The vertex each face is opposite to."""

COLOURS = {"F": "g", "L": "r", "R": "b", "D": "y"}

TOP = {"F": "U", "L": "U", "R": "U", "D": "B"}
"""The corner read first on each face."""

# Coordinates: z up, y to the back, x to the right; U on top, B at the back.
_ANGLE = {"B": 90.0, "L": 210.0, "R": 330.0}


def _coords() -> dict[str, np.ndarray]:
    out = {"U": np.array([0.0, 0.0, 3.0])}
    r = np.sqrt(8.0)
    for v, a in _ANGLE.items():
        t = np.radians(a)
        out[v] = np.array([r * np.cos(t), r * np.sin(t), -1.0])
    return out


@dataclass(frozen=True)
class Sticker:
    """One sticker: ``face`` (a face name), ``kind`` (``"tip"``, ``"axial"`` or ``"edge"``) and
    ``at``, the vertex names it belongs to (one, or two sorted for an edge)."""

    face: str
    kind: str
    at: tuple[str, ...]


@cache
def clockwise(v: str) -> dict[str, str]:
    """The action on the vertices of a 120-degree clockwise turn seen looking at vertex ``v``."""
    xyz = _coords()
    axis = xyz[v] / np.linalg.norm(xyz[v])
    t = np.radians(-120.0)  # right-handed about the outward axis: negative is clockwise from outside
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rot = np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * (k @ k)
    out = {}
    for w, p in xyz.items():
        q = rot @ p
        out[w] = min(xyz, key=lambda u: float(np.linalg.norm(xyz[u] - q)))
    return out


def _corners(face: str) -> tuple[str, str, str]:
    """(top, left, right) corners of ``face`` as seen from outside."""
    xyz = _coords()
    top = TOP[face]
    others = [v for v in VERTICES if v not in (top, OPPOSITE[face])]
    a, b = others
    normal = -xyz[OPPOSITE[face]]  # outward normal of the face opposite a vertex
    # top -> left -> right runs anticlockwise seen from outside
    turn = np.cross(xyz[a] - xyz[top], xyz[b] - xyz[top]) @ normal
    return (top, a, b) if turn > 0 else (top, b, a)


@cache
def stickers(tips: bool = True) -> tuple[Sticker, ...]:
    """Every sticker in position order (see the package docstring)."""
    out = []
    for f in FACES:
        t, left, right = _corners(f)
        rows = [
            Sticker(f, "tip", (t,)),
            Sticker(f, "edge", tuple(sorted((t, left)))),
            Sticker(f, "axial", (t,)),
            Sticker(f, "edge", tuple(sorted((t, right)))),
            Sticker(f, "tip", (left,)),
            Sticker(f, "axial", (left,)),
            Sticker(f, "edge", tuple(sorted((left, right)))),
            Sticker(f, "axial", (right,)),
            Sticker(f, "tip", (right,)),
        ]
        out += [s for s in rows if tips or s.kind != "tip"]
    return tuple(out)


def face_of_vertex(v: str) -> str:
    """The face opposite vertex ``v``."""
    return next(f for f, o in OPPOSITE.items() if o == v)


def turned(s: Sticker, sigma: dict[str, str]) -> Sticker:
    """Where a rotation with vertex action ``sigma`` takes sticker ``s``."""
    face = face_of_vertex(sigma[OPPOSITE[s.face]])
    return Sticker(face, s.kind, tuple(sorted(sigma[w] for w in s.at)))


def pieces(tips: bool = True) -> list[tuple[int, ...]]:
    """Positions of each piece's stickers, in an order that turns preserve (for a vertex piece:
    its faces visited clockwise around the vertex, starting from the first in position order)."""
    all_ = stickers(tips)
    index = {s: i for i, s in enumerate(all_)}
    out = []
    for kind in ("tip", "axial") if tips else ("axial",):
        for v in VERTICES:
            first = next(s for s in all_ if s.kind == kind and s.at == (v,))
            sigma = clockwise(v)
            ring = [first, turned(first, sigma), turned(turned(first, sigma), sigma)]
            out.append(tuple(index[s] for s in ring))
    for i, s in enumerate(all_):
        if s.kind == "edge" and not any(i in p for p in out):
            mate = next(j for j, t in enumerate(all_) if t.kind == "edge" and t.at == s.at and j != i)
            out.append((i, mate))
    return out
