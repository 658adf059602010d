"""IDA* for the 3x3x3 with Korf's pattern databases, in numba.

The state is tracked piece by piece (:mod:`exact.cube.pdb`), one row per depth, so that undoing
a move is going up a row. Move pruning uses the project's move rules
(:func:`exact.timeindexed.move_rules`): never the same face twice in a row, opposite faces in
one order. ``h = max`` of the three tables (4-bit packed). Like the tile search, the kernel
stops after a node budget and resumes, so limits are checked between budgets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exact.cube.pdb import pattern_rank
from exact.ida.search import EXHAUSTED, FOUND, PAUSED, ResumableSearch


@njit(cache=True)
def _nibble(data, i):  # pragma: no cover - numba
    b = data[i >> 1]
    return (b >> 4) if (i & 1) else (b & 15)


@njit(cache=True)
def _free(pieces, slots):  # pragma: no cover - numba
    """Orientations in the rank: with all pieces, the last follows from the others."""
    k = pieces.shape[0]
    return k - 1 if k == slots else k


@njit(cache=True)
def _lookup(data, pos, ori, pieces, slots, base):  # pragma: no cover - numba
    return _nibble(data, pattern_rank(pos, ori, pieces, slots, base, _free(pieces, slots)))


@njit(cache=True)
def cube_h(cpos, cori, epos, eori, corners, cpieces, edges_a, apieces, edges_b, bpieces):  # pragma: no cover
    h = _lookup(corners, cpos, cori, cpieces, 8, 3)
    a = _lookup(edges_a, epos, eori, apieces, 12, 2)
    if a > h:
        h = a
    b = _lookup(edges_b, epos, eori, bpieces, 12, 2)
    if b > h:
        h = b
    return np.int64(h)


@njit(cache=True)
def _search(
    cp,
    co,
    ep,
    eo,
    depth,
    tried,
    path,
    acc,
    bound,
    budget,
    forbid,
    ch,
    cto,
    ctw,
    eto,
    eflip,
    corners,
    cpieces,
    edges_a,
    apieces,
    edges_b,
    bpieces,
):  # pragma: no cover - numba
    moves = cto.shape[0]
    cfree = _free(cpieces, 8)
    nodes = 0
    while True:
        if nodes >= budget:
            return PAUSED, nodes
        d = depth[0]
        if tried[d] >= moves:
            if d == 0:
                return EXHAUSTED, nodes
            depth[0] = d - 1
            continue
        m = tried[d]
        if m == 0:
            # First visit of this node: the corner values of all its children at once, ranks
            # first and table reads after, so that the reads (cache misses) overlap. Row d + 1
            # is the scratch; it is written again below for the child taken.
            for c in range(moves):
                if d > 0 and forbid[path[d - 1], c]:
                    continue
                for i in range(8):
                    s = cp[d, i]
                    cp[d + 1, i] = cto[c, s]
                    t = co[d, i] + ctw[c, s]
                    co[d + 1, i] = t - 3 if t >= 3 else t
                ch[d, c] = pattern_rank(cp[d + 1], co[d + 1], cpieces, 8, 3, cfree)
            for c in range(moves):
                if d == 0 or not forbid[path[d - 1], c]:
                    ch[d, c] = _nibble(corners, ch[d, c])
        tried[d] = m + 1
        if d > 0 and forbid[path[d - 1], m]:
            continue
        nodes += 1
        # the corners first, then each edge table only if the node is still inside the bound:
        # most children are cut by the corners, and each edge lookup is a cache miss
        f = d + 1 + ch[d, m]
        if f <= bound:
            for i in range(8):
                s = cp[d, i]
                cp[d + 1, i] = cto[m, s]
                t = co[d, i] + ctw[m, s]
                co[d + 1, i] = t - 3 if t >= 3 else t
            for i in range(12):
                s = ep[d, i]
                ep[d + 1, i] = eto[m, s]
                eo[d + 1, i] = eo[d, i] ^ eflip[m, s]
            f = max(f, d + 1 + _lookup(edges_a, ep[d + 1], eo[d + 1], apieces, 12, 2))
            if f <= bound:
                f = max(f, d + 1 + _lookup(edges_b, ep[d + 1], eo[d + 1], bpieces, 12, 2))
        if f > bound:
            if f < acc[0]:
                acc[0] = f
            continue
        h = f - d - 1
        path[d] = m
        if h == 0:
            solved = True
            for i in range(8):
                if cp[d + 1, i] != i or co[d + 1, i] != 0:
                    solved = False
            for i in range(12):
                if ep[d + 1, i] != i or eo[d + 1, i] != 0:
                    solved = False
            if solved:
                depth[0] = d + 1
                return FOUND, nodes
        acc[1] += 1  # this node will be expanded
        depth[0] = d + 1
        tried[d + 1] = 0


class CubeSearch(ResumableSearch):
    """The resumable state of one IDA* run on a 3x3x3 (made by :meth:`create`)."""

    @classmethod
    def create(cls, pos_ori, cubie_moves, forbid, tables, max_depth: int = 40) -> CubeSearch:
        """``pos_ori``: (corner pos, corner ori, edge pos, edge ori) of the start, piece by piece;
        ``tables``: (corner data, corner pieces, edges-a data, pieces, edges-b data, pieces)."""
        self = cls()
        rows = max_depth + 2
        self.cp = np.zeros((rows, 8), np.int64)
        self.co = np.zeros((rows, 8), np.int64)
        self.ep = np.zeros((rows, 12), np.int64)
        self.eo = np.zeros((rows, 12), np.int64)
        self.cp[0], self.co[0], self.ep[0], self.eo[0] = pos_ori
        self._stack(rows)
        self.forbid = forbid
        self.ch = np.zeros((rows, forbid.shape[1]), np.int64)  # corner values of a node's children
        self.cm = (cubie_moves.corner_to, cubie_moves.corner_twist, cubie_moves.edge_to, cubie_moves.edge_flip)
        self.tables = tables
        self.root_h = int(cube_h(self.cp[0], self.co[0], self.ep[0], self.eo[0], *tables))
        return self

    def run(self, bound: int, budget: int) -> tuple[int, int]:
        code, nodes = _search(
            self.cp,
            self.co,
            self.ep,
            self.eo,
            self.depth,
            self.tried,
            self.path,
            self.acc,
            bound,
            budget,
            self.forbid,
            self.ch,
            *self.cm,
            *self.tables,
        )
        return int(code), int(nodes)

    def moves(self) -> list[int]:
        return [int(m) for m in self.path[: int(self.depth[0])]]
