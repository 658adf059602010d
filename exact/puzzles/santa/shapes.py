"""The three shapes of Kaggle Santa 2023 ("The Polytope Permutation Puzzle") as permutations of
their positions, under the competition's move names. Moves act as every move table's do:
``new = state[perm]``.

* ``cube_N/N/N``: ``6 N^2`` stickers, faces U, F, R, B, L, D in that order, each ``N`` rows of
  ``N`` read from the top left as the face is seen from outside (U with its top edge at the back,
  D with its top edge at the front). ``f0 .. f{N-1}`` turn the layers from the front to the
  back, each clockwise as seen from the front; ``r0 ..`` from the right to the left, clockwise
  as seen from the right; ``d0 ..`` from the bottom up, clockwise as seen from below.
* ``wreath_A/B``: two rings of ``A`` and ``B`` beads sharing two, ``A + B - 2`` positions. The
  left ring is positions ``0 .. A-1``; the right ring runs from position 0 through ``B - k - 2``
  beads of its own, the shared position ``k = ceil(A / 4)``, then its last ``k`` beads back to
  position 0. ``l`` and ``r`` turn a ring by one bead (position ``i`` takes the bead of the next
  position along the ring).
* ``globe_R/C``: ``R + 1`` rows (rings of latitude) of ``2C`` cells, row by row. ``r0 .. rR``
  turn a row by one cell; ``f0 .. f{2C-1}`` turn the half-globe of columns ``i .. i+C-1`` over
  (row ``j`` with row ``R - j``, each reversed), the middle row of an odd count left as it is.

These rules are Santa's because the winning team's 398 solutions replay from each initial state
to its solution state under them (``tests/test_santa.py``): the competition's
``puzzle_info.csv`` is not shipped, the moves are generated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from exact.errors import PuzzleoptError

_TYPE = re.compile(r"^(cube)_(\d+)/(\d+)/(\d+)$|^(wreath|globe)_(\d+)/(\d+)$")
MAX_SIDE = 100
"""The largest size a type may name (Santa's largest: cube_33/33/33, wreath_100/100)."""


@dataclass(frozen=True)
class Shape:
    """A puzzle type: ``cube_3/3/3``, ``wreath_6/6``, ``globe_1/8``.

    Attributes:
        name: The type as the competition writes it.
        family: ``"cube"``, ``"wreath"`` or ``"globe"``.
        a, b: Its sizes: the cube's side (both), the rings' beads, the globe's rows - 1 and half
            its columns.
    """

    name: str
    family: str
    a: int
    b: int

    @property
    def num_positions(self) -> int:
        """Positions of a state."""
        return {"cube": 6 * self.a * self.a, "wreath": self.a + self.b - 2, "globe": 2 * self.b * (self.a + 1)}[
            self.family
        ]

    def pieces(self) -> np.ndarray:
        """int64 ``(P,)``: the piece each position belongs to (a cube's stickers on one cubie are
        one piece; a bead or a globe's cell is a piece by itself)."""
        if self.family != "cube":
            return np.arange(self.num_positions, dtype=np.int64)
        inner = np.clip(_cube_stickers(self.a), -(self.a - 1), self.a - 1)
        return np.unique(inner, axis=0, return_inverse=True)[1].ravel().astype(np.int64)

    def moves(self) -> dict[str, np.ndarray]:
        """int64 ``(P,)`` per base move (its inverse ``-m`` is derived by the move table)."""
        return _FAMILIES[self.family](self.a, self.b)


def shape(name: str) -> Shape:
    """The type named ``name`` (``cube_N/N/N``, ``wreath_A/B``, ``globe_R/C``).

    Raises:
        PuzzleoptError: a name of no such form, or sizes out of range.
    """
    m = _TYPE.match(name.strip())
    if m is None:
        raise PuzzleoptError(f"unknown Santa 2023 puzzle type {name!r}; give cube_N/N/N, wreath_A/B or globe_R/C")
    if m.group(1):
        sides = {int(m.group(i)) for i in (2, 3, 4)}
        if len(sides) != 1 or not 2 <= min(sides) <= MAX_SIDE:
            raise PuzzleoptError(f"Santa type {name!r}: a cube has three equal sides, 2 to {MAX_SIDE}")
        n = sides.pop()
        return Shape(name, "cube", n, n)
    family, a, b = m.group(5), int(m.group(6)), int(m.group(7))
    low = 4 if family == "wreath" else 1
    if not (low <= a <= MAX_SIDE and low <= b <= MAX_SIDE) or (family == "wreath" and a != b):
        rule = "two equal rings of 4 to" if family == "wreath" else "rows and half-columns from 1 to"
        raise PuzzleoptError(f"Santa type {name!r}: a {family} has {rule} {MAX_SIDE}")
    return Shape(name, family, a, b)


def cube_moves(n: int, _: int = 0) -> dict[str, np.ndarray]:
    """The ``cube_n/n/n`` moves (module docstring): sticker centres in 3-D, each layer turned."""
    where = _cube_stickers(n)
    index = {tuple(p): i for i, p in enumerate(where)}
    inner = np.clip(where, -(n - 1), n - 1)  # a sticker's cubie
    x, y, z = where.T
    # each axis: the coordinate that picks the layer, layer 0's value and the sense of the count,
    # and the quarter turn clockwise as seen from that side
    axes = {
        "f": (2, n - 1, -2, np.stack([y, -x, z], 1)),
        "r": (0, n - 1, -2, np.stack([x, z, -y], 1)),
        "d": (1, -(n - 1), 2, np.stack([z, y, -x], 1)),
    }
    out = {}
    for name, (axis, first, step, turned) in axes.items():
        for i in range(n):
            perm = np.arange(len(where), dtype=np.int64)
            for p in np.flatnonzero(inner[:, axis] == first + step * i):
                perm[index[tuple(turned[p])]] = p
            out[f"{name}{i}"] = perm
    return out


def _cube_stickers(n: int) -> np.ndarray:
    """int64 ``(6 n^2, 3)``: each sticker's centre, coordinates odd in ``-(n-1) .. n-1`` and
    ``+-n`` on its face's axis (x right, y up, z front)."""
    o = n - 1
    out = []
    for face in range(6):
        for r in range(n):
            for c in range(n):
                across, down = -o + 2 * c, o - 2 * r
                out.append(
                    [
                        (across, n, -o + 2 * r),  # U
                        (across, down, n),  # F
                        (n, down, o - 2 * c),  # R
                        (o - 2 * c, down, -n),  # B
                        (-n, down, -o + 2 * c),  # L
                        (across, -n, o - 2 * r),  # D
                    ][face]
                )
    return np.array(out, dtype=np.int64)


def wreath_moves(a: int, b: int) -> dict[str, np.ndarray]:
    """The ``wreath_a/b`` moves (module docstring)."""
    size = a + b - 2
    k = -(-a // 4)
    own = list(range(a, size))
    left = list(range(a))
    right = [0, *own[: b - k - 2], k, *own[b - k - 2 :]]
    return {"l": _ring(left, size), "r": _ring(right, size)}


def globe_moves(a: int, b: int) -> dict[str, np.ndarray]:
    """The ``globe_a/b`` moves (module docstring)."""
    width, rows = 2 * b, a + 1
    out = {}
    for r in range(rows):
        out[f"r{r}"] = _ring([r * width + c for c in range(width)], rows * width)
    for f in range(width):
        perm = np.arange(rows * width, dtype=np.int64)
        for r in range(rows):
            if rows % 2 and r == rows // 2:
                continue  # Santa's flips leave the equator alone
            for k in range(b):
                perm[r * width + (f + k) % width] = (rows - 1 - r) * width + (f + b - 1 - k) % width
        out[f"f{f}"] = perm
    return out


def _ring(ring: list[int], size: int) -> np.ndarray:
    """Position ``ring[t]`` takes the item at ``ring[t + 1]``."""
    perm = np.arange(size, dtype=np.int64)
    perm[ring] = ring[1:] + ring[:1]
    return perm


_FAMILIES = {"cube": cube_moves, "wreath": wreath_moves, "globe": globe_moves}

__all__ = ["MAX_SIDE", "Shape", "cube_moves", "globe_moves", "shape", "wreath_moves"]
