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
``k`` edges. An entry's edge value is the smallest among the conjugates by the symmetries that fix
its class's representative (:func:`h0_entry`), so a cube and its 48 conjugates share one entry;
the entries no cube maps to stay ``255`` (7,026,930 of them).

:func:`h0_distances` fills the table by breadth-first search over entries, a layer per pass in
numba on every thread: in the half-turn metric 54 s on 2 cores (measured with another job on
both), 13 layers (0 to 12):

    1, 1, 3, 23, 241, 2948, 36299, 431416, 4606663, 32707713, 64654874, 8099069, 1269
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb

import numpy as np
from numba import njit, prange

from exact.cube.coords import _move_ori, _move_perm, twist_cubies, twist_of
from exact.cube.symmetry import _F2, _LR, _U4, UD16, URF, conjugate_cubies, symmetry_of
from exact.movetable import MoveTable
from exact.puzzles.cube.cubies import cubie_moves

TETRAD = (0, 2, 5, 7)
"""Corner pieces URF, ULB, DLF, DRB: the first tetrad (the others are the second)."""
E_SLICE = (8, 9, 10, 11)
"""Edge pieces FR, FL, BL, BR."""
M_SLICE = (1, 3, 5, 7)
"""Edge pieces UF, UB, DF, DB (the S slice: UR, UL, DR, DL)."""
S_SLICE = (0, 2, 4, 6)
"""Edge pieces UR, UL, DR, DL."""
NCOCSEP = comb(8, 4) * 3**7
NESEP = comb(12, 4) * comb(8, 4)
UNSEEN = 255
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


def esep_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 12)``: an edge permutation with each ``esep`` value ``(B,)``: the E edges in
    order in their slots, the M edges in order in theirs, the S edges in order in the rest."""
    c = np.asarray(c, dtype=np.int64)
    in_e = _subset_unrank(c // comb(8, 4), 12)
    in_m = _subset_unrank(c % comb(8, 4), 8)
    ep = np.empty((len(c), 12), dtype=np.int64)
    ep[in_e] = np.tile(E_SLICE, len(c))
    rest = np.empty((len(c), 8), dtype=np.int64)
    rest[in_m] = np.tile(M_SLICE, len(c))
    rest[~in_m] = np.tile(S_SLICE, len(c))
    ep[~in_e] = rest.ravel()
    return ep


def _by_generators(conjugated) -> np.ndarray:
    """int32 ``(48, N)``: a coordinate's image under each of :func:`sym48`, from ``conjugated``
    (matrix -> the images of all ``N`` values) called on four generators only: conjugating by
    ``A B`` is conjugating by ``B`` then by ``A``, so each product's table is two tables composed."""
    gens = [(g, conjugated(g)) for g in (_U4, _F2, _LR, URF)]
    eye = np.eye(3, dtype=np.int64)
    known = {eye.tobytes(): np.arange(len(gens[0][1]))}
    queue = [eye]
    for m in queue:
        for g, img in gens:
            n = g @ m
            if n.tobytes() not in known:
                known[n.tobytes()] = img[known[m.tobytes()]]
                queue.append(n)
    return np.stack([known[m.tobytes()] for m in sym48()]).astype(np.int32)


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

    def conjugated(matrix: np.ndarray) -> np.ndarray:
        ncp, nco, _, _ = conjugate_cubies(cp, co, zeros, zeros, symmetry_of(matrix))
        return cocsep_of(ncp, nco)

    image = _by_generators(conjugated)
    smallest = image.min(axis=0)
    rep, cls = np.unique(smallest, return_inverse=True)
    sym = image.argmin(axis=0).astype(np.uint8)
    return CocsepClasses(cls.astype(np.int32), sym, rep.astype(np.int64), image)


@dataclass(frozen=True)
class H0Tables:
    """What the ``h0`` index and its table's build read.

    Attributes:
        classes: :class:`CocsepClasses`.
        cocsep_mv: int32 ``(153090, M)``: ``cocsep`` after each move.
        esep_mv: int32 ``(34650, M)``: ``esep`` after each move.
        esep_conj: int32 ``(48, 34650)``: ``esep`` conjugated by each symmetry.
        stab: int8 ``(3393, 48)``: the symmetries that fix each class's representative, ``-1``
            after the last (the identity always first).
    """

    classes: CocsepClasses
    cocsep_mv: np.ndarray
    esep_mv: np.ndarray
    esep_conj: np.ndarray
    stab: np.ndarray

    @property
    def entries(self) -> int:
        """Entries of the ``h0`` table: 3,393 x 34,650."""
        return len(self.classes.rep) * NESEP


def h0_tables(table: MoveTable) -> H0Tables:
    """The move, conjugation and stabiliser tables of ``h0`` for a 3x3x3 face-move table (either
    metric: the 48 symmetries map each metric's moves onto themselves)."""
    k = cocsep_classes()
    mv = cubie_moves(table)
    cp, co = cocsep_cubies(np.arange(NCOCSEP))
    ep = esep_cubies(np.arange(NESEP))
    cocsep_mv = np.stack([cocsep_of(_move_perm(cp, mv.corner_to[m]), _move_ori(co, mv.corner_to[m],
                          mv.corner_twist[m], 3)) for m in range(table.num_moves)], axis=1)  # fmt: skip
    esep_mv = np.stack([esep_of(_move_perm(ep, mv.edge_to[m])) for m in range(table.num_moves)], axis=1)
    corners = np.zeros((1, 8), dtype=np.int64)  # corners do not matter here
    esep_conj = _by_generators(
        lambda a: esep_of(conjugate_cubies(corners, corners, ep, np.zeros_like(ep), symmetry_of(a))[2])
    )
    stab = stabilisers()
    return H0Tables(k, cocsep_mv.astype(np.int32), esep_mv.astype(np.int32), esep_conj.astype(np.int32), stab)


@cache
def stabilisers() -> np.ndarray:
    """int8 ``(3393, 48)``: the symmetries (indices into :func:`sym48`) that fix each corner
    class's representative, ``-1`` after the last (the identity always first)."""
    k = cocsep_classes()
    fixes = k.image[:, k.rep] == k.rep[None, :]  # (48, classes)
    stab = np.full((len(k.rep), 48), -1, dtype=np.int8)
    for c in range(len(k.rep)):
        syms = np.flatnonzero(fixes[:, c])
        stab[c, : len(syms)] = syms
    return stab


@njit(cache=True)
def h0_entry(cocsep, esep, cls, sym, esep_conj, stab):  # pragma: no cover - numba
    """The ``h0`` table index of a raw (``cocsep``, ``esep``) pair: its corner class, and of the
    edge values its conjugates by the class's stabiliser take, the smallest."""
    c = cls[cocsep]
    e = esep_conj[sym[cocsep], esep]
    best = e
    for j in range(1, 48):
        g = stab[c, j]
        if g < 0:
            break
        best = min(best, esep_conj[g, e])
    return np.int64(c) * NESEP + best


def h0_index(t: H0Tables, cp: np.ndarray, co: np.ndarray, ep: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the ``h0`` table indices of cubie arrays ``(B, 8)``, ``(B, 8)``, ``(B, 12)``."""
    v, e = cocsep_of(cp, co), esep_of(ep)
    k = t.classes
    return np.array([h0_entry(a, b, k.cls, k.sym, t.esep_conj, t.stab) for a, b in zip(v, e, strict=True)])


@njit(parallel=True, cache=True)
def _h0_layer(dist, depth, rep, cls, sym, cocsep_mv, esep_mv, esep_conj, stab):  # pragma: no cover - numba
    n = dist.shape[0]
    moves = cocsep_mv.shape[1]
    found = 0
    for i in prange(n):
        if dist[i] != depth:
            continue
        v = rep[i // NESEP]
        e = i % NESEP
        for m in range(moves):
            j = h0_entry(cocsep_mv[v, m], esep_mv[e, m], cls, sym, esep_conj, stab)
            if dist[j] == UNSEEN:
                dist[j] = depth + 1  # every thread writes the same value
                found += 1
    return found


def h0_distances(t: H0Tables, max_depth: int = 20) -> np.ndarray:
    """uint8 ``(entries,)``: each ``h0`` entry's distance to solved by breadth-first search, up to
    ``max_depth`` (``255`` beyond it)."""
    dist = np.full(t.entries, UNSEEN, dtype=np.uint8)
    k = t.classes
    solved = cocsep_of(np.arange(8)[None], np.zeros((1, 8), np.int64))[0]
    dist[h0_entry(solved, esep_of(np.arange(12)[None])[0], k.cls, k.sym, t.esep_conj, t.stab)] = 0
    for depth in range(max_depth):
        if not _h0_layer(dist, depth, k.rep, k.cls, k.sym, t.cocsep_mv, t.esep_mv, t.esep_conj, t.stab):
            break
    return dist


__all__ = [
    "COCSEP_CLASSES",
    "CocsepClasses",
    "H0Tables",
    "NCOCSEP",
    "NESEP",
    "cocsep_classes",
    "cocsep_cubies",
    "cocsep_of",
    "esep_cubies",
    "esep_of",
    "h0_distances",
    "h0_entry",
    "h0_index",
    "h0_tables",
    "stabilisers",
    "sym48",
]
