"""Adam's state beside a network, so that training goes on across runs as one run.

A training folder's checkpoint holds the network, a target copy and Adam's two moments: four
times the network, too big to carry from one short GPU run to the next (a lent machine returns
files of at most 16 MiB, and the working tree it takes is 64 MiB). :func:`export_adam` writes
the moments as one file, ``adam.safetensors``: ``exp_avg.<parameter>`` and
``exp_avg_sq.<parameter>`` rounded to bfloat16 (half the bytes of float32, the same exponent
range, so no second moment underflows; each value keeps 8 significant bits, so it is rounded
to within 0.4% of itself), with
Adam's step count and the sha256 of the weights they belong to. :func:`load_adam` puts them,
as float32, into a fresh optimizer for a run started ``--init-from`` that network
(``python -m learned.train --init-from M --init-optimizer DIR``); moments of another network,
or a file damaged or edited, fail with a :class:`~learned.weights.WeightsError`.
"""

from __future__ import annotations

from pathlib import Path

import torch

from learned.nets import CostToGo, NetConfig
from learned.weights import WeightsError, read, weights_digest, write

KIND = "adam-moments"
FILE = "adam.safetensors"
MOMENTS = ("exp_avg", "exp_avg_sq")


def export_adam(checkpoint: str | Path, out: str | Path) -> Path:
    """Write Adam's moments of a training checkpoint into the folder ``out``.

    Args:
        checkpoint: A ``checkpoint.safetensors`` written by :mod:`learned.davi`.
        out: The folder (made if missing) that gets ``adam.safetensors``: bfloat16 tensors
            ``<moment>.<parameter>`` shaped like the network's parameters.

    Returns:
        The path written.
    """
    tensors, docs = read(checkpoint, "checkpoint")
    config = NetConfig(**docs["config"])  # type: ignore[arg-type]
    with torch.device("meta"):
        names = [name for name, _ in CostToGo(config).named_parameters()]
    net = {k[len("net.") :]: v for k, v in tensors.items() if k.startswith("net.")}
    steps = {float(tensors[f"opt.{i}.step"]) for i in range(len(names))}
    if len(steps) != 1:
        raise WeightsError(f"checkpoint {checkpoint}: Adam's step counts differ between parameters ({steps})")
    moments = {
        f"{key}.{n}": tensors[f"opt.{i}.{key}"].to(torch.bfloat16) for key in MOMENTS for i, n in enumerate(names)
    }
    Path(out).mkdir(parents=True, exist_ok=True)
    doc = {"network_sha256": weights_digest(net), "step": steps.pop(), "config": docs["config"]}
    return write(Path(out) / FILE, moments, KIND, doc)


def load_adam(opt: torch.optim.Adam, net: CostToGo, folder: str | Path) -> int:
    """Put the moments in ``folder`` (:func:`export_adam`) into ``opt``, the fresh optimizer of
    ``net``; ``net`` must hold the weights they were saved with. Returns Adam's step count."""
    path = Path(folder) / FILE
    tensors, doc = read(path, KIND)
    if doc.get("network_sha256") != weights_digest(net.state_dict()):
        raise WeightsError(
            f"Adam state {path} belongs to another network: give the folder exported with the --init-from "
            "network's training"
        )
    params = dict(net.named_parameters())
    want = {f"{key}.{n}": p for key in MOMENTS for n, p in params.items()}
    if set(tensors) != set(want) or any(tensors[k].shape != p.shape for k, p in want.items()):
        raise WeightsError(f"Adam state {path}: its tensors do not fit the network's parameters")
    step = torch.tensor(float(doc["step"]), dtype=torch.float32)  # type: ignore[arg-type]
    state = {
        i: {"step": step.clone(), **{key: tensors[f"{key}.{n}"].to(p.device, torch.float32) for key in MOMENTS}}
        for i, (n, p) in enumerate(params.items())
    }
    opt.load_state_dict({"state": state, "param_groups": opt.state_dict()["param_groups"]})
    return int(step)
