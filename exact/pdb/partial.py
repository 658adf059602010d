"""A long table build's checkpoint: its arrays and where it got to, written atomically next to
the table (``NAME.partial.bin`` then ``NAME.partial.json`` with the sha256 of the bytes), read back
only where the bytes verify and the build's own description matches, so a stopped build resumes
and a stale, foreign or damaged checkpoint is ignored (the build starts over)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from exact.atomic import write_chunks

VERSION = 1
_CHUNK = 1 << 26


def paths(directory: Path, name: str) -> tuple[Path, Path]:
    """The checkpoint's data and metadata files."""
    return directory / f"{name}.partial.bin", directory / f"{name}.partial.json"


def write(directory: Path, name: str, arrays: Sequence[np.ndarray], about: dict) -> None:
    """Save uint8 ``arrays`` one after the other, with ``about`` (JSON: what the build is and how
    far it got); the data first, so that metadata never names bytes that are not there."""
    bin_path, json_path = paths(directory, name)
    digest = hashlib.sha256()

    def chunks():
        for a in arrays:
            for start in range(0, len(a), _CHUNK):
                piece = np.ascontiguousarray(a[start : start + _CHUNK])
                digest.update(piece)
                yield piece

    directory.mkdir(parents=True, exist_ok=True)
    json_path.unlink(missing_ok=True)
    write_chunks(bin_path, chunks())
    meta = {"version": VERSION, "name": name, "sizes": [len(a) for a in arrays], "about": about,
            "sha256": digest.hexdigest()}  # fmt: skip
    write_chunks(json_path, [json.dumps(meta).encode()])


def read(directory: Path, name: str, sizes: Sequence[int], about: dict) -> tuple[list[np.ndarray], dict] | None:
    """The arrays and metadata of a checkpoint of this build (``about`` equal except for its
    ``progress``), or ``None`` where there is none that verifies."""
    bin_path, json_path = paths(directory, name)
    try:
        meta = json.loads(json_path.read_text())
        data = np.fromfile(bin_path, dtype=np.uint8)
    except (OSError, ValueError):
        return None
    theirs = dict(meta.get("about", {})) if isinstance(meta, dict) else {}
    theirs.pop("progress", None)
    mine = {k: v for k, v in about.items() if k != "progress"}
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


def drop(directory: Path, name: str) -> None:
    """Remove the checkpoint (the table is stored)."""
    for path in paths(directory, name):
        path.unlink(missing_ok=True)
