"""The symmetry-reduced pruning table of the optimal 3x3x3 solver: flip-slice class x twist.

An entry is the distance to solved (in the table's metric) of the triple (flip, UD-slice, twist)
of :mod:`exact.cube.coords`: a lower bound on the cube's distance, since every solution moves the
triple to solved along the coordinates' move tables. The triple is taken up to the 16 UD
symmetries (:mod:`exact.cube.symmetry`): its flip-slice is replaced by the representative of its
class and its twist conjugated by the symmetry that does it, so the table has 64,430 x 2,187 =
140,908,410 entries (4 bits each: 70 MB), index ``class * 2187 + twist``. This is the table of
Reid's and Kociemba's optimal solvers; :mod:`exact.cube.optimal` reads it along three axes.

The build is a breadth-first search over the entries in numba on every thread given: forward
from the solved entry while the frontier is small, then backward (an unseen entry next to the
last layer joins the next one) once most entries are seen. After a layer, once a minute at most,
it writes a checkpoint next to the table (:mod:`exact.pdb.partial`: atomic, with its sha256, and
the seconds spent so far), so a build stopped by Ctrl-C resumes from the last layer saved.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from exact.cube.coords import SIZES, SOLVED, coord_tables
from exact.cube.symmetry import flipslice_classes, flipslice_conj, twist_conj
from exact.movetable import MoveTable
from exact.pdb import partial
from exact.pdb.store import Built, TableSpec, pack_nibbles, unpack_nibbles

NTWIST = SIZES["twist"]
NFLIP = SIZES["flip"]
UNSEEN = 255


@dataclass(frozen=True)
class PhaseOne:
    """What the table's build and lookups need, as flat arrays for numba.

    Attributes:
        edge: The edge coordinate paired with the flip (:data:`exact.cube.symmetry.EDGES`).
        flip_mv, slice_mv, twist_mv: int32 ``(size, M)``: the coordinates' move tables.
        rep: int32 ``(C,)``: raw flip-slice (``slice * 2048 + flip``) of each class's representative.
        cls: int32 ``(1013760,)``, sym: int8: class of a raw flip-slice, and the symmetry to it.
        tconj: int16 ``(2187, 16)``: twist under each UD symmetry.
        stab: uint16 ``(C,)``: bit ``g`` set where symmetry ``g`` maps the class's representative
            onto itself (bit 0 always). The entries ``(c, t)`` and ``(c, tconj[t, g])`` for such
            ``g`` are conjugate states, equally far: the build gives them their layer together.
    """

    edge: str
    flip_mv: np.ndarray
    slice_mv: np.ndarray
    twist_mv: np.ndarray
    rep: np.ndarray
    cls: np.ndarray
    sym: np.ndarray
    tconj: np.ndarray
    stab: np.ndarray

    @property
    def entries(self) -> int:
        return len(self.rep) * NTWIST

    def index(self, flip: int, slice_: int, twist: int) -> int:
        """The table entry of a triple."""
        raw = slice_ * NFLIP + flip
        return int(self.cls[raw]) * NTWIST + int(self.tconj[twist, self.sym[raw]])


_PHASE_ONE: dict[tuple[bytes, str], PhaseOne] = {}


def phase_one(table: MoveTable, edge: str = "slice") -> PhaseOne:
    """The arrays of :class:`PhaseOne` for a 3x3x3 face-move table (kept per table and edge)."""
    key = (np.ascontiguousarray(table.perms).tobytes(), edge)
    if key not in _PHASE_ONE:
        k = flipslice_classes(edge)
        t = coord_tables(table)
        conj = flipslice_conj(edge)[k.rep]  # (C, 16)
        stab = ((conj == k.rep[:, None]) << np.arange(16)).sum(axis=1).astype(np.uint16)
        _PHASE_ONE[key] = PhaseOne(edge, t.flip, t.table(edge), t.twist, k.rep, k.cls, k.sym, twist_conj(), stab)
    return _PHASE_ONE[key]


@njit(cache=True, inline="always")
def nibble(data, i):  # pragma: no cover - numba
    b = data[i >> 1]
    return (b >> 4) if (i & 1) else (b & 15)


@njit(cache=True, inline="always")
def entry(flip, slice_, twist, cls, sym, tconj):  # pragma: no cover - numba
    """The table index of a (flip, slice, twist) triple."""
    raw = slice_ * 2048 + flip
    return np.int64(cls[raw]) * 2187 + tconj[twist, sym[raw]]


@njit(cache=True, inline="always")
def _child(i, m, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj):  # pragma: no cover - numba
    raw = rep[i // 2187]
    return entry(flip_mv[raw & 2047, m], slice_mv[raw >> 11, m], twist_mv[i % 2187, m], cls, sym, tconj)


@njit(cache=True, inline="always")
def _join(dist, j, value, stab, tconj):  # pragma: no cover - numba
    """Put entry ``j`` and its conjugates under its class's stabiliser into layer ``value``."""
    if dist[j] != UNSEEN:
        return
    dist[j] = value  # a race writes the same value: harmless
    c = j // 2187
    mask = stab[c]
    if mask != 1:
        t = j % 2187
        for g in range(1, 16):
            if (mask >> g) & 1:
                k = c * 2187 + tconj[t, g]
                if dist[k] == UNSEEN:
                    dist[k] = value


@njit(cache=True, parallel=True)
def _forward(dist, depth, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj, stab):  # pragma: no cover - numba
    """Every unseen child of a ``depth`` entry joins ``depth + 1``; returns how many joined."""
    n = dist.shape[0]
    moves = flip_mv.shape[1]
    for i in prange(n):
        if dist[i] == depth:
            for m in range(moves):
                _join(dist, _child(i, m, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj), depth + 1, stab, tconj)
    return _count(dist, depth + 1)


@njit(cache=True, parallel=True)
def _backward(dist, depth, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj, stab):  # pragma: no cover - numba
    """Every unseen entry with a ``depth`` child joins ``depth + 1``; returns how many joined.

    Exact once the layers up to ``depth`` are: an entry's distance is one more than its nearest
    child's (its children are the images of all its cube's neighbours)."""
    n = dist.shape[0]
    moves = flip_mv.shape[1]
    for i in prange(n):
        if dist[i] == UNSEEN:
            for m in range(moves):
                if dist[_child(i, m, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj)] == depth:
                    dist[i] = depth + 1  # only this thread writes entry i
                    break
    return _count(dist, depth + 1)


@njit(cache=True, parallel=True)
def _count(dist, value):  # pragma: no cover - numba
    total = 0
    for i in prange(dist.shape[0]):
        if dist[i] == value:
            total += 1
    return total


@njit(cache=True, parallel=True)
def _violations(data, idx, solved, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj, stab):  # pragma: no cover
    """How many of the entries ``idx`` (all when empty) break the table's equations: the solved
    entry is 0 and no other is; every other is one more than its nearest child; the conjugates
    under a class's stabiliser are equal."""
    n = idx.shape[0] if idx.shape[0] else data.shape[0] * 2
    total = rep.shape[0] * 2187
    moves = flip_mv.shape[1]
    bad = 0
    for k in prange(n):
        i = idx[k] if idx.shape[0] else np.int64(k)
        if i >= total:
            continue
        v = nibble(data, i)
        if i == solved or v == 0:
            ok = i == solved and v == 0
        else:
            low = 99
            for m in range(moves):
                w = nibble(data, _child(i, m, flip_mv, slice_mv, twist_mv, rep, cls, sym, tconj))
                if w < low:
                    low = w
            ok = low == v - 1
        c = i // 2187
        mask = stab[c]
        for g in range(1, 16):
            if (mask >> g) & 1 and nibble(data, c * 2187 + tconj[i % 2187, g]) != v:
                ok = False
        if not ok:
            bad += 1
    return bad


def violations(data: np.ndarray, phase: PhaseOne, idx: np.ndarray | None = None) -> int:
    """How many entries of a packed table (all, or those of int64 ``idx``) break its equations.

    None do exactly when the table holds every entry's true distance: from a value ``v`` a child
    one less leads down to the solved entry in ``v`` moves (the distance is at most ``v``), and
    no value exceeds a child's by more than one (along a shortest path of ``d`` moves it cannot
    rise above ``d``)."""
    solved = phase.index(SOLVED["flip"], SOLVED[phase.edge], SOLVED["twist"])
    idx = np.zeros(0, np.int64) if idx is None else np.asarray(idx, np.int64)
    p = phase
    return int(
        _violations(
            np.asarray(data), idx, solved, p.flip_mv, p.slice_mv, p.twist_mv, p.rep, p.cls, p.sym, p.tconj, p.stab
        )
    )


AUDIT_SAMPLE = 200_000
"""Entries whose equations are checked on every load (a forged table fails; the full check is
:func:`violations` over all entries)."""


def _read_checkpoint(
    checkpoint: tuple[Path, str] | None, entries: int
) -> tuple[np.ndarray, int, list[int], float] | None:
    """``(distances, depth, layer counts, seconds spent)`` of the last whole layer saved, where a
    checkpoint of this build is there and verifies (:mod:`exact.pdb.partial`)."""
    if checkpoint is None:
        return None
    found = partial.read(*checkpoint, [(entries + 1) // 2], {"entries": entries})
    how_far = None if found is None else _how_far(found[1], entries)
    if how_far is None:
        return None
    dist = unpack_nibbles(found[0][0], entries)
    dist[dist == 15] = UNSEEN
    return dist, *how_far


def _how_far(about: dict, entries: int) -> tuple[int, list[int], float] | None:
    """A verified checkpoint's ``(depth, layer counts, seconds)``, or ``None`` where they do not
    add up (the sha256 covers the data, not these): ``depth + 1`` counts of at most ``entries``
    in all, the last not 0, and seconds that :func:`exact.pdb.partial.seconds` accepts."""
    progress, spent = about.get("progress"), partial.seconds(about)
    depth, counts = (progress.get("depth"), progress.get("counts")) if isinstance(progress, dict) else (None, None)
    if type(depth) is not int or not isinstance(counts, list) or len(counts) != depth + 1 or depth < 1:
        return None
    if any(type(c) is not int or c < 0 for c in counts) or sum(counts) > entries or counts[-1] == 0:
        return None
    return None if spent is None else (depth, counts, spent)


def _write_checkpoint(checkpoint: tuple[Path, str] | None, dist: np.ndarray, depth: int, counts: list[int],
                      seconds: float) -> None:  # fmt: skip
    if checkpoint is None:
        return
    about = {"entries": len(dist), "progress": {"depth": depth, "counts": counts}, "seconds": round(seconds, 3)}
    # packed piece by piece (no second full-size array); unseen as 15, which no layer reaches
    partial.write(*checkpoint, [dist], about, encode=lambda piece: pack_nibbles(np.minimum(piece, 15)))


CHECKPOINT_SECONDS = 60.0
"""A layer's checkpoint is written once this long has passed since the last one."""


def build(
    table: MoveTable,
    advance: Callable[[int], object] | None = None,
    *,
    edge: str = "slice",
    checkpoint: tuple[Path, str] | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """The distances of every entry, uint8 ``(classes * 2187,)``.

    Args:
        table: A 3x3x3 face-move table (its metric is the table's).
        edge: ``"slice"`` (140,908,410 entries) or ``"slicesorted"`` (3,332,690,568).
        advance: ``advance(k)`` with the entries finished since its last call (a progress bar's
            ``update``).
        checkpoint: ``(directory, name)``: resume from and write per-layer checkpoints there.
        threads: numba threads (``None``: numba's current setting).
    """
    return _build(table, advance, edge, checkpoint, threads)[0]


def _build(
    table: MoveTable, advance: Callable[[int], object] | None, edge: str, checkpoint: tuple[Path, str] | None,
    threads: int | None,
) -> tuple[np.ndarray, float]:  # fmt: skip
    """:func:`build`'s distances, and the seconds that earlier runs spent reaching the checkpoint
    it resumed from (``0`` where it did not)."""
    began = time.perf_counter()
    p = phase_one(table, edge)
    args = (p.flip_mv, p.slice_mv, p.twist_mv, p.rep, p.cls, p.sym, p.tconj, p.stab)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        resumed = _read_checkpoint(checkpoint, p.entries)
        if resumed is not None:
            dist, depth, counts, earlier = resumed
        else:
            dist = np.full(p.entries, UNSEEN, dtype=np.uint8)
            _join(dist, p.index(SOLVED["flip"], SOLVED[edge], SOLVED["twist"]), 0, p.stab, p.tconj)
            depth, counts, earlier = 0, [1], 0.0
        if advance is not None:
            advance(sum(counts))
        seen = sum(counts)
        saved = time.perf_counter()
        while counts[-1]:
            # Forward while the frontier is the smaller side, backward after: each pass then
            # touches the fewer entries.
            step = _forward if counts[-1] < p.entries - seen else _backward
            new = int(step(dist, depth, *args))
            depth += 1
            counts.append(new)
            seen += new
            if advance is not None:
                advance(new)
            if new and (now := time.perf_counter()) - saved > CHECKPOINT_SECONDS:
                _write_checkpoint(checkpoint, dist, depth, counts, earlier + now - began)
                saved = time.perf_counter()
    finally:
        numba.set_num_threads(before)
    if seen != p.entries:
        raise RuntimeError(f"the phase-one table build reached {seen} of {p.entries} entries: a bug")
    return dist, earlier


NAMES = {"slice": "flipslice", "slicesorted": "flipslicesorted"}
SECONDS_PER_ENTRY = {"slice": 5.3e-8, "slicesorted": 5.5e-8}
"""Build seconds per entry on 2 cores: ``slice`` measured by ``benchmarks/setup_rates.py``
(``docs/benchmarks/setup_rates.md``), ``slicesorted`` from its measured 121-236 s for 3.3e9
entries (``docs/scale.md``)."""


def spec(table: MoveTable, metric: str, edge: str = "slice", directory: Path | None = None) -> TableSpec:
    """The stored table for a metric's face-move table (checkpoints go to ``directory``)."""
    name = f"cube3-{NAMES[edge]}-twist-{metric}"

    def build_it(advance):
        where = None if directory is None else (Path(directory), name)
        dist, earlier = _build(table, advance, edge, where, None)
        if where is not None:
            partial.drop(*where)
        return Built(dist, earlier)

    return TableSpec(
        name=name,
        puzzle="cube3",
        pattern={"kind": f"{NAMES[edge]}-class x twist", "symmetries": "UD16", "metric": metric, "moves": "faces"},
        entries=CLASSES[edge] * NTWIST,
        packed=True,
        build=build_it,
        audit=lambda stored: _audit(stored, table, edge),
        seconds_per_entry=SECONDS_PER_ENTRY[edge],
    )


def _audit(stored, table: MoveTable, edge: str) -> str | None:
    idx = np.random.default_rng(0).integers(0, stored.spec.entries, AUDIT_SAMPLE)
    bad = violations(stored.data, phase_one(table, edge), idx)
    return None if bad == 0 else f"{bad} of {AUDIT_SAMPLE} sampled entries break the distance equations"


CLASSES = {"slice": 64430, "slicesorted": 1523864}
"""Flip-slice classes of each edge coordinate (checked against the computed ones by the tests)."""
