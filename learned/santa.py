"""Santa 2023 with a network per type: a diffusion cost-to-go trained on one ``santa:TYPE``
(CayleyPy's recipe: walks from the goal, their lengths as targets) and the beam it guides.

The network reads the type's colour puzzle (``registry.get("santa:TYPE")``), so it applies to the
puzzles whose solution state is the type's colour goal
(:func:`exact.puzzles.santa.instances.colour_goal`); :func:`beam_solve` says ``None`` for the
others. Its answers are replayed from the puzzle's initial state (``feasible``, never proven);
the commutator solver (:mod:`exact.santa.solve`) stays the fallback that always finishes.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from exact import registry, solvers
from exact.contract import Limits
from exact.logs import get_logger
from exact.puzzles.santa.instances import Instance, colour_goal
from exact.result import SolveResult
from exact.santa.puzzle import SantaPuzzle
from learned.davi import DaviConfig, train

log = get_logger(__name__)

PRESET = "resmlp-cpu"
"""The network: CayleyPy's small ResMLP, sized for two CPU cores."""


def model_dir(root: str | Path, type_name: str) -> Path:
    """The folder of a type's network under ``root`` (``cube_4/4/4`` -> ``root/cube_4_4_4``)."""
    return Path(root) / type_name.replace("/", "_")


def train_type(
    type_name: str,
    root: str | Path,
    *,
    seconds: float | None,
    max_walk: int,
    seed: int = 0,
    batch: int = 10_000,
    steps: int = 10**9,
    preset: str = PRESET,
    device: str = "cpu",
    progress: bool = False,
) -> dict:
    """Train (or go on training) the network of ``type_name`` for ``seconds`` more.

    Args:
        type_name: A Santa type, e.g. ``"wreath_21/21"``.
        root: Folder of the per-type folders (:func:`model_dir`); a run there resumes.
        seconds: Wall-clock limit of this run, set-up included (``None``: ``steps`` only).
        max_walk: ``K``: walks of 1..K moves from the goal give the targets.
        seed: Seed of the walks and of the network's initial weights.
        batch: States per step.
        steps: Steps in all (the default: as many as ``seconds`` allow).
        preset: The network (:data:`learned.nets.PRESETS`).

    Returns:
        :func:`learned.davi.train`'s summary (steps, seconds, loss, model path).
    """
    config = DaviConfig(puzzle=f"santa:{type_name}", preset=preset, objective="diffusion", max_scramble=max_walk,
                        batch=batch, steps=steps, seed=seed, device=device)  # fmt: skip
    command = f"learned.santa.train_type({type_name!r}, seconds={seconds}, max_walk={max_walk}, seed={seed})"
    return train(config, model_dir(root, type_name), progress=progress, command=command, time_limit=seconds)


def _start(puzzle, instance: Instance) -> np.ndarray:
    """The instance's initial state in the registry puzzle's labels (both goals list the colours
    position by position)."""
    start, goal = instance.encoded()
    ours = np.asarray(puzzle.goal)
    mapping = dict(zip(goal.tolist(), ours.tolist(), strict=True))
    return np.array([mapping[x] for x in start.tolist()], dtype=ours.dtype)


def beam_solve(
    instance: Instance, model: str | Path, *, time_limit: float | None = None, width: int | None = None,
    device: str = "cpu",
) -> SolveResult | None:  # fmt: skip
    """The beam guided by a type's network (``feasible``, or ``limit``), answered for the
    instance's own puzzle (wildcards and all) after replaying it; ``None`` where the network
    does not apply (the solution state is not the type's colour goal).

    Args:
        instance: A Santa puzzle.
        model: The network's ``model.safetensors`` (trained by :func:`train_type`).
        time_limit: Seconds, the network's loading included.
        width: Beam width (default: the model card's).
    """
    if tuple(instance.solution) != colour_goal(instance.type):
        return None
    t0 = time.perf_counter()
    puzzle = registry.get(f"santa:{instance.type}")
    found = solvers.solve(puzzle, _start(puzzle, instance), method="beam", limits=Limits(time=time_limit),
                          model=str(model), device=device, width=width)  # fmt: skip
    santa = SantaPuzzle(instance)
    done = SolveResult.recorder(santa, santa.start, solver="beam", solver_version=found.solver_version,
                                settings=dict(found.settings), since=t0)  # fmt: skip
    if not found.status.has_solution:
        return done([], found.status, None, found.nodes, dict(found.extra))
    row = {name: i for i, name in enumerate(santa.table.names)}
    return done([row[m] for m in found.moves], found.status, None, found.nodes, {})


__all__ = ["PRESET", "beam_solve", "model_dir", "train_type"]
