"""Adam's state beside a network, so that training goes on across runs as one run.

A training folder's checkpoint holds the network, a target copy and Adam's two moments: four
times the network, too big to carry from one short GPU run to the next (a lent machine returns
files of at most 16 MiB). :func:`export_adam` writes the moments as two files,
``adam-m.safetensors`` (``exp_avg``) and ``adam-v.safetensors`` (``exp_avg_sq``), each the size of
the network, keyed by parameter name, with Adam's step count and the sha256 of the weights they
belong to. :func:`load_adam` puts them into a fresh optimizer for a run started ``--init-from``
that network (``python -m learned.train --init-from M --init-optimizer DIR``); moments of another
network, or files damaged or edited, fail with a :class:`~learned.weights.WeightsError`.
"""

from __future__ import annotations

from pathlib import Path

import torch

from learned.nets import CostToGo, NetConfig
from learned.weights import WeightsError, read, weights_digest, write

KIND = "adam-moment"
FILES = {"exp_avg": "adam-m.safetensors", "exp_avg_sq": "adam-v.safetensors"}


def export_adam(checkpoint: str | Path, out: str | Path) -> list[Path]:
    """Write Adam's moments of a training checkpoint into the folder ``out``.

    Args:
        checkpoint: A ``checkpoint.safetensors`` written by :mod:`learned.davi`.
        out: The folder (made if missing) that gets ``adam-m.safetensors`` and
            ``adam-v.safetensors``: float32 tensors shaped like the network's parameters.

    Returns:
        The two paths written.
    """
    tensors, docs = read(checkpoint, "checkpoint")
    config = NetConfig(**docs["config"])  # type: ignore[arg-type]
    with torch.device("meta"):
        names = [name for name, _ in CostToGo(config).named_parameters()]
    net = {k[len("net.") :]: v for k, v in tensors.items() if k.startswith("net.")}
    steps = {float(tensors[f"opt.{i}.step"]) for i in range(len(names))}
    if len(steps) != 1:
        raise WeightsError(f"checkpoint {checkpoint}: Adam's step counts differ between parameters ({steps})")
    Path(out).mkdir(parents=True, exist_ok=True)
    doc = {"network_sha256": weights_digest(net), "step": steps.pop(), "config": docs["config"]}
    return [
        write(
            Path(out) / file, {n: tensors[f"opt.{i}.{key}"] for i, n in enumerate(names)}, KIND, {**doc, "moment": key}
        )
        for key, file in FILES.items()
    ]


def load_adam(opt: torch.optim.Adam, net: CostToGo, folder: str | Path) -> int:
    """Put the moments in ``folder`` (:func:`export_adam`) into ``opt``, the fresh optimizer of
    ``net``; ``net`` must hold the weights they were saved with. Returns Adam's step count."""
    digest = weights_digest(net.state_dict())
    params = dict(net.named_parameters())
    state: dict[int, dict[str, torch.Tensor]] = {i: {} for i in range(len(params))}
    step = None
    for key, file in FILES.items():
        path = Path(folder) / file
        tensors, doc = read(path, KIND)
        if doc.get("moment") != key or doc.get("network_sha256") != digest:
            raise WeightsError(
                f"Adam state {path} belongs to another network (or another moment): give the folder exported with "
                "the --init-from network's training"
            )
        if set(tensors) != set(params) or any(tensors[n].shape != p.shape for n, p in params.items()):
            raise WeightsError(f"Adam state {path}: its tensors do not fit the network's parameters")
        step = float(doc["step"])  # type: ignore[arg-type]
        for i, (name, p) in enumerate(params.items()):
            state[i][key] = tensors[name].to(device=p.device, dtype=torch.float32)
    for entry in state.values():
        entry["step"] = torch.tensor(step, dtype=torch.float32)
    opt.load_state_dict({"state": state, "param_groups": opt.state_dict()["param_groups"]})
    return int(step or 0)
