"""The numba IDA* kernel of the optimal 3x3x3 solver (:mod:`exact.cube.optimal`).

A node is nine numbers: (flip, slice, twist) of the cube seen along each of its three axes (the
cube conjugated by the identity, ``URF`` and ``URF^2``, :mod:`exact.cube.symmetry`); a move ``m``
moves axis ``a``'s triple by the conjugated move ``mconj[a, m]``. Its ``h`` is the largest of the
three lookups in the flip-slice x twist table (:mod:`exact.cube.prune`), read for all children
of a node at its first visit, axis by axis (an axis only for the children still inside the bound).
A child inside the bound that is not a leaf then has its inverse looked up along the three axes
too (the inverse cube is kept piece by piece, one row per depth): this halves the nodes at about
the same time per cube (measured on random half-turn cubes). A node at the bound with ``h = 0`` is a
candidate; it is checked by replaying its path on the pieces, since the nine numbers do not pin
down the corner and edge permutations.

The search is split into tasks, one per allowed two-move prefix (every task is a resumable
depth-first search below its prefix), and the tasks of an iteration run in a numba ``prange``:
each call gives every unfinished task a node budget, so limits are looked at between calls.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from exact.cube.prune import entry, nibble

RUNNING, EXHAUSTED, FOUND = 0, 1, 2
_POW3 = np.array([729, 243, 81, 27, 9, 3, 1], dtype=np.int64)


@njit(cache=True, inline="always")
def node_h(crd, d, data, cls, sym, tconj, bound_left, parity):  # pragma: no cover - numba
    """``h`` of row ``d`` of ``crd`` (``(rows, 9)``): the largest axis lookup, stopping early
    once it exceeds ``bound_left``. ``parity``: that of every solution's length from this node
    (the quarter-turn metric), or -1; a value of the other parity is one short, so one is added."""
    h = 0
    for a in range(3):
        v = np.int64(nibble(data, entry(crd[d, 3 * a], crd[d, 3 * a + 1], crd[d, 3 * a + 2], cls, sym, tconj)))
        if parity >= 0 and (v ^ parity) & 1:
            v += 1
        if v > h:
            h = v
            if h > bound_left:
                return h
    return h


@njit(cache=True)
def inverse_h(inv, d, acto, ack, aeto, aek, comb, sorted_, data, cls, sym, tconj, parity, tmp):
    # pragma: no cover - numba
    """``h`` of the inverse cube held in row ``d`` of ``inv`` (``(rows, 40)``: corner perm,
    corner ori, edge perm, edge ori, slot-indexed), read along the three axes like a node's own:
    the inverse is as far from solved as the cube. ``acto``, ``ack``, ``aeto``, ``aek``
    (``(3, 8)``, ``(3, 12)``): each axis symmetry's slot map and reference offsets (rotations:
    :mod:`exact.cube.symmetry`); ``tmp``: int64 ``(25,)`` scratch."""
    # the three axes' coordinates first, then their loads side by side (the cache misses overlap)
    for a in range(3):
        twist = 0
        for s in range(8):
            t = acto[a, s]
            if t < 7:
                o = ack[a, s] + inv[d, 8 + s] - ack[a, inv[d, s]]
                o = o + 3 if o < 0 else (o - 3 if o >= 3 else o)
                twist += o * _POW3[t]
        flip = 0
        for s in range(12):
            t = aeto[a, s]
            pc = inv[d, 16 + s]
            tmp[t] = aeto[a, pc]
            if t < 11:
                flip |= ((aek[a, s] + inv[d, 28 + s] + aek[a, pc]) & 1) << (10 - t)
        k = 0
        rank = 0
        for t in range(12):
            if tmp[t] >= 8:
                tmp[12 + k] = tmp[t] - 8
                k += 1
                rank += comb[t, k]
        if sorted_:
            order = 0
            for i in range(4):
                smaller = 0
                for j in range(i + 1, 4):
                    if tmp[12 + j] < tmp[12 + i]:
                        smaller += 1
                order = order * (4 - i) + smaller
            rank = rank * 24 + order
        tmp[16 + a] = rank * 2048 + flip
        tmp[19 + a] = twist
    for a in range(3):
        r = tmp[16 + a]
        tmp[22 + a] = np.int64(cls[r]) * 2187 + tconj[tmp[19 + a], sym[r]]
    h = 0
    for a in range(3):
        v = np.int64(nibble(data, tmp[22 + a]))
        if parity >= 0 and (v ^ parity) & 1:
            v += 1
        if v > h:
            h = v
    return h


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
    for s in range(8):
        if cur[s] != s or cur[8 + s] != 0:
            return False
    for s in range(12):
        if cur[16 + s] != s or cur[28 + s] != 0:
            return False
    return True


@njit(cache=True)
def _task(t, state, tab, start, bound, budget, parity):  # pragma: no cover - numba
    crd, depth, tried, path, status, minf, nodes, expanded, scratch, cidx, cval, inv, tmp = state
    forbid, forbid3, flip_mv, slice_mv, twist_mv, mconj, data, cls, sym, tconj = tab[:10]
    root, cto, ctw, eto, eflip, acto, ack, aeto, aek, comb, sorted_ = tab[10:]
    moves = flip_mv.shape[1]
    c = crd[t]
    iv = inv[t]
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
            # First visit: the children's h for all moves at once, axis by axis, each in passes
            # whose loads are independent so that their cache misses overlap; an axis is read
            # only for the children the earlier ones left inside the bound.
            for a in range(3):
                pf, ps, pw = c[d, 3 * a], c[d, 3 * a + 1], c[d, 3 * a + 2]
                for x in range(moves):
                    if a == 0 or val[d, x] <= left:
                        ma = mconj[a, x]
                        ix[x] = slice_mv[ps, ma] * 2048 + flip_mv[pf, ma]
                for x in range(moves):
                    if a == 0 or val[d, x] <= left:
                        r = ix[x]
                        ix[x] = np.int64(cls[r]) * 2187 + tconj[twist_mv[pw, mconj[a, x]], sym[r]]
                for x in range(moves):
                    if a == 0 or val[d, x] <= left:
                        v = np.int64(nibble(data, ix[x]))
                        if cpar >= 0 and (v ^ cpar) & 1:
                            v += 1
                        if a == 0 or v > val[d, x]:
                            val[d, x] = v
        tr[d] = m + 1
        if d > 0 and forbid[pa[d - 1], m]:
            continue
        if d > 1 and forbid3[pa[d - 2], pa[d - 1], m]:
            continue
        done += 1
        h = val[d, m]
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
            # The inverse cube: the move relabels its pieces (it is premultiplied by the move's
            # inverse); its three lookups may cut a node the cube's own left inside the bound.
            for q in range(8):
                sp = iv[d, q]
                iv[d + 1, q] = cto[m, sp]
                o = iv[d, 8 + q] - ctw[m, sp]
                iv[d + 1, 8 + q] = o + 3 if o < 0 else o
            for q in range(12):
                sp = iv[d, 16 + q]
                iv[d + 1, 16 + q] = eto[m, sp]
                iv[d + 1, 28 + q] = iv[d, 28 + q] ^ eflip[m, sp]
            hi = inverse_h(iv, d + 1, acto, ack, aeto, aek, comb, sorted_, data, cls, sym, tconj, cpar, tmp[t])
            if hi > left:
                f = d + 1 + hi
                if f < minf[t]:
                    minf[t] = f
                continue
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
    expanded, scratch, child indices and values, inverse cubes, scratch); ``tab``: the read-only
    ones (move rules, move tables, axis moves, table, classes, root pieces, piece moves, axis
    rotations, binomials, whether the slice is sorted)."""
    for i in prange(active.shape[0]):
        _task(active[i], state, tab, start, bound, budget, parity)
