"""A long table build's checkpoint: its arrays and where it got to, written atomically next to
the table (a data file, then ``NAME.partial.json`` naming it, with the sha256 of its bytes), read
back only where the bytes verify and the build's own description matches, so a stopped build
resumes and a stale, foreign or damaged checkpoint is ignored (the build starts over).

The data alternates between two files, ``NAME.partial.bin`` and ``NAME.partial.1.bin``: a new
checkpoint goes into the one the metadata does not name, and only once it is whole does the
metadata (replaced atomically) name it. So a build stopped while it writes one (a 1.9 GB table's
takes most of a minute) still resumes from the one before; until 2026-11-29 the metadata was
removed first, and such a stop lost every part done."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from exact.atomic import write_chunks

VERSION = 1
_CHUNK = 1 << 26
HOW_FAR = ("progress", "seconds")
"""The keys of a checkpoint's ``about`` that say how far its build got (the parts done, and the
seconds its runs spent to reach them), left out when a checkpoint is matched to a build."""


STEMS = (".partial", ".partial.1")
"""How a checkpoint's file names end before ``.bin`` or ``.json``: a table store that lists
its files leaves these out of its tables (:func:`is_checkpoint`)."""


def _slots(name: str) -> tuple[str, str]:
    return f"{name}.partial.bin", f"{name}.partial.1.bin"


def is_checkpoint(stem: str) -> bool:
    """Whether a file of a table folder, named ``stem`` + ``.bin`` or ``.json``, is a
    checkpoint's rather than a table's."""
    return stem.endswith(STEMS)


def stored(directory: Path) -> list[dict]:
    """The checkpoints in ``directory``, one dict per table name, sorted: ``name``, ``progress``
    (the parts done) and ``parts`` (of how many; ``None`` where the metadata does not say or
    cannot be read), ``seconds`` (:func:`seconds`) and ``bytes`` (of its data files).

    What the metadata says is reported, not verified (a build verifies its checkpoint before it
    resumes from it): this is for a listing of the folder, and reads no data file."""
    names: dict[str, int] = {}
    for path in sorted(directory.glob("*.partial*")) if directory.is_dir() else []:
        stem = path.name.removesuffix(".bin").removesuffix(".json")
        for end in STEMS:
            if stem.endswith(end) and path.suffix in (".bin", ".json"):
                name = stem.removesuffix(end)
                names[name] = names.get(name, 0) + (path.stat().st_size if path.suffix == ".bin" else 0)
                break
    out = []
    for name, nbytes in sorted(names.items()):
        try:
            meta = json.loads((directory / f"{name}.partial.json").read_text())
        except (OSError, ValueError):
            meta = None
        about = meta.get("about") if isinstance(meta, dict) else None
        about = about if isinstance(about, dict) else {}
        done, parts = about.get("progress"), about.get("chunks")
        out.append({
            "name": name, "bytes": nbytes, "seconds": seconds(about) if about else None,
            "progress": done if type(done) is int else None, "parts": parts if type(parts) is int else None,
        })  # fmt: skip
    return out


def _named(json_path: Path, name: str) -> str | None:
    """The data file the metadata names (one of the two; ``NAME.partial.bin`` for metadata that
    names none, as before 2026-11-29), or ``None`` where there is no metadata to read."""
    try:
        meta = json.loads(json_path.read_text())
    except (OSError, ValueError):
        return None
    named = meta.get("bin") if isinstance(meta, dict) else None
    return named if named in _slots(name) else _slots(name)[0]


def paths(directory: Path, name: str) -> tuple[Path, Path]:
    """The checkpoint's data file (the one its metadata names) and its metadata file."""
    json_path = directory / f"{name}.partial.json"
    return directory / (_named(json_path, name) or _slots(name)[0]), json_path


def write(
    directory: Path, name: str, arrays: Sequence[np.ndarray], about: dict,
    encode: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:  # fmt: skip
    """Save uint8 ``arrays`` one after the other, with ``about`` (JSON: what the build is and how
    far it got): the data into the file the metadata does not name, then the metadata naming it,
    then the other file removed, so that a stop at any point leaves a checkpoint that verifies.

    ``encode``: applied to each piece of an array (an even number of entries, but the last) on its
    way to the file, e.g. nibble packing; :func:`read` then gives the encoded bytes, whose sizes
    the reader passes it. No second copy of a whole array is made either way."""
    json_path = directory / f"{name}.partial.json"
    first, second = _slots(name)
    target = second if _named(json_path, name) == first else first
    digest = hashlib.sha256()
    sizes: list[int] = []

    def chunks():
        for a in arrays:
            sizes.append(0)
            for start in range(0, len(a), _CHUNK):
                piece = np.ascontiguousarray(a[start : start + _CHUNK])
                piece = piece if encode is None else np.ascontiguousarray(encode(piece))
                digest.update(piece)
                sizes[-1] += len(piece)
                yield piece

    directory.mkdir(parents=True, exist_ok=True)
    write_chunks(directory / target, chunks())
    meta = {"version": VERSION, "name": name, "sizes": sizes, "about": about, "sha256": digest.hexdigest(),
            "bin": target}  # fmt: skip
    write_chunks(json_path, [json.dumps(meta).encode()])
    (directory / (first if target == second else second)).unlink(missing_ok=True)


def read(
    directory: Path, name: str, sizes: Sequence[int], about: dict, into: np.ndarray | None = None
) -> tuple[list[np.ndarray], dict] | None:
    """The arrays and metadata of a checkpoint of this build (``about`` equal except for the keys
    in :data:`HOW_FAR`), or ``None`` where there is none that verifies.

    ``into``: uint8 ``(sum(sizes),)`` to read the data into (the arrays are then views of it, and no
    second copy of a table of gigabytes is made); it may hold part of a checkpoint that does not
    verify when ``None`` is returned."""
    bin_path, json_path = paths(directory, name)
    try:
        meta = json.loads(json_path.read_text())
        if not isinstance(meta, dict) or not isinstance(meta.get("about"), dict):
            return None
        data = np.fromfile(bin_path, dtype=np.uint8) if into is None else _read_into(bin_path, into)
    except (OSError, ValueError):
        return None
    theirs = {k: v for k, v in meta["about"].items() if k not in HOW_FAR}
    mine = {k: v for k, v in about.items() if k not in HOW_FAR}
    if (
        meta.get("version") != VERSION
        or meta.get("name") != name
        or meta.get("sizes") != list(sizes)
        or theirs != mine
        or len(data) != sum(sizes)
        or hashlib.sha256(data).hexdigest() != meta.get("sha256")
    ):
        return None
    out, start = [], 0
    for n in sizes:
        out.append(data[start : start + n])
        start += n
    return out, meta["about"]


def seconds(about: dict) -> float | None:
    """The seconds a checkpoint's runs spent reaching it (its ``about``'s ``seconds``; ``0`` where
    it holds none, as those written before 2026-11-30), or ``None`` where that is not a finite
    number ``>= 0`` (the sha256 covers the data, not ``about``: the caller then starts over)."""
    spent = about.get("seconds", 0.0)
    if type(spent) not in (int, float) or not 0 <= spent < float("inf"):
        return None
    return float(spent)


def _read_into(path: Path, into: np.ndarray) -> np.ndarray:
    """``into`` filled from the file, where the file is exactly its size; else a length-0 array
    (which then fails the size check)."""
    if path.stat().st_size != into.nbytes:
        return np.empty(0, np.uint8)
    with path.open("rb") as fh:
        view = memoryview(into).cast("B")
        got = 0
        while got < into.nbytes:
            n = fh.readinto(view[got : got + _CHUNK])
            if not n:
                return np.empty(0, np.uint8)
            got += n
    return into


def drop(directory: Path, name: str) -> bool:
    """Remove the checkpoint (the table is stored, or removed); whether there was any file of it."""
    found = False
    for path in (directory / f"{name}.partial.json", *(directory / slot for slot in _slots(name))):
        try:
            path.unlink()
            found = True
        except FileNotFoundError:
            pass
    return found
