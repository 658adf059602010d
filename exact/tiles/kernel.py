"""IDA* for the sliding tiles, in numba.

The search is an iterative deepening of depth-first searches bounded by ``f = g + h``
(Korf 1985). Move pruning: the blank never goes straight back. The depth-first search keeps its
whole state in arrays (the board, the tile cells, the move tried next at each depth), so the
kernel can stop after a node budget and resume where it stopped: time limits are checked
between budgets, and a limit ends with the proven lower bound (the current threshold: every
smaller one was searched to exhaustion).

With pattern databases the value of each pattern is kept per depth and only the pattern of the
moved tile is looked up again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exact.ida.search import EXHAUSTED, FOUND, PAUSED, ResumableSearch
from exact.puzzles.tiles.board import DIRECTIONS, OPPOSITE, neighbours
from exact.tiles.heuristic import (
    MODE_MANHATTAN_LC,
    MODE_PDB,
    TileHeuristic,
    line_conflicts,
    manhattan_lc,
    pattern_value,
)


@njit(cache=True)
def _h_full(
    board, pos, hp, hm, d, buf, mode, cols, pat_tiles, pat_k, pat_off, tables, tile_pat, mirror, tcell, md
):  # pragma: no cover
    n = board.shape[0]
    if mode != MODE_PDB:
        # Manhattan: hp[d, 0] holds h, and with linear conflicts hp[d, 1 + line] each line's term
        # (rows, then columns), so that a move recomputes only the two lines it changes
        h = manhattan_lc(board, cols, md, False)
        if mode == MODE_MANHATTAN_LC:
            rows = n // cols
            vals = np.empty(max(rows, cols), np.int64)
            for line in range(rows + cols):
                across = line >= rows
                hp[d, 1 + line] = line_conflicts(board, cols, line - rows if across else line, across, vals)
                h += hp[d, 1 + line]
        hp[d, 0] = h
        return h
    a = 0
    b = 0
    for p in range(pat_k.shape[0]):
        hp[d, p] = pattern_value(p, pos, False, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
        a += hp[d, p]
        if mirror:
            hm[d, p] = pattern_value(p, pos, True, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
            b += hm[d, p]
    return max(a, b)


@njit(cache=True)
def _search(
    board,
    pos,
    blank,
    depth,
    tried,
    path,
    hp,
    hm,
    acc,
    bound,
    budget,
    nbr,
    opp,
    mode,
    cols,
    pat_tiles,
    pat_k,
    pat_off,
    tables,
    tile_pat,
    mirror,
    tcell,
    md,
):  # pragma: no cover
    """Run the bounded depth-first search for at most ``budget`` generated nodes.

    ``blank``, ``depth`` and ``acc`` (the least pruned f) are one-element arrays, updated in
    place. Returns (code, nodes).
    """
    n = board.shape[0]
    rows = n // cols
    buf = np.empty(max(pat_tiles.shape[1], 1), np.int64)
    vals = np.empty(max(rows, cols), np.int64)
    nodes = 0
    while True:
        if nodes >= budget:
            return PAUSED, nodes
        d = depth[0]
        if tried[d] >= 4:
            if d == 0:
                return EXHAUSTED, nodes
            # undo the move into this node: the blank goes back
            b = blank[0]
            t = nbr[b, opp[path[d - 1]]]
            tile = board[t]
            board[b] = tile
            pos[tile] = b
            board[t] = 0
            blank[0] = t
            depth[0] = d - 1
            continue
        k = tried[d]
        tried[d] = k + 1
        if d > 0 and k == opp[path[d - 1]]:
            continue
        b = blank[0]
        t = nbr[b, k]
        if t < 0:
            continue
        tile = board[t]
        board[b] = tile
        pos[tile] = b
        board[t] = 0
        blank[0] = t
        nodes += 1
        if mode == MODE_PDB:
            p = tile_pat[tile]
            a = 0
            for q in range(pat_k.shape[0]):
                hp[d + 1, q] = hp[d, q]
            if p >= 0:
                hp[d + 1, p] = pattern_value(p, pos, False, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
            for q in range(pat_k.shape[0]):
                a += hp[d + 1, q]
            h = a
            # the reflected board is looked up only if the board's own sum keeps the node: a pruned
            # node has no children, so its row of reflected values is never read
            if mirror and d + 1 + a <= bound:
                c = 0
                for q in range(pat_k.shape[0]):
                    hm[d + 1, q] = hm[d, q]
                pm = tile_pat[tcell[tile]]
                if pm >= 0:
                    hm[d + 1, pm] = pattern_value(pm, pos, True, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
                for q in range(pat_k.shape[0]):
                    c += hm[d + 1, q]
                h = max(a, c)
        else:
            h = hp[d, 0] + md[tile, b] - md[tile, t]
            if mode == MODE_MANHATTAN_LC:
                for q in range(1, 1 + rows + cols):
                    hp[d + 1, q] = hp[d, q]
                # a tile moved along its row changes two columns, one moved along its column two rows
                across = t // cols == b // cols
                for j in range(2):
                    c = t if j == 0 else b
                    k2 = c % cols if across else c // cols  # the column (or row) through cell c
                    line = rows + k2 if across else k2
                    v = line_conflicts(board, cols, k2, across, vals)
                    h += v - hp[d + 1, 1 + line]
                    hp[d + 1, 1 + line] = v
            hp[d + 1, 0] = h
        f = d + 1 + h
        if f > bound:
            if f < acc[0]:
                acc[0] = f
            board[t] = tile
            pos[tile] = t
            board[b] = 0
            blank[0] = b
            continue
        path[d] = k
        if h == 0:
            goal = True
            for i in range(n):
                if board[i] != i:
                    goal = False
                    break
            if goal:
                depth[0] = d + 1
                return FOUND, nodes
        acc[1] += 1  # this node will be expanded
        depth[0] = d + 1
        tried[d + 1] = 0


class TileSearch(ResumableSearch):
    """The resumable state of one IDA* run on a tile board (made by :meth:`create`)."""

    @classmethod
    def create(cls, start: np.ndarray, heuristic: TileHeuristic, max_depth: int = 255) -> TileSearch:
        """The search at the root of ``start``, its heuristic evaluated."""
        self = cls()
        n = heuristic.rows * heuristic.cols
        self.h = heuristic
        self.board = np.asarray(start, dtype=np.uint8).copy()
        self.pos = np.empty(n, dtype=np.int64)
        self.pos[self.board] = np.arange(n)
        self.blank = np.array([int(self.pos[0])], dtype=np.int64)
        self._stack(max_depth + 2)
        npat = max(len(heuristic.pat_k), 1 + heuristic.rows + heuristic.cols)  # see _h_full
        self.hp = np.zeros((max_depth + 2, npat), dtype=np.int64)
        self.hm = np.zeros((max_depth + 2, npat), dtype=np.int64)
        self.nbr = neighbours(heuristic.rows, heuristic.cols)
        hh = heuristic
        buf = np.empty(max(hh.pat_tiles.shape[1], 1), np.int64)
        self.root_h = int(_h_full(self.board, self.pos, self.hp, self.hm, 0, buf, *heuristic.kernel_arrays()))
        blank = int(self.blank[0])
        self.parity = (blank // heuristic.cols + blank % heuristic.cols) % 2  # the blank's home is cell 0
        return self

    def run(self, bound: int, budget: int) -> tuple[int, int]:
        code, nodes = _search(
            self.board,
            self.pos,
            self.blank,
            self.depth,
            self.tried,
            self.path,
            self.hp,
            self.hm,
            self.acc,
            bound,
            budget,
            self.nbr,
            OPPOSITE,
            *self.h.kernel_arrays(),
        )
        return int(code), int(nodes)

    def moves(self) -> list[str]:
        return [DIRECTIONS[int(k)] for k in self.path[: int(self.depth[0])]]
