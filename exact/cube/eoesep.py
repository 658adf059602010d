"""The fallback of H48's ``hk`` tables (issue 67): the distance of a 3x3x3's edges read as the
slices its slots' pieces belong to and every flip, H48's "eoesep" table.

An ``hk`` entry that reads ``0`` says only "at most ``base``"; its line's minimum
(:class:`exact.cube.h48table.HkTable`) is a weak floor, and the larger of it and this table's
entry is the bound (as H48 reads it). The coordinate is the edge part of the ``h11`` index
(:func:`exact.cube.h48table.hk_edges` with ``h = 11``): which 4 slots hold E-slice pieces
(495), which 4 of the other 8 hold M-slice pieces (70), and the flips of slots 0-10 (slot 11's
follows), 70,963,200 entries of 4 bits (35.5 MB). Moves act on it, so a breadth-first search
over it gives exact distances. A symmetry maps face turns to face turns and slices to slices, so
the entry of the index conjugated by any symmetry (the one the ``hk`` lookup computed anyway) is
the same distance.

Measured with ``h6`` on Tronto's 25 17-move cubes (2 threads, 2026-11-29, one run each, the
same process): 558 M generated nodes against 610 M without, medians 2.47 s and 2.41 s (means
2.74 and 2.91): fewer nodes, each dearer (a second miss). So the method reads it only when asked
(``fallback=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from numba import njit, prange

from exact.cube.h48 import NESEP
from exact.cube.h48table import hk_edges, mask_kit, move_edges
from exact.logs import get_logger
from exact.movetable import MoveTable
from exact.pdb.store import Table, TableSpec
from exact.puzzles.cube.cubies import cubie_moves

LOG = get_logger(__name__)

ENTRIES = NESEP << 11
"""Indices of the coordinate: 34,650 slice separations x 2,048 flips."""
UNSET = 255
LAYERS = 16
"""Progress units of a build: one a layer (the half-turn search has 11), the rest at its end."""
CHUNKS = 64
"""Parts of a layer's scan, spread over the numba threads."""
BUILD_SECONDS = 20.0
"""How long the build takes on 2 cores: 19.9 s for the half-turn table (2026-11-29; 12 layers)."""


@cache
def unrank_kit() -> tuple[np.ndarray, np.ndarray]:
    """The inverses of :func:`exact.cube.h48table.mask_kit`'s ranks: int64 ``(495,)``, the 12-bit
    mask of E slots of each rank; int64 ``(70,)``, the 8-bit mask (of the non-E slots, in order)
    of M slots of each rank."""
    ranke, rankm8 = mask_kit()[8], mask_kit()[11]
    e = np.zeros(495, np.int64)
    m = np.zeros(70, np.int64)
    for x in range(1 << 12):
        if bin(x).count("1") == 4:
            e[ranke[x]] = x
        if x < 256 and bin(x).count("1") == 4:
            m[rankm8[x]] = x
    return e, m


@njit(cache=True)
def edges_of(i, c, inv_e, inv_m8):  # pragma: no cover - numba
    """Edges (``c[16:40]``, the pieces by slot then the flips) whose index (under the identity
    symmetry) is ``i``: E pieces 8-11 in the E slots, M pieces 1, 3, 5, 7 in the M slots, the
    others in the rest, in order."""
    flips = i & 2047
    sep = i >> 11
    me = inv_e[sep // 70]
    m8 = inv_m8[sep % 70]
    ne, nm, ns, j = 8, 1, 0, 0
    total = 0
    for s in range(12):
        if me >> s & 1:
            c[16 + s] = ne
            ne += 1
        else:
            if m8 >> j & 1:
                c[16 + s] = nm
                nm += 2
            else:
                c[16 + s] = ns
                ns += 2
            j += 1
        if s < 11:
            f = (flips >> (10 - s)) & 1
            c[28 + s] = f
            total += f
    c[39] = total & 1


@njit(cache=True, parallel=True)
def _layer(dist, d, inv_e, inv_m8, eto, eflip, mk):  # pragma: no cover - numba
    """Every index one move from those at distance ``d`` not yet reached gets ``d + 1``;
    the number so set (two threads may set one index: only "none" is read from it)."""
    n = dist.shape[0]
    step = (n + CHUNKS - 1) // CHUNKS
    found = np.zeros(CHUNKS, np.int64)
    for ch in prange(CHUNKS):
        c = np.zeros(40, np.uint8)
        nxt = np.zeros(40, np.uint8)
        count = 0
        for i in range(ch * step, min(n, (ch + 1) * step)):
            if dist[i] != d:
                continue
            edges_of(i, c, inv_e, inv_m8)
            for m in range(eto.shape[0]):
                move_edges(c, nxt, m, eto, eflip)
                j = hk_edges(nxt[16:28], nxt[28:40], 0, 11, mk)
                if dist[j] == UNSET:
                    dist[j] = d + 1
                    count += 1
        found[ch] = count
    return found.sum()


def distances(table: MoveTable, advance: Callable[[int], object] | None = None) -> np.ndarray:
    """uint8 ``(ENTRIES,)``: each index's distance in ``table``'s metric, by breadth-first search
    from the solved edges."""
    mv = cubie_moves(table)
    inv_e, inv_m8 = unrank_kit()
    mk = mask_kit()
    start = solved_index()
    dist = np.full(ENTRIES, UNSET, np.uint8)
    dist[start] = 0
    d = 0
    while _layer(dist, d, inv_e, inv_m8, mv.edge_to, mv.edge_flip, mk):
        d += 1
        LOG.info("eoesep: depth %d reached", d)
        if advance is not None:
            advance(1)
    if advance is not None and d < LAYERS:
        advance(LAYERS - d)  # the bar ends full however many layers the metric has
    if (dist == UNSET).any():
        raise AssertionError("the eoesep search left indices unreached: the unranking does not invert the ranks")
    return dist


def solved_index() -> int:
    """The solved edges' index."""
    solved = np.zeros(40, np.uint8)
    solved[16:28] = np.arange(12)
    return int(hk_edges(solved[16:28], solved[28:40], 0, 11, mask_kit()))


def spec(table: MoveTable, metric: str) -> TableSpec:
    """The stored fallback table of a metric's face-move table (4 bits an entry)."""
    return TableSpec(
        name=f"cube3-h48-eoesep-{metric}",
        puzzle="cube3",
        pattern={
            "kind": "h48-eoesep",
            "metric": metric,
            "moves": "faces",
            "layout": "index: (E-slot rank x 70 + M-slot rank) << 11 | flips of slots 0-10",
        },  # fmt: skip
        entries=ENTRIES,
        packed=True,
        build=lambda advance: distances(table, advance),
        progress_total=LAYERS,
        audit=_audit,
        seconds_per_entry=BUILD_SECONDS / ENTRIES,
    )


def _audit(stored: Table) -> str | None:
    """The solved edges read 0, and no entry reads 15 (the search reaches every index well below)."""
    i = solved_index()
    if (stored.data[i >> 1] >> (4 * (i & 1))) & 15:
        return "the solved edges' entry is not 0"
    if ((stored.data[: 1 << 20] & 15) == 15).any() or ((stored.data[: 1 << 20] >> 4) == 15).any():
        return "an entry reads 15"
    return None


def catalog() -> dict[str, Callable[[], TableSpec]]:
    """Name -> spec of the fallback table of both metrics (:mod:`exact.catalog`)."""
    from exact.puzzles.cube.moves import cube_moves

    return {f"cube3-h48-eoesep-{m}": (lambda m=m: spec(cube_moves(3, "faces", m), m)) for m in ("htm", "qtm")}
