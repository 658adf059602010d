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
last layer joins the next one) once most entries are seen. After each layer it writes a
checkpoint (atomically, with its sha256) next to the table, so a build stopped by Ctrl-C resumes
from the last whole layer.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

from exact.atomic import write_chunks
from exact.cube.coords import SIZES, SOLVED, coord_tables
from exact.cube.symmetry import flipslice_classes, flipslice_conj, twist_conj
from exact.movetable import MoveTable
from exact.pdb.store import TableSpec, pack_nibbles, unpack_nibbles

NTWIST = SIZES["twist"]
NFLIP = SIZES["flip"]
UNSEEN = 255
CHECKPOINT_VERSION = 2
_CHUNK = 1 << 24


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


def _checkpoint_paths(directory: Path, name: str) -> tuple[Path, Path]:
    return directory / f"{name}.partial.bin", directory / f"{name}.partial.json"


def _read_checkpoint(directory: Path | None, name: str, entries: int) -> tuple[np.ndarray, int, list[int]] | None:
    """The last saved whole layer's table, if a checkpoint of this build is there and verifies."""
    if directory is None:
        return None
    bin_path, json_path = _checkpoint_paths(directory, name)
    try:
        meta = json.loads(json_path.read_text())
        data = np.fromfile(bin_path, dtype=np.uint8)
    except (OSError, ValueError):
        return None
    if (
        meta.get("version") != CHECKPOINT_VERSION
        or meta.get("name") != name
        or meta.get("entries") != entries
        or len(data) != (entries + 1) // 2
        or _sha256(data) != meta.get("sha256")
    ):
        return None
    dist = unpack_nibbles(data, entries)
    dist[dist == 15] = UNSEEN
    return dist, int(meta["depth"]), [int(c) for c in meta["counts"]]


def _sha256(data: np.ndarray) -> str:
    digest = hashlib.sha256()
    for start in range(0, len(data), _CHUNK):
        digest.update(data[start : start + _CHUNK])
    return digest.hexdigest()


def _write_checkpoint(directory: Path | None, name: str, dist: np.ndarray, depth: int, counts: list[int]) -> None:
    if directory is None:
        return
    bin_path, json_path = _checkpoint_paths(directory, name)
    digest = hashlib.sha256()

    def chunks():  # packed piece by piece: no second full-size array
        for start in range(0, len(dist), _CHUNK):
            piece = pack_nibbles(np.minimum(dist[start : start + _CHUNK], 15))  # unseen as 15: layers stay below
            digest.update(piece)
            yield piece

    write_chunks(bin_path, chunks())  # the data first: a json naming a missing layer never verifies
    meta = {"version": CHECKPOINT_VERSION, "name": name, "entries": len(dist), "depth": depth, "counts": counts}
    meta["sha256"] = digest.hexdigest()
    write_chunks(json_path, [json.dumps(meta).encode()])


def _drop_checkpoint(directory: Path | None, name: str) -> None:
    if directory is not None:
        for path in _checkpoint_paths(directory, name):
            path.unlink(missing_ok=True)


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
    p = phase_one(table, edge)
    directory, name = checkpoint if checkpoint is not None else (None, "")
    args = (p.flip_mv, p.slice_mv, p.twist_mv, p.rep, p.cls, p.sym, p.tconj, p.stab)
    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        resumed = _read_checkpoint(directory, name, p.entries)
        if resumed is not None:
            dist, depth, counts = resumed
        else:
            dist = np.full(p.entries, UNSEEN, dtype=np.uint8)
            _join(dist, p.index(SOLVED["flip"], SOLVED[edge], SOLVED["twist"]), 0, p.stab, p.tconj)
            depth, counts = 0, [1]
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
            if new and time.perf_counter() - saved > CHECKPOINT_SECONDS:
                _write_checkpoint(directory, name, dist, depth, counts)
                saved = time.perf_counter()
    finally:
        numba.set_num_threads(before)
    if seen != p.entries:
        raise RuntimeError(f"the phase-one table build reached {seen} of {p.entries} entries: a bug")
    return dist


NAMES = {"slice": "flipslice", "slicesorted": "flipslicesorted"}
SECONDS_PER_ENTRY = {"slice": 5.3e-8, "slicesorted": 5.5e-8}
"""Build seconds per entry on 2 cores: ``slice`` measured by ``benchmarks/setup_rates.py``
(``docs/benchmarks/setup_rates.md``), ``slicesorted`` from its measured 121-236 s for 3.3e9
entries (``docs/scale.md``)."""


def spec(table: MoveTable, metric: str, edge: str = "slice", directory: Path | None = None) -> TableSpec:
    """The stored table for a metric's face-move table (checkpoints go to ``directory``)."""
    name = f"cube3-{NAMES[edge]}-twist-{metric}"

    def _build(advance):
        dist = build(table, advance, edge=edge, checkpoint=None if directory is None else (Path(directory), name))
        if directory is not None:
            _drop_checkpoint(Path(directory), name)
        return dist

    return TableSpec(
        name=name,
        puzzle="cube3",
        pattern={"kind": f"{NAMES[edge]}-class x twist", "symmetries": "UD16", "metric": metric, "moves": "faces"},
        entries=CLASSES[edge] * NTWIST,
        packed=True,
        build=_build,
        audit=lambda stored: _audit(stored, table, edge),
        seconds_per_entry=SECONDS_PER_ENTRY[edge],
    )


def _audit(stored, table: MoveTable, edge: str) -> str | None:
    idx = np.random.default_rng(0).integers(0, stored.spec.entries, AUDIT_SAMPLE)
    bad = violations(stored.data, phase_one(table, edge), idx)
    return None if bad == 0 else f"{bad} of {AUDIT_SAMPLE} sampled entries break the distance equations"


CLASSES = {"slice": 64430, "slicesorted": 1523864}
"""Flip-slice classes of each edge coordinate (checked against the computed ones by the tests)."""
