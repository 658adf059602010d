"""The numba kernel of Heineman's staged deepening (the hot loop of :mod:`learned.freecell.hsd`).

The search keeps its whole state in numpy arrays, so that :func:`run` can stop after a budget of
nodes at a stage boundary, let Python read the clock, and be called again to go on:

* ``open``: a binary heap of leaf ids keyed by ``(h, -id)``: the lowest heuristic first, and among
  equal ones the newest leaf (depth first).
* leaves: each is the root it was reached from (``leaf_root``) and the ``k`` moves from there
  (``leaf_moves``, uint16 codes of :mod:`exact.puzzles.freecell.kernels`). A leaf's board is rebuilt
  from its root when it is taken from the open list; that board becomes a new root
  (``roots[r]``, one state vector per stage) and remembers its leaf (``root_leaf``), which is how
  a solution's moves are read back.
* ``tt``: the transposition table, an open-addressing set of 64-bit keys
  (:func:`exact.puzzles.freecell.kernels.key`) with linear probing, doubled when half full (up to
  ``tt_slots``), and cleared after a stage once it holds ``tt_limit`` keys.

``meta`` holds the counters (indices ``M_*``). Arrays that fill up are doubled inside the kernel
and handed back: callers use the arrays :func:`run` returns.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exact.puzzles.freecell.kernels import MAX_MOVES, autoplay, cards_home, key, legal_moves, play
from learned.freecell.heuristics import evaluate

# meta indices
M_NODES = 0  # children generated (each a move and its safe moves home)
M_STAGES = 1  # depth-limited searches run
M_ROOTS = 2  # states in roots
M_LEAVES = 3  # leaves ever pushed
M_OPEN = 4  # heap size
M_TT = 5  # keys in the transposition table
M_CLEARS = 6  # times the table was cleared
M_TRIMS = 7  # times the open list was cut to its best half
M_SOLVED_ROOT = 8  # root of the stage that found the goal
M_SOLVED_DEPTH = 9  # moves from that root to the goal
M_MAX_OPEN = 10  # largest heap size seen
META_SIZE = 11

TT_START = 1 << 15
"""Slots of a fresh transposition table; it doubles when half full, up to the slots of ``tt_limit`` keys."""

# run() results
CONTINUE = 0
SOLVED = 1
EXHAUSTED = 2
NODE_LIMIT = 3


@njit(cache=True, inline="always")
def _less(hk, hid, a, b):
    return hk[a] < hk[b] or (hk[a] == hk[b] and hid[a] > hid[b])


@njit(cache=True)
def _sift_down(hk, hid, n, i):
    while True:
        left = 2 * i + 1
        if left >= n:
            return
        best = left
        right = left + 1
        if right < n and _less(hk, hid, right, left):
            best = right
        if _less(hk, hid, best, i):
            hk[i], hk[best] = hk[best], hk[i]
            hid[i], hid[best] = hid[best], hid[i]
            i = best
        else:
            return


@njit(cache=True)
def _sift_up(hk, hid, i):
    while i > 0:
        parent = (i - 1) >> 1
        if _less(hk, hid, i, parent):
            hk[i], hk[parent] = hk[parent], hk[i]
            hid[i], hid[parent] = hid[parent], hid[i]
            i = parent
        else:
            return


@njit(cache=True)
def _trim(hk, hid, n):
    """Keep the best half of the heap; returns its new size."""
    keep = n // 2
    order = np.argsort(hk[:n], kind="mergesort")[:keep]
    k2 = hk[order].copy()
    i2 = hid[order].copy()
    hk[:keep] = k2
    hid[:keep] = i2
    for i in range(keep // 2 - 1, -1, -1):
        _sift_down(hk, hid, keep, i)
    return keep


@njit(cache=True)
def tt_insert(tt, h):
    """Insert key ``h`` (never 0); False if it was there already."""
    mask = tt.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while True:
        v = tt[i]
        if v == h:
            return False
        if v == 0:
            tt[i] = h
            return True
        i = (i + 1) & mask


@njit(cache=True)
def _grow_tt(tt):
    """The table with twice the slots, every key re-inserted."""
    new = np.zeros(2 * tt.shape[0], dtype=np.uint64)
    for i in range(tt.shape[0]):
        if tt[i] != 0:
            tt_insert(new, tt[i])
    return new


@njit(cache=True)
def _tt_add(tt, h, meta, tt_slots):
    """Insert ``h``; returns (new?, table), the table doubled once it is half full (up to ``tt_slots``)."""
    if not tt_insert(tt, h):
        return False, tt
    meta[M_TT] += 1
    if 2 * meta[M_TT] >= tt.shape[0] and tt.shape[0] < tt_slots:
        tt = _grow_tt(tt)
    return True, tt


@njit(cache=True)
def run(
    meta,
    roots,
    root_leaf,
    leaf_root,
    leaf_moves,
    hk,
    hid,
    tt,
    weights,
    zobrist,
    zobrist_cell,
    nf,
    k,
    budget,
    node_limit,
    tt_limit,
    tt_slots,
    max_open,
    goal_moves,
) -> tuple:
    """Run stages until the goal, an empty open list, ``node_limit`` nodes (<= 0: none) or
    ``budget`` more nodes (checked between stages).

    Returns:
        ``(result, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt)``: one of CONTINUE, SOLVED,
        EXHAUSTED, NODE_LIMIT, and the arrays (new ones where they grew). On SOLVED,
        ``meta[M_SOLVED_ROOT]`` is the root and ``goal_moves[:meta[M_SOLVED_DEPTH]]`` the moves from it.
    """
    s_len = roots.shape[1]
    w = (s_len - 20) // 8
    stack = np.empty((k + 1, s_len), dtype=np.uint8)
    moves = np.empty((k + 1, MAX_MOVES), dtype=np.uint16)
    n_moves = np.zeros(k + 1, dtype=np.int64)
    at = np.zeros(k + 1, dtype=np.int64)
    buf = np.empty(weights.shape[0])
    start_nodes = meta[M_NODES]
    while True:
        if meta[M_OPEN] == 0:
            return EXHAUSTED, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt
        if node_limit > 0 and meta[M_NODES] >= node_limit:
            return NODE_LIMIT, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt
        if meta[M_NODES] - start_nodes >= budget:
            return CONTINUE, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt
        # Take the best leaf and rebuild its board: it is this stage's root.
        n_open = meta[M_OPEN]
        leaf = hid[0]
        n_open -= 1
        hk[0] = hk[n_open]
        hid[0] = hid[n_open]
        meta[M_OPEN] = n_open
        _sift_down(hk, hid, n_open, 0)
        r = meta[M_ROOTS]
        if r == roots.shape[0]:
            bigger = np.empty((2 * r, s_len), dtype=np.uint8)
            bigger[:r] = roots
            roots = bigger
            rl = np.empty(2 * r, dtype=np.int64)
            rl[:r] = root_leaf
            root_leaf = rl
        roots[r] = roots[leaf_root[leaf]]
        for d in range(k):
            code = int(leaf_moves[leaf, d])
            if code == 0:
                break
            play(roots[r], code, w)
            autoplay(roots[r], nf, w)
        root_leaf[r] = leaf
        meta[M_ROOTS] = r + 1
        meta[M_STAGES] += 1
        _, tt = _tt_add(tt, key(roots[r], nf, w, zobrist, zobrist_cell), meta, tt_slots)
        # Depth-first search to depth k, no heuristic; the states at depth k are leaves.
        stack[0] = roots[r]
        n_moves[0] = legal_moves(stack[0], nf, w, moves[0])
        at[0] = 0
        depth = 0
        while depth >= 0:
            if at[depth] == n_moves[depth]:
                depth -= 1
                continue
            code = int(moves[depth, at[depth]])
            at[depth] += 1
            child = stack[depth + 1]
            parent = stack[depth]
            for t in range(s_len):  # a loop: numba's slice copy takes ten times as long
                child[t] = parent[t]
            play(child, code, w)
            autoplay(child, nf, w)
            meta[M_NODES] += 1
            if cards_home(child) == 52:
                for d in range(depth):
                    goal_moves[d] = moves[d, at[d] - 1]
                goal_moves[depth] = code
                meta[M_SOLVED_ROOT] = r
                meta[M_SOLVED_DEPTH] = depth + 1
                return SOLVED, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt
            fresh, tt = _tt_add(tt, key(child, nf, w, zobrist, zobrist_cell), meta, tt_slots)
            if not fresh:
                continue
            if depth + 1 < k:
                depth += 1
                n_moves[depth] = legal_moves(child, nf, w, moves[depth])
                at[depth] = 0
                continue
            # A leaf: record it and push it on the open list.
            lf = meta[M_LEAVES]
            if lf == leaf_root.shape[0]:
                lr = np.empty(2 * lf, dtype=np.int32)
                lr[:lf] = leaf_root
                leaf_root = lr
                lm = np.zeros((2 * lf, k), dtype=np.uint16)
                lm[:lf] = leaf_moves
                leaf_moves = lm
            leaf_root[lf] = r
            for d in range(k):
                leaf_moves[lf, d] = moves[d, at[d] - 1]
            meta[M_LEAVES] = lf + 1
            n_open = meta[M_OPEN]
            if n_open == hk.shape[0]:
                if n_open >= max_open:
                    n_open = _trim(hk, hid, n_open)
                    meta[M_TRIMS] += 1
                else:
                    k2 = np.empty(2 * n_open)
                    k2[:n_open] = hk
                    hk = k2
                    i2 = np.empty(2 * n_open, dtype=np.int32)
                    i2[:n_open] = hid
                    hid = i2
            hk[n_open] = evaluate(child, nf, w, weights, buf)
            hid[n_open] = lf
            _sift_up(hk, hid, n_open)
            n_open += 1
            meta[M_OPEN] = n_open
            if n_open > meta[M_MAX_OPEN]:
                meta[M_MAX_OPEN] = n_open
        if meta[M_TT] >= tt_limit:
            tt = np.zeros(TT_START, dtype=np.uint64)
            meta[M_TT] = 0
            meta[M_CLEARS] += 1


@njit(cache=True)
def shortcut(start, codes, nf, zobrist, zobrist_cell):
    """Shorten a solution: from each board, the move (with its safe moves home) that lands
    furthest along the path, matching boards by key (so a symmetric copy counts).

    ``start`` is the board after its safe moves home; ``codes`` the moves, each followed by the
    safe moves home. Returns the new moves (same convention); never longer than ``codes``.
    """
    s_len = start.shape[0]
    w = (s_len - 20) // 8
    n = codes.shape[0]
    keys = np.empty(n + 1, dtype=np.uint64)
    s = start.copy()
    keys[0] = key(s, nf, w, zobrist, zobrist_cell)
    for t in range(n):
        play(s, int(codes[t]), w)
        autoplay(s, nf, w)
        keys[t + 1] = key(s, nf, w, zobrist, zobrist_cell)
    out = np.empty(n, dtype=np.uint16)
    n_out = 0
    s = start.copy()
    pos = 0
    moves = np.empty(MAX_MOVES, dtype=np.uint16)
    child = np.empty_like(s)
    while pos < n:
        m = legal_moves(s, nf, w, moves)
        best = -1
        best_code = 0
        for t in range(m):
            for u in range(s_len):
                child[u] = s[u]
            play(child, int(moves[t]), w)
            autoplay(child, nf, w)
            h = key(child, nf, w, zobrist, zobrist_cell)
            for j in range(n, pos, -1):
                if j <= best:
                    break
                if keys[j] == h:
                    best = j
                    best_code = int(moves[t])
                    break
        if best < 0:  # cannot happen for a path of legal moves; keep the rest as it is
            for t in range(pos, n):
                out[n_out] = codes[t]
                n_out += 1
            return out[:n_out]
        play(s, best_code, w)
        autoplay(s, nf, w)
        out[n_out] = best_code
        n_out += 1
        pos = best
    return out[:n_out]


@njit(cache=True)
def path_length(start, codes, nf):
    """Moves of a path in notation: each code's move and the safe moves home after it."""
    w = (start.shape[0] - 20) // 8
    s = start.copy()
    n = 0
    for t in range(codes.shape[0]):
        play(s, int(codes[t]), w)
        n += 1 + autoplay(s, nf, w)
    return n
