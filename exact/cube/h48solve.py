"""An optimal 3x3x3 solver on H48's ``hk`` tables (:mod:`exact.cube.h48table`): IDA* on the
pieces of the cube and of its inverse, each node's bound the largest of the corners' distance
(:func:`~exact.cube.h48table.corner_distances`) and the two lookups.

The inverse is kept by premoves (:func:`exact.cube.optkernel.inverse_move`), as H48 does, so no
node inverts a cube. The search is split into tasks, one per canonical prefix of
:data:`PREFIX` moves (:func:`task_prefixes`), whose cubes and bounds are worked out once a solve
(:func:`prefix_cubes`). Each bound searches them in order of promise (:meth:`_Search.rank`: the
last bound's nodes of each, Chen Shuang's rule, as in H48): a few slots (:data:`SLOTS`), run in a
numba ``prange``, each take their share of that order and search one task at a time, a resumable
depth-first search with a node budget a call, so the time and node limits are looked at between
calls. On Tronto's 25 17-move cubes (h6, 2 threads) this cut the generated nodes from 722 M to
609 M against 243 two-move tasks searched side by side, and the time more, the slots' stacks
staying in the cache. A node within the bound whose cube is solved ends the search; the answer
is replayed on the facelets before it is returned (:meth:`exact.result.SolveResult.recorder`).

Each node searches from one side (:func:`_dfs`): its moves are made on the cube, or on the
inverse (premoves of the cube), whichever gives it fewer children, as H48 does. A node's first
visit bounds all its children at once, cheapest test first: the corners' distance, with
only the moving side's corners moved; the other side's entry, which a half turn leaves as it was
(a half turn keeps the tetrads, the slices, every twist and flip, so premultiplying by one moves
no coordinate: the parent's bound is the child's, so where that bound is tight no half turn is a
child, H48's tight-bound rule); the moving side's own entry. Every pass prefetches its entries
before it reads any, though on this machine the reads overlap as well without (one thread, the
17-move cubes: 4.54 against 4.41 M nodes/s with). A sampled profile (``perf record -e cpu-clock``
on one thread) puts about a quarter of the time on the big table's misses and about a tenth on
the corner-move table's: the search is bound by memory. The hot kernels count no references
(:func:`exact.memory.borrowed`) and take their max and min inlined (:func:`exact.memory.imax`):
the two cut the time of 6 17-move cubes by 23% (one thread, 6.43 -> 4.74 s, same nodes). The
search's steps are written out in one kernel, not called (:func:`_dfs`: 9.6% less time).
The inverse's side keeps the cube's canonical rules read backwards (:func:`backward_rules`), so
that no optimal answer is lost whichever side a node picks.

The corners move by one read of a coordinate table (:func:`~exact.cube.h48table.corner_moves`),
and the edge part of an index from three 12-bit slot masks, conjugated and ranked by table
(:func:`~exact.cube.h48table.hk_edges`).

Where an entry reads ``0``, the line minimum is its floor, and with a table's ``fallback``
(:mod:`exact.cube.eoesep`, H48's edge-orientation x slice-separation table) the larger of the
two: optional, since with ``h6`` it saved nodes but no time (see that module). Measured
against H48 run here on 8 17-move cubes with ``h2`` (2026-11-29, ``stop_at=17``, one thread): the
bounds below 17 took 1.08 to 1.34 times H48's generated nodes, one cube 2.04 (206 M against
101 M); with every line minimum raised to the base (an oracle, not admissible) that cube took
100 M. With ``h6`` the same oracle saves 5% and 12% on two cubes: the fallback matters less there.
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
    hk_edges,
    mask_kit,
    move_edges,
)
from exact.cube.optimal import canonical_rules, inverse_cubies
from exact.cube.optkernel import inverse_corners, inverse_edges, inverse_move
from exact.cube.optkernel import solved_pieces as _solved
from exact.cube.solve import face_turn_start
from exact.errors import PuzzleoptError
from exact.ida.solve import recorder
from exact.memory import borrowed, imax, imin, prefetch
from exact.progress import SearchProgress
from exact.puzzles.cube.cubies import cubie_moves, perm_parity, read_cubies
from exact.result import SolveResult, Status

if TYPE_CHECKING:
    from exact.puzzle import Puzzle

RUNNING, EXHAUSTED, FOUND, IDLE = 0, 1, 2, 3
PREFIX = 4
"""Moves of a task's prefix: the search is split into the canonical sequences of this length
(43,254 in HTM), searched in order of promise (:meth:`_Search.rank`). Fine tasks make that order
sharp, as in H48 (whose tasks are four moves long too)."""
SLOTS = 2
"""Tasks searched at once, each slot taking its share of the ordered tasks (positions ``w``,
``w + SLOTS``, ...). Fixed, not the thread count, so that the answer is the same on any thread
count up to it (more threads get more slots). Few slots keep the search near the order of
promise: on the 25 17-move cubes (h6, 2 threads) 2 slots and 8 generated 609 and 615 M nodes."""
SLOT_BUDGET = 100_000
"""Generated nodes per slot and call, between two looks at the clock (a call: about 20 ms on 2
cores). The call that finds the answer runs its other slots on to their budgets."""
RANK_DEPTH = 6
"""Moves of canonical continuation counted to weigh a task's nodes (:func:`continuations`)."""


NEVER = 127
"""A child's bound that says "never tried" (a sequence the canonical rules skip)."""
CUT = 126
"""A child's bound that says "no solution of this bound's length starts so": a half turn where the
side's next move cannot be one (:func:`_dfs`); solutions one move longer may."""

# The per-depth numbers of a task's stack (``_Search.info``, int64 ``(tasks, rows, NINFO)``): the
# corner coordinates of the cube and of its inverse, their bounds, the last two moves made on each
# side (-1: none), the side the node searches (0: the cube's, 1: the inverse's), the move made from
# it, the next child to try, and whether the next move on the cube's side, or on the inverse's, can
# be a half turn (1: it cannot).
CV, CI, HN, HI, LN1, LN2, LI1, LI2, SIDE, MOVE, TRIED, NHN, NHI = range(13)
NINFO = 13
# The per-child bounds (``_Search.kids``, int8 ``(slots, rows, 3, M)``: 7% less time than int64 on
# one thread): the child's (``NEVER`` where never tried), its front side's and its back side's.
VL, KF, KB = range(3)


@njit(cache=True, inline="always")
def _edges(c, r, mk):  # pragma: no cover - numba
    """The edge part of cube ``c``'s ``h11`` index (all eleven flips) under the symmetry that its
    corners' record ``r`` (:func:`corner_records`) names: the ``hk`` index's edges are its top
    bits, and the fallback table reads it whole."""
    return hk_edges(c[16:28], c[28:40], (r >> 4) & 63, 11, mk)


@njit(cache=True, inline="always")
def _index(e, r, h):  # pragma: no cover - numba
    """The ``hk`` entry of the cube whose edges read ``e`` (:func:`_edges`) and corners ``r``."""
    return (r >> 10) * (NESEP << h) + (e >> (11 - h))


@njit(cache=True, inline="always")
def _read(i, e, base, data, lines, fb):  # pragma: no cover - numba
    """Entry ``i``'s lower bound: ``base`` plus its two bits; where they are 0, the larger of its
    line's minimum and the fallback's entry for edges ``e`` (:mod:`exact.cube.eoesep`; none where
    ``fb`` holds one byte)."""
    bits = (data[i >> 2] >> ((i & 3) * 2)) & 3
    if bits:
        return np.int64(base + bits)
    v = np.int64(lines[i // LINE])
    if fb.shape[0] > 1:
        v = imax(v, np.int64((fb[e >> 1] >> ((e & 1) * 4)) & 15))
    return v


@njit(cache=True, inline="always")
def _barred(l1, l2, x, rule, rule3):  # pragma: no cover - numba
    """Whether move ``x`` after the side's last moves ``l2, l1`` (-1: none) is a sequence never tried."""
    return (l1 >= 0 and rule[l1, x]) or (l2 >= 0 and rule3[l2, l1, x])


@njit(cache=True, inline="always")
def _bound(c, cc, h, base, data, lines, fb, tetrad, comb, mk):  # pragma: no cover - numba
    """Cube ``c``'s lower bound: the larger of its corners' distance and its table entry."""
    r = np.int64(cc[cocsep(c, tetrad, comb)])
    e = _edges(c, r, mk)
    return imax(r & 15, _read(_index(e, r, h), e, base, data, lines, fb))


@njit(cache=True, parallel=True)
def prefix_cubes(  # pragma: no cover - numba
    prefixes, root, rinv, pc, pi, rows, cc, cto, ctw, eto, eflip, h, base, data, lines, fb, tetrad, comb, mk,
):  # fmt: skip
    """Each task's cube and inverse after its prefix (``pc``, ``pi``: uint8 ``(T, 40)``) and its
    numbers (``rows``: int64 ``(T, 6)``: the least bound that enters it, the bounds and corner
    coordinates of the two, and the length of the shortest solution among its prefixes, ``-1``
    where none). Tasks come in lexicographic order, so each recomputes only the moves where its
    prefix parts from the one before (each level's lookups are shared by the tasks below it); the
    blocks of one first move go to the threads (its lookups miss the caches: 14.9 ms on one thread,
    6.1 ms on two)."""
    n, k = prefixes.shape
    edges = np.empty(n + 1, np.int64)  # where each first move's block starts, then n
    nb = 0
    for t in range(n):
        if t == 0 or prefixes[t, 0] != prefixes[t - 1, 0]:
            edges[nb] = t
            nb += 1
    edges[nb] = n
    edges = edges[: nb + 1]
    for b in prange(edges.shape[0] - 1):
        _prefix_block(prefixes, edges[b], edges[b + 1], root, rinv, pc, pi, rows, cc, cto, ctw, eto, eflip, h, base,
                      data, lines, fb, tetrad, comb, mk)  # fmt: skip


@njit(cache=True)
def _prefix_block(  # pragma: no cover - numba
    prefixes, first, last, root, rinv, pc, pi, rows, cc, cto, ctw, eto, eflip, h, base, data, lines, fb, tetrad, comb,
    mk,
):  # fmt: skip
    """:func:`prefix_cubes` of tasks ``first .. last - 1``."""
    k = prefixes.shape[1]
    c = np.empty((k + 1, 40), np.uint8)
    iv = np.empty((k + 1, 40), np.uint8)
    reach = np.zeros(k + 1, np.int64)
    hn = np.zeros(k + 1, np.int64)
    hi = np.zeros(k + 1, np.int64)
    solved = np.full(k + 1, -1, np.int64)
    c[0] = root
    iv[0] = rinv
    prev = np.full(k, -1, np.int64)
    for t in range(first, last):
        j = 0
        while j < k and prefixes[t, j] == prev[j]:
            j += 1
        for d in range(j, k):
            m = prefixes[t, d]
            prev[d] = m
            apply_move(c[d], c[d + 1], m, cto, ctw, eto, eflip)
            inverse_move(iv[d], iv[d + 1], m, cto, ctw, eto, eflip)
            hn[d + 1] = _bound(c[d + 1], cc, h, base, data, lines, fb, tetrad, comb, mk)
            hi[d + 1] = _bound(iv[d + 1], cc, h, base, data, lines, fb, tetrad, comb, mk)
            reach[d + 1] = imax(reach[d], d + 1 + imax(hn[d + 1], hi[d + 1]))
            solved[d + 1] = solved[d] if solved[d] >= 0 else (d + 1 if _solved(c[d + 1]) else -1)
        pc[t] = c[k]
        pi[t] = iv[k]
        rows[t, 0] = reach[k]
        rows[t, 1] = hn[k]
        rows[t, 2] = hi[k]
        rows[t, 3] = cocsep(c[k], tetrad, comb)
        rows[t, 4] = cocsep(iv[k], tetrad, comb)
        rows[t, 5] = solved[k]


@njit(cache=True)
def _enter(t, prefixes, pc, pi, pre, c, iv, st):  # pragma: no cover - numba
    """A slot's stacks set to the start of task ``t``: its prefix's rows, its cube and inverse."""
    k = prefixes.shape[1]
    c[k] = pc[t]
    iv[k] = pi[t]
    for d in range(k):
        st[d, SIDE] = 0
        st[d, MOVE] = prefixes[t, d]
    s = st[k]
    s[HN], s[HI], s[CV], s[CI] = pre[t, 1], pre[t, 2], pre[t, 3], pre[t, 4]
    s[LN1], s[LN2] = prefixes[t, k - 1], prefixes[t, k - 2]
    s[LI1] = s[LI2] = -1
    s[NHN] = s[NHI] = 0
    s[TRIED] = 0


@borrowed
def _dfs(  # pragma: no cover - numba
    c, iv, st, kd, d, start, bound, budget, mf, switch, forbid, forbid3, bforbid, bforbid3, half, cc, cmove,
    cto, ctw, eto, eflip, h, base, data, lines, fb, tetrad, comb, mk, kid, ix, jx, ex, ey,
):  # fmt: skip
    """Up to ``budget`` more generated nodes of one task's depth-first search from depth ``d``:
    ``(nodes, state, depth, minf)``, state ``RUNNING`` (budget spent), ``EXHAUSTED`` or ``FOUND``
    (the depth then the solution's length); ``mf``: the least bound refuted so far, lowered. The
    depth and bound stay in registers, not in the slot's arrays, which the other slots' threads
    share cache lines with.

    A node's first visit picks its side, then bounds all its children at once; each child is
    refuted as cheaply as can be: by its corners' distance (the corners moved alone), by its back
    side's entry (a half turn, which the coordinate cannot see as a premove, keeps the parent's: no
    lookup), by its front side's entry. The three steps (the side, the children's bounds, the
    child's row) are written out here rather than called: each call passed some 30 arrays, and
    the one function took 9.6% less time on the same nodes (``benchmarks/h48_ab.py``, the 25
    17-move cubes with ``--stop-at``, 9 rounds; docs/benchmarks/h48.md, section ``ab``)."""
    nm = cto.shape[0]
    done = 0
    while done < budget:
        s = st[d]
        m = s[TRIED]
        if m >= nm:
            if d == start:
                return done, EXHAUSTED, d, mf
            d -= 1
            continue
        left = bound - d - 1
        if m == 0:
            # The side: first the NHN/NHI flags are made whole. Where the inverse's bound is tight
            # (``left + 1`` moves) the moves left, read from the cube's side, cannot start with a
            # half turn (the half turns keep the inverse's coordinate, so it would be ``left``
            # moves from solved), and that holds below the node until a move is made on the
            # cube's side; the same the other way round. Then the side with fewer children (the
            # cube's where ``switch`` is off): H48 switches to the inverse to make this rule bite
            # on the side whose bound is tight.
            if s[HI] > left:
                s[NHN] = 1
            if s[HN] > left:
                s[NHI] = 1
            cn = 0
            ci = 0
            for x in range(nm):
                if not _barred(s[LN1], s[LN2], x, forbid, forbid3) and not (half[x] and s[NHN]):
                    cn += 1
                if not _barred(s[LI1], s[LI2], x, bforbid, bforbid3) and not (half[x] and s[NHI]):
                    ci += 1
            s[SIDE] = (0 if cn <= ci else 1) if switch else 0
            if s[SIDE] == 0:
                fr, bk, cf, hb, l1, l2, nh, rule, rule3 = c, iv, s[CV], s[HI], s[LN1], s[LN2], s[NHN], forbid, forbid3
            else:
                fr, bk, cf, hb, l1, l2, nh, rule, rule3 = iv, c, s[CI], s[HN], s[LI1], s[LI2], s[NHI], bforbid, bforbid3
            # Every child's bounds into ``k`` (``k[VL]`` the child's, ``NEVER`` for a sequence
            # never tried, ``CUT`` for a half turn the flag bars; ``k[KF]`` its front side's,
            # ``k[KB]`` its back side's), in passes: the corners' distances, then the back's
            # entries, then the front's own, each pass only for the children the earlier ones
            # left inside the bound, and each prefetching every entry before it reads one.
            k = kd[d]
            for x in range(nm):
                ix[x] = -1
                if _barred(l1, l2, x, rule, rule3):
                    k[VL, x] = NEVER
                    continue
                if nh and half[x]:
                    k[VL, x] = CUT
                    continue
                v = np.int64(cc[cmove[cf, x]])
                jx[x] = v  # the child's corners' record, kept for its own entry below
                f = v & 15
                k[KF, x] = f
                if f > left:  # refuted by one read: the back's corners are not moved (most children deep down)
                    k[VL, x] = f
                    continue
                if half[x]:  # the back's entry is the parent's: no lookup
                    g = hb
                else:
                    inverse_corners(bk[d], kid, x, cto, ctw)
                    w = np.int64(cc[cocsep(kid, tetrad, comb)])
                    g = w & 15
                    if imax(f, g) <= left:
                        inverse_edges(bk[d], kid, x, eto, eflip)
                        ex[x] = _edges(kid, w, mk)
                        ix[x] = _index(ex[x], w, h)
                        prefetch(data, ix[x] >> 2)
                k[VL, x] = imax(f, g)
                k[KB, x] = g
            for x in range(nm):
                v = jx[x]
                jx[x] = -1
                if k[VL, x] > left:  # NEVER and CUT too
                    continue
                if ix[x] >= 0:
                    g = _read(ix[x], ex[x], base, data, lines, fb)
                    if g > k[KB, x]:
                        k[KB, x] = g
                    if g > k[VL, x]:
                        k[VL, x] = g
                        if g > left:
                            continue
                move_edges(fr[d], kid, x, eto, eflip)  # the corners' record ``v`` is the first pass's
                ey[x] = _edges(kid, v, mk)
                jx[x] = _index(ey[x], v, h)
                prefetch(data, jx[x] >> 2)
            for x in range(nm):
                if jx[x] >= 0:
                    f = _read(jx[x], ey[x], base, data, lines, fb)
                    if f > k[KF, x]:
                        k[KF, x] = f
                    if f > k[VL, x]:
                        k[VL, x] = f
        s[TRIED] = m + 1
        f = kd[d, VL, m]
        if f == NEVER:
            continue
        if f == CUT:  # the next bound must still be tried: a solution one move longer may start so
            mf = imin(mf, bound + 1)
            continue
        done += 1
        if f > left:
            mf = imin(mf, d + 1 + f)
            continue
        fr, bk = (c, iv) if s[SIDE] == 0 else (iv, c)
        apply_move(fr[d], fr[d + 1], m, cto, ctw, eto, eflip)
        s[MOVE] = m
        if left == 0:
            if _solved(fr[d + 1]):  # the inverse of the solved cube is the solved cube
                return done, FOUND, d + 1, mf
            continue
        # The child's row: the back's pieces into ``bk[d + 1]`` (the front's are made), its
        # corner coordinates, its two bounds, the front's last moves; the flag of the side moved
        # is cleared (the move it was about is made).
        inverse_move(bk[d], bk[d + 1], m, cto, ctw, eto, eflip)
        n = st[d + 1]
        for j in range(NINFO):
            n[j] = s[j]
        own, other, last, before, hown, hother, flag = (
            (CV, CI, LN1, LN2, HN, HI, NHN) if s[SIDE] == 0 else (CI, CV, LI1, LI2, HI, HN, NHI)
        )
        n[own] = cmove[s[own], m]
        n[other] = cocsep(bk[d + 1], tetrad, comb)
        n[hown] = kd[d, KF, m]
        n[hother] = kd[d, KB, m]
        n[before] = s[last]
        n[last] = m
        n[flag] = 0
        n[TRIED] = 0
        d += 1
    return done, RUNNING, d, mf


@njit(cache=True)
def _slot(  # pragma: no cover - numba
    w, order, prefixes, pc, pi, pre, cube, inv, info, kids, depth, status, cur, cursor, minf, tnodes, bound, budget,
    switch, forbid, forbid3, bforbid, bforbid3, half, cc, cmove, cto, ctw, eto, eflip, h, base, data, lines, fb, tetrad,
    comb, mk,
):  # fmt: skip
    """Up to ``budget`` more generated nodes of slot ``w``: its task's search, then the next tasks
    of its share of ``order`` (positions ``w``, ``w + W``, ...), those the prefix's bound refutes
    skipped without a node; each task's nodes into ``tnodes``, which ranks the tasks for the next
    bound."""
    nm = cto.shape[0]
    k = prefixes.shape[1]
    nslots = cube.shape[0]
    kid = np.empty(40, np.uint8)
    ix = np.empty(nm, np.int64)
    jx = np.empty(nm, np.int64)
    ex = np.empty(nm, np.int64)
    ey = np.empty(nm, np.int64)
    d, mf, state, pos, t = depth[w], minf[w], status[w], cursor[w], cur[w]
    done = 0
    while done < budget:
        if state == IDLE:
            if pos >= order.shape[0]:
                state = EXHAUSTED
                break
            t = order[pos]
            pos += nslots
            if pre[t, 0] > bound:
                mf = imin(mf, pre[t, 0])
                continue
            _enter(t, prefixes, pc, pi, pre, cube[w], inv[w], info[w])
            d = k
            state = RUNNING
        n, state, d, mf = _dfs(cube[w], inv[w], info[w], kids[w], d, k, bound, budget - done, mf, switch, forbid,
                               forbid3, bforbid, bforbid3, half, cc, cmove, cto, ctw, eto, eflip, h, base, data,
                               lines, fb, tetrad, comb, mk, kid, ix, jx, ex, ey)  # fmt: skip
        done += n
        tnodes[t] += n
        if state == FOUND:
            break
        if state == EXHAUSTED:
            state = IDLE
    depth[w], minf[w], status[w], cursor[w], cur[w] = d, mf, state, pos, t


@njit(cache=True, parallel=True)
def run_slots(  # pragma: no cover - numba
    order, prefixes, pc, pi, pre, cube, inv, info, kids, depth, status, cur, cursor, minf, tnodes, bound, budget,
    switch, forbid, forbid3, bforbid, bforbid3, half, cc, cmove, cto, ctw, eto, eflip, h, base, data, lines, fb, tetrad,
    comb, mk,
):  # fmt: skip
    """Give each slot that has work up to ``budget`` more generated nodes of this bound's search."""
    for w in prange(cube.shape[0]):
        if status[w] == IDLE or status[w] == RUNNING:
            _slot(w, order, prefixes, pc, pi, pre, cube, inv, info, kids, depth, status, cur, cursor, minf, tnodes,
                  bound, budget, switch, forbid, forbid3, bforbid, bforbid3, half, cc, cmove, cto, ctw, eto, eflip, h,
                  base, data, lines, fb, tetrad, comb, mk)  # fmt: skip


def fallback_of(t: HkTable) -> np.ndarray:
    """The fallback table the kernels read: the table's (:mod:`exact.cube.eoesep`), or one byte
    for none."""
    return np.zeros(1, np.uint8) if t.fallback is None else t.fallback


def half_turns(cto: np.ndarray, eto: np.ndarray) -> np.ndarray:
    """bool ``(M,)``: the moves that are their own inverse (a face's half turn), which keep the
    ``hk`` coordinate of a cube they premultiply: they keep the tetrads, the slices, every twist
    and every flip."""
    return np.array([(c[c] == np.arange(8)).all() and (e[e] == np.arange(12)).all() and (c != np.arange(8)).any()
                     for c, e in zip(cto, eto, strict=True)])  # fmt: skip


def task_prefixes(forbid: np.ndarray, forbid3: np.ndarray, k: int) -> np.ndarray:
    """int64 ``(T, k)``: every move sequence of length ``k`` the canonical rules allow, in
    lexicographic order (:func:`prefix_cubes` relies on it)."""
    m = forbid.shape[0]
    out = np.arange(m, dtype=np.int64)[:, None]
    for j in range(1, k):
        a = out[:, -2] if j > 1 else None
        b = out[:, -1]
        ok = ~forbid[b]  # (T, M)
        if a is not None:
            ok &= ~forbid3[a, b]
        t, x = np.nonzero(ok)
        out = np.concatenate([out[t], x[:, None]], axis=1)
    return out


def continuations(forbid: np.ndarray, forbid3: np.ndarray, depth: int) -> np.ndarray:
    """float ``(M, M)``: after the moves ``a, b``, the share of canonical move sequences of
    ``depth`` more moves: how much bigger a task's tree is for its last moves alone. A task's
    nodes divided by it are its promise (H48 weighs its tasks likewise, by a constant per face)."""
    allowed = ~forbid[None, :, :] & ~forbid3  # (a, b, x): x may follow a, b
    count = np.ones(forbid.shape, dtype=np.float64)
    for _ in range(depth):
        count = np.einsum("abx,bx->ab", allowed, count)
        count /= count.max()
    return count


class _Search:
    """One cube's tasks (its canonical prefixes of :data:`PREFIX` moves, in order of promise) and
    the slots that search them."""

    def __init__(self, puzzle: Puzzle, table: HkTable, pieces: np.ndarray, rows: int, switch: bool = True,
                 slots: int = SLOTS) -> None:  # fmt: skip
        mv = cubie_moves(puzzle.table)
        self.moves = (mv.corner_to, mv.corner_twist, mv.edge_to, mv.edge_flip)
        self.forbid, self.forbid3 = canonical_rules(puzzle.table)
        self.inverse = np.asarray(puzzle.table.inverse, np.int64)
        self.bforbid, self.bforbid3 = backward_rules(self.forbid, self.forbid3, self.inverse)
        self.switch = switch
        self.table = table
        self.kit = _lookup_kit()
        self.half = half_turns(mv.corner_to, mv.edge_to)
        self.cdist = corner_distances(mv.corner_to, mv.corner_twist)
        self.cc = corner_records(self.cdist, *self.kit[2:4])
        self.cmove = corner_moves(mv.corner_to, mv.corner_twist)
        self.root = pieces
        self.rinv = inverse_cubies(pieces.astype(np.int64)).astype(np.uint8)  # its -co needs a signed type
        self.prefixes = task_prefixes(self.forbid, self.forbid3, PREFIX)
        n = len(self.prefixes)
        self.pc = np.empty((n, 40), np.uint8)
        self.pi = np.empty((n, 40), np.uint8)
        self.pre = np.empty((n, 6), np.int64)
        tetrad, comb = self.kit[:2]
        prefix_cubes(self.prefixes, self.root, self.rinv, self.pc, self.pi, self.pre, self.cc, *self.moves, table.h,
                     table.base, table.data, table.lines, fallback_of(table), tetrad, comb, mask_kit())  # fmt: skip
        self.weight = continuations(self.forbid, self.forbid3, RANK_DEPTH)[self.prefixes[:, -2], self.prefixes[:, -1]]
        self.order = np.arange(n, dtype=np.int64)
        self.tnodes = np.zeros(n, np.int64)
        self.spent = 0
        m = self.forbid.shape[0]
        self.cube = np.zeros((slots, rows, 40), np.uint8)
        self.inv = np.zeros((slots, rows, 40), np.uint8)
        self.info = np.full((slots, rows, NINFO), -1, np.int64)
        self.kids = np.zeros((slots, rows, 3, m), np.int8)  # every bound is below NEVER = 127
        self.depth = np.zeros(slots, np.int64)
        self.status = np.zeros(slots, np.int64)
        self.cur = np.zeros(slots, np.int64)
        self.cursor = np.zeros(slots, np.int64)
        self.minf = np.zeros(slots, np.int64)

    @property
    def nodes(self) -> int:
        """Generated nodes so far, over every bound."""
        return self.spent + int(self.tnodes.sum())

    def bound_of(self, c: np.ndarray) -> int:
        """The lower bound for one cube (uint8 ``(40,)``): its corners', its table entry's."""
        t = self.table
        tetrad, comb = self.kit[:2]
        return int(_bound(c, self.cc, t.h, t.base, t.data, t.lines, fallback_of(t), tetrad, comb, mask_kit()))

    def restart(self, bound: int) -> None:
        """Set up the search of one bound, the tasks ranked by the last bound's nodes."""
        self.rank()
        self.spent += int(self.tnodes.sum())
        self.tnodes[:] = 0
        self.cursor[:] = np.arange(len(self.cursor))
        self.status[:] = IDLE
        self.minf[:] = np.iinfo(np.int64).max

    def rank(self) -> None:
        """Order the tasks by promise: the last bound's nodes of each, weighed by its last moves
        (:func:`continuations`), most first; ties (and the first bound) in move order. A task whose
        tree was big just under the bound is likely to hold a solution at it: Chen Shuang's rule,
        as H48 and vcube use it."""
        if self.tnodes.any():
            self.order = np.argsort(-(self.tnodes / self.weight), kind="stable")

    def run(self, bound: int, budget: int) -> None:
        t = self.table
        tetrad, comb = self.kit[:2]
        run_slots(self.order, self.prefixes, self.pc, self.pi, self.pre, self.cube, self.inv, self.info, self.kids,
                  self.depth, self.status, self.cur, self.cursor, self.minf, self.tnodes, bound, budget, self.switch,
                  self.forbid, self.forbid3, self.bforbid, self.bforbid3, self.half, self.cc, self.cmove, *self.moves,
                  t.h, t.base, t.data, t.lines, fallback_of(t), tetrad, comb, mask_kit())  # fmt: skip

    def winner(self) -> int | None:
        """The slot that found a solution at the earliest position of the order, if any (the same
        answer on any thread count up to :data:`SLOTS`)."""
        hits = np.flatnonzero(self.status == FOUND)
        return None if not len(hits) else int(hits[np.argmin(self.cursor[hits])])  # the task's position + slots

    def answer(self, w: int) -> list[int]:
        """Slot ``w``'s solution: its moves on the cube, then the inverses of those on the inverse,
        last first (a move ``x`` on the inverse premultiplies the cube by ``x^-1``)."""
        rows = self.info[w, : self.depth[w]]
        moves = [int(r[MOVE]) for r in rows if r[SIDE] == 0]
        return moves + [int(self.inverse[r[MOVE]]) for r in rows[::-1] if r[SIDE] == 1]

    def short(self, bound: int) -> list[int] | None:
        """A solution of at most ``bound`` moves, ``bound <= PREFIX``, if there is one: the first
        shortest among the prefixes (every canonical sequence this short begins one)."""
        lengths = self.pre[:, 5]
        hits = np.flatnonzero((lengths >= 0) & (lengths <= bound))
        if not len(hits):
            return None
        t = int(hits[np.argmin(lengths[hits])])
        return [int(x) for x in self.prefixes[t, : lengths[t]]]


def corner_records(cdist: np.ndarray, cls: np.ndarray, sym: np.ndarray) -> np.ndarray:
    """int32 ``(153090,)``: of each corner coordinate, all a node reads of it in one word (612 kB,
    where the three arrays apart take 918 kB of the L2 cache): the corners' distance (bits 0-3),
    the symmetry to its class's representative (4-9), the class (10 on).

    Args:
        cdist: uint8 ``(153090,)``: :func:`~exact.cube.h48table.corner_distances`.
        cls: int32 ``(153090,)``: the corner class of each coordinate (:func:`exact.cube.h48.cocsep_classes`).
        sym: uint8 ``(153090,)``: the symmetry taking it to its class's representative.
    """
    if cdist.max() > 15:
        raise PuzzleoptError(f"a corner distance of {cdist.max()} does not fit the solver's 4 bits")
    return (cdist.astype(np.int32) | sym.astype(np.int32) << 4 | cls.astype(np.int32) << 10).astype(np.int32)


def backward_rules(forbid: np.ndarray, forbid3: np.ndarray, inverse: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The canonical rules of the inverse's side, bool ``(M, M)`` and ``(M, M, M)``: the sequences
    whose moves, inverted and read last first, the cube's side never tries.

    Moves ``p1 .. pk`` made on the inverse end the cube's answer as ``pk^-1 .. p1^-1``, so with these
    rules both sides build pieces of one word that avoids the cube's rules. The search then follows
    the first such optimal word (one exists: each rule's sequence has a shorter or earlier equal)
    whichever side each node picks, which is why switching sides loses no solution."""
    bforbid = forbid[np.ix_(inverse, inverse)].T
    bforbid3 = forbid3[np.ix_(inverse, inverse, inverse)].transpose(2, 1, 0)
    return np.ascontiguousarray(bforbid), np.ascontiguousarray(bforbid3)


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
    switch: bool = True,
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
        switch: let each node search from the side (the cube's or the inverse's) with fewer
            children (H48's switch to the inverse); off: the cube's side always.
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

    slots = max(SLOTS, int(threads) if threads is not None else numba.get_num_threads())
    search = _Search(puzzle, table, pieces, 32, switch, slots)
    bound = threshold(max(1, search.bound_of(pieces), search.bound_of(search.rinv)))
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    nodes = 0
    try:
        with SearchProgress(f"cube3-h48 ({metric})", progress, unit="generated nodes") as watch:
            while True:
                if (stop_at is not None and bound >= stop_at) or bound > 30:
                    break
                if bound <= PREFIX:
                    if (found := search.short(bound)) is not None:
                        return done(found, Status.OPTIMAL, len(found), nodes, {"generated": nodes})
                    bound = threshold(bound + 1)
                    continue
                found, complete = _iteration(search, bound, t0, time_limit, node_limit, watch)
                nodes = search.nodes
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
    slots = len(search.status)
    while True:
        if (search.status == EXHAUSTED).all():
            return None, True
        left = None if node_limit is None else node_limit - search.nodes
        budget = SLOT_BUDGET if left is None else min(SLOT_BUDGET, left // slots)
        if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
            return None, False
        search.run(bound, budget)
        watch.update(bound, search.nodes)
        if (w := search.winner()) is not None:
            return search.answer(w), True
