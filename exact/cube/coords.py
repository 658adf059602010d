"""Coordinates of the 3x3x3 in Kociemba's manner, and their move tables (issue 27's groundwork).

A coordinate numbers one aspect of the pieces (:mod:`exact.puzzles.cube.cubies` slots: corners
URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB DR DF DL DB FR FL BL BR; ``perm[s]`` the piece
in slot ``s``, ``ori[s]`` its orientation):

* ``twist``: the orientations of the corners in slots 0..6, base 3 (the eighth follows): 0..2186;
* ``flip``: the orientations of the edges in slots 0..10, base 2: 0..2047;
* ``slice``: which 4 slots hold the UD-slice edges (FR FL BL BR, pieces 8..11), in the
  combinatorial number system (colex rank of the sorted slots): 0..494;
* ``corners``: the corner permutation, ranked by :func:`exact.ranking.permutation_rank`: 0..40319;
* ``slicesorted``: the slots of the UD-slice edges and their order: ``slice * 24 + r`` with ``r``
  the :func:`~exact.ranking.permutation_rank` of the slice pieces read in slot order: 0..11879.

A move table ``T[c, m]`` is the coordinate after move ``m`` of any cube whose coordinate is ``c``
(each coordinate is a function of the pieces it counts, which every move maps on its own). The
moves are those of a 3x3x3 face-move table (:func:`exact.puzzles.cube.cubie_moves` reads them).
:func:`distances` gives each coordinate's distance to solved by BFS over its table: a lower
bound on the cube's own distance (the coordinate of a solved cube is the solved one, and a
solution moves every coordinate along its table).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.cubies import CubieMoves, cubie_moves, read_cubies
from exact.ranking import permutation_rank, permutation_unrank

SIZES = {"twist": 3**7, "flip": 2**11, "slice": comb(12, 4), "corners": 40320, "slicesorted": comb(12, 4) * 24}
"""The number of values of each coordinate."""

_SLICE_PIECES = (8, 9, 10, 11)
_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(12)], dtype=np.int64)


# ------------------------------------------------------------------------------ encode / decode
def twist_of(co: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the twist of corner orientations ``(B, 8)``."""
    return (np.asarray(co, dtype=np.int64)[:, :7] * 3 ** np.arange(6, -1, -1)).sum(axis=1)


def twist_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 8)``: corner orientations of twists ``(B,)`` (the last makes the sum 0 mod 3)."""
    c = np.asarray(c, dtype=np.int64)
    co = (c[:, None] // 3 ** np.arange(6, -1, -1)) % 3
    return np.concatenate([co, (-co.sum(axis=1, keepdims=True)) % 3], axis=1)


def flip_of(eo: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the flip of edge orientations ``(B, 12)``."""
    return (np.asarray(eo, dtype=np.int64)[:, :11] << np.arange(10, -1, -1)).sum(axis=1)


def flip_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 12)``: edge orientations of flips ``(B,)`` (the last makes the sum even)."""
    c = np.asarray(c, dtype=np.int64)
    eo = (c[:, None] >> np.arange(10, -1, -1)) & 1
    return np.concatenate([eo, eo.sum(axis=1, keepdims=True) % 2], axis=1)


def slice_of(ep: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the slice coordinate of edge permutations ``(B, 12)``."""
    occupied = np.isin(np.asarray(ep), _SLICE_PIECES)  # (B, 12)
    slots = np.sort(np.nonzero(occupied)[1].reshape(-1, 4), axis=1)
    return _COMB[slots, np.arange(1, 5)].sum(axis=1)


def slice_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 12)``: an edge permutation for each slice coordinate ``(B,)``: the slice edges,
    in order, in the slots it names; the other edges, in order, in the rest."""
    c = np.asarray(c, dtype=np.int64)
    out = np.empty((len(c), 12), dtype=np.int64)
    for b, value in enumerate(c):
        slots, rest = [], int(value)
        for k in range(4, 0, -1):  # the largest slot s with comb(s, k) <= rest, greedily
            s = k - 1
            while s + 1 < 12 and comb(s + 1, k) <= rest:
                s += 1
            slots.append(s)
            rest -= comb(s, k)
        chosen = sorted(slots)
        others = [s for s in range(12) if s not in chosen]
        out[b, chosen] = _SLICE_PIECES
        out[b, others] = range(8)
    return out


def slicesorted_of(ep: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the sorted-slice coordinate of edge permutations ``(B, 12)``."""
    ep = np.asarray(ep)
    occupied = np.isin(ep, _SLICE_PIECES)
    order = ep[occupied].reshape(-1, 4) - 8  # the slice pieces in slot order
    return slice_of(ep) * 24 + permutation_rank(order.astype(np.uint8)).astype(np.int64)


def slicesorted_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 12)``: an edge permutation for each sorted-slice coordinate ``(B,)``."""
    c = np.asarray(c, dtype=np.int64)
    ep = slice_cubies(c // 24)
    order = permutation_unrank(c % 24, 4).astype(np.int64) + 8
    ep[np.isin(ep, _SLICE_PIECES)] = order.ravel()
    return ep


def corners_of(cp: np.ndarray) -> np.ndarray:
    """int64 ``(B,)``: the corner-permutation rank of ``(B, 8)``."""
    return permutation_rank(np.asarray(cp, dtype=np.uint8)).astype(np.int64)


def corners_cubies(c: np.ndarray) -> np.ndarray:
    """int64 ``(B, 8)``: corner permutations of ranks ``(B,)``."""
    return permutation_unrank(np.asarray(c, dtype=np.int64), 8).astype(np.int64)


# ------------------------------------------------------------------------------ moves
def _move_perm(perm: np.ndarray, to: np.ndarray) -> np.ndarray:
    out = np.empty_like(perm)
    out[:, to] = perm
    return out


def _move_ori(ori: np.ndarray, to: np.ndarray, add: np.ndarray, mod: int) -> np.ndarray:
    out = np.empty_like(ori)
    out[:, to] = (ori + add) % mod
    return out


@dataclass(frozen=True)
class CoordTables:
    """The move tables of the coordinates for one face-move table.

    Attributes:
        names: The move names (the face-move table's).
        twist, flip, slice, corners, slicesorted: int32 ``(size, M)``: coordinate after each move.
    """

    names: tuple[str, ...]
    twist: np.ndarray
    flip: np.ndarray
    slice: np.ndarray
    corners: np.ndarray
    slicesorted: np.ndarray

    def table(self, name: str) -> np.ndarray:
        if name not in SIZES:
            raise PuzzleoptError(f"unknown cube coordinate {name!r}; use one of {', '.join(SIZES)}")
        return getattr(self, name)


def coord_tables(table: MoveTable) -> CoordTables:
    """The coordinates' move tables for the moves of a 3x3x3 face-move table."""
    mv: CubieMoves = cubie_moves(table)
    twist = twist_cubies(np.arange(SIZES["twist"]))
    flip = flip_cubies(np.arange(SIZES["flip"]))
    edges = slice_cubies(np.arange(SIZES["slice"]))
    corners = corners_cubies(np.arange(SIZES["corners"]))
    sorted_edges = slicesorted_cubies(np.arange(SIZES["slicesorted"]))
    cols = {k: [] for k in SIZES}
    for m in range(table.num_moves):
        cols["twist"].append(twist_of(_move_ori(twist, mv.corner_to[m], mv.corner_twist[m], 3)))
        cols["flip"].append(flip_of(_move_ori(flip, mv.edge_to[m], mv.edge_flip[m], 2)))
        cols["slice"].append(slice_of(_move_perm(edges, mv.edge_to[m])))
        cols["corners"].append(corners_of(_move_perm(corners, mv.corner_to[m])))
        cols["slicesorted"].append(slicesorted_of(_move_perm(sorted_edges, mv.edge_to[m])))
    out = {k: np.stack(c, axis=1).astype(np.int32) for k, c in cols.items()}
    return CoordTables(tuple(table.names), **out)


def coordinates(state: np.ndarray) -> dict[str, int]:
    """The coordinates of a 3x3x3 facelet state (centres home)."""
    c = read_cubies(np.asarray(state), 3)
    return {
        "twist": int(twist_of(c.corner_ori[None])[0]),
        "flip": int(flip_of(c.edge_ori[None])[0]),
        "slice": int(slice_of(c.edge_perm[None])[0]),
        "corners": int(corners_of(c.corner_perm[None])[0]),
        "slicesorted": int(slicesorted_of(c.edge_perm[None])[0]),
    }


SOLVED = {
    "twist": 0,
    "flip": 0,
    "slice": int(slice_of(np.arange(12)[None])[0]),
    "corners": 0,
    "slicesorted": int(slicesorted_of(np.arange(12)[None])[0]),
}
"""The coordinates of the solved cube."""


def distances(tables: CoordTables, name: str) -> np.ndarray:
    """uint8 ``(size,)``: each value's distance to the solved one by BFS over the coordinate's
    move table (with the table's moves and their inverses; the face-move tables hold both)."""
    t = tables.table(name)
    dist = np.full(len(t), 255, dtype=np.uint8)
    frontier = np.array([SOLVED[name]])
    dist[frontier] = 0
    depth = 0
    while len(frontier):
        depth += 1
        kids = np.unique(t[frontier].ravel())
        kids = kids[dist[kids] == 255]
        dist[kids] = depth
        frontier = kids
    return dist
