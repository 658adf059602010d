"""The coordinates of an H48-family optimal solver (Tronto's H48, nissy-core's ``doc/h48.md``):
groundwork for issue 67.

H48's target subgroup is the same along every axis: each corner in its own tetrad ({URF, ULB,
DLF, DRB} or the other four) and oriented, each edge in its own slice (M, S or E). Its cosets are
read by two coordinates:

* ``cocsep``: which four slots hold the first tetrad's corners (``C(8,4) = 70``) and the corners'
  twist (``3^7``): 153,090 values, taken up to the 48 symmetries of the cube (3,393 classes);
* ``esep``: which slots hold the E-slice edges and which of the remaining eight hold the M-slice
  ones (``C(12,4) * C(8,4) = 34,650`` values).

The ``h0`` coordinate is ``cocsep class x esep`` (117,567,450 values); ``hk`` adds the flips of
``k`` edges.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np

from exact.cube.coords import twist_cubies, twist_of
from exact.cube.symmetry import UD16, URF, conjugate_cubies, symmetry_of

TETRAD = (0, 2, 5, 7)
"""Corner pieces URF, ULB, DLF, DRB: the first tetrad (the others are the second)."""
E_SLICE = (8, 9, 10, 11)
"""Edge pieces FR, FL, BL, BR."""
M_SLICE = (1, 3, 5, 7)
"""Edge pieces UF, UB, DF, DB (the S slice: UR, UL, DR, DL)."""
NCOCSEP = comb(8, 4) * 3**7
NESEP = comb(12, 4) * comb(8, 4)
COCSEP_CLASSES = 3393
"""The classes of ``cocsep`` under the 48 symmetries (H48's count)."""


def sym48() -> np.ndarray:
    """int64 ``(48, 3, 3)``: every symmetry of the cube, identity first (the 16 that keep the U-D
    axis, then those times the rotation ``URF`` and its square)."""
    return np.concatenate([UD16 @ np.linalg.matrix_power(URF, k) for k in range(3)])


_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(12)], dtype=np.int64)


def _subset_rank(member: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the combinatorial rank of the 4-subsets marked in bool ``(B, n)``."""
    b, n = member.shape
    out = np.zeros(b, dtype=np.int64)
    seen = np.zeros(b, dtype=np.int64)
    for s in range(n):
        seen += member[:, s]
        out += np.where(member[:, s], _COMB[s, np.minimum(seen, 4)], 0)
    return out


def _subset_unrank(rank: np.ndarray, n: int) -> np.ndarray:
    """bool ``(B, n)``: the 4-subsets of ``range(n)`` of these ranks."""
    rank = np.asarray(rank, dtype=np.int64).copy()
    out = np.zeros((len(rank), n), dtype=bool)
    for k in range(4, 0, -1):
        s = np.full(len(rank), k - 1)
        for t in range(k, n):  # the largest slot t with comb(t, k) <= rank
            s = np.where(comb(t, k) <= rank, t, s)
        out[np.arange(len(rank)), s] = True
        rank -= _COMB[s, k]
    return out


def cocsep_of(cp: np.ndarray, co: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: ``sep * 2187 + twist`` of corner permutations and twists ``(B, 8)``."""
    sep = _subset_rank(np.isin(np.asarray(cp), TETRAD))
    return sep * 3**7 + twist_of(co)


def cocsep_cubies(c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Corner permutations and orientations ``(B, 8)`` with these ``cocsep`` values ``(B,)``: the
    first tetrad's corners in order in the slots named, the others in order in the rest."""
    c = np.asarray(c, dtype=np.int64)
    member = _subset_unrank(c // 3**7, 8)
    cp = np.empty((len(c), 8), dtype=np.int64)
    cp[member] = np.tile(TETRAD, len(c))  # boolean indexing fills row by row, slots in order
    cp[~member] = np.tile([p for p in range(8) if p not in TETRAD], len(c))
    return cp, twist_cubies(c % 3**7)


def esep_of(ep: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: ``e * 70 + m`` of edge permutations ``(B, 12)``: ``e`` ranks the slots of
    the E-slice edges, ``m`` the places of the M-slice edges among the eight other slots."""
    ep = np.asarray(ep)
    in_e = np.isin(ep, E_SLICE)
    rest = ep[~in_e].reshape(len(ep), 8)
    return _subset_rank(in_e) * comb(8, 4) + _subset_rank(np.isin(rest, M_SLICE))


@dataclass(frozen=True)
class CocsepClasses:
    """``cocsep`` up to the 48 symmetries.

    Attributes:
        cls: int32 ``(153090,)``: each value's class.
        sym: uint8 ``(153090,)``: a symmetry (index into :func:`sym48`) taking the value to its
            class's representative.
        rep: int64 ``(3393,)``: each class's representative (its smallest value).
        image: int32 ``(48, 153090)``: each value conjugated by each symmetry.
    """

    cls: np.ndarray
    sym: np.ndarray
    rep: np.ndarray
    image: np.ndarray


@cache
def cocsep_classes() -> CocsepClasses:
    """The classes of ``cocsep`` under the 48 symmetries (built in about a second)."""
    cp, co = cocsep_cubies(np.arange(NCOCSEP))
    zeros = np.zeros((1, 12), dtype=np.int64)  # edges do not matter here
    image = np.empty((48, NCOCSEP), dtype=np.int32)
    for s, matrix in enumerate(sym48()):
        ncp, nco, _, _ = conjugate_cubies(cp, co, zeros, zeros, symmetry_of(matrix))
        image[s] = cocsep_of(ncp, nco)
    smallest = image.min(axis=0)
    rep, cls = np.unique(smallest, return_inverse=True)
    sym = image.argmin(axis=0).astype(np.uint8)
    return CocsepClasses(cls.astype(np.int32), sym, rep.astype(np.int64), image)


__all__ = [
    "COCSEP_CLASSES",
    "CocsepClasses",
    "NCOCSEP",
    "NESEP",
    "cocsep_classes",
    "cocsep_cubies",
    "cocsep_of",
    "esep_of",
    "sym48",
]
