"""Atomic file writes (a temporary file in the same folder, fsync, then a rename), and the
sha256 seal of the JSON files the toolkit writes."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np


def write_chunks(path: str | os.PathLike, chunks: Iterable[bytes | np.ndarray]) -> Path:
    """Write ``chunks`` to ``path`` so that readers see the old file or the whole new one.

    Nothing is left behind on failure, Ctrl-C included.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            # Without fsync a crash after the rename can leave a complete name over empty data.
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def json_digest(doc: dict) -> str:
    """sha256 of a JSON object without its ``sha256`` key, in canonical form (sorted keys, no
    spaces), so that reformatting a file keeps its checksum and any changed value breaks it."""
    body = {k: v for k, v in doc.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def sealed(doc: dict) -> dict:
    """``doc`` with its ``sha256`` (:func:`json_digest`) added as the last key."""
    body = {k: v for k, v in doc.items() if k != "sha256"}
    return {**body, "sha256": json_digest(body)}


def seal_holds(doc: dict) -> bool:
    """Whether ``doc`` carries a ``sha256`` that matches its other keys."""
    return isinstance(doc.get("sha256"), str) and doc["sha256"] == json_digest(doc)
