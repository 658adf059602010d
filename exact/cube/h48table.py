"""H48's ``hk`` pruning tables (issue 67): the ``h0`` coordinate of :mod:`exact.cube.h48` with the
orientation of ``k`` edges, two bits an entry, built by depth-first search from the short cubes.

For ``0 < k < 11`` the coordinate is not one a move acts on (a move brings untracked edges into
the tracked slots), so a breadth-first search over entries cannot fill it. An entry's value is
instead the smallest distance of the ``h11`` cosets (all eleven flips: a true coordinate) that
it forgets the flips of, and those distances are found on cubes, as Tronto's H48 does:

1. breadth-first search over the ``h11`` cosets (up to the 48 symmetries) to ``short_depth``,
   kept in a hash map (:func:`short_cubes`);
2. from each coset at ``short_depth``, every move sequence of ``base + 2 - short_depth`` moves
   that does not step back into the map, each cube met marking its entry (and, for a corner
   class fixed by symmetries, those of its conjugates by them) with its distance.

Every coset within ``base + 2`` moves is met at its distance, so an entry holds
``max(0, d - base)`` for the smallest such ``d`` and ``3`` where there is none: two bits, read as
"at most ``base``" (``0``; see the line minimum), ``base + 1``, ``base + 2``, "at least
``base + 3``". Each line of 256 entries also keeps the smallest ``d <= base`` marked in it
(``base + 3`` where none), the fallback a ``0`` read falls back on, as nxopt and H48 do (a line
whose entries all read more than ``0`` is never read, so larger distances are not kept).

The marking runs on every numba thread, each walking its own share of the starts; entries are
lowered by compare-and-swap (:func:`exact.memory.compare_exchange`), so no update is lost where
two threads write one byte. Measured for ``h6`` (base 9: three moves from each of the 6,235,366
starts) on 2 cores shared with another job (2026-11-29), by timing the first 4,000 starts:
about 9,300 s for the whole table with the earlier kernel (each thread walked every sequence and
wrote only its own corner classes), 3,400 s with this one; the whole build on 2 free cores ran
at about 2,700 s before the next change (:data:`MARK_SECONDS` is now set from builds after it).

The leaves, twelve or so of every node one move from the end and most of the cubes met, are
not built (:func:`_leaves`): a child's corners are one read of the corner move table, its edges
the parent's slot masks moved by table (:func:`mask_moves`) and ranked by :func:`hk_masks`. The
entries met at each level are marked :data:`LEAF_BATCH` at a time, so that their cache misses
overlap; the table being built and the short map's keys live in huge pages. The same tables come
out byte for byte (a rebuilt ``h2`` table has the stored one's SHA-256), and the ``h8`` build's own
walk (500 cosets at distance 8, four moves each, an ``h8``-sized table, two threads beside
another 2-thread job) took 0.62 of the time before these changes, then 0.95 of that with the
keys in huge pages (``python benchmarks/h48_mark.py --files OLD.py exact/cube/h48table.py --h 8
--depth 8 --levels 4 --starts 500``; every run in docs/benchmarks/h48.md, section ``mark``). A
checkpoint waits at least :data:`CHECKPOINT_SHARE` times its own writing time after the last one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from exact.cube.h48 import _COMB, E_SLICE, M_SLICE, NCOCSEP, NESEP, TETRAD, cocsep_classes, stabilisers, sym48
from exact.cube.optimal import canonical_rules
from exact.cube.symmetry import symmetry_of
from exact.errors import PuzzleoptError
from exact.logs import get_logger
from exact.memory import compare_exchange, huge_full, huge_pages, prefetch
from exact.movetable import MoveTable
from exact.pdb import partial
from exact.pdb.store import Built, Table, TableSpec
from exact.puzzles.cube.cubies import cubie_moves

LOG = get_logger(__name__)

LINE = 256
"""Entries a line: the fallback minimum is kept per line (64 bytes, a cache line)."""
BASES = (8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10)
"""The half-turn metric's base for each ``k``, H48's hand-picked values: few entries read ``0``
(a fallback) and few read ``3`` (an underestimate)."""
QTM_EXTRA = 2
"""Added to :data:`BASES` in the quarter-turn metric, whose distances run longer (a guess, not
tuned: the base decides speed, never correctness), up to :data:`QTM_MOST_BASE`."""
QTM_MOST_BASE = 11
"""The quarter-turn metric's largest default base. The build walks ``base - 6`` moves from each
short coset, about 9.5 times more sequences per move, whatever ``h``: the ``h6`` table at base 11
took 5,475 s on 2 cores and ``h8`` at base 11 6,027 s (summed over two runs, 2026-12-01); at base
12 ``h8`` would take some ten times longer (the store's estimate: 52,067 s). At base 11 the entries
of ``h6`` read 0, 1, 2, 3 in 6.9%, 33.3%, 54.1% and 5.7% of them, those of ``h8`` in 2.0%, 13.0%,
52.2% and 32.8% (counted 2026-12-01): ``h8``'s more often read 3 ("at least 14"), and it still
proved DeepCubeA's first 100 cubes in a median of 2.41 s against ``h6``'s 6.55 s with 0.27 times the
nodes (2 threads; docs/benchmarks/deepcubea_h48.md). Base 11 stays the default for its build
cost; whether base 12 would search faster was not measured."""


def default_base(metric: str, h: int) -> int:
    """The base of the ``hk`` table of ``h`` that :func:`spec` and the catalog build by default."""
    return BASES[h] if metric == "htm" else min(BASES[h] + QTM_EXTRA, QTM_MOST_BASE)


EMPTY = -1
CHUNKS = 256
"""Parts of the marking between two calls to a build's ``advance`` (and between checkpoints)."""
CHECKPOINT_SECONDS = 300.0
"""A build's checkpoint is written once this long has passed since the last one (at least)."""
CHECKPOINT_SHARE = 20.0
"""...and once this many times the last checkpoint's own seconds have passed: writing an ``h8``
table's 7.2 GB is not free, and checkpoints should cost at most a twentieth of the build."""
_EDGE_BITS = 11
LEAF_BATCH = 64
"""Entries of one level gathered before they are marked, so that their prefetches overlap (random
updates of a 7 GB table, one thread: about 37 ns each in batches of 13, one node's leaves,
against 16-21 ns in batches of 64; an ad hoc loop of 10 million prefetched compare-and-swap
updates, beside a 2-thread job, 2026-11-30, not kept: ``benchmarks/h48_mark.py`` measures the
walk itself)."""


@dataclass(frozen=True)
class CubeKit:
    """What the numba kernels read: the cube's moves on pieces and the ``hk`` coordinate's tables.

    A cube is uint8 ``(40,)``: corner pieces by slot (8), their twists (8), edge pieces by slot
    (12), their flips (12), as :mod:`exact.puzzles.cube.cubies` reads them.

    Attributes:
        cto, ctw: int64 ``(M, 8)``: the slot a corner in slot ``s`` goes to, the twist it gains.
        eto, eflip: int64 ``(M, 12)``: the same for edges.
        s_eto, s_ek: int64 ``(48, 12)``: each symmetry's action on edge slots and flips.
        tetrad: int64 ``(8,)``: 1 for the corner pieces of the first tetrad, else 0.
        e_piece, m_piece: int64 ``(12,)``: 1 for the edge pieces of the E (M) slice, else 0.
        comb: int64 ``(12, 5)``: binomial coefficients.
        cls, sym: the corner classes (:func:`exact.cube.h48.cocsep_classes`).
        stab: int8 ``(3393, 48)``: the symmetries fixing each class's representative, ``-1``
            after the last (identity first).
        forbid: bool ``(M, M)``: successive pairs never tried (:func:`exact.cube.optimal.canonical_rules`).
    """

    cto: np.ndarray
    ctw: np.ndarray
    eto: np.ndarray
    eflip: np.ndarray
    s_eto: np.ndarray
    s_ek: np.ndarray
    tetrad: np.ndarray
    e_piece: np.ndarray
    m_piece: np.ndarray
    comb: np.ndarray
    cls: np.ndarray
    sym: np.ndarray
    stab: np.ndarray
    forbid: np.ndarray


def cube_kit(table: MoveTable) -> CubeKit:
    """The :class:`CubeKit` of a 3x3x3 face-move table (either metric)."""
    mv = cubie_moves(table)
    tetrad, comb, cls, sym, s_eto, s_ek, e_piece, m_piece = _lookup_kit()
    stab = stabilisers()
    return CubeKit(mv.corner_to, mv.corner_twist, mv.edge_to, mv.edge_flip, s_eto, s_ek, tetrad, e_piece, m_piece,
                   comb, cls, sym, stab, canonical_rules(table)[0])  # fmt: skip


def entries(h: int) -> int:
    """Entries of the ``hk`` table for ``k = h``: 3,393 corner classes x 34,650 x ``2**h``."""
    return 3393 * (NESEP << h)


@njit(cache=True, inline="always")
def move_corners(src, dst, m, cto, ctw):  # pragma: no cover - numba
    """The corners (``dst[:16]``) of cube ``src`` (uint8 ``(40,)``) after move ``m``."""
    for s in range(8):
        t = cto[m, s]
        dst[t] = src[s]
        dst[8 + t] = (src[8 + s] + ctw[m, s]) % 3


@njit(cache=True, inline="always")
def move_edges(src, dst, m, eto, eflip):  # pragma: no cover - numba
    """The edges (``dst[16:]``) of cube ``src`` (uint8 ``(40,)``) after move ``m``."""
    for s in range(12):
        t = eto[m, s]
        dst[16 + t] = src[16 + s]
        dst[28 + t] = src[28 + s] ^ eflip[m, s]


@njit(cache=True, inline="always")
def apply_move(src, dst, m, cto, ctw, eto, eflip):  # pragma: no cover - numba
    """``dst`` = cube ``src`` (uint8 ``(40,)``) after move ``m``."""
    move_corners(src, dst, m, cto, ctw)
    move_edges(src, dst, m, eto, eflip)


@njit(cache=True, inline="always")
def cocsep(c, tetrad, comb):  # pragma: no cover - numba
    """:func:`exact.cube.h48.cocsep_of` of one cube."""
    rank = 0
    seen = 0
    for s in range(8):  # no branches: which slots hold the tetrad is a coin toss to the predictor
        t = tetrad[c[s]]
        seen += t
        rank += comb[s, seen] * t
    tw = 0
    for s in range(7):
        tw = tw * 3 + c[8 + s]
    return rank * 2187 + tw


@njit(cache=True, inline="always")
def _conj_edges(ep, eo, g, s_eto, s_ek, out_ep, out_eo):  # pragma: no cover - numba
    """Edges ``ep``, ``eo`` (12 each) conjugated by symmetry ``g`` into ``out_ep``, ``out_eo``."""
    for s in range(12):
        t = s_eto[g, s]
        p = ep[s]
        out_ep[t] = s_eto[g, p]
        out_eo[t] = s_ek[g, s] ^ eo[s] ^ s_ek[g, p]  # mod 2: minus is plus


@njit(cache=True, inline="always")
def _h11_edges(ep, eo, e_piece, m_piece, comb):  # pragma: no cover - numba
    """``esep << 11 | eo11`` of edges: the E and M slices' places, then the first 11 flips, the
    first slot's the highest bit (so ``>> (11 - k)`` keeps the first ``k`` slots' flips)."""
    e_rank = 0
    m_rank = 0
    e_seen = 0
    m_seen = 0
    rest = 0
    flips = 0
    for s in range(12):  # no branches, as in cocsep
        p = ep[s]
        e = e_piece[p]
        m = m_piece[p]
        e_seen += e
        e_rank += comb[s, e_seen] * e
        m_seen += m
        m_rank += comb[rest, m_seen] * m
        rest += 1 - e
    for s in range(11):
        flips = (flips << 1) | eo[s]
    return ((e_rank * 70 + m_rank) << 11) | flips


@njit(cache=True, inline="always")
def h_code(c, g, kit_s_eto, kit_s_ek, e_piece, m_piece, comb, ep, eo):  # pragma: no cover - numba
    """The ``h11`` edge code of cube ``c`` conjugated by symmetry ``g`` (scratch ``ep``, ``eo``)."""
    _conj_edges(c[16:28], c[28:40], g, kit_s_eto, kit_s_ek, ep, eo)
    return _h11_edges(ep, eo, e_piece, m_piece, comb)


@njit(cache=True)
def h11_key(c, tetrad, comb, cls, sym, stab, s_eto, s_ek, e_piece, m_piece):  # pragma: no cover - numba
    """The ``h11`` coset of cube ``c`` up to symmetry, as one integer: its corner class, and of
    the edge codes its conjugates by the class's stabiliser take, the smallest."""
    v = cocsep(c, tetrad, comb)
    k = cls[v]
    ep = np.empty(12, np.uint8)
    eo = np.empty(12, np.uint8)
    ep2 = np.empty(12, np.uint8)
    eo2 = np.empty(12, np.uint8)
    _conj_edges(c[16:28], c[28:40], sym[v], s_eto, s_ek, ep, eo)
    best = _h11_edges(ep, eo, e_piece, m_piece, comb)
    for j in range(1, 48):
        g = stab[k, j]
        if g < 0:
            break
        _conj_edges(ep, eo, g, s_eto, s_ek, ep2, eo2)
        best = min(best, _h11_edges(ep2, eo2, e_piece, m_piece, comb))
    return np.int64(k) * (NESEP << _EDGE_BITS) + best


@njit(cache=True, inline="always")
def _slot(keys, key):  # pragma: no cover - numba
    """The slot of ``key`` in the open-addressing map ``keys`` (its own, or the empty one where it
    would go)."""
    mask = keys.shape[0] - 1
    i = (key * 0x9E3779B97F4A7C15) & mask
    while keys[i] != EMPTY and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _short_layer(frontier, n, depth, keys, vals, out, tetrad, comb, cls, sym, stab, s_eto, s_ek, e_piece, m_piece,
                 cto, ctw, eto, eflip):  # fmt: skip  # pragma: no cover - numba
    """Expand the ``n`` cubes of ``frontier`` (all at ``depth``): each new coset goes into the map
    at ``depth + 1`` and its cube into ``out``. Returns the new cosets' count, or ``-1`` when the
    map is over half full."""
    found = 0
    child = np.empty(40, np.uint8)
    limit = keys.shape[0] // 2
    used = 0
    for i in range(keys.shape[0]):
        used += keys[i] != EMPTY
    for i in range(n):
        for m in range(cto.shape[0]):
            apply_move(frontier[i], child, m, cto, ctw, eto, eflip)
            key = h11_key(child, tetrad, comb, cls, sym, stab, s_eto, s_ek, e_piece, m_piece)
            j = _slot(keys, key)
            if keys[j] == EMPTY:
                if used >= limit:
                    return -1
                keys[j] = key
                vals[j] = depth + 1
                used += 1
                out[found] = child
                found += 1
    return found


@dataclass(frozen=True)
class ShortCubes:
    """The ``h11`` cosets (up to symmetry) within ``depth`` moves.

    Attributes:
        depth: The radius.
        keys: int64 ``(capacity,)``: :func:`h11_key` values, ``-1`` where empty.
        vals: uint8 ``(capacity,)``: their distances.
        layers: uint8 ``(n_d, 40)`` for each distance ``d`` in ``0..depth``: a cube of each coset.
    """

    depth: int
    keys: np.ndarray
    vals: np.ndarray
    layers: tuple[np.ndarray, ...]

    @property
    def counts(self) -> tuple[int, ...]:
        """The cosets at each distance."""
        return tuple(len(x) for x in self.layers)


def short_cubes(kit: CubeKit, depth: int, capacity: int = 1 << 20) -> ShortCubes:
    """Breadth-first search over the ``h11`` cosets to ``depth`` (the map doubles as it fills)."""
    solved = np.zeros((1, 40), dtype=np.uint8)
    solved[0, :8] = np.arange(8)
    solved[0, 16:28] = np.arange(12)
    while True:
        keys = np.full(capacity, EMPTY, dtype=np.int64)
        vals = np.zeros(capacity, dtype=np.uint8)
        keys[_slot(keys, _key(kit, solved[0]))] = _key(kit, solved[0])
        layers = [solved]
        for d in range(depth):
            out = np.empty((len(layers[-1]) * kit.cto.shape[0], 40), dtype=np.uint8)
            n = _short_layer(layers[-1], len(layers[-1]), d, keys, vals, out, *_coord_args(kit), kit.cto, kit.ctw,
                             kit.eto, kit.eflip)  # fmt: skip
            if n < 0:
                break
            layers.append(out[:n].copy())
        else:
            return ShortCubes(depth, huge_pages(keys), vals, tuple(layers))  # probed at random by the walk
        capacity *= 2


def _coord_args(kit: CubeKit) -> tuple:
    return (kit.tetrad, kit.comb, kit.cls, kit.sym, kit.stab, kit.s_eto, kit.s_ek, kit.e_piece, kit.m_piece)


def _key(kit: CubeKit, c: np.ndarray) -> int:
    return int(h11_key(c, *_coord_args(kit)))


@njit(cache=True, inline="always")
def _entries_of(  # pragma: no cover - numba
    c, v, h, ep, eo, ep2, eo2, out, n, cls, sym, stab, s_eto, s_ek, e_piece, m_piece, comb
):  # fmt: skip
    """Append to ``out`` (from ``n``) the entries of cube ``c`` of corner coordinate ``v`` (and of its
    conjugates by its class's stabiliser); returns the new count."""
    k = cls[v]
    row = np.int64(k) * (NESEP << h)
    _conj_edges(c[16:28], c[28:40], sym[v], s_eto, s_ek, ep, eo)
    out[n] = row + (_h11_edges(ep, eo, e_piece, m_piece, comb) >> (_EDGE_BITS - h))
    n += 1
    j = 1
    while j < 48 and stab[k, j] >= 0:  # most classes: none (the identity alone fixes them)
        _conj_edges(ep, eo, stab[k, j], s_eto, s_ek, ep2, eo2)
        out[n] = row + (_h11_edges(ep2, eo2, e_piece, m_piece, comb) >> (_EDGE_BITS - h))
        n += 1
        j += 1
    return n


@njit(cache=True, inline="always")
def _lower(idx, lo, n, dist, base, table, lines):  # pragma: no cover - numba
    """Lower the entries ``idx[lo:n]`` to distance ``dist``, atomically: threads share the table.
    Every byte is prefetched first, so that the cache misses overlap. A line's minimum is kept
    only from distances of at most ``base``: only entries reading ``0`` fall back on it."""
    for j in range(lo, n):
        prefetch(table, idx[j] >> 2)
    stored = max(0, dist - base)
    for j in range(lo, n):
        i = idx[j]
        shift = (i & 3) * 2
        b = table[i >> 2]
        while stored < (b >> shift) & 3:
            new = (b & ~np.uint8(3 << shift)) | np.uint8(stored << shift)
            seen = compare_exchange(table, i >> 2, b, new)
            if seen == b:
                break
            b = seen  # another thread wrote the byte first: try again on what it holds now
        if dist <= base:
            low = lines[i // LINE]
            while dist < low:
                seen = compare_exchange(lines, i // LINE, low, dist)
                if seen == low:
                    break
                low = seen


@njit(cache=True, inline="always")
def _leaves(  # pragma: no cover - numba
    parent, child, last, h, idx, n, forbid, tetrad, comb, cls, sym, stab, s_eto, s_ek, e_piece, m_piece, eto, eflip,
    cmove, mk, mmv, ep, eo, ep2, eo2,
):  # fmt: skip
    """Append to ``idx`` (from ``n``) the entries of every child of cube ``parent`` whose move may
    follow ``last`` (``-1``: any); returns the new count. No child is built: its corners' coordinate is one read of
    ``cmove`` (:func:`corner_moves`), its edges the parent's :func:`slot_masks` moved by
    ``mmv`` (:func:`mask_moves`) and read by :func:`hk_masks`. The rare child whose corner class a
    symmetry fixes is built and goes the long way, :func:`_entries_of`."""
    v = cocsep(parent, tetrad, comb)
    pe, pm, pf = slot_masks(parent[16:28], parent[28:40], mk[0], mk[1])
    for m in range(cmove.shape[1]):
        if last >= 0 and forbid[last, m]:
            continue
        w = cmove[v, m]
        k = cls[w]
        if stab[k, 1] >= 0:
            move_edges(parent, child, m, eto, eflip)
            n = _entries_of(child, w, h, ep, eo, ep2, eo2, idx, n, cls, sym, stab, s_eto, s_ek, e_piece, m_piece, comb)
            continue
        f = pf ^ mmv[m, 2, 0]
        me = mmv[m, 0, pe & 63] | mmv[m, 1, pe >> 6]
        mm = mmv[m, 0, pm & 63] | mmv[m, 1, pm >> 6]
        mf = mmv[m, 0, f & 63] | mmv[m, 1, f >> 6]
        idx[n] = np.int64(k) * (NESEP << h) + hk_masks(me, mm, mf, sym[w], h, mk)
        n += 1
    return n


@njit(cache=True, parallel=True)
def _mark_all(  # pragma: no cover - numba
    starts, short_depth, levels, h, base, table, lines, keys, forbid, tetrad, comb, cls, sym, stab, s_eto, s_ek,
    e_piece, m_piece, cto, ctw, eto, eflip, cmove, mk, mmv, threads,
):  # fmt: skip
    """Thread ``t`` walks every sequence of ``levels`` moves from cubes ``t, t + threads, ...`` of
    ``starts`` (at ``short_depth``), stepping over cosets in the short map, and marks every cube
    it meets. The entries met at each level (all at one distance) are gathered and marked
    :data:`LEAF_BATCH` or more at a time (:func:`_lower`): more of their cache misses overlap."""
    for owner in prange(threads):
        ep = np.empty(12, np.uint8)
        eo = np.empty(12, np.uint8)
        ep2 = np.empty(12, np.uint8)
        eo2 = np.empty(12, np.uint8)
        nm = cto.shape[0]
        width = LEAF_BATCH + nm * 48  # a level's batch: room for one more node's children
        batch = np.empty((levels + 1) * width, np.int64)  # level l's entries from l * width
        fill = np.arange(levels + 1) * width  # where each level's next entry goes
        stack = np.empty((levels + 1, 40), np.uint8)
        move = np.zeros(levels + 1, np.int64)
        for i in range(owner, starts.shape[0], threads):
            stack[0] = starts[i]
            v = cocsep(stack[0], tetrad, comb)
            n = _entries_of(stack[0], v, h, ep, eo, ep2, eo2, batch, 0, cls, sym, stab, s_eto, s_ek, e_piece, m_piece,
                            comb)  # fmt: skip
            _lower(batch, 0, n, short_depth, base, table, lines)
            if levels == 0:
                continue
            level = 1
            move[1] = -1
            while level > 0:
                if level == levels:  # the leaves under stack[level - 1]
                    fill[level] = _leaves(stack[level - 1], stack[level], move[level - 1] if level > 1 else -1, h,
                                          batch, fill[level], forbid, tetrad, comb, cls, sym, stab, s_eto, s_ek,
                                          e_piece, m_piece, eto, eflip, cmove, mk, mmv, ep, eo, ep2, eo2)  # fmt: skip
                    if fill[level] - level * width >= LEAF_BATCH:
                        _lower(batch, level * width, fill[level], short_depth + level, base, table, lines)
                        fill[level] = level * width
                    level -= 1
                    continue
                move[level] += 1
                m = move[level]
                if m >= nm:
                    level -= 1
                    continue
                if level > 1 and forbid[move[level - 1], m]:
                    continue
                apply_move(stack[level - 1], stack[level], m, cto, ctw, eto, eflip)
                key = h11_key(stack[level], tetrad, comb, cls, sym, stab, s_eto, s_ek, e_piece, m_piece)
                if keys[_slot(keys, key)] != EMPTY:  # back among the short cosets: marked as such
                    continue
                v = cocsep(stack[level], tetrad, comb)
                fill[level] = _entries_of(stack[level], v, h, ep, eo, ep2, eo2, batch, fill[level], cls, sym, stab,
                                          s_eto, s_ek, e_piece, m_piece, comb)  # fmt: skip
                if fill[level] - level * width >= LEAF_BATCH:
                    _lower(batch, level * width, fill[level], short_depth + level, base, table, lines)
                    fill[level] = level * width
                level += 1
                move[level] = -1
        for level in range(1, levels + 1):  # what is left of each level's batch
            _lower(batch, level * width, fill[level], short_depth + level, base, table, lines)


def mark_starts(
    kit: CubeKit, short: ShortCubes, starts: np.ndarray, depth: int, levels: int, h: int, base: int,
    data: np.ndarray, lines: np.ndarray, threads: int,
) -> None:  # fmt: skip
    """Mark into ``data`` and ``lines`` (an :class:`HkTable`'s, being built) every cube met by the
    sequences of up to ``levels`` moves from ``starts`` (uint8 ``(n, 40)``, cubes at ``depth``) that
    step into no coset of ``short``, each at its distance, on ``threads`` numba threads."""
    cmove, mk, mmv = corner_moves(kit.cto, kit.ctw), mask_kit(), mask_moves_of(kit.eto, kit.eflip)
    _mark_all(starts, depth, levels, h, base, data, lines, short.keys, kit.forbid, *_coord_args(kit), kit.cto,
              kit.ctw, kit.eto, kit.eflip, cmove, mk, mmv, threads)  # fmt: skip


def _start(checkpoint: tuple[Path, str] | None, sizes: tuple[int, int], about: dict) -> tuple:
    """``(lines, data, parts done, earlier seconds)`` to mark into: two adjacent views of one
    buffer backed by huge pages (:func:`exact.memory.huge_full`: the marking writes at random
    places, and the store takes the buffer whole, :func:`stored_values`), holding the build's
    checkpoint where one verifies, else every line minimum ``base + 3`` and every entry ``3``;
    and the seconds the earlier runs spent reaching that checkpoint."""
    whole = huge_full(sizes[0] + sizes[1], 0xFF)
    lines, data = whole[: sizes[0]], whole[sizes[0] :]
    found = None if checkpoint is None else partial.read(*checkpoint, sizes, about, into=whole)
    done = None if found is None else _how_far(found[1])
    if done is None:
        whole[:] = 0xFF  # a checkpoint that did not verify may have been read in part
        lines[:] = about["base"] + 3
        return lines, data, 0, 0.0
    part, seconds = done
    LOG.info("h48 h%d: resuming from its checkpoint, %d of %d parts done in %.0f s", about["h"], part, CHUNKS, seconds)
    return lines, data, part, seconds


def _how_far(about: dict) -> tuple[int, float] | None:
    """A verified checkpoint's ``(parts done, seconds spent)``, or ``None`` where the parts are not
    a count in ``1..CHUNKS-1`` or :func:`exact.pdb.partial.seconds` refuses the seconds (the
    sha256 covers the data, not these)."""
    part, spent = about.get("progress"), partial.seconds(about)
    if type(part) is not int or not 0 < part < CHUNKS or spent is None:
        return None
    return part, spent


def stored_values(t: HkTable) -> np.ndarray:
    """uint8: the table as the store keeps it, the line minima then the entries: the buffer they
    are views of where :func:`build_hk` made them (no copy of a table of gigabytes), else the two
    joined."""
    lines, data = t.lines, t.data
    base = lines.base
    if (
        base is not None and data.base is base and isinstance(base, np.ndarray)
        and base.ndim == 1 and base.nbytes == lines.nbytes + data.nbytes
        and lines.ctypes.data == base.ctypes.data and data.ctypes.data == base.ctypes.data + lines.nbytes
    ):  # fmt: skip
        return base
    return np.concatenate([lines, data])


@dataclass(frozen=True)
class HkTable:
    """A built ``hk`` table.

    Attributes:
        h: The tracked flips ``k``.
        base: Two bits ``v`` read as ``base + v`` (``0``: at most ``base``; ``3``: at least ``base + 3``).
        data: uint8 ``(ceil(entries / 4),)``: entry ``i`` in bits ``2 (i mod 4)`` of byte ``i // 4``.
        lines: uint8 ``(ceil(entries / 256),)``: the smallest distance of at most ``base`` marked
            in each line of 256 entries (``base + 3`` where none): the fallback of entries that
            read ``0``.
        fallback: uint8 ``(35481600,)``, the metric's :mod:`exact.cube.eoesep` table (4 bits an
            entry), read with the line's minimum where an entry reads ``0``; ``None``: the line's
            minimum alone.
        earlier_seconds: Of a build resumed from its checkpoint, the seconds its earlier runs
            spent reaching it (:class:`exact.pdb.store.Built`); ``0`` otherwise.
    """

    h: int
    base: int
    data: np.ndarray
    lines: np.ndarray
    fallback: np.ndarray | None = None
    earlier_seconds: float = 0.0


def build_hk(
    kit: CubeKit, h: int, base: int, short_depth: int, threads: int | None = None,
    advance: Callable[[int], object] | None = None, checkpoint: tuple[Path, str] | None = None,
) -> HkTable:  # fmt: skip
    """Build the ``hk`` table for ``k = h`` (see the module docstring).

    Args:
        kit: :func:`cube_kit` of the metric's move table.
        h: Flips tracked, ``0..11``.
        base: The two bits' offset; the search reaches ``base + 2`` moves.
        short_depth: Radius of the breadth-first part, at most ``base + 2``.
        threads: Numba threads (default: all).
        advance: Called with ``1`` after each of :data:`CHUNKS` parts of the marking (a
            progress bar's, which also looks at the solve's clock).
        checkpoint: ``(directory, name)``: every :data:`CHECKPOINT_SECONDS` the table so far is
            saved there (:mod:`exact.pdb.partial`), and a build that finds its own checkpoint
            resumes after the last part it saved.

    Raises:
        PuzzleoptError: ``h``, ``base`` or ``short_depth`` out of range.
    """
    if not 0 <= h <= 11:
        raise PuzzleoptError(f"h48 table: h={h} is not in 0..11")
    if not 0 <= short_depth <= base + 2:
        raise PuzzleoptError(f"h48 table: short depth {short_depth} is not in 0..base+2 = {base + 2}")
    threads = threads or numba.get_num_threads()
    t = time.perf_counter()
    short = short_cubes(kit, short_depth)  # the same cosets in the same order on every run
    LOG.info("h48 h%d: %s short cosets by distance, %.1f s", h, list(short.counts), time.perf_counter() - t)
    n = entries(h)
    sizes = ((n + LINE - 1) // LINE, (n + 3) // 4)
    about = {"h": h, "base": base, "short_depth": short_depth, "moves": kit.cto.shape[0], "chunks": CHUNKS}
    began = time.perf_counter()
    lines, data, done, earlier = _start(checkpoint, sizes, about)
    for d, layer in enumerate(short.layers[:-1]):  # the nearer cosets, each at its distance (min: idempotent)
        mark_starts(kit, short, layer, d, 0, h, base, data, lines, threads)
    t = saved = time.perf_counter()
    starts = short.layers[-1]
    step = max(1, -(-len(starts) // CHUNKS))
    every = CHECKPOINT_SECONDS
    if advance is not None and done:
        advance(done)
    for part in range(done, CHUNKS):
        first = part * step
        mark_starts(kit, short, starts[first : first + step], short_depth, base + 2 - short_depth, h, base, data,
                    lines, threads)  # fmt: skip
        if checkpoint is not None and time.perf_counter() - saved > every and part + 1 < CHUNKS:
            now = time.perf_counter()
            spent = round(earlier + now - began, 3)
            partial.write(*checkpoint, [lines, data], {**about, "progress": part + 1, "seconds": spent})
            saved = time.perf_counter()
            every = max(CHECKPOINT_SECONDS, CHECKPOINT_SHARE * (saved - now))
        if advance is not None:
            advance(1)
    LOG.info("h48 h%d: marked from %d cosets in %.1f s", h, len(starts), time.perf_counter() - t)
    return HkTable(h, base, data, lines, earlier_seconds=earlier)


def hk_values(t: HkTable) -> np.ndarray:
    """uint8 ``(entries,)``: every entry's two bits (for tests and statistics)."""
    return np.stack([(t.data >> s) & 3 for s in (0, 2, 4, 6)], axis=1).ravel()[: entries(t.h)]


@njit(cache=True, inline="always")
def lookup(c, h, base, data, lines, tetrad, comb, cls, sym, s_eto, s_ek, e_piece, m_piece, ep, eo):  # pragma: no cover
    """A lower bound on the moves that solve cube ``c`` (uint8 ``(40,)``) from an ``hk`` table:
    ``base + v`` for two bits ``v > 0``, the line's minimum for ``v = 0`` (scratch ``ep``, ``eo``:
    no allocation on the solver's hot path)."""
    v = cocsep(c, tetrad, comb)
    _conj_edges(c[16:28], c[28:40], sym[v], s_eto, s_ek, ep, eo)
    i = np.int64(cls[v]) * (NESEP << h) + (_h11_edges(ep, eo, e_piece, m_piece, comb) >> (_EDGE_BITS - h))
    bits = (data[i >> 2] >> ((i & 3) * 2)) & 3
    if bits:
        return np.int64(base + bits)
    return np.int64(lines[i // LINE])


@njit(cache=True)
def hk_lookup(c, h, base, data, lines, tetrad, comb, cls, sym, s_eto, s_ek, e_piece, m_piece):  # pragma: no cover
    """:func:`lookup` with its own scratch (tests, audits)."""
    return lookup(c, h, base, data, lines, tetrad, comb, cls, sym, s_eto, s_ek, e_piece, m_piece,
                  np.empty(12, np.uint8), np.empty(12, np.uint8))  # fmt: skip


@njit(cache=True)
def _corner_bfs(dist, step, cto, ctw, tetrad, comb):  # pragma: no cover - numba
    nm = cto.shape[0]
    reps = np.zeros((dist.shape[0], 40), np.uint8)  # a cube of each coordinate met (corners only)
    reps[0, :8] = np.arange(8)
    order = np.empty(dist.shape[0], np.int64)
    v0 = cocsep(reps[0], tetrad, comb)
    dist[v0] = 0
    order[0] = v0
    reps[v0] = reps[0]
    head, tail = 0, 1
    child = np.zeros(40, np.uint8)
    while head < tail:
        v = order[head]
        head += 1
        for m in range(nm):
            move_corners(reps[v], child, m, cto, ctw)
            w = cocsep(child, tetrad, comb)
            step[v, m] = w
            if dist[w] == 255:
                dist[w] = dist[v] + 1
                reps[w] = child
                order[tail] = w
                tail += 1


@cache
def _corner_tables(moves: bytes, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    cto, ctw = np.frombuffer(moves, dtype=np.int64).reshape(2, *shape)
    dist = np.full(NCOCSEP, 255, dtype=np.uint8)
    step = np.full((NCOCSEP, shape[0]), -1, dtype=np.int32)
    tetrad, comb = _lookup_kit()[:2]
    _corner_bfs(dist, step, cto, ctw, tetrad, comb)
    dist.flags.writeable = False
    step.flags.writeable = False
    return dist, step


def corner_moves(cto: np.ndarray, ctw: np.ndarray) -> np.ndarray:
    """int32 ``(153090, M)``: the ``cocsep`` coordinate each move takes each coordinate to (the
    moves act on it: :func:`corner_distances`), 11 MB in the half-turn metric; built with the
    distances, once a process. The solver's corners move by one read of it rather than eight
    pieces.

    Args:
        cto: int64 ``(M, 8)``: as :func:`corner_distances`'.
        ctw: int64 ``(M, 8)``: as :func:`corner_distances`'.
    """
    cto, ctw = np.asarray(cto, np.int64), np.asarray(ctw, np.int64)
    return _corner_tables(np.stack([cto, ctw]).tobytes(), cto.shape)[1]


def corner_distances(cto: np.ndarray, ctw: np.ndarray) -> np.ndarray:
    """uint8 ``(153090,)``: the distance of each ``cocsep`` coordinate (which slots hold the first
    tetrad, and the corners' twists: a coordinate the moves act on) from the solved cube's, by
    breadth-first search in the kit's metric. A lower bound on every cube's distance, read in
    the L2 cache: the solver's check before it touches the edges or the big table, as H48's.

    Args:
        cto: int64 ``(M, 8)``: the slot each corner slot's piece goes to under each move
            (:class:`CubeKit`'s).
        ctw: int64 ``(M, 8)``: the twist it gains. Each metric's table is built once a process.
    """
    cto, ctw = np.asarray(cto, np.int64), np.asarray(ctw, np.int64)
    return _corner_tables(np.stack([cto, ctw]).tobytes(), cto.shape)[0]


SHORT_DEPTH = 8
"""The breadth-first part's radius: 6,764,737 cosets in the half-turn metric (measured)."""


def spec(table: MoveTable, metric: str, h: int, base: int | None = None, directory: Path | None = None) -> TableSpec:
    """The stored ``hk`` table of a metric's face-move table: one file, the line minima first,
    then the two-bit entries (:func:`split`).

    Args:
        table: The metric's 3x3x3 face-move table.
        metric: ``"htm"`` or ``"qtm"`` (named in the table's file).
        h: Flips tracked, ``0..11``.
        base: The two bits' offset (default :func:`default_base`).
        directory: Where the build keeps its checkpoint (``None``: no checkpoint).
    """
    if base is None:
        base = default_base(metric, h)
    n = entries(h)
    nlines = (n + LINE - 1) // LINE
    short = min(SHORT_DEPTH, base + 2)

    name = f"cube3-h48-h{h}-b{base}-{metric}"

    def _build(advance):
        where = None if directory is None else (Path(directory), name)
        t = build_hk(cube_kit(table), h, base, short, advance=advance, checkpoint=where)
        out = stored_values(t)
        if where is not None:
            partial.drop(*where)
        return Built(out, t.earlier_seconds)

    return TableSpec(
        name=name,
        puzzle="cube3",
        pattern={
            "kind": "h48",
            "h": h,
            "base": base,
            "short_depth": short,
            "metric": metric,
            "moves": "faces",
            "layout": f"{nlines} line minima (uint8), then {n} entries of 2 bits",
        },  # fmt: skip
        entries=nlines + (n + 3) // 4,
        packed=False,
        build=_build,
        progress_total=CHUNKS,
        audit=_audit,
        seconds_per_entry=build_seconds(metric, short, base + 2 - short) / (nlines + (n + 3) // 4),
    )


MARK_SECONDS = 1700.0
"""Seconds a marking of three levels below the 6,235,366 short cosets (half-turn metric, as
``h6`` at base 9) takes on 2 cores, scaled from whole builds with the walk of 2026-11-30, whose
``build_seconds`` (summed over a resumed build's runs) ran at 1,287 s for this much walking in
``h8`` at base 10 (17,245 s, four levels, 2026-11-30/12-01) and 1,681 s in the quarter-turn
``h6`` at base 11 (5,475 s, 2026-11-30): the larger, rounded up, so that the estimate stays a
ceiling on both. Before that walk, the ``h6`` marking ran at about 2,650 s on 2 free cores."""
SHORT_COSETS = {"htm": 6_235_366, "qtm": 659_035}
"""The ``h11`` cosets at :data:`SHORT_DEPTH` (measured by :func:`short_cubes`)."""
BRANCHING = {"htm": (18, 13.35), "qtm": (12, 9.5)}
"""Moves at a sequence's first level, and children per node after it under the pruning rules
(half-turn: measured on the walks; quarter-turn: counted from the rules, not measured)."""


def build_seconds(metric: str, short: int, levels: int) -> float:
    """About how long an ``hk`` build takes on 2 cores: a minute for the short cosets, and
    :data:`MARK_SECONDS` scaled by the sequences walked (the work does not depend on ``h``: every
    start's sequences are walked whatever is tracked). A build from fewer short cosets (the
    tests' small bases) is taken as the minute alone."""
    if short < SHORT_DEPTH or levels <= 0:
        return 60.0
    first, rest = BRANCHING[metric]
    walked = SHORT_COSETS[metric] * first * rest ** (levels - 1)
    return 60.0 + MARK_SECONDS * walked / (SHORT_COSETS["htm"] * 18 * 13.35**2)


def split(stored: Table) -> HkTable:
    """The :class:`HkTable` of a stored table (views of its memory map)."""
    p = stored.spec.pattern
    nlines = (entries(p["h"]) + LINE - 1) // LINE
    return HkTable(p["h"], p["base"], stored.data[nlines:], stored.data[:nlines])


AUDIT_LINES = 4096


def _audit(stored: Table) -> str | None:
    """Sampled lines: none with an entry reading ``0`` (at most ``base``) has a minimum above
    ``base``, no minimum is above ``base + 3``, and the solved cube reads 0."""
    t = split(stored)
    if int(t.lines.max(initial=0)) > t.base + 3:
        return f"a line minimum above base + 3 = {t.base + 3}"
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(t.lines) - 1, AUDIT_LINES)
    for line in picks:
        raw = np.asarray(t.data[line * LINE // 4 : (line + 1) * LINE // 4])
        bits = np.stack([(raw >> s) & 3 for s in (0, 2, 4, 6)], axis=1).ravel()
        floor = t.lines[line]
        if (bits == 0).any() and floor > t.base:
            return f"line {line}: an entry reads at most {t.base} but the line's minimum is {floor}"
    solved = np.zeros(40, np.uint8)
    solved[:8] = np.arange(8)
    solved[16:28] = np.arange(12)
    kit = _lookup_kit()
    if hk_lookup(solved, t.h, t.base, t.data, t.lines, *kit) != 0:
        return "the solved cube's entry is not 0"
    return None


@cache
def _lookup_kit() -> tuple:
    """The metric-free arrays :func:`hk_lookup` reads (the coordinate does not depend on the moves)."""
    k = cocsep_classes()
    s_eto = np.stack([symmetry_of(m).edge_to for m in sym48()]).astype(np.int64)
    s_ek = np.stack([symmetry_of(m).edge_k0 for m in sym48()]).astype(np.int64)
    member = [np.isin(np.arange(n), s).astype(np.int64) for n, s in ((8, TETRAD), (12, E_SLICE), (12, M_SLICE))]
    return (member[0], _COMB, k.cls, k.sym, s_eto, s_ek, member[1], member[2])


def catalog_spec(metric: str, h: int) -> TableSpec:
    """The ``hk`` table of ``metric`` at its default base, checkpointed in the default table folder
    while it builds: what ``python -m exact.pdb build cube3-h48-h6-b9-htm`` builds."""
    from exact.pdb.store import default_dir
    from exact.puzzles.cube.moves import cube_moves

    return spec(cube_moves(3, "faces", metric), metric, h, directory=default_dir())


def catalog() -> dict[str, Callable[[], TableSpec]]:
    """Name -> spec of every ``hk`` table at its default base, both metrics (:mod:`exact.catalog`)."""
    out: dict[str, Callable[[], TableSpec]] = {}
    for metric in ("htm", "qtm"):
        for h in range(len(BASES)):
            out[f"cube3-h48-h{h}-b{default_base(metric, h)}-{metric}"] = lambda m=metric, k=h: catalog_spec(m, k)
    return out


@cache
def mask_kit() -> tuple:
    """The tables :func:`hk_edges` reads: the edge part of an ``hk`` index from 12-bit masks
    of slots (which hold an E-, an M-slice piece, a flipped edge), conjugated by a symmetry with
    two 6-bit table reads each, ranked by table.

    A symmetry maps slices to slices, so the conjugate's E-slice slots are the original's slots of
    one slice, moved; likewise its flips: the original's, the slot's and the piece's own terms
    (``s_ek`` depends on a piece only through its slice), moved. Returns a tuple:
    ``is_e, is_m`` int64 ``(12,)`` by piece; ``sel`` int64 ``(48, 3)``: the slice (0 S, 1 E, 2 M)
    that becomes E, that becomes M, and the set of slices whose pieces' flips change; ``skm``
    int64 ``(48,)``: the slots whose flips change; ``plo, phi`` int64 ``(48, 64)``: a mask of slots
    0-5 (6-11) moved; ``flo, fhi``: the same with slot ``t`` at bit ``11 - t`` (the first slot's
    flip the highest); ``ranke`` int64 ``(4096,)``: the E slots' rank; ``cmp6`` int64 ``(4096,)``:
    of ``sel * 64 + val``, ``val``'s bits at ``sel``'s packed low; ``pop6`` int64 ``(64,)``;
    ``rankm8`` int64 ``(256,)``: the M slots' rank among the 8 others.
    """
    _, comb, _, _, s_eto, s_ek, e_piece, m_piece = _lookup_kit()
    pclass = e_piece + 2 * m_piece  # 0: S, 1: E, 2: M
    sel = np.zeros((48, 3), np.int64)
    for g in range(48):
        sel[g, 0] = pclass[e_piece[s_eto[g]] == 1][0]
        sel[g, 1] = pclass[m_piece[s_eto[g]] == 1][0]
        sel[g, 2] = sum(1 << c for c in range(3) if s_ek[g][pclass == c].all())
    skm = (s_ek << np.arange(12)).sum(axis=1)
    plo, phi, flo, fhi = (np.zeros((48, 64), np.int64) for _ in range(4))
    for g in range(48):
        for x in range(64):
            for b in range(6):
                if x >> b & 1:
                    plo[g, x] |= 1 << s_eto[g, b]
                    phi[g, x] |= 1 << s_eto[g, b + 6]
                    flo[g, x] |= 1 << (11 - s_eto[g, b])
                    fhi[g, x] |= 1 << (11 - s_eto[g, b + 6])
    ranke = _subset_ranks(12, comb)
    cmp6 = np.zeros(4096, np.int64)
    for s in range(64):
        bits = [b for b in range(6) if s >> b & 1]
        for v in range(64):
            cmp6[s * 64 + v] = sum(1 << j for j, b in enumerate(bits) if v >> b & 1)
    pop6 = np.array([bin(s).count("1") for s in range(64)], np.int64)
    rankm8 = _subset_ranks(8, comb)
    return e_piece.astype(np.int64), m_piece.astype(np.int64), sel, skm, plo, phi, flo, fhi, ranke, cmp6, pop6, rankm8


def _subset_ranks(n: int, comb: np.ndarray) -> np.ndarray:
    """int64 ``(2**n,)``: of each mask of ``n`` slots with at most 4 set, its subset rank as
    :func:`_h11_edges` counts it (each set slot ``t``, the ``j``-th, adds ``comb[t, j]``)."""
    out = np.zeros(1 << n, np.int64)
    for x in range(1 << n):
        seen = 0
        for t in range(n):
            if x >> t & 1:
                seen += 1
                out[x] += comb[t, seen] if seen <= 4 else 0
    return out


@njit(cache=True, inline="always")
def slot_masks(ep, eo, is_e, is_m):  # pragma: no cover - numba
    """Edges ``ep``, ``eo`` (12 each) as three 12-bit masks of slots: those holding an E-slice
    piece, an M-slice piece, a flipped edge (slot ``s`` at bit ``s``)."""
    me = 0
    mm = 0
    mf = 0
    for s in range(12):
        p = ep[s]
        me |= is_e[p] << s
        mm |= is_m[p] << s
        mf |= np.int64(eo[s]) << s
    return me, mm, mf


@njit(cache=True, inline="always")
def hk_edges(ep, eo, g, h, mk):  # pragma: no cover - numba
    """The edge part of an ``hk`` entry's index, ``esep << h | h flips``, of edges ``ep``, ``eo``
    (12 each) conjugated by symmetry ``g``: :func:`_h11_edges` of :func:`_conj_edges`'s output
    shifted down to ``h`` flips, from slot masks (:func:`mask_kit`'s tables ``mk``): no per-slot
    conjugation, the ranks by table."""
    me, mm, mf = slot_masks(ep, eo, mk[0], mk[1])
    return hk_masks(me, mm, mf, g, h, mk)


@njit(cache=True, inline="always")
def hk_masks(me, mm, mf, g, h, mk):  # pragma: no cover - numba
    """:func:`hk_edges` of edges given as :func:`slot_masks`."""
    is_e, is_m, sel, skm, plo, phi, flo, fhi, ranke, cmp6, pop6, rankm8 = mk
    ms = 0xFFF ^ me ^ mm
    masks = (ms, me, mm)
    a = masks[sel[g, 0]]
    b = masks[sel[g, 1]]
    ce = plo[g, a & 63] | phi[g, a >> 6]
    cm = plo[g, b & 63] | phi[g, b >> 6]
    k = sel[g, 2]
    f = mf ^ skm[g] ^ (ms * (k & 1)) ^ (me * (k >> 1 & 1)) ^ (mm * (k >> 2 & 1))
    flips = (flo[g, f & 63] | fhi[g, f >> 6]) >> (12 - h)
    free = 0xFFF ^ ce
    lo = free & 63
    c8 = cmp6[lo * 64 + (cm & 63)] | (cmp6[(free >> 6) * 64 + (cm >> 6)] << pop6[lo])
    return ((ranke[ce] * 70 + rankm8[c8]) << h) | flips


def mask_moves_of(eto: np.ndarray, eflip: np.ndarray) -> np.ndarray:
    """:func:`mask_moves`, computed once a process for each move table."""
    eto, eflip = np.asarray(eto, np.int64), np.asarray(eflip, np.int64)
    return _mask_moves(np.stack([eto, eflip]).tobytes(), eto.shape)


@cache
def _mask_moves(moves: bytes, shape: tuple[int, int]) -> np.ndarray:
    out = mask_moves(*np.frombuffer(moves, dtype=np.int64).reshape(2, *shape))
    out.flags.writeable = False
    return out


def mask_moves(eto: np.ndarray, eflip: np.ndarray) -> np.ndarray:
    """int64 ``(M, 3, 64)``: how each move acts on a 12-bit mask of edge slots
    (:func:`slot_masks`): ``[m, 0, x]`` (``[m, 1, x]``) is where slots 0-5 (6-11) of mask ``x`` go,
    ``[m, 2, 0]`` the slots whose flip the move changes (a flip mask is xored with it first).

    Args:
        eto: int64 ``(M, 12)``: the slot each edge slot's piece goes to (:class:`CubeKit`'s).
        eflip: int64 ``(M, 12)``: whether it flips.
    """
    out = np.zeros((len(eto), 3, 64), np.int64)
    for m in range(len(eto)):
        for x in range(64):
            for b in range(6):
                if x >> b & 1:
                    out[m, 0, x] |= 1 << int(eto[m, b])
                    out[m, 1, x] |= 1 << int(eto[m, b + 6])
        out[m, 2, 0] = sum(int(eflip[m, s]) << s for s in range(12))
    return out
