"""Supervised cost-to-go (the ANN-distance heuristic): a regression net fitted to optimal distances.

The labels come from the project's exact solvers (any function from a state to its optimal
length, e.g. IDA* with pattern databases), so the net learns true distances rather than DAVI's
bootstrapped ones. Training is mean squared error with Adam over shuffled mini-batches, a
held-out share for validation, and the ANN-distance preset of :mod:`learned.nets` by default.
Labelled sets are saved like weights (:mod:`learned.weights`, kind ``"dataset"``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from exact.errors import PuzzleoptError
from exact.progress import bar as progress_bar
from exact.puzzle import Puzzle
from learned.nets import CostToGo, make_net, preset_config
from learned.weights import WeightsError, read, write


@dataclass(frozen=True)
class FitConfig:
    """Settings of a supervised fit.

    Attributes:
        preset: Network preset (default: the ANN-distance paper's).
        epochs: Passes over the training share.
        batch: Mini-batch size.
        lr: Adam's learning rate (halved at each third of the epochs).
        validation: Share of the states held out.
        seed: Seed of the initial weights, the split and the shuffling.
        device: Torch device.
    """

    preset: str = "ann-distance"
    epochs: int = 30
    batch: int = 256
    lr: float = 1e-3
    validation: float = 0.1
    seed: int = 0
    device: str = "cpu"

    def __post_init__(self) -> None:
        if self.epochs < 1 or self.batch < 2 or not self.lr > 0 or not 0 <= self.validation < 1:
            raise PuzzleoptError(
                f"fit settings {asdict(self)}: need epochs >= 1, batch >= 2, lr > 0 and 0 <= validation < 1"
            )


def label_states(
    states: np.ndarray, solve: Callable[[np.ndarray], int], progress: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Optimal distances of ``states`` ``(N, P)`` by ``solve`` (one state -> its optimal length).

    Returns:
        The states and int16 ``(N,)`` distances.
    """
    d = np.array(
        [solve(s) for s in progress_bar(progress, iterable=states, desc="labels", unit="state")], dtype=np.int16
    )
    return np.asarray(states), d


def save_dataset(path: str | Path, puzzle: Puzzle, states: np.ndarray, distances: np.ndarray, about: str) -> Path:
    """A labelled set on disk (states uint8, distances int16), with its puzzle and provenance."""
    tensors = {"states": torch.from_numpy(np.ascontiguousarray(states, dtype=np.uint8))}
    tensors["distances"] = torch.from_numpy(np.asarray(distances, dtype=np.int16))
    return write(path, tensors, "dataset", {"puzzle": puzzle.name, "about": about})


def load_dataset(path: str | Path, puzzle: Puzzle) -> tuple[np.ndarray, np.ndarray]:
    """A set written by :func:`save_dataset` for ``puzzle``."""
    tensors, docs = read(path, "dataset")
    if docs.get("puzzle") != puzzle.name or set(tensors) != {"states", "distances"}:
        raise WeightsError(f"dataset {path} is for {docs.get('puzzle')!r}, not {puzzle.name!r}")
    states = tensors["states"].numpy()
    if states.ndim != 2 or states.shape[1] != puzzle.num_positions:
        raise WeightsError(f"dataset {path}: states of shape {tuple(states.shape)} do not fit {puzzle.name}")
    return states, tensors["distances"].numpy().astype(np.int64)


def fit_distances(
    puzzle: Puzzle, states: np.ndarray, distances: np.ndarray, config: FitConfig, progress: bool = True
) -> tuple[CostToGo, list[dict]]:
    """Fit a network to ``distances`` of ``states``; returns it (eval mode) and the per-epoch
    history: train and validation mean squared error, the validation share predicted exactly
    after rounding (``val_exact``) and the share overestimated by more than half a move
    (``val_over``)."""
    states = puzzle.states(states)
    y = np.asarray(distances, dtype=np.float32)
    if len(y) != len(states) or len(y) < 2:
        raise PuzzleoptError(f"{len(states)} states but {len(y)} distances: give one distance per state, 2 or more")
    rng = np.random.default_rng(config.seed)
    order = rng.permutation(len(y))
    n_val = int(round(config.validation * len(y)))
    val, tr = order[:n_val], order[n_val:]
    net = make_net(preset_config(config.preset, puzzle.num_positions, puzzle.num_labels), config.seed)
    with torch.no_grad():  # start at the mean distance, so the first epochs learn the shape, not the scale
        net.out.bias.fill_(float(y[tr].mean()) if len(tr) else 0.0)
    net.to(config.device)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr)
    x_all = net.inputs(puzzle, states)
    y_all = torch.from_numpy(y)
    history = []
    t0 = time.perf_counter()
    for epoch in progress_bar(progress, iterable=range(config.epochs), desc="fit", unit="epoch"):
        for g in opt.param_groups:
            g["lr"] = config.lr * 0.5 ** (3 * epoch // config.epochs)
        net.train()
        perm = tr[rng.permutation(len(tr))]
        losses = []
        for i in range(0, len(perm) - 1, config.batch):
            idx = perm[i : i + config.batch]
            if len(idx) < 2:  # batch norm needs two samples
                continue
            pred = net(x_all[idx].to(config.device))
            loss = torch.nn.functional.mse_loss(pred, y_all[idx].to(config.device))
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        row = {"epoch": epoch + 1, "train_mse": float(np.mean(losses)), "seconds": time.perf_counter() - t0}
        if n_val:
            net.eval()
            with torch.no_grad():
                pv = net(x_all[val].to(config.device)).cpu().numpy()
            row["val_mse"] = float(np.mean((pv - y[val]) ** 2))
            row["val_exact"] = float(np.mean(np.rint(pv) == y[val]))
            row["val_over"] = float(np.mean(pv > y[val] + 0.5))
        history.append(row)
    return net.eval(), history
