"""The A* kernel over macro pushes, in numba, resumable so that limits end honestly.

A *node* is a box placement plus a player cell. An edge is one push with the player's walk to
the pushing position folded in: it costs ``walk + 1`` moves and 1 push. Two cost components are
carried, compared lexicographically:

* moves mode (``MODE_MOVES``): ``g1`` = moves, ``g2`` = pushes. The node keeps the player's exact
  cell (after a push it stands where the box was), so ``g1`` is exact and A* on ``g1`` is
  move-optimal; among move-optimal solutions ``g2`` makes it take one with the fewest pushes.
* pushes mode (``MODE_PUSHES``): ``g1`` = pushes, ``g2`` = 0. The node keeps the smallest cell of
  the player's region (where the player is inside the region does not change which pushes
  follow), so placements that differ only by the player's walk are one node.

Bounds (``h1`` for ``g1``, ``h2`` for ``g2``): ``hp``, the minimum-cost matching of boxes to goals
on single-box push distances (:mod:`exact.sokoban.analysis`), never exceeds the pushes left and
drops by at most 1 per push, so it is admissible and consistent for pushes. In moves mode
``h1 = hp + walk``, ``walk`` being the shortest walk from the player to any cell a push can start
from (0 when solved). It is consistent: an edge costs ``w + 1`` with ``w >= walk`` (its own walk),
``hp`` drops by at most 1 and the next ``walk`` is >= 0, so ``h1(s) <= w + 1 + h1(s')``. ``walk``
needs a breadth-first search, so a new node first gets a cheaper lower bound of it (0 if solved or
a push can start where the player stands, else 1); when the node is taken from the open list the
search its expansion needs anyway gives the exact ``walk``, and if that raises ``h1`` the node
goes back with the larger key before it is expanded. Keys thus never exceed the true ``f``, and a
node is expanded only under the exact, consistent bound, so A*'s proof of optimality holds; nodes
are nevertheless reopened when a cheaper path reaches them. A key packs ``(f1, f2, -g1)`` into one
int64: least ``f1`` first, then least ``f2``, then the deepest node.

Pruning, each rule sound (a pruned node has no solution):

* a push onto a dead square (no goal reachable from it);
* a 2x2 square of walls and boxes holding the pushed box and a box off its goal (none of the boxes
  in it can ever move);
* a freeze deadlock: the pushed box, or a box next to it, is off its goal and blocked on both
  axes by walls, by dead squares on both sides, or by boxes that are themselves frozen (the box
  under test counting as a wall). The boxes of such a proof cannot move before one of them moves,
  so none ever does;
* an infinite matching (some box can reach no goal that another box does not need).
"""

from __future__ import annotations

import numpy as np
from numba import njit

FOUND, EXHAUSTED, PAUSED, FULL = 0, 1, 2, 3
MODE_MOVES, MODE_PUSHES = 0, 1

BIG = np.int64(1) << 30  # an impossible box-goal pair in the matching
HUGE = np.int64(1) << 62  # the matching's own infinity
CLOSED, H_EXACT = 1, 2  # node flags
SHIFT1, SHIFT2, TIE = 42, 21, (1 << 21) - 1

# meta: counters shared between calls
M_COUNT, M_HEAP, M_EXPANDED, M_GENERATED, M_STAMP, M_GOAL, M_LB, M_STOP, M_REOPENED, M_FBUDGET = range(10)
META_SIZE = 10


@njit(cache=True)
def matching(bx, nb, dist, cost, u, v, p, way, minv, used):  # pragma: no cover
    """Minimum-cost perfect matching of the boxes ``bx[:nb]`` to the goals on ``dist`` (Hungarian
    method, O(nb^3)); ``>= BIG`` when no finite matching exists. Scratch arrays have ``nb + 1``
    entries (``cost`` is ``(nb + 1, nb + 1)``)."""
    for i in range(nb):
        for j in range(nb):
            d = dist[j, bx[i]]
            cost[i + 1, j + 1] = BIG if d >= (1 << 20) else d
    for j in range(nb + 1):
        u[j] = 0
        v[j] = 0
        p[j] = 0
        way[j] = 0
    for i in range(1, nb + 1):
        p[0] = i
        j0 = 0
        for j in range(nb + 1):
            minv[j] = HUGE
            used[j] = 0
        while True:
            used[j0] = 1
            i0 = p[j0]
            delta = HUGE
            j1 = 0
            for j in range(1, nb + 1):
                if used[j] == 0:
                    cur = cost[i0, j] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(nb + 1):
                if used[j] == 1:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    return -v[0]


@njit(cache=True)
def frozen(c, occ, nbr, dead, mark, scell, sstage, budget):  # pragma: no cover
    """Whether the box at ``c`` can never move: blocked on both axes (see the module docstring).

    The recursive test ("a neighbouring box that is itself frozen, with the boxes under test
    counting as walls") runs on an explicit stack (``scell``, ``sstage``: one frame per box under
    test, at most one per box; numba's cache cannot hold recursive functions). A frame's stage is
    ``3 * axis + step``: step 0 looks at the axis, step 1 has the answer for the first neighbour
    box, step 2 for the second. ``mark`` flags the boxes on the stack. ``budget[0]`` caps the
    frames; an exhausted budget answers "not frozen" for the box it would test, which only prunes
    less.
    """
    depth = 1
    scell[0] = c
    sstage[0] = 0
    mark[c] = 1
    budget[0] -= 1
    ret = False  # the answer of the frame popped last
    while depth > 0:
        f = depth - 1
        x = scell[f]
        axis = sstage[f] // 3
        step = sstage[f] % 3
        if axis == 2:  # both axes blocked
            mark[x] = 0
            depth -= 1
            ret = True
            continue
        a = nbr[x, 2 * axis]
        b = nbr[x, 2 * axis + 1]
        if step == 0:
            if a < 0 or b < 0 or (dead[a] == 1 and dead[b] == 1):
                sstage[f] = 3 * (axis + 1)
            elif occ[a] == 1 and mark[a] == 1:
                sstage[f] = 3 * (axis + 1)
            else:
                sstage[f] = 3 * axis + 1
                ret = False
                if occ[a] == 1 and budget[0] > 0:
                    budget[0] -= 1
                    mark[a] = 1
                    scell[depth] = a
                    sstage[depth] = 0
                    depth += 1
            continue
        if step == 1:
            if ret or (occ[b] == 1 and mark[b] == 1):
                sstage[f] = 3 * (axis + 1)
            else:
                sstage[f] = 3 * axis + 2
                ret = False
                if occ[b] == 1 and budget[0] > 0:
                    budget[0] -= 1
                    mark[b] = 1
                    scell[depth] = b
                    sstage[depth] = 0
                    depth += 1
            continue
        if ret:
            sstage[f] = 3 * (axis + 1)
            continue
        mark[x] = 0  # this axis is free: the box is not frozen
        depth -= 1
        ret = False
    return ret


@njit(cache=True)
def deadlocked(t, occ, wall, nbr, dead, goal, width, mark, scell, sstage, budget):  # pragma: no cover
    """Whether the placement ``occ`` (1 on boxes) is lost after a box was pushed to ``t``."""
    # 2x2 squares holding t: every cell a wall or a box, some box off its goal.
    for dr in (-width, width):
        for dc in (-1, 1):
            full = True
            off = False
            for q in range(4):
                x = np.int64(t) + (dc if q & 1 else 0) + (dr if q & 2 else 0)
                if wall[x] == 0 and occ[x] == 0:
                    full = False
                    break
                if occ[x] == 1 and goal[x] == 0:
                    off = True
            if full and off:
                return True
    # Freeze: the pushed box and its neighbouring boxes, each tested afresh.
    for k in range(5):
        x = t if k == 4 else nbr[t, k]
        if x < 0 or occ[x] == 0 or goal[x] == 1:
            continue
        budget[0] = 200
        if frozen(x, occ, nbr, dead, mark, scell, sstage, budget):
            return True
    return False


@njit(cache=True)
def node_key(f1, f2, g1):  # pragma: no cover
    """The open list's order: least ``f1``, then least ``f2``, then greatest ``g1``."""
    return (np.int64(f1) << SHIFT1) | (np.int64(f2) << SHIFT2) | np.int64(TIE - min(g1, TIE))


@njit(cache=True)
def heap_push(hk, hv, size, key, val):  # pragma: no cover
    i = size
    hk[i] = key
    hv[i] = val
    while i > 0:
        parent = (i - 1) >> 1
        if hk[parent] <= hk[i]:
            break
        hk[parent], hk[i] = hk[i], hk[parent]
        hv[parent], hv[i] = hv[i], hv[parent]
        i = parent
    return size + 1


@njit(cache=True)
def heap_pop(hk, hv, size):  # pragma: no cover
    """Remove the least key; returns ``(key, value, new size)``."""
    key, val = hk[0], hv[0]
    size -= 1
    hk[0] = hk[size]
    hv[0] = hv[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        small = left
        if left + 1 < size and hk[left + 1] < hk[left]:
            small = left + 1
        if hk[i] <= hk[small]:
            break
        hk[i], hk[small] = hk[small], hk[i]
        hv[i], hv[small] = hv[small], hv[i]
        i = small
    return key, val, size


@njit(cache=True)
def rehash(hashv, count, table):  # pragma: no cover
    """Fill an empty open-addressing ``table`` (size a power of 2) with nodes ``0 .. count-1``."""
    mask = table.shape[0] - 1
    for j in range(count):
        idx = np.int64(hashv[j] & np.uint64(mask))
        while table[idx] != 0:
            idx = (idx + 1) & mask
        table[idx] = j + 1


@njit(cache=True)
def region_min(start, occ, nbr, seen, stamp, queue):  # pragma: no cover
    """The smallest cell reachable from ``start`` around the boxes ``occ`` (the pushes-mode player)."""
    seen[start] = stamp
    queue[0] = start
    head, tail = 0, 1
    best = start
    while head < tail:
        c = queue[head]
        head += 1
        if c < best:
            best = c
        for d in range(4):
            q = nbr[c, d]
            if q >= 0 and occ[q] == 0 and seen[q] != stamp:
                seen[q] = stamp
                queue[tail] = q
                tail += 1
    return best


@njit(cache=True)
def search(
    mode,
    nbr,
    wall,
    goal,
    dead,
    dist,
    zb,
    zp,
    width,
    boxes,
    player,
    hashv,
    g1,
    g2,
    h1,
    h2,
    parent,
    move,
    flags,
    table,
    hk,
    hv,
    meta,
    occ,
    pd,
    seen,
    seen2,
    queue,
    mark,
    scell,
    sstage,
    budget,
    cur,
    nxt,
    cost,
    hu,
    hvv,
    hp_,
    way,
    minv,
    used,
):  # pragma: no cover
    """Run A* until a goal is taken (FOUND), the open list is empty (EXHAUSTED), ``meta[M_STOP]``
    expansions are done (PAUSED) or the store may overflow (FULL). All state is in the arrays, so
    a later call goes on where this one stopped."""
    nb = boxes.shape[1]
    cap = boxes.shape[0]
    hcap = hk.shape[0]
    mask = table.shape[0] - 1
    room = 4 * nb + 1
    while True:
        if meta[M_HEAP] == 0:
            return EXHAUSTED
        if meta[M_EXPANDED] >= meta[M_STOP]:
            return PAUSED
        if meta[M_COUNT] + room > cap or meta[M_HEAP] + room > hcap or 2 * (meta[M_COUNT] + room) > mask:
            return FULL
        key, x, hsize = heap_pop(hk, hv, meta[M_HEAP])
        meta[M_HEAP] = hsize
        if flags[x] & CLOSED:
            continue
        if key != node_key(g1[x] + h1[x], g2[x] + h2[x], g1[x]):
            continue  # a stale entry: the node was reached again more cheaply, or its bound grew
        f1 = np.int64(g1[x] + h1[x])
        if f1 > meta[M_LB]:
            meta[M_LB] = f1
        solved = True
        for i in range(nb):
            cur[i] = boxes[x, i]
            if goal[cur[i]] == 0:
                solved = False
        if solved:
            meta[M_GOAL] = x
            return FOUND
        # The player's walk: breadth-first search around the boxes.
        for i in range(nb):
            occ[cur[i]] = 1
        meta[M_STAMP] += 1
        stamp = meta[M_STAMP]
        pl = player[x]
        seen[pl] = stamp
        pd[pl] = 0
        queue[0] = pl
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(4):
                q = nbr[c, d]
                if q >= 0 and occ[q] == 0 and seen[q] != stamp:
                    seen[q] = stamp
                    pd[q] = pd[c] + 1
                    queue[tail] = q
                    tail += 1
        if mode == MODE_MOVES and (flags[x] & H_EXACT) == 0:
            # The exact shortest walk to any push position may raise the bound: then requeue.
            flags[x] |= H_EXACT
            walk = 1 << 20
            for i in range(nb):
                b = cur[i]
                for d in range(4):
                    t = nbr[b, d]
                    pp = nbr[b, d ^ 1]
                    if t >= 0 and occ[t] == 0 and dead[t] == 0 and pp >= 0 and seen[pp] == stamp and pd[pp] < walk:
                        walk = pd[pp]
            if walk == 1 << 20:
                for i in range(nb):
                    occ[cur[i]] = 0
                flags[x] |= CLOSED  # no push at all: a dead end
                continue
            if h2[x] + walk > h1[x]:
                h1[x] = h2[x] + walk
                meta[M_HEAP] = heap_push(hk, hv, meta[M_HEAP], node_key(g1[x] + h1[x], g2[x] + h2[x], g1[x]), x)
                for i in range(nb):
                    occ[cur[i]] = 0
                continue
        flags[x] |= CLOSED
        meta[M_EXPANDED] += 1
        for i in range(nb):
            b = cur[i]
            for d in range(4):
                t = nbr[b, d]
                pp = nbr[b, d ^ 1]
                if t < 0 or occ[t] == 1 or dead[t] == 1 or pp < 0 or seen[pp] != stamp:
                    continue
                occ[b] = 0
                occ[t] = 1
                if not deadlocked(t, occ, wall, nbr, dead, goal, width, mark, scell, sstage, budget):
                    # the new placement, kept sorted
                    k = 0
                    for j in range(nb):
                        if j != i:
                            nxt[k] = cur[j]
                            k += 1
                    k = nb - 1
                    while k > 0 and nxt[k - 1] > t:
                        nxt[k] = nxt[k - 1]
                        k -= 1
                    nxt[k] = t
                    if mode == MODE_MOVES:
                        npl = b
                        ng1 = g1[x] + pd[pp] + 1
                        ng2 = g2[x] + 1
                    else:
                        meta[M_STAMP] += 1
                        npl = region_min(b, occ, nbr, seen2, meta[M_STAMP], queue)
                        ng1 = g1[x] + 1
                        ng2 = 0
                    hx = hashv[x] ^ zb[b] ^ zb[t] ^ zp[player[x]] ^ zp[npl]
                    idx = np.int64(hx & np.uint64(mask))
                    found = -1
                    while table[idx] != 0:
                        j = table[idx] - 1
                        if hashv[j] == hx and player[j] == npl:
                            same = True
                            for m in range(nb):
                                if boxes[j, m] != nxt[m]:
                                    same = False
                                    break
                            if same:
                                found = j
                                break
                        idx = (idx + 1) & mask
                    meta[M_GENERATED] += 1
                    if found >= 0:
                        if ng1 < g1[found] or (ng1 == g1[found] and ng2 < g2[found]):
                            if flags[found] & CLOSED:
                                meta[M_REOPENED] += 1
                            g1[found] = ng1
                            g2[found] = ng2
                            parent[found] = x
                            move[found] = b * 4 + d
                            flags[found] &= ~CLOSED
                            meta[M_HEAP] = heap_push(
                                hk, hv, meta[M_HEAP], node_key(ng1 + h1[found], ng2 + h2[found], ng1), found
                            )
                    else:
                        hpush = matching(nxt, nb, dist, cost, hu, hvv, hp_, way, minv, used)
                        if hpush < BIG:
                            n = meta[M_COUNT]
                            meta[M_COUNT] = n + 1
                            for m in range(nb):
                                boxes[n, m] = nxt[m]
                            player[n] = npl
                            hashv[n] = hx
                            g1[n] = ng1
                            g2[n] = ng2
                            if mode == MODE_MOVES:
                                # 0 if solved or if a push can start where the player stands, else at least 1
                                walk = 0 if hpush == 0 else 1
                                for e in range(4 * walk):
                                    bb = nbr[npl, e]
                                    if bb >= 0 and occ[bb] == 1:
                                        tt = nbr[bb, e]
                                        if tt >= 0 and occ[tt] == 0 and dead[tt] == 0:
                                            walk = 0
                                            break
                                h1[n] = hpush + walk
                                h2[n] = hpush
                            else:
                                h1[n] = hpush
                                h2[n] = 0
                            parent[n] = x
                            move[n] = b * 4 + d
                            flags[n] = 0
                            table[idx] = n + 1
                            meta[M_HEAP] = heap_push(hk, hv, meta[M_HEAP], node_key(ng1 + h1[n], ng2 + h2[n], ng1), n)
                occ[t] = 0
                occ[b] = 1
        for i in range(nb):
            occ[cur[i]] = 0
