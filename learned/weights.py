"""Weights and checkpoints on disk: safetensors, a format version and a checksum, written atomically.

A file is one safetensors file whose string metadata holds ``format`` (``"puzzleopt"``),
``version`` (:data:`FORMAT_VERSION`), ``kind`` (``"model"`` or ``"checkpoint"``), ``sha256``
and JSON documents: ``config`` (the :class:`~learned.nets.NetConfig`) and ``card`` (puzzle,
training, evaluation) or ``state`` (a checkpoint's training state). The sha256 covers the
tensors' bytes (names sorted) and, from version 2, every JSON document too, so an edited
config or card fails like a changed weight. Version 1 files (tensors only checksummed) still
load. Nothing is ever unpickled: safetensors holds only tensors, and the rest is JSON. A file
that is not safetensors, not ours, of another version or kind, or whose checksum does not
match fails with a :class:`WeightsError` naming the file. A config is checked against the
tensors before the network is allocated, so a forged config cannot ask for terabytes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save as st_save

from exact.atomic import write_chunks
from exact.errors import PuzzleoptError
from exact.provenance import stamp
from learned.nets import CostToGo, NetConfig

FORMAT = "puzzleopt"
FORMAT_VERSION = 2
READABLE_VERSIONS = ("1", "2")


class WeightsError(PuzzleoptError):
    """A weights or checkpoint file that cannot be used."""


def _digest(tensors: Mapping[str, torch.Tensor], docs: Mapping[str, str] | None = None) -> str:
    """sha256 of the tensors (names sorted) and, if given, of the JSON documents as stored."""
    h = hashlib.sha256()
    for name in sorted(tensors):
        h.update(name.encode())
        h.update(tensors[name].detach().cpu().contiguous().view(-1).view(torch.uint8).numpy().tobytes())
    for name in sorted(docs or {}):
        h.update(b"\0doc\0" + name.encode() + b"\0" + docs[name].encode())
    return h.hexdigest()


def weights_digest(tensors: Mapping[str, torch.Tensor]) -> str:
    """sha256 of a network's tensors (names sorted): what ties a file to the weights it is for."""
    return _digest(tensors)


def write(path: str | Path, tensors: Mapping[str, torch.Tensor], kind: str, docs: Mapping[str, object]) -> Path:
    """Write ``tensors`` and the JSON documents ``docs`` (e.g. ``config``, ``card``) to ``path``."""
    tensors = {k: v.detach().cpu().contiguous() for k, v in tensors.items()}
    stored = {k: json.dumps(v, sort_keys=True) for k, v in docs.items()}
    meta = {"format": FORMAT, "version": str(FORMAT_VERSION), "kind": kind, "sha256": _digest(tensors, stored)}
    meta.update(stored)
    return write_chunks(path, [st_save(tensors, metadata=meta)])


def read(path: str | Path, kind: str) -> tuple[dict[str, torch.Tensor], dict[str, object]]:
    """The tensors and JSON documents of a file written by :func:`write` with this ``kind``.

    Raises:
        WeightsError: missing, unreadable, foreign, of another version or kind, or damaged.
    """
    path = Path(path)
    if not path.is_file():
        raise WeightsError(f"weights file {path} does not exist; give the path of a .safetensors file we wrote")
    try:
        with safe_open(str(path), framework="pt") as fh:
            meta = fh.metadata() or {}
            tensors = {k: fh.get_tensor(k) for k in fh.keys()}
    except (SafetensorError, OSError, ValueError) as exc:
        raise WeightsError(f"weights file {path} is not a readable safetensors file ({exc}); is it truncated?") from exc
    if meta.get("format") != FORMAT:
        raise WeightsError(f"weights file {path} was not written by puzzleopt (no 'format: {FORMAT}' in its metadata)")
    if meta.get("version") not in READABLE_VERSIONS:
        raise WeightsError(
            f"weights file {path} has format version {meta.get('version')!r}; this puzzleopt reads version "
            f"{FORMAT_VERSION} (retrain, or use the puzzleopt that wrote it)"
        )
    if meta.get("kind") != kind:
        raise WeightsError(f"weights file {path} is a {meta.get('kind')!r} file, not a {kind!r} file")
    stored = {k: v for k, v in meta.items() if k not in ("format", "version", "kind", "sha256")}
    if meta["version"] == "1":
        if _digest(tensors) != meta.get("sha256"):
            raise WeightsError(f"weights file {path} is damaged: its tensors do not match their sha256")
    elif _digest(tensors, stored) != meta.get("sha256"):
        raise WeightsError(
            f"weights file {path} is damaged or edited: its tensors, config or card do not match their sha256"
        )
    try:
        docs = {k: json.loads(v) for k, v in stored.items()}
    except json.JSONDecodeError as exc:
        raise WeightsError(f"weights file {path} has metadata that is not JSON ({exc})") from exc
    return tensors, docs


def save_model(path: str | Path, net: CostToGo, card: Mapping[str, object]) -> Path:
    """Save a trained network with its card (what it is for and how it was made). The card gets
    ``made_by`` (:func:`exact.provenance.stamp`: the version and commit that trained it) unless
    it has one already (a card saved again keeps its training's)."""
    card = {**dict(card), "made_by": dict(card.get("made_by") or stamp())}  # type: ignore[arg-type]
    return write(path, net.state_dict(), "model", {"config": net.config.to_dict(), "card": card})


def load_model(path: str | Path, device: str = "cpu") -> tuple[CostToGo, dict]:
    """A network saved by :func:`save_model`, in eval mode, and its card."""
    tensors, docs = read(path, "model")
    net = _network_from(tensors, docs, path)
    return net.to(device).eval(), dict(docs.get("card") or {})


def _network_from(tensors: Mapping[str, torch.Tensor], docs: Mapping[str, object], path: str | Path) -> CostToGo:
    """Rebuild the network described by ``docs["config"]`` and load its tensors. The network is
    laid out on the meta device first (no memory), so a config that does not fit the tensors
    fails before anything is allocated."""
    try:
        config = NetConfig(**docs["config"])  # type: ignore[arg-type]
        with torch.device("meta"):
            shape_only = CostToGo(config)
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        raise WeightsError(f"weights file {path} has no usable network config ({exc})") from exc
    _check_fit(shape_only, tensors, path)
    net = CostToGo(config)
    load_into(net, tensors, path)
    return net


def _check_fit(net: CostToGo, tensors: Mapping[str, torch.Tensor], path: str | Path) -> None:
    want = net.state_dict()
    if set(tensors) != set(want) or any(tensors[k].shape != want[k].shape for k in want):
        raise WeightsError(f"weights file {path}: its tensors do not fit the network its config describes")


def load_into(net: CostToGo, tensors: Mapping[str, torch.Tensor], path: str | Path) -> None:
    """Load ``tensors`` into ``net``: the same names and shapes, every value finite, or a
    :class:`WeightsError` (a network with NaN in it answers NaN for every state, and a search
    guided by it is a blind one that still looks like a learned one)."""
    _check_fit(net, tensors, path)
    for name, t in tensors.items():
        if t.is_floating_point() and not bool(torch.isfinite(t).all()):
            raise WeightsError(
                f"weights file {path}: its tensor {name!r} holds NaN or infinite values (a training that diverged?); "
                "retrain, or use an earlier checkpoint"
            )
    net.load_state_dict(dict(tensors))
