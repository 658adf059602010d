"""Building tile pattern databases: 0-1 breadth-first search over the pattern's states.

A state is the cells of the pattern tiles and of the blank (see :mod:`exact.tiles.pattern`). The
blank moves to a neighbour cell; when that cell holds a pattern tile, the tile slides and the
move costs 1, otherwise it costs 0 (a tile of another pattern moved, which that pattern counts).
So the distances of disjoint patterns add up to a lower bound (Korf & Felner's additive PDBs).
The search goes by cost layers: first every state of cost ``d`` reachable by free moves (the blank
flooding the cells of other tiles, within one placement of the pattern tiles), then the cost-1
moves out of them seed layer ``d + 1``. States are ranked placement-major (the blank's index among
the free cells last), so a placement's states are one row; both phases scan the rows in
parallel. The table keeps, for each placement, the least cost over the blank's cells.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit, prange

from exact.puzzles.tiles.board import neighbours
from exact.ranking import partial_rank_row, partial_unrank_row
from exact.tiles.pattern import TilePattern

UNSEEN = 255


@njit(cache=True, parallel=True)
def _close(dist, touched, depth, n, k, nbr):  # pragma: no cover - numba
    """Phase 1 of layer ``depth``: within each placement, flood the blank from every state of
    cost ``depth`` through the cells no pattern tile holds (free moves). Each placement's states
    are one row of ``dist`` and only that row is written, so rows run in parallel. Only rows
    that ``touched`` marks with ``depth`` (they got states of this cost) are read. Returns the
    number of states of cost ``depth``."""
    f = n - k
    rows = dist.shape[0] // f
    total = 0
    for p in prange(rows):
        if touched[p] != depth:
            continue
        base = p * f
        seeds = 0
        for i in range(f):
            if dist[base + i] == depth:
                seeds += 1
        if seeds == 0:
            continue
        items = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        chosen = np.empty(k, np.int64)
        partial_unrank_row(p, n, items, digits, chosen)
        digit_of = np.full(n, -1, np.int64)  # cell -> its index among the free cells, or -1
        cell_of = np.empty(f, np.int64)
        j = 0
        for c in range(n):
            if j < k and chosen[j] == c:
                j += 1
            else:
                digit_of[c] = c - j
                cell_of[c - j] = c
        stack = np.empty(f, np.int64)
        top = 0
        for i in range(f):
            if dist[base + i] == depth:
                stack[top] = i
                top += 1
        count = top
        while top > 0:
            top -= 1
            c = cell_of[stack[top]]
            for d in range(4):
                t = nbr[c, d]
                if t >= 0 and digit_of[t] >= 0 and dist[base + digit_of[t]] == UNSEEN:
                    dist[base + digit_of[t]] = depth
                    stack[top] = digit_of[t]
                    top += 1
                    count += 1
        total += count
    return total


@njit(cache=True, parallel=True)
def _advance(dist, touched, depth, n, k, nbr):  # pragma: no cover - numba
    """Phase 2 of layer ``depth``: from each state of cost ``depth``, slide a pattern tile into
    the blank (cost 1), give unseen successors ``depth + 1`` and mark their rows in ``touched``.
    Rows run in parallel; two rows may mark the same successor or row, but only ever with the
    same value (a row marked ``depth`` may be re-marked ``depth + 1`` meanwhile, so both are
    read)."""
    f = n - k
    rows = dist.shape[0] // f
    for p in prange(rows):
        if touched[p] != depth and touched[p] != depth + 1:
            continue
        base = p * f
        any_here = False
        for i in range(f):
            if dist[base + i] == depth:
                any_here = True
                break
        if not any_here:
            continue
        items = np.empty(k, np.int64)
        digits = np.empty(k, np.int64)
        chosen = np.empty(k, np.int64)
        partial_unrank_row(p, n, items, digits, chosen)
        tile_at = np.full(n, -1, np.int64)
        for j in range(k):
            tile_at[items[j]] = j
        below = np.empty(n, np.int64)  # free cells below each cell
        j = 0
        for c in range(n):
            below[c] = c - j
            if tile_at[c] >= 0:
                j += 1
        for c in range(n):
            if tile_at[c] >= 0 or dist[base + below[c]] != depth:
                continue
            for d in range(4):
                t = nbr[c, d]
                if t < 0 or tile_at[t] < 0:
                    continue
                j = tile_at[t]
                items[j] = c
                q = partial_rank_row(items, n)
                items[j] = t
                # the blank moves to t; the free cells are the old ones with c swapped for t
                digit = below[t] - (1 if c < t else 0)
                if dist[q * f + digit] == UNSEEN:
                    dist[q * f + digit] = depth + 1
                    touched[q] = depth + 1


def build_tile_pattern(pattern: TilePattern, advance: Callable[[int], None] | None = None) -> np.ndarray:
    """The table of ``pattern``: uint8 ``(pattern.entries,)``, the least number of pattern-tile
    moves that bring the pattern tiles home, whatever the other tiles do.

    Memory: one byte per builder state (``pattern.states``; 4.2 GB for 8 tiles of the
    15-puzzle) and one per placement, no queue: each layer scans the rows it reached.

    Args:
        pattern: The pattern.
        advance: Progress callback, called with the number of states settled in each layer
            (``pattern.states`` in total).
    """
    n, k = pattern.cells, len(pattern.tiles)
    dist = np.full(pattern.states, UNSEEN, dtype=np.uint8)
    touched = np.full(pattern.entries, UNSEEN, dtype=np.uint8)  # the last layer that reached each row
    goal = np.array(list(pattern.tiles) + [0], dtype=np.int64)  # tile v home at cell v, blank at 0
    g = int(partial_rank_row(goal, n))
    dist[g] = 0
    touched[g // (n - k)] = 0
    nbr = neighbours(pattern.rows, pattern.cols)
    depth = 0
    while True:
        if depth >= UNSEEN - 1:  # pragma: no cover - no tile board is this deep
            raise OverflowError("pattern distances exceed 254")
        done = _close(dist, touched, depth, n, k, nbr)
        if done == 0:
            break
        if advance is not None:
            advance(int(done))
        _advance(dist, touched, depth, n, k, nbr)
        depth += 1
    return dist.reshape(pattern.entries, n - k).min(axis=1)
