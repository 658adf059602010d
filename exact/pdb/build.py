"""Building tile pattern databases: 0-1 breadth-first search over the pattern's states.

A state is the cells of the pattern tiles and of the blank (see :mod:`exact.pdb.pattern`). The
blank moves to a neighbour cell; when that cell holds a pattern tile, the tile slides and the
move costs 1, otherwise it costs 0 (a tile of another pattern moved, which that pattern counts).
So the distances of disjoint patterns add up to a lower bound (Korf & Felner's additive PDBs).
The search goes by cost layers: first every state of cost ``d`` reachable by free moves (a
queue), then the cost-1 moves out of them seed layer ``d + 1``. The table keeps, for each
placement of the pattern tiles, the least cost over the blank's cells.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from exact.pdb.pattern import TilePattern
from exact.ranking import partial_rank_row, partial_unrank_row

UNSEEN = 255


def neighbours(rows: int, cols: int) -> np.ndarray:
    """int64 ``(n, 4)``: the cell the blank reaches going U, D, L, R from each cell, or -1."""
    n = rows * cols
    out = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, k = divmod(c, cols)
        for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
            if 0 <= r + dr < rows and 0 <= k + dc < cols:
                out[c, d] = (r + dr) * cols + k + dc
    return out


@njit(cache=True)
def _layer(dist, cur, ncur, nxt, depth, n, k1, nbr):  # pragma: no cover - numba
    """Close layer ``depth`` under free moves (appending to ``cur``), then seed the next layer.

    Returns (states in this layer, states seeded into ``nxt``).
    """
    items = np.empty(k1, np.int64)
    digits = np.empty(k1, np.int64)
    chosen = np.empty(k1, np.int64)
    occ = np.full(n, -1, np.int64)
    nn = 0
    i = 0
    while i < ncur:
        s = cur[i]
        i += 1
        partial_unrank_row(s, n, items, digits, chosen)
        for j in range(k1):
            occ[items[j]] = j
        blank = items[k1 - 1]
        for d in range(4):
            t = nbr[blank, d]
            if t < 0:
                continue
            j = occ[t]
            items[k1 - 1] = t
            if j >= 0:
                items[j] = blank
            r = partial_rank_row(items, n)
            if dist[r] == 255:
                if j < 0:  # a free move: same layer
                    dist[r] = depth
                    cur[ncur] = r
                    ncur += 1
                else:
                    dist[r] = depth + 1
                    nxt[nn] = r
                    nn += 1
            items[k1 - 1] = blank
            if j >= 0:
                items[j] = t
        for j in range(k1):
            occ[items[j]] = -1
    return ncur, nn


def build_tile_pattern(pattern: TilePattern, advance: Callable[[int], None] | None = None) -> np.ndarray:
    """The table of ``pattern``: uint8 ``(pattern.entries,)``, the least number of pattern-tile
    moves that bring the pattern tiles home, whatever the other tiles do.

    Args:
        pattern: The pattern.
        advance: Progress callback, called with the number of states settled in each layer
            (``pattern.states`` in total).
    """
    n, k = pattern.cells, len(pattern.tiles)
    dist = np.full(pattern.states, UNSEEN, dtype=np.uint8)
    cur = np.empty(pattern.states, dtype=np.int64)
    nxt = np.empty(pattern.states, dtype=np.int64)
    goal = np.array(list(pattern.tiles) + [0], dtype=np.int64)  # tile v home at cell v, blank at 0
    g = int(partial_rank_row(goal, n))
    dist[g] = 0
    cur[0] = g
    ncur, depth = 1, 0
    nbr = neighbours(pattern.rows, pattern.cols)
    while ncur:
        if depth >= UNSEEN - 1:  # pragma: no cover - no tile board is this deep
            raise OverflowError("pattern distances exceed 254")
        done, nn = _layer(dist, cur, ncur, nxt, depth, n, k + 1, nbr)
        if advance is not None:
            advance(int(done))
        cur, nxt = nxt, cur
        ncur, depth = nn, depth + 1
    del cur, nxt
    return dist.reshape(pattern.entries, n - k).min(axis=1)
