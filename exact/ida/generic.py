"""IDA* over any move table, with any heuristic that has a numba ``kernel``
(:mod:`exact.heuristic`).

The state is kept one row per depth (a child is its parent's row permuted), so undoing a move is
going up a row and the kernel can stop after a node budget and resume (the driver,
:func:`exact.ida.solve.deepen`, checks time and node limits between budgets). Move pruning: the
pairs of :func:`exact.timeindexed.move_rules` (never a move and its inverse in a row; for tables
with axes, commuting moves in one order). Guards are checked on the parent's row. The puzzle's
own fast kernels (tiles, cube) are registered specialisations of the same driver.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from exact.ida.search import EXHAUSTED, FOUND, PAUSED, ResumableSearch
from exact.logs import get_logger
from exact.movetable import MoveTable
from exact.timeindexed import move_rules


@functools.lru_cache(maxsize=1)
def _uncached():
    """``_search`` compiled afresh, not from numba's on-disk cache. That cache keys a kernel by its
    own file only: a heuristic kernel it calls, changed in another file (an upgrade, an edited
    checkout), leaves a stale entry whose load fails with KeyError or ReferenceError (seen here).
    The search then goes on with a fresh compile and says so once."""
    get_logger(__name__).warning(
        "numba's cached IDA* kernel is stale (a heuristic kernel changed); compiling it afresh for this process"
    )
    return njit(cache=False)(_SEARCH_SOURCE)


@njit(cache=True)
def _search(
    rows, depth, tried, path, acc, bound, budget, perms, gpos, gval, forbid, goal, gidx, hfun, hargs
):  # pragma: no cover
    moves = perms.shape[0]
    p = rows.shape[1]
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
        tried[d] = m + 1
        if d > 0 and forbid[path[d - 1], m]:
            continue
        ok = True
        for g in range(gpos.shape[1]):
            q = gpos[m, g]
            if q >= 0 and rows[d, q] != gval[m, g]:
                ok = False
                break
        if not ok:
            continue
        for i in range(p):
            rows[d + 1, i] = rows[d, perms[m, i]]
        nodes += 1
        h = hfun(rows[d + 1], hargs)
        f = d + 1 + h
        if f > bound:
            if f < acc[0]:
                acc[0] = f
            continue
        path[d] = m
        if h == 0:
            same = True
            for j in range(gidx.shape[0]):
                i = gidx[j]
                if rows[d + 1, i] != goal[i]:
                    same = False
                    break
            if same:
                depth[0] = d + 1
                return FOUND, nodes
        acc[1] += 1  # this node will be expanded
        depth[0] = d + 1
        tried[d + 1] = 0


_SEARCH_SOURCE = _search.py_func  # the Python source of the kernel, for _uncached


class GenericSearch(ResumableSearch):
    """The resumable state of one IDA* run over a move table (made by :meth:`create`)."""

    @classmethod
    def create(
        cls, table: MoveTable, goal: np.ndarray, start: np.ndarray, kernel: tuple, max_depth: int = 200,
        goal_positions: np.ndarray | None = None,
    ) -> GenericSearch:  # fmt: skip
        """The search at the root of ``start``; ``kernel`` is the heuristic's ``(fn, args)``; a
        node whose ``h`` is 0 is a goal when its ``goal_positions`` (default: all) hold ``goal``'s
        labels (a partial goal, :mod:`exact.goals`)."""
        self = cls()
        self.rows = np.zeros((max_depth + 2, table.num_positions), dtype=np.uint8)
        self.rows[0] = start
        self._stack(max_depth + 2)
        self.perms = np.ascontiguousarray(table.perms, dtype=np.int64)
        self.gpos = np.ascontiguousarray(table.guard_pos, dtype=np.int64).reshape(table.num_moves, -1)
        self.gval = np.ascontiguousarray(table.guard_val, dtype=np.int64).reshape(table.num_moves, -1)
        self.forbid = np.zeros((table.num_moves, table.num_moves), dtype=np.bool_)
        for a, b in move_rules(table).pairs:
            self.forbid[a, b] = True
        self.goal = np.asarray(goal, dtype=np.uint8)
        every = np.arange(table.num_positions)
        self.gidx = np.ascontiguousarray(every if goal_positions is None else goal_positions, dtype=np.int64)
        self.hfun, self.hargs = kernel
        self.root_h = int(self.hfun(self.rows[0], self.hargs))
        return self

    def run(self, bound: int, budget: int) -> tuple[int, int]:
        args = (self.rows, self.depth, self.tried, self.path, self.acc, bound, budget,
                self.perms, self.gpos, self.gval, self.forbid, self.goal, self.gidx, self.hfun, self.hargs)  # fmt: skip
        try:
            code, nodes = _search(*args)
        except (KeyError, ReferenceError):
            code, nodes = _uncached()(*args)
        return int(code), int(nodes)

    def moves(self) -> list[int]:
        return [int(m) for m in self.path[: int(self.depth[0])]]
