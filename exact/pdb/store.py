"""On-disk storage of pattern databases: build once, then memory-map and verify on every load.

A pattern database (PDB) is a uint8 array with one heuristic value per abstract state. Values
below 16 may be stored 4-bit packed, two per byte: entry ``i`` lives in byte ``i >> 1``, in the
low nibble when ``i`` is even and in the high nibble when it is odd.

A table named ``NAME`` is two files in one directory (:func:`default_dir` unless given):

``NAME.bin``
    The raw bytes: ``ceil(entries / 2)`` packed bytes, or one byte per entry.
``NAME.json``
    Its metadata: ``format`` (``"puzzleopt-pdb"``), ``format_version`` (1), ``name``,
    ``puzzle``, ``pattern``, ``entries``, ``packed``, ``bytes``, ``sha256`` (hex digest of the
    ``.bin``), ``build_seconds`` (summed over the runs of a build resumed from its checkpoint,
    :class:`Built`), ``created`` (UTC, ISO 8601), ``max_value`` and
    ``value_counts`` (how many entries hold 0, 1, 2, ... up to ``max_value``).

Both files are written atomically (temporary file in the same directory, fsync, rename), so an
interrupted build never leaves a file that looks complete. :func:`load` checks the metadata
against the caller's :class:`TableSpec`, the sha256 of the bytes it maps and the spec's
``audit`` of the values on every load, and rebuilds anything missing, stale, damaged or forged;
it never returns a table it has not verified.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import platformdirs

from exact.atomic import write_chunks
from exact.errors import PuzzleoptError
from exact.logs import get_logger
from exact.pdb import partial

logger = get_logger(__name__)

FORMAT = "puzzleopt-pdb"
FORMAT_VERSION = 1

# Large enough that Python overhead vanishes, small enough that the int64 copy np.bincount makes
# of a chunk (8 bytes per entry) stays at tens of MB even for 500 MB tables.
_CHUNK = 1 << 22
_NAME_RE = re.compile(r"[A-Za-z0-9._-]+")
_REQUIRED_META = {
    "name": str,
    "puzzle": str,
    "pattern": dict,
    "entries": int,
    "packed": bool,
    "bytes": int,
    "sha256": str,
}


class PdbError(PuzzleoptError):
    """A pattern-database spec, table file or table name that cannot be used."""


def _check_name(name: object, who: str) -> str:
    # Names become file names: keeping them to a safe alphabet rules out path traversal ("../x")
    # and hidden files (".x"), which would collide with our temporary files.
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name) or name.startswith("."):
        raise PdbError(
            f"{who}: table name {name!r} is not allowed; use letters, digits, '.', '_' and '-' only, "
            "not starting with '.' (e.g. 'tiles15-555-a')"
        )
    return name


def _normalise_pattern(pattern: object, name: str) -> dict:
    if not isinstance(pattern, dict):
        raise PdbError(f"TableSpec {name!r}: pattern must be a dict, got {type(pattern).__name__}")
    try:
        # The round trip gives the exact form the .json will hold (tuples become lists, keys
        # strings), so comparing a spec with stored metadata is plain equality.
        return json.loads(json.dumps(pattern))
    except (TypeError, ValueError) as exc:
        raise PdbError(
            f"TableSpec {name!r}: pattern {pattern!r} is not JSON-serialisable ({exc}); "
            "use only dicts, lists, strings, numbers and booleans"
        ) from None


def _positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 1:
        raise PdbError(f"{what} must be a positive integer, got {value!r}")
    return int(value)


class Built(NamedTuple):
    """What a build resumed from its checkpoint returns: the values, and the seconds its earlier
    runs spent reaching that checkpoint, which the stored ``build_seconds`` adds to this run's
    (work done after a run's last checkpoint and lost at its stop is not counted).

    Attributes:
        values: uint8 ``(entries,)``, unpacked.
        earlier_seconds: Seconds of the earlier runs, ``>= 0``.
    """

    values: np.ndarray
    earlier_seconds: float


@dataclass(frozen=True)
class TableSpec:
    """What a table is and how to build it; cheap to create (nothing is built).

    Attributes:
        name: File stem, e.g. ``"tiles15-555-a"``; only letters, digits, ``.``, ``_``, ``-``.
        puzzle: The puzzle the table is for, e.g. ``"tiles15"``.
        pattern: JSON-serialisable description of the abstraction, e.g. ``{"tiles": [1, 2, 3]}``.
            Stored in its JSON round-trip form (tuples become lists).
        entries: Number of values (abstract states).
        packed: Store 4 bits per value (all values must then be below 16).
        build: ``build(advance) -> values``: computes the table, calling ``advance(k)`` with the
            number of progress units done since its previous call, and returns the unpacked
            values, uint8 ``(entries,)``, or a :class:`Built` (a build resumed from a
            checkpoint). Not part of equality or hashing.
        progress_total: Units ``build`` reports in total (the progress bar's length); ``None``
            means ``entries``, and is replaced by it on construction.
        audit: ``audit(table) -> reason or None``: a check of the values themselves, run on every
            load after the sha256 (a table whose values were changed and its checksum recomputed
            passes the sha256; e.g. no value above the cost of a known path). A table that fails
            it is rebuilt like a corrupted one. Not part of equality or hashing.
        seconds_per_entry: About how long the build takes per entry on 2 cores, as measured
            for the table's family (``benchmarks/setup_rates.py``; :attr:`build_seconds`): what
            a solve states before it builds and what its time limit is checked against. Not part
            of equality or hashing.
    """

    name: str
    puzzle: str
    pattern: dict
    entries: int
    packed: bool
    build: Callable[[Callable[[int], None]], np.ndarray | Built] = field(compare=False, repr=False)
    progress_total: int | None = None
    audit: Callable[[Table], str | None] | None = field(default=None, compare=False, repr=False)
    seconds_per_entry: float = field(default=0.0, compare=False, repr=False)

    def __post_init__(self) -> None:
        name = _check_name(self.name, "TableSpec")
        if not isinstance(self.puzzle, str) or not self.puzzle:
            raise PdbError(f"TableSpec {name!r}: puzzle must be a non-empty string, got {self.puzzle!r}")
        if not isinstance(self.packed, (bool, np.bool_)):
            raise PdbError(f"TableSpec {name!r}: packed must be True or False, got {self.packed!r}")
        if not callable(self.build):
            raise PdbError(f"TableSpec {name!r}: build must be callable build(advance) -> values, got {self.build!r}")
        entries = _positive_int(self.entries, f"TableSpec {name!r}: entries")
        total = entries if self.progress_total is None else self.progress_total
        total = _positive_int(total, f"TableSpec {name!r}: progress_total")
        # Frozen: normalised values go in through object.__setattr__.
        object.__setattr__(self, "pattern", _normalise_pattern(self.pattern, name))
        object.__setattr__(self, "entries", entries)
        object.__setattr__(self, "packed", bool(self.packed))
        object.__setattr__(self, "progress_total", total)

    def __hash__(self) -> int:
        # The generated hash would fail on the dict pattern; its canonical JSON is hashable.
        pattern = json.dumps(self.pattern, sort_keys=True)
        return hash((self.name, self.puzzle, pattern, self.entries, self.packed, self.progress_total))

    @property
    def nbytes(self) -> int:
        """Size of the ``.bin`` file in bytes."""
        return _nbytes(self.entries, self.packed)

    @property
    def build_seconds(self) -> float:
        """About how long building takes on 2 cores (0: not measured for this family)."""
        return self.entries * self.seconds_per_entry


LOAD_SECONDS_PER_BYTE = 2.7e-9
"""Reading a stored table back with its sha256 checked, per byte of its file (measured by
``benchmarks/setup_rates.py``; ``docs/benchmarks/setup_rates.md``)."""


def setup_estimate(specs: Iterable[TableSpec], directory: str | os.PathLike | None = None) -> tuple[bool, float]:
    """Whether all of ``specs`` are stored in ``directory`` (default :func:`default_dir`), and
    about how many seconds on 2 cores loading the stored ones and building the others takes."""
    stored, seconds = True, 0.0
    for spec in specs:
        here = stored_entries(spec.name, directory) == spec.entries
        stored &= here
        seconds += spec.nbytes * LOAD_SECONDS_PER_BYTE if here else spec.build_seconds
    return stored, seconds


def _nbytes(entries: int, packed: bool) -> int:
    return (entries + 1) // 2 if packed else entries


# eq=False: the generated __eq__ would compare numpy arrays (ambiguous truth value); tables
# compare and hash by identity instead.
@dataclass(frozen=True, eq=False)
class Table:
    """A loaded pattern database.

    Attributes:
        spec: The spec it was loaded for.
        data: uint8, read-only and memory-mapped from ``NAME.bin``: packed bytes
            ``(ceil(entries / 2),)`` if ``spec.packed``, else the values ``(entries,)``.
        meta: The metadata stored in ``NAME.json`` (see the module docstring).
    """

    spec: TableSpec
    data: np.ndarray
    meta: dict

    def values(self, idx: np.ndarray) -> np.ndarray:
        """The values at some entries.

        Args:
            idx: Integer indices of any shape (int64 usually), each in ``0..entries - 1``.

        Returns:
            uint8 array of the shape of ``idx``.

        Raises:
            PdbError: ``idx`` is not integer, or an index is out of range.
        """
        idx = np.asarray(idx)
        if not np.issubdtype(idx.dtype, np.integer):
            raise PdbError(f"pdb {self.spec.name}: indices must be integers, got dtype {idx.dtype}")
        if idx.size:
            # Packed tables would silently return the padding nibble for idx == entries, and
            # negative indices would wrap around: both are bugs in the caller worth a clear error.
            lo, hi = int(idx.min()), int(idx.max())
            if lo < 0 or hi >= self.spec.entries:
                bad = lo if lo < 0 else hi
                raise PdbError(
                    f"pdb {self.spec.name}: index {bad} is out of range; valid indices are 0..{self.spec.entries - 1}"
                )
        if not self.spec.packed:
            return np.asarray(self.data[idx], dtype=np.uint8)
        byte = self.data[idx >> 1]
        shift = ((idx & 1) << 2).astype(np.uint8)
        return ((byte >> shift) & 0x0F).astype(np.uint8)


def pack_nibbles(values: np.ndarray) -> np.ndarray:
    """Pack values below 16 two per byte (even index in the low nibble, odd in the high).

    Args:
        values: Integer array ``(n,)``, each value in ``0..15``.

    Returns:
        uint8 ``(ceil(n / 2),)``; the high nibble of the last byte is 0 when ``n`` is odd.

    Raises:
        PdbError: ``values`` is not a 1-D integer array, or holds a value outside ``0..15``.
    """
    values = np.asarray(values)
    if values.ndim != 1 or not np.issubdtype(values.dtype, np.integer):
        raise PdbError(
            f"pack_nibbles: values must be a 1-D integer array, got dtype {values.dtype} shape {values.shape}"
        )
    if values.size:
        bad = (values < 0) | (values > 15)
        if bad.any():
            at = int(np.argmax(bad))
            raise PdbError(
                f"pack_nibbles: value {int(values[at])} at index {at} does not fit in 4 bits (0..15); "
                "store this table unpacked (packed=False)"
            )
    n = values.size
    out = values[0::2].astype(np.uint8)
    out[: n // 2] |= values[1::2].astype(np.uint8) << np.uint8(4)
    return out


def unpack_nibbles(data: np.ndarray, entries: int) -> np.ndarray:
    """Inverse of :func:`pack_nibbles`.

    Args:
        data: uint8 ``(ceil(entries / 2),)``, the packed bytes (a memory map is fine).
        entries: Number of values to unpack.

    Returns:
        uint8 ``(entries,)``.

    Raises:
        PdbError: ``data`` is not uint8 1-D, or its length does not match ``entries``.
    """
    data = np.asarray(data)
    if isinstance(entries, bool) or not isinstance(entries, (int, np.integer)) or entries < 0:
        raise PdbError(f"unpack_nibbles: entries must be a non-negative integer, got {entries!r}")
    entries = int(entries)
    if data.dtype != np.uint8 or data.ndim != 1 or data.size != (entries + 1) // 2:
        raise PdbError(
            f"unpack_nibbles: data must be uint8 of shape ({(entries + 1) // 2},) for {entries} entries, "
            f"got dtype {data.dtype} shape {data.shape}"
        )
    out = np.empty(entries, dtype=np.uint8)
    out[0::2] = data & 0x0F
    out[1::2] = data[: entries // 2] >> 4
    return out


def default_dir() -> Path:
    """Where tables live unless a directory is given: the user cache dir's ``puzzleopt/pdb``."""
    return Path(platformdirs.user_cache_dir("puzzleopt")) / "pdb"


def _paths(name: str, directory: Path) -> tuple[Path, Path]:
    return directory / f"{name}.bin", directory / f"{name}.json"


def _write_atomic(path: Path, chunks: Iterable[bytes | np.ndarray]) -> None:
    write_chunks(path, chunks)


def _bin_chunks(values: np.ndarray, packed: bool, digest: Any) -> Iterator[np.ndarray]:
    # Packing chunk by chunk (even-sized chunks pack independently) avoids a second full-size
    # array; hashing here avoids reading the file back.
    for start in range(0, values.size, _CHUNK):
        piece = values[start : start + _CHUNK]
        if packed:
            piece = pack_nibbles(piece)
        digest.update(piece)
        yield piece


def _value_counts(values: np.ndarray) -> np.ndarray:
    counts = np.zeros(256, dtype=np.int64)
    for start in range(0, values.size, _CHUNK):
        counts += np.bincount(values[start : start + _CHUNK], minlength=256)
    return counts


def save(spec: TableSpec, values: np.ndarray, directory: str | os.PathLike, build_seconds: float) -> Table:
    """Store a built table as ``NAME.bin`` and ``NAME.json``, each written atomically.

    Any existing ``NAME.json`` is removed first, so an interrupted save reads as "metadata
    missing" rather than as metadata describing other bytes.

    Args:
        spec: The table's spec.
        values: uint8 ``(spec.entries,)``, unpacked (packing happens here when ``spec.packed``).
        directory: Where to write; created if missing.
        build_seconds: How long the build took, recorded in the metadata.

    Returns:
        The table, its data memory-mapped read-only from the file just written.

    Raises:
        PdbError: ``values`` has the wrong dtype or shape, or a packed table has a value above 15.
    """
    values = np.asarray(values)
    if values.dtype != np.uint8 or values.shape != (spec.entries,):
        raise PdbError(
            f"pdb {spec.name}: values must be uint8 of shape ({spec.entries},), got dtype {values.dtype} "
            f"shape {values.shape}; the spec's build() must return the unpacked uint8 table"
        )
    values = np.ascontiguousarray(values)
    counts = _value_counts(values)
    max_value = int(np.flatnonzero(counts)[-1])
    if spec.packed and max_value > 15:
        raise PdbError(
            f"pdb {spec.name}: the largest value is {max_value}, which does not fit in 4 bits; "
            "make the spec packed=False or keep its values below 16"
        )
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    bin_path, json_path = _paths(spec.name, directory)
    json_path.unlink(missing_ok=True)
    digest = hashlib.sha256()
    _write_atomic(bin_path, _bin_chunks(values, spec.packed, digest))
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": spec.name,
        "puzzle": spec.puzzle,
        "pattern": spec.pattern,
        "entries": spec.entries,
        "packed": spec.packed,
        "bytes": spec.nbytes,
        "sha256": digest.hexdigest(),
        "build_seconds": round(float(build_seconds), 3),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "max_value": max_value,
        "value_counts": counts[: max_value + 1].tolist(),
    }
    _write_atomic(json_path, [(json.dumps(meta, indent=2) + "\n").encode()])
    return Table(spec, np.memmap(bin_path, dtype=np.uint8, mode="r", shape=(spec.nbytes,)), meta)


def _read_meta(json_path: Path) -> tuple[dict | None, str | None]:
    """The metadata in ``json_path`` if it is readable and well-formed, else a reason."""
    try:
        meta = json.loads(json_path.read_text(encoding="utf-8"))
    except OSError as exc:
        return None, f"{json_path} cannot be read ({exc.strerror or exc})"
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return None, f"{json_path} is not valid JSON ({exc})"
    if not isinstance(meta, dict):
        return None, f"{json_path} is not a JSON object"
    if meta.get("format") != FORMAT:
        return None, f"{json_path} has format {meta.get('format')!r}, expected {FORMAT!r}"
    if meta.get("format_version") != FORMAT_VERSION:
        return None, (
            f"{json_path} has format_version {meta.get('format_version')!r}, this version reads {FORMAT_VERSION}"
        )
    for key, kind in _REQUIRED_META.items():
        value = meta.get(key)
        # bool is an int subclass; an "entries": true must not pass as 1.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return None, f"{json_path} has no valid {key!r} (expected {kind.__name__}, got {value!r})"
    if meta["name"] != json_path.stem:
        return None, f"{json_path} describes table {meta['name']!r}, not {json_path.stem!r}"
    expected = _nbytes(meta["entries"], meta["packed"])
    if meta["entries"] < 1 or meta["bytes"] != expected:
        return None, (
            f"{json_path} is inconsistent: {meta['entries']} entries (packed={meta['packed']}) "
            f"need {expected} bytes, it says {meta['bytes']}"
        )
    return meta, None


def stored_entries(name: str, directory: str | os.PathLike | None = None) -> int | None:
    """The ``entries`` the stored table ``name`` says it has, or ``None`` where there is no
    well-formed metadata: for tables whose size is only known once built (a spec needs it).
    :func:`load` still verifies everything else."""
    directory = default_dir() if directory is None else Path(directory)
    meta, _ = _read_meta(_paths(_check_name(name, "stored_entries"), directory)[1])
    return None if meta is None else meta["entries"]


def _spec_mismatch(spec: TableSpec, meta: dict, json_path: Path) -> str | None:
    for key in ("puzzle", "pattern", "entries", "packed"):
        if meta[key] != getattr(spec, key):
            return f"{json_path} does not match the spec: {key} is {meta[key]!r}, expected {getattr(spec, key)!r}"
    return None


def _sha256(data: np.ndarray) -> str:
    digest = hashlib.sha256()
    for start in range(0, data.size, _CHUNK):
        digest.update(data[start : start + _CHUNK])
    return digest.hexdigest()


def _inspect(name: str, directory: Path, spec: TableSpec | None) -> tuple[str | None, dict | None, np.ndarray | None]:
    """Validate a stored table: ``(None, meta, data)`` if valid, else ``(reason, meta or None, None)``.

    The hash is computed over the memory map that is returned, so a file replaced between the
    check and the use cannot slip through.
    """
    bin_path, json_path = _paths(name, directory)
    if not bin_path.exists() and not json_path.exists():
        return f"{bin_path.name} and {json_path.name} not found in {directory}", None, None
    if not json_path.exists():
        return f"{json_path} is missing", None, None
    meta, reason = _read_meta(json_path)
    if meta is None:
        return reason, None, None
    if spec is not None and (reason := _spec_mismatch(spec, meta, json_path)):
        return reason, meta, None
    if not bin_path.exists():
        return f"{bin_path} is missing", meta, None
    size = bin_path.stat().st_size
    if size != meta["bytes"]:
        what = "truncated" if size < meta["bytes"] else "too long"
        return f"{bin_path} is {what}: {size} bytes, expected {meta['bytes']}", meta, None
    data = np.memmap(bin_path, dtype=np.uint8, mode="r", shape=(meta["bytes"],))
    actual = _sha256(data)
    if actual != meta["sha256"]:
        del data
        return f"{bin_path} is corrupted: sha256 {actual[:12]}..., expected {meta['sha256'][:12]}...", meta, None
    return None, meta, data


def check(spec: TableSpec, directory: str | os.PathLike, *, deep: bool = False) -> str | None:
    """Whether the table stored in ``directory`` is a valid build of ``spec``.

    Checks, in order: both files present; the ``.json`` readable, of this format and version,
    and matching the spec (puzzle, pattern, entries, packed); the ``.bin`` size; its sha256;
    with ``deep``, that ``max_value`` and ``value_counts`` describe the data; the spec's
    ``audit`` of the values (a file whose values were changed and its sha256 recomputed fails
    one of the last two).

    Returns:
        ``None`` if valid, else one line naming the file and what is wrong with it.
    """
    reason, meta, data = _inspect(spec.name, Path(directory), spec)
    if reason is None and deep:
        reason = _counts_mismatch(meta, data, _paths(spec.name, Path(directory))[0])
    if reason is None:
        reason = _audit(Table(spec, data, meta))
    return reason


def _audit(table: Table) -> str | None:
    """Why the spec's own check of the values fails, or ``None``."""
    return None if table.spec.audit is None else table.spec.audit(table)


def _counts_mismatch(meta: dict, data: np.ndarray, bin_path: Path) -> str | None:
    """Why ``max_value`` / ``value_counts`` of ``meta`` do not describe ``data``, or ``None``."""
    counts = np.zeros(256, dtype=np.int64)
    entries = int(meta["entries"])
    for start in range(0, data.size, _CHUNK):
        chunk = np.asarray(data[start : start + _CHUNK])
        if meta["packed"]:
            chunk = unpack_nibbles(chunk, min(2 * chunk.size, entries - 2 * start))
        counts += np.bincount(chunk, minlength=256)
    top = int(np.flatnonzero(counts)[-1]) if counts.any() else 0
    if meta.get("max_value") != top or meta.get("value_counts") != counts[: top + 1].tolist():
        return (
            f"{bin_path} does not hold what its metadata says: largest value {top} (metadata "
            f"{meta.get('max_value')!r}) or the value counts differ; rebuild it "
            "(python -m exact.pdb build NAME --force)"
        )
    return None


def _announce(message: str) -> None:
    logger.info(message)


def load(
    spec: TableSpec,
    directory: str | os.PathLike | None = None,
    *,
    rebuild: bool = False,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> Table:
    """The table of ``spec``: the stored one if valid, else freshly built, saved and re-opened.

    The stored table's sha256 is verified on every load. A build is announced through ``log``
    (one line, always, so ``log`` being called means a build happened): why the stored table
    was not used ("not found", or the reason :func:`check` gives, or a forced rebuild).

    Args:
        spec: The table to load.
        directory: Where tables live; :func:`default_dir` if ``None``.
        rebuild: Build and save even when the stored table is valid.
        progress: Show a tqdm progress bar (on stderr) during a build.
        log: Receives the one-line build announcement; default: the ``puzzleopt`` log (INFO).

    Returns:
        The verified table, memory-mapped read-only.

    Raises:
        PdbError: the build returned bad values, or the freshly written table does not verify
            (e.g. another process replaced it meanwhile).
    """
    directory = default_dir() if directory is None else Path(directory)
    log = _announce if log is None else log
    bin_path, json_path = _paths(spec.name, directory)
    if rebuild:
        log(f"pdb {spec.name}: rebuild requested; building ({_size_and_time(spec)})")
    else:
        reason, meta, data = _inspect(spec.name, directory, spec)
        if reason is None:
            table = Table(spec, data, meta)
            if (reason := _audit(table)) is None:
                return table
            del table, data
        if not bin_path.exists() and not json_path.exists():
            log(f"pdb {spec.name}: not found in {directory}; building ({_size_and_time(spec)})")
        else:
            log(f"pdb {spec.name}: {reason}; rebuilding ({_size_and_time(spec)})")
    values, seconds = _build(spec, progress)
    save(spec, values, directory, seconds)
    del values
    reason, meta, data = _inspect(spec.name, directory, spec)
    table = None if reason is not None else Table(spec, data, meta)
    if table is not None and (reason := _audit(table)) is not None:
        raise PdbError(f"pdb {spec.name}: the table just built fails its own audit ({reason}): a bug in its builder")
    if reason is not None:
        raise PdbError(
            f"pdb {spec.name}: the table just built does not verify: {reason}; "
            "is another process writing the same table? Run again"
        )
    return table


def _size_and_time(spec: TableSpec) -> str:
    """``"N entries, M MB, about S s on 2 cores"``: what a build announces before it starts."""
    s = spec.build_seconds
    about = ", time not measured" if s <= 0 else f", {'under 0.1' if s < 0.1 else f'about {s:.3g}'} s on 2 cores"
    return f"{spec.entries:,} entries, {spec.nbytes / 1e6:,.1f} MB{about}"


def _build(spec: TableSpec, progress: bool) -> tuple[np.ndarray, float]:
    from exact.progress import bar as progress_bar

    start = time.perf_counter()
    from exact.deadline import check

    def advance(k: int) -> None:
        bar.update(k)
        check(f"building the table {spec.name}")  # a solve's time limit covers its set-up

    with progress_bar(progress, total=spec.progress_total, desc=f"pdb {spec.name}", unit_scale=True) as bar:
        built = spec.build(advance)
    values, earlier = built if isinstance(built, Built) else (built, 0.0)
    return values, earlier + time.perf_counter() - start


def list_tables(directory: str | os.PathLike) -> list[dict]:
    """The stored tables in ``directory``, sorted by name, each checked without a spec.

    Returns:
        One dict per ``*.json`` (its metadata, or just ``name`` when unreadable) and per
        ``*.bin`` without metadata, each with ``"status"``: ``"ok"`` or the reason it is not
        (format, version, size or sha256). An absent directory has no tables. A build's
        checkpoint is no table (:func:`exact.pdb.partial.stored` lists those).
    """
    directory = Path(directory)
    if not directory.is_dir():
        return []
    names = stored_names(directory)
    tables = []
    for name in names:
        if not _NAME_RE.fullmatch(name) or name.startswith("."):
            continue
        reason, meta, data = _inspect(name, directory, None)
        del data
        entry = dict(meta) if meta is not None else {"name": name}
        entry["status"] = "ok" if reason is None else reason
        tables.append(entry)
    return tables


def stored_names(directory: Path) -> list[str]:
    """The names of the tables in ``directory``, from its file names alone (nothing is read),
    sorted; checkpoints left out."""
    stems = {p.stem for p in directory.glob("*.json")} | {p.stem for p in directory.glob("*.bin")}
    return sorted(s for s in stems if not partial.is_checkpoint(s))


def check_stored(name: str, directory: str | os.PathLike, *, deep: bool = False) -> str | None:
    """Like :func:`check` without a spec: format, version, size and sha256 (and, with ``deep``,
    the value counts)."""
    name = _check_name(name, "check_stored")
    reason, meta, data = _inspect(name, Path(directory), None)
    if reason is None and deep:
        reason = _counts_mismatch(meta, data, _paths(name, Path(directory))[0])
    return reason


def remove(name: str, directory: str | os.PathLike) -> bool:
    """Delete ``NAME.bin`` and ``NAME.json`` from ``directory``, and any checkpoint of its build.

    Returns:
        ``True`` if any of those files was there, ``False`` if none was.

    Raises:
        PdbError: ``name`` is not a valid table name.
    """
    found = False
    for path in _paths(_check_name(name, "remove"), Path(directory)):
        try:
            path.unlink()
            found = True
        except FileNotFoundError:
            pass
    return partial.drop(Path(directory), name) or found
