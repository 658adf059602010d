"""The network in worker processes (:mod:`exact.executor`): its file travels once per worker as a
:class:`~exact.executor.Blob` (Ray's object store, or the workers' initializer), is written to
this machine's temporary folder under its sha256, and is loaded once per process."""

from __future__ import annotations

import hashlib
import json
import tempfile
from functools import lru_cache
from pathlib import Path

from exact.atomic import write_chunks
from exact.batch import rebuilt
from exact.errors import PuzzleoptError
from exact.executor import Blob, Executor
from learned.loading import load_heuristic
from learned.runtime import configure


def network_blob(executor: Executor, model: str | Path | None) -> Blob | None:
    """The model file as a blob for the workers, or ``None`` for the shipped model (which every
    worker's installed package has)."""
    if model is None:
        return None
    try:
        data = Path(model).read_bytes()
    except OSError as exc:
        raise PuzzleoptError(
            f"--model {model}: cannot read it ({exc.strerror or exc}); give a model.safetensors"
        ) from None
    return executor.blob(data)


def worker_heuristic(spec: dict, key: str, blob: Blob | None, device: str, threads: int):
    """The network heuristic for the registry puzzle ``spec`` in this process (built once): the
    shipped model, or the blob's."""
    return _worker_heuristic(json.dumps(spec, sort_keys=True), key, blob, device, threads)


@lru_cache(maxsize=2)
def _worker_heuristic(spec_json: str, key: str, blob: Blob | None, device: str, threads: int):
    puzzle = rebuilt(json.loads(spec_json))
    device = configure(device, threads)
    if blob is None:
        return load_heuristic(puzzle, None, device, key=key)
    return load_heuristic(puzzle, blob_file(blob), device, key=key)


def blob_file(blob: Blob) -> Path:
    """The network file of ``blob`` on this machine (its temporary folder, under the sha256),
    written there by the first process that needs it."""
    path = Path(tempfile.gettempdir()) / "puzzleopt-networks" / f"{blob.key}.safetensors"
    # a file of that name is used only if its bytes are the blob's (the folder is shared)
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != blob.key:
        write_chunks(path, [blob.get()])
    return path
