"""The numba IDA* kernel of the optimal 3x3x3 solver (:mod:`exact.cube.optimal`).

A node is nine numbers: (flip, slice, twist) of the cube seen along each of its three axes (the
cube conjugated by the identity, ``URF`` and ``URF^2``, :mod:`exact.cube.symmetry`); a move ``m``
moves axis ``a``'s triple by the conjugated move ``mconj[a, m]``. Its ``h`` combines the three
lookups in the flip-slice x twist table (:mod:`exact.cube.prune`; :func:`combine`), read for all
children of a node at its first visit. The children inside the bound that are not leaves then
have their inverses looked up along the axes too, in the same visit (the inverse cube is kept piece
by piece, one row per depth; the axis of the move just made is inherited from the parent): this
halves the nodes, and read in passes whose cache misses overlap, rather than one child at a time,
it takes a quarter less time per cube (measured, 2026-11-25). Each pass also prefetches the
entries the next pass reads (:func:`exact.memory.prefetch`), so that the misses of all children
are in flight at once: the same nodes in 25-35% less time (three half-turn cubes, alternating
runs, 2026-11-25). The inverse's lookups also prune moves (Rokicki's nxopt): where one equals
the moves left, no solution within the bound starts with a turn on that axis. A node at the
bound with ``h = 0`` is a candidate; it is checked by replaying its path on the pieces, since the
nine numbers do not pin down the corner and edge permutations.

The search is split into tasks, one per allowed two-move prefix (every task is a resumable
depth-first search below its prefix), and the tasks of an iteration run in a numba ``prange``:
each call gives every unfinished task a node budget, so limits are looked at between calls.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit, prange

from exact.cube.prune import entry, nibble
from exact.memory import prefetch
from exact.ranking import permutation_rank

RUNNING, EXHAUSTED, FOUND = 0, 1, 2
_POW3 = np.array([729, 243, 81, 27, 9, 3, 1], dtype=np.int64)


@njit(cache=True)
def node_h(crd, d, data, cls, sym, tconj, parity):  # pragma: no cover - numba
    """``h`` of row ``d`` of ``crd`` (``(rows, 9)``) from its three axis lookups
    (:func:`combine`). ``parity``: that of every solution's length from this node (the
    quarter-turn metric), or -1."""
    v0 = np.int64(nibble(data, entry(crd[d, 0], crd[d, 1], crd[d, 2], cls, sym, tconj)))
    v1 = np.int64(nibble(data, entry(crd[d, 3], crd[d, 4], crd[d, 5], cls, sym, tconj)))
    v2 = np.int64(nibble(data, entry(crd[d, 6], crd[d, 7], crd[d, 8], cls, sym, tconj)))
    return combine(v0, v1, v2, parity)


@njit(cache=True, inline="always")
def adjust(v, parity):  # pragma: no cover - numba
    """A lookup ``v`` raised to the parity of every solution's length (``parity``; -1: none)."""
    if parity >= 0 and (v ^ parity) & 1:
        return v + 1
    return v


@njit(cache=True, inline="always")
def combine(v0, v1, v2, parity):  # pragma: no cover - numba
    """``h`` from the raw lookups ``v0, v1, v2`` of one cube along the three axes: their largest
    (each raised to the parity), and one more than a value ``x >= 1`` that all three share: along
    each axis the table's subgroup holds that axis' face turns, so no sequence of exactly the
    axis' distance ends with one of them (it could be shortened); with all three equal, no last
    move is left for a solution of length ``x`` (every move is in some axis' subgroup; Rokicki's
    nxopt)."""
    h = adjust(v0, parity)
    h1 = adjust(v1, parity)
    h2 = adjust(v2, parity)
    if h1 > h:
        h = h1
    if h2 > h:
        h = h2
    if v0 == v1 and v1 == v2 and v0 >= 1:
        h3 = adjust(v0 + 1, parity)
        if h3 > h:
            h = h3
    return h


@njit(cache=True, inline="always")
def inverse_corners(src, dst, m, cto, ctw):  # pragma: no cover - numba
    """The corners (``dst[:16]``) of :func:`inverse_move`."""
    for q in range(8):
        sp = src[q]
        dst[q] = cto[m, sp]
        o = src[8 + q] - ctw[m, sp]
        dst[8 + q] = o + 3 if o < 0 else o


@njit(cache=True, inline="always")
def inverse_edges(src, dst, m, eto, eflip):  # pragma: no cover - numba
    """The edges (``dst[16:]``) of :func:`inverse_move`."""
    for q in range(12):
        sp = src[16 + q]
        dst[16 + q] = eto[m, sp]
        dst[28 + q] = src[28 + q] ^ eflip[m, sp]


@njit(cache=True, inline="always")
def inverse_move(src, dst, m, cto, ctw, eto, eflip):  # pragma: no cover - numba
    """``dst`` (``(40,)``) := the inverse cube ``src`` after its cube makes move ``m``: the move
    relabels the inverse's pieces (the inverse is premultiplied by the move's inverse)."""
    inverse_corners(src, dst, m, cto, ctw)
    inverse_edges(src, dst, m, eto, eflip)


def _order_codes() -> np.ndarray:
    """int64 ``(256,)``: for four slice pieces ``0..3`` read in slot order as base-4 digits, the
    rank of their order (:func:`exact.ranking.permutation_rank`, as
    :func:`exact.cube.coords.slicesorted_of` counts it); codes that are no permutation: 0."""
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    out = np.zeros(256, np.int64)
    out[(perms << np.array([6, 4, 2, 0])).sum(axis=1)] = permutation_rank(perms)
    return out


_ORDER = _order_codes()


@njit(cache=True, inline="always")
def inverse_coords(inv, a, acto, ack, aeto, aek, aeinv, comb, sorted_):  # pragma: no cover - numba
    """``(raw flip-slice, twist)`` of the inverse cube ``inv`` (``(40,)``: corner perm, corner
    ori, edge perm, edge ori, slot-indexed) seen along axis ``a``. ``acto``, ``ack``, ``aeto``,
    ``aek`` (``(3, 8)``, ``(3, 12)``): each axis symmetry's slot map and reference offsets
    (rotations: :mod:`exact.cube.symmetry`); ``aeinv``: the inverse of each edge slot map, so
    the edges are read in the order of their new slots (one pass for flip, slice and order)."""
    twist = 0
    for s in range(8):
        t = acto[a, s]
        if t < 7:
            o = ack[a, s] + inv[8 + s] - ack[a, inv[s]]
            o = o + 3 if o < 0 else (o - 3 if o >= 3 else o)
            twist += o * _POW3[t]
    flip = 0
    k = 0
    rank = 0
    code = 0
    for t in range(12):
        s = aeinv[a, t]
        pc = inv[16 + s]
        if t < 11:
            flip |= ((aek[a, s] + inv[28 + s] + aek[a, pc]) & 1) << (10 - t)
        q = aeto[a, pc]
        if q >= 8:
            k += 1
            rank += comb[t, k]
            code = code * 4 + q - 8
    if sorted_:
        rank = rank * 24 + _ORDER[code]
    return rank * 2048 + flip, twist


@njit(cache=True)
def inverse_raw(inv, acto, ack, aeto, aek, aeinv, comb, sorted_, data, clsym, tconj, raw):
    # pragma: no cover - numba
    """``raw[a]``: the lookup of the inverse cube ``inv`` (``(40,)``) along each axis ``a``
    (:func:`inverse_coords`). ``clsym``: each raw flip-slice's class and symmetry as ``cls << 4
    | sym``."""
    for a in range(3):
        r, twist = inverse_coords(inv, a, acto, ack, aeto, aek, aeinv, comb, sorted_)
        cs = clsym[r]
        raw[a] = nibble(data, np.int64(cs >> 4) * 2187 + tconj[twist, cs & 15])


@njit(cache=True)
def _is_solved(path, length, root, cto, ctw, eto, eflip, scratch):  # pragma: no cover - numba
    """Whether the moves ``path[:length]`` solve the cube whose pieces are ``root`` (``(40,)``:
    corner perm, corner ori, edge perm, edge ori, slot-indexed)."""
    cur = scratch[0]
    nxt = scratch[1]
    for i in range(40):
        cur[i] = root[i]
    for k in range(length):
        m = path[k]
        for s in range(8):
            t = cto[m, s]
            nxt[t] = cur[s]
            o = cur[8 + s] + ctw[m, s]
            nxt[8 + t] = o - 3 if o >= 3 else o
        for s in range(12):
            t = eto[m, s]
            nxt[16 + t] = cur[16 + s]
            nxt[28 + t] = cur[28 + s] ^ eflip[m, s]
        for i in range(40):
            cur[i] = nxt[i]
    return solved_pieces(cur)


@njit(cache=True, inline="always")
def solved_pieces(c):  # pragma: no cover - numba
    """Whether the cube ``c`` (``(40,)``, pieces as :func:`_is_solved` reads them) is solved."""
    for s in range(8):
        if c[s] != s or c[8 + s] != 0:
            return False
    for s in range(12):
        if c[16 + s] != s or c[28 + s] != 0:
            return False
    return True


@njit(cache=True)
def _task(t, state, tab, start, bound, budget, parity):  # pragma: no cover - numba
    crd, depth, tried, path, status, minf, nodes, expanded, scratch, cidx, cval, inv, iraw, fraw, kinv, kraw = state
    forbid, forbid3, flip_mv, slice_mv, twist_mv, mconj, data, clsym, tconj = tab[:9]
    root, cto, ctw, eto, eflip, acto, ack, aeto, aek, aeinv, comb, sorted_, maxes = tab[9:]
    moves = flip_mv.shape[1]
    c = crd[t]
    iv = inv[t]
    ir = iraw[t]
    fr = fraw[t]
    ki = kinv[t]
    kr = kraw[t]
    ix = cidx[t]
    val = cval[t]
    tr = tried[t]
    pa = path[t]
    k = start
    done = 0
    while done < budget:
        d = depth[t]
        if tr[d] >= moves:
            if d == k:
                status[t] = EXHAUSTED
                break
            depth[t] = d - 1
            continue
        m = tr[d]
        left = bound - d - 1
        # the parity of every solution's length from a child (quarter turns flip it), or -1
        cpar = -1 if parity < 0 else (parity + d + 1) & 1
        if m == 0:
            # Axes whose inverse lookup is exactly the moves left: no solution within the
            # bound starts with a move of their subgroups (the inverse's solutions would end
            # with one: see combine), so those children are not generated; through them the next
            # bound is at least this one plus one.
            skip = 0
            for a in range(3):
                if ir[d, a] == left + 1:
                    skip |= 1 << a
            if skip and bound + 1 < minf[t]:
                minf[t] = bound + 1
            # First visit: the children's lookups for all moves and axes at once, in passes
            # whose loads are independent so that their cache misses overlap (a pass per axis,
            # each only for the children the earlier ones left inside the bound, measured no
            # faster).
            for x in range(moves):
                if skip & maxes[x]:
                    val[d, x] = 127
                elif (d > 0 and forbid[pa[d - 1], x]) or (d > 1 and forbid3[pa[d - 2], pa[d - 1], x]):
                    val[d, x] = 127  # never tried: no lookups
                else:
                    val[d, x] = 0
            for x in range(moves):
                if val[d, x] <= left:
                    for a in range(3):
                        ma = mconj[a, x]
                        r = slice_mv[c[d, 3 * a + 1], ma] * 2048 + flip_mv[c[d, 3 * a], ma]
                        ix[x, a] = r
                        prefetch(clsym, r)
            for x in range(moves):
                if val[d, x] <= left:
                    for a in range(3):
                        cs = clsym[ix[x, a]]
                        e = np.int64(cs >> 4) * 2187 + tconj[twist_mv[c[d, 3 * a + 2], mconj[a, x]], cs & 15]
                        ix[x, a] = e
                        prefetch(data, e >> 1)
            for x in range(moves):
                if val[d, x] <= left:
                    h = 0
                    for a in range(3):
                        v = np.int64(nibble(data, ix[x, a]))
                        fr[x, a] = v
                        v = adjust(v, cpar)
                        if v > h:
                            h = v
                    val[d, x] = h
            for x in range(moves):
                if val[d, x] <= left and fr[x, 0] == fr[x, 1] and fr[x, 1] == fr[x, 2] and fr[x, 0] >= 1:
                    v = adjust(fr[x, 0] + 1, cpar)
                    if v > val[d, x]:
                        val[d, x] = v
            if left > 0:
                # The inverses of the children left inside the bound, looked up in the same
                # passes (their lookups may cut a child the cube's own left in); the axis of
                # the move is inherited: a move in axis a's subgroup premultiplies the inverse by
                # a member of it, which leaves its coset there unchanged.
                for x in range(moves):
                    if val[d, x] <= left:
                        inverse_move(iv[d], ki, x, cto, ctw, eto, eflip)
                        keep = maxes[x]
                        for a in range(3):
                            if (keep >> a) & 1:
                                kr[d, x, a] = ir[d, a]
                            else:
                                r, tw = inverse_coords(ki, a, acto, ack, aeto, aek, aeinv, comb, sorted_)
                                ix[x, a] = r
                                kr[d, x, a] = tw
                                prefetch(clsym, r)
                for x in range(moves):
                    if val[d, x] <= left:
                        keep = maxes[x]
                        for a in range(3):
                            if not (keep >> a) & 1:
                                cs = clsym[ix[x, a]]
                                e = np.int64(cs >> 4) * 2187 + tconj[kr[d, x, a], cs & 15]
                                ix[x, a] = e
                                prefetch(data, e >> 1)
                for x in range(moves):
                    if val[d, x] <= left:
                        keep = maxes[x]
                        for a in range(3):
                            if not (keep >> a) & 1:
                                kr[d, x, a] = nibble(data, ix[x, a])
                        v = combine(kr[d, x, 0], kr[d, x, 1], kr[d, x, 2], cpar)
                        if v > val[d, x]:
                            val[d, x] = v
        tr[d] = m + 1
        h = val[d, m]
        if h == 127:
            continue  # a sequence never tried, or a skipped axis (accounted for in minf above)
        done += 1
        if h > left:
            f = d + 1 + h
            if f < minf[t]:
                minf[t] = f
            continue
        for a in range(3):
            ma = mconj[a, m]
            c[d + 1, 3 * a] = flip_mv[c[d, 3 * a], ma]
            c[d + 1, 3 * a + 1] = slice_mv[c[d, 3 * a + 1], ma]
            c[d + 1, 3 * a + 2] = twist_mv[c[d, 3 * a + 2], ma]
        if left > 0:
            inverse_move(iv[d], iv[d + 1], m, cto, ctw, eto, eflip)
            for a in range(3):
                ir[d + 1, a] = kr[d, m, a]
        pa[d] = m
        if left == 0:
            if _is_solved(pa, d + 1, root, cto, ctw, eto, eflip, scratch[t]):
                depth[t] = d + 1
                status[t] = FOUND
                break
            continue
        expanded[t] += 1
        depth[t] = d + 1
        tr[d + 1] = 0
    nodes[t] += done


@njit(cache=True, parallel=True)
def run_tasks(active, state, tab, start, bound, budget, parity):  # pragma: no cover - numba
    """Give each task in ``active`` up to ``budget`` more generated nodes of this iteration.

    ``state``: the tasks' arrays (coordinates, depth, tried, path, status, least pruned f, nodes,
    expanded, scratch, child indices and values, inverse cubes, the inverses' raw
    lookups per row and axis, the children's raw lookups, the children's inverse cubes, the
    children's inverses' raw lookups per row); ``tab``: the read-only ones (move
    rules, move tables, axis moves, table, classes and symmetries, root pieces, piece moves, axis rotations,
    binomials, whether the slice is sorted, each move's axes as a bit mask)."""
    for i in prange(active.shape[0]):
        _task(active[i], state, tab, start, bound, budget, parity)
