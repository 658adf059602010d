"""An optimal 3x3x3 solver on H48's ``hk`` tables (:mod:`exact.cube.h48table`): IDA* on the
pieces of the cube and of its inverse, each node's bound the largest of the corners' distance
(:func:`~exact.cube.h48table.corner_distances`) and the two lookups.

The inverse is kept by premoves (:func:`exact.cube.optkernel.inverse_move`), as H48 does, so no
node inverts a cube. The search is split into tasks, one per allowed two-move prefix, each a
resumable depth-first search run in a numba ``prange`` with a node budget a call, so the time
and node limits are looked at between calls. A node within the bound whose cube is solved ends
the search; the answer is replayed on the facelets before it is returned
(:meth:`exact.result.SolveResult.recorder`).

A node's first visit bounds all its children (:func:`_expand`), cheapest test first: the
corners' distance, with only the corners moved; the inverse's entry, which a half turn leaves as
it was (a half turn keeps the tetrads, the slices, every twist and flip, so premultiplying by one
moves no coordinate: the parent's bound is the child's, H48's tight-bound rule for half turns
falls out of it); the cube's own entry. Every pass prefetches its entries before it reads any.

The corners of the cube move by one read of a coordinate table (:func:`~exact.cube.h48table.corner_moves`),
and the edge part of an index is computed in one pass (:func:`~exact.cube.h48table.hk_edges`).

Not yet here (H48's other speed-ups): switching the search to the inverse's side, and a
fallback finer than the line minimum for entries that read ``0``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba import njit, prange

from exact.cube.h48 import NESEP
from exact.cube.h48table import (
    LINE,
    HkTable,
    _lookup_kit,
    apply_move,
    cocsep,
    corner_distances,
    corner_moves,
    fused_kit,
    hk_edges,
    lookup,
    move_edges,
)
from exact.cube.optimal import canonical_rules, inverse_cubies
from exact.cube.optkernel import inverse_corners, inverse_edges, inverse_move
from exact.cube.optkernel import solved_pieces as _solved
from exact.cube.solve import face_turn_start
from exact.errors import PuzzleoptError
from exact.ida.solve import recorder
from exact.memory import prefetch
from exact.progress import SearchProgress
from exact.puzzles.cube.cubies import cubie_moves, perm_parity, read_cubies
from exact.result import SolveResult, Status

if TYPE_CHECKING:
    from exact.puzzle import Puzzle

RUNNING, EXHAUSTED, FOUND = 0, 1, 2
TASK_BUDGET = 20_000
"""Generated nodes per task and call, between two looks at the clock."""


NEVER = 127
"""A child's bound that says "never tried" (a sequence the canonical rules skip)."""


@njit(cache=True, inline="always")
def _index(c, v, h, cls, sym, sinv, s_ek, ce, cm, comb):  # pragma: no cover - numba
    """The ``hk`` entry of cube ``c`` whose corner coordinate ``v`` is known."""
    return np.int64(cls[v]) * (NESEP << h) + hk_edges(c[16:28], c[28:40], sym[v], h, sinv, s_ek, ce, cm, comb)


@njit(cache=True, inline="always")
def _read(i, base, data, lines):  # pragma: no cover - numba
    """Entry ``i``'s lower bound: ``base`` plus its two bits, or its line's minimum where they are 0."""
    bits = (data[i >> 2] >> ((i & 3) * 2)) & 3
    if bits:
        return np.int64(base + bits)
    return np.int64(lines[i // LINE])


@njit(cache=True)
def _expand(  # pragma: no cover - numba
    d, left, c, cv, iv, hi, pa, vl, ki, kid, ix, jx, forbid, forbid3, half, cdist, cmove, cto, ctw, eto, eflip, h, base,
    data, lines, tetrad, comb, cls, sym, sinv, s_ek, ce, cm,
):  # fmt: skip
    """Every child's bound of the node at depth ``d`` into ``vl[d]`` (``NEVER`` for a sequence
    never tried) and its inverse's into ``ki[d]``, in passes: the corners' distances, then the
    inverses' entries, then the cubes' own, each pass only for the children the earlier ones left
    inside the bound, and each prefetching every entry before it reads one, so that the cache
    misses of the children overlap."""
    nm = cto.shape[0]
    for x in range(nm):
        ix[x] = -1
        if (d > 0 and forbid[pa[d - 1], x]) or (d > 1 and forbid3[pa[d - 2], pa[d - 1], x]):
            vl[d, x] = NEVER
            continue
        v = cmove[cv[d], x]
        jx[x] = v  # the child's corner coordinate, kept for its own entry below
        f = np.int64(cdist[v])
        if half[x]:  # the inverse's entry is the parent's: no lookup
            g = hi[d]
        else:
            inverse_corners(iv[d], kid, x, cto, ctw)
            w = cocsep(kid, tetrad, comb)
            g = np.int64(cdist[w])
            if max(f, g) <= left:
                inverse_edges(iv[d], kid, x, eto, eflip)
                ix[x] = _index(kid, w, h, cls, sym, sinv, s_ek, ce, cm, comb)
                prefetch(data, ix[x] >> 2)
        vl[d, x] = max(f, g)
        ki[d, x] = g
    for x in range(nm):
        v = jx[x]
        jx[x] = -1
        if vl[d, x] > left:
            continue
        if ix[x] >= 0:
            g = _read(ix[x], base, data, lines)
            if g > ki[d, x]:
                ki[d, x] = g
            if g > vl[d, x]:
                vl[d, x] = g
                if g > left:
                    continue
        move_edges(c[d], kid, x, eto, eflip)  # the corners' coordinate ``v`` is the first pass's
        jx[x] = _index(kid, v, h, cls, sym, sinv, s_ek, ce, cm, comb)
        prefetch(data, jx[x] >> 2)
    for x in range(nm):
        if jx[x] >= 0:
            f = _read(jx[x], base, data, lines)
            if f > vl[d, x]:
                vl[d, x] = f


@njit(cache=True)
def _task(  # pragma: no cover - numba
    t, cube, cvs, inv, hinv, val, kinv, tried, path, depth, status, minf, nodes, start, bound, budget, forbid, forbid3,
    half, cdist, cmove, cto, ctw, eto, eflip, h, base, data, lines, tetrad, comb, cls, sym, sinv, s_ek, ce, cm,
):  # fmt: skip
    """Up to ``budget`` more generated nodes of task ``t``'s depth-first search. A node's first
    visit bounds all its children at once (:func:`_expand`); each child is refuted as cheaply as
    can be: by its corners' distance (the corners moved alone), by its inverse's entry (a half
    turn, which the coordinate cannot see as a premove, keeps the parent's: no lookup), by its
    own entry."""
    c = cube[t]
    cv = cvs[t]
    iv = inv[t]
    hi = hinv[t]
    vl = val[t]
    ki = kinv[t]
    tr = tried[t]
    pa = path[t]
    nm = cto.shape[0]
    kid = np.empty(40, np.uint8)
    ix = np.empty(nm, np.int64)
    jx = np.empty(nm, np.int64)
    done = 0
    while done < budget:
        d = depth[t]
        m = tr[d]
        if m >= nm:
            if d == start:
                status[t] = EXHAUSTED
                break
            depth[t] = d - 1
            continue
        left = bound - d - 1
        if m == 0:
            _expand(d, left, c, cv, iv, hi, pa, vl, ki, kid, ix, jx, forbid, forbid3, half, cdist, cmove, cto, ctw, eto,
                    eflip, h, base, data, lines, tetrad, comb, cls, sym, sinv, s_ek, ce, cm)  # fmt: skip
        tr[d] = m + 1
        f = vl[d, m]
        if f == NEVER:
            continue
        done += 1
        if f > left:
            if d + 1 + f < minf[t]:
                minf[t] = d + 1 + f
            continue
        apply_move(c[d], c[d + 1], m, cto, ctw, eto, eflip)
        cv[d + 1] = cmove[cv[d], m]
        pa[d] = m
        if left == 0:
            if _solved(c[d + 1]):
                depth[t] = d + 1
                status[t] = FOUND
                break
            continue
        inverse_move(iv[d], iv[d + 1], m, cto, ctw, eto, eflip)
        hi[d + 1] = ki[d, m]
        depth[t] = d + 1
        tr[d + 1] = 0
    nodes[t] += done


@njit(cache=True, parallel=True)
def run_tasks(  # pragma: no cover - numba
    active, cube, cvs, inv, hinv, val, kinv, tried, path, depth, status, minf, nodes, start, bound, budget, forbid,
    forbid3, half, cdist, cmove, cto, ctw, eto, eflip, h, base, data, lines, tetrad, comb, cls, sym, sinv, s_ek, ce,
    cm,
):  # fmt: skip
    """Give each task in ``active`` up to ``budget`` more generated nodes of this iteration."""
    for i in prange(active.shape[0]):
        _task(
            active[i], cube, cvs, inv, hinv, val, kinv, tried, path, depth, status, minf, nodes, start, bound,
            budget, forbid, forbid3, half, cdist, cmove, cto, ctw, eto, eflip, h, base, data, lines, tetrad, comb,
            cls, sym, sinv, s_ek, ce, cm,
        )  # fmt: skip


def half_turns(cto: np.ndarray, eto: np.ndarray) -> np.ndarray:
    """bool ``(M,)``: the moves that are their own inverse (a face's half turn), which keep the
    ``hk`` coordinate of a cube they premultiply: they keep the tetrads, the slices, every twist
    and every flip."""
    return np.array([(c[c] == np.arange(8)).all() and (e[e] == np.arange(12)).all() and (c != np.arange(8)).any()
                     for c, e in zip(cto, eto, strict=True)])  # fmt: skip


class _Search:
    """The two-move prefixes of one cube and their depth-first stacks."""

    def __init__(self, puzzle: Puzzle, table: HkTable, pieces: np.ndarray, rows: int) -> None:
        mv = cubie_moves(puzzle.table)
        self.moves = (mv.corner_to, mv.corner_twist, mv.edge_to, mv.edge_flip)
        self.forbid, self.forbid3 = canonical_rules(puzzle.table)
        self.table = table
        self.kit = _lookup_kit()
        m = self.forbid.shape[0]
        self.first = np.array([(a, b) for a in range(m) for b in range(m) if not self.forbid[a, b]], np.int64)
        n = len(self.first)
        self.cube = np.zeros((n, rows, 40), np.uint8)
        self.inv = np.zeros((n, rows, 40), np.uint8)
        self.cube[:, 0] = pieces
        self.inv[:, 0] = inverse_cubies(pieces.astype(np.int64))  # its -co needs a signed type
        for t, (a, b) in enumerate(self.first):
            for d, x in ((0, a), (1, b)):
                apply_move(self.cube[t, d], self.cube[t, d + 1], x, *self.moves)
                inverse_move(self.inv[t, d], self.inv[t, d + 1], x, *self.moves)
        self.half = half_turns(mv.corner_to, mv.edge_to)
        self.cdist = corner_distances(mv.corner_to, mv.corner_twist)
        self.cmove = corner_moves(mv.corner_to, mv.corner_twist)
        tetrad, comb = self.kit[:2]
        self.cv = np.array([[cocsep(self.cube[t, d], tetrad, comb) if d < 3 else 0 for d in range(rows)]
                            for t in range(n)], np.int64)  # fmt: skip
        self.h = np.array([[max(self.bound_of(self.cube[t, d]), self.bound_of(self.inv[t, d])) for d in (1, 2)]
                           for t in range(n)])  # fmt: skip
        self.hinv = np.zeros((n, rows), np.int64)
        self.hinv[:, 2] = [self.bound_of(self.inv[t, 2]) for t in range(n)]
        self.val = np.zeros((n, rows, m), np.int64)
        self.kinv = np.zeros((n, rows, m), np.int64)
        self.tried = np.zeros((n, rows), np.int64)
        self.path = np.zeros((n, rows), np.int64)
        self.path[:, :2] = self.first
        self.depth = np.zeros(n, np.int64)
        self.status = np.zeros(n, np.int64)
        self.minf = np.zeros(n, np.int64)
        self.nodes = np.zeros(n, np.int64)

    def bound_of(self, c: np.ndarray) -> int:
        """The lower bound for one cube (uint8 ``(40,)``): its table entry's, its corners'."""
        t = self.table
        found = lookup(c, t.h, t.base, t.data, t.lines, *self.kit, np.empty(12, np.uint8), np.empty(12, np.uint8))
        return max(int(found), int(self.cdist[cocsep(c, self.kit[0], self.kit[1])]))

    def restart(self, bound: int) -> None:
        self.depth[:] = 2
        self.tried[:, 2] = 0
        self.minf[:] = np.iinfo(np.int64).max
        self.status[:] = RUNNING
        for d in (1, 2):
            cut = (self.status == RUNNING) & (d + self.h[:, d - 1] > bound)
            self.status[cut] = EXHAUSTED
            self.minf[cut] = d + self.h[cut, d - 1]

    def run(self, active: np.ndarray, bound: int, budget: int) -> None:
        t = self.table
        tetrad, comb, cls, sym, _, s_ek, _, _ = self.kit
        sinv, ce, cm = fused_kit()
        run_tasks(active, self.cube, self.cv, self.inv, self.hinv, self.val, self.kinv, self.tried, self.path,
                  self.depth, self.status, self.minf, self.nodes, 2, bound, budget, self.forbid, self.forbid3,
                  self.half, self.cdist, self.cmove, *self.moves, t.h, t.base, t.data, t.lines, tetrad, comb, cls,
                  sym, sinv, s_ek, ce, cm)  # fmt: skip

    def short(self, bound: int) -> list[int] | None:
        """A solution of 1 or 2 moves (the tasks start below two-move prefixes), if there is one."""
        for t, (a, b) in enumerate(self.first):
            if bound == 1 and _solved(self.cube[t, 1]):
                return [int(a)]
            if bound == 2 and _solved(self.cube[t, 2]):
                return [int(a), int(b)]
        return None


def h48_cube(
    puzzle: Puzzle,
    start: np.ndarray,
    *,
    table: HkTable,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop_at: int | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> SolveResult:
    """A shortest solution of a 3x3x3 (face moves, HTM or QTM), proven optimal, on an ``hk`` table.

    Args:
        puzzle: ``cube3`` with the ``faces`` move set.
        start: Facelet state ``(54,)``, centres home.
        table: The metric's ``hk`` table (:func:`exact.cube.h48table.spec`, :func:`~exact.cube.h48table.split`).
        time_limit: Seconds; ``node_limit``: generated nodes; ``None`` for none. Either ends in
            ``limit`` with the proven lower bound.
        stop_at: End (as at a limit) once every length below it is refuted.
        threads: numba threads (``None``: numba's current setting).
        progress: show the search's bound, nodes and rate.
    """
    metric, start = face_turn_start(puzzle, start, "the H48 solver")
    settings = {"heuristic": f"h48 h{table.h} (base {table.base}), the cube and its inverse", "time_limit": time_limit,
                "node_limit": node_limit, "stop_at": stop_at, "threads": threads}  # fmt: skip
    t0 = time.perf_counter()
    done = recorder(puzzle, start, settings, t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    c = read_cubies(np.asarray(start), 3)
    pieces = np.concatenate([c.corner_perm, c.corner_ori, c.edge_perm, c.edge_ori]).astype(np.uint8)
    parity = perm_parity(pieces[:8]) if metric == "qtm" else None  # a quarter turn is odd on corners

    def threshold(b: int) -> int:
        return b + 1 if parity is not None and (b - parity) % 2 else b

    search = _Search(puzzle, table, pieces, 32)
    bound = threshold(max(1, search.bound_of(pieces), search.bound_of(search.inv[0, 0])))
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    nodes = 0
    try:
        with SearchProgress(f"cube3-h48 ({metric})", progress, unit="generated nodes") as watch:
            while True:
                if (stop_at is not None and bound >= stop_at) or bound > 30:
                    break
                if bound <= 2:
                    if (found := search.short(bound)) is not None:
                        return done(found, Status.OPTIMAL, len(found), nodes, {"generated": nodes})
                    bound = threshold(bound + 1)
                    continue
                found, complete = _iteration(search, bound, t0, time_limit, node_limit, watch)
                nodes = int(search.nodes.sum())
                if found is not None:
                    return done(found, Status.OPTIMAL, len(found), nodes, {"generated": nodes})
                if not complete:
                    break
                bound = threshold(int(search.minf.min()))
    finally:
        numba.set_num_threads(before)
    return done([], Status.LIMIT, bound, nodes, {"generated": nodes})


def _iteration(search: _Search, bound: int, t0, time_limit, node_limit, watch):
    """One bound's search: ``(moves, complete)``, moves ``None`` where none was found."""
    if bound + 2 > search.cube.shape[1]:
        raise PuzzleoptError(f"the H48 solver's stacks hold {search.cube.shape[1]} moves; bound {bound} is more")
    search.restart(bound)
    while True:
        active = np.flatnonzero(search.status == RUNNING)
        if not len(active):
            return None, True
        spent = int(search.nodes.sum())
        left = None if node_limit is None else node_limit - spent
        budget = TASK_BUDGET if left is None else min(TASK_BUDGET, left // len(active))
        if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
            return None, False
        search.run(active, bound, budget)
        watch.update(bound, int(search.nodes.sum()))
        hits = np.flatnonzero(search.status == FOUND)
        if len(hits):
            t = int(hits[0])  # the first task in move order: the same answer on any thread count
            return [int(x) for x in search.path[t, : search.depth[t]]], True
