"""The learned methods of the one contract: ``beam`` and ``bwas``.

They join :mod:`exact.solvers`'s registry when this module is imported, which the entry-point
group ``puzzleopt.methods`` (``pyproject.toml``) does as for any plugin, so that :mod:`exact`
imports neither ``learned`` nor torch:
``exact.solvers`` loads the group when the registry is first read. This module imports no torch
itself; a method that runs without torch installed says so in one line.

Both take ``model`` (a ``model.safetensors``; default: the puzzle's shipped network) and
``device``; ``beam`` takes ``width``, ``ball`` (the goal side to meet: every state within that
many moves, by BFS), ``inverse`` (a second beam from the start's inverse), ``symmetries`` (beams
from the start's conjugates by that many of the puzzle's symmetries), ``max_steps``,
``restarts``, ``patience`` (:func:`learned.beam.beam_search`) and ``quality``; ``bwas`` takes
``weight``, ``batch`` and ``quality``. Both take ``precision`` (:class:`learned.values.NetHeuristic`):
the beam's default ``auto`` is int8 on a CPU with AMX int8, else bfloat16 where the CPU has bf16
instructions (:func:`learned.runtime.check_precision`; it evaluates the most states); BWAS's
default is fp32, whose settings its cards measured.
``quality`` picks the settings the model's card measured (``fast``, ``best``). A learned
solution is ``feasible``: the network proves nothing about length. ``Limits.time`` and
``Limits.nodes`` (states expanded) end a search as ``limit``.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from typing import Any

from exact.contract import Limits, Setup
from exact.deadline import left
from exact.errors import MissingExtra
from exact.options import Option
from exact.result import SolveResult
from exact.solvers import register_method
from learned.bwas import QUALITIES
from learned.runtime import PRECISIONS

BEAM_WIDTH = 1024
"""Beam width for a model whose card measured none."""


def _has_torch() -> bool:
    return importlib.util.find_spec("torch") is not None


def _applies(puzzle: Any) -> bool:
    """A puzzle of the batched protocol (a move table and a goal state), where torch is installed."""
    return hasattr(puzzle, "table") and hasattr(puzzle, "goal") and hasattr(puzzle, "expand") and _has_torch()


@functools.lru_cache(maxsize=4)
def _heuristic(spec: str, model: str | None, device: str, precision: str):
    """The network heuristic for the puzzle of ``spec`` (JSON), loaded once per process."""
    import json

    from exact.batch import rebuilt
    from learned.loading import load_heuristic
    from learned.runtime import check_precision

    puzzle = rebuilt(json.loads(spec))
    heuristic = load_heuristic(puzzle, model, device, key=json.loads(spec).get("name"))
    heuristic.precision = check_precision(precision, device, heuristic.net.config.activation)
    return heuristic


def heuristic_for(puzzle: Any, model: str | Path | None = None, device: str = "cpu", precision: str = "auto"):
    """The network heuristic ``model`` (default: the shipped one) gives ``puzzle``, cached;
    ``precision`` as :class:`learned.values.NetHeuristic` takes it."""
    import json

    from learned.runtime import check_precision, resolve_device

    device = resolve_device(device)
    check_precision(precision, device)  # a bad one fails before the network loads; "auto" resolves after
    spec = getattr(puzzle, "spec", None)
    if spec is None:
        from learned.loading import load_heuristic

        heuristic = load_heuristic(puzzle, model, device)
        heuristic.precision = check_precision(precision, device, heuristic.net.config.activation)
        return heuristic
    key = json.dumps(spec.to_dict(), sort_keys=True)
    return _heuristic(key, None if model is None else str(model), device, precision)


def beam_settings(card: dict, quality: str | None = None) -> dict:
    """The beam ``width``, ``ball``, ``inverse`` and ``symmetries`` of ``quality`` on a model's
    card (``search.beam``), or :data:`BEAM_WIDTH`, no ball and one way where it measured none."""
    beam = (card.get("search") or {}).get("beam") if isinstance(card.get("search"), dict) else None
    if not isinstance(beam, dict):
        return {"width": BEAM_WIDTH, "ball": 0, "inverse": False, "symmetries": 0}
    got = beam.get(quality or beam.get("default", "fast")) or {}
    return {
        "width": int(got.get("width", BEAM_WIDTH)), "ball": int(got.get("ball", 0)),
        "inverse": got.get("inverse") is True, "symmetries": got.get("symmetries", 0),
    }  # fmt: skip


def _needs_torch(name: str) -> None:
    if not _has_torch():
        raise MissingExtra(f"method {name!r}", "learned")


def run_beam(
    puzzle: Any, start, limits: Limits, *, model=None, device: str = "cpu", width=None, ball=None, inverse=None,
    symmetries=None, quality=None, max_steps: int = 1000, restarts: int = 0, patience: int | None = None,
    precision: str = "auto",
    **common,
) -> SolveResult:  # fmt: skip
    """Batched beam search with a learned cost-to-go (CayleyPy); feasible, never proven.

    :func:`learned.beam.beam_search` with the network of ``model``."""
    _needs_torch("beam")
    from learned.ballstore import fitting_radius
    from learned.beam import beam_search, cached_goal_ball

    heuristic = heuristic_for(puzzle, model, device, precision)
    chosen = beam_settings(heuristic.card, quality)
    from learned.diffusion import TorchWalks

    # on a GPU the whole layer stays there (learned.beam_torch); on the CPU numpy's layers cost the same
    on = heuristic.device if str(heuristic.device).startswith("cuda") and TorchWalks.applies(puzzle) else None
    depth = chosen["ball"] if ball is None else int(ball)
    budget = left(limits.time)  # the ball may take a share of what is left; the beam needs the rest
    depth = fitting_radius(puzzle, depth, None if budget is None else budget * BALL_SHARE, common.get("pdb_dir"))
    return beam_search(
        puzzle, start, heuristic, width=chosen["width"] if width is None else int(width), max_steps=int(max_steps),
        time_limit=left(limits.time), max_nodes=limits.nodes,
        ball=cached_goal_ball(puzzle, depth, common.get("pdb_dir")) if depth else None, restarts=int(restarts),
        patience=None if patience is None else int(patience), device=on, progress=bool(common.get("progress")),
        inverse=chosen["inverse"] if inverse is None else bool(inverse),
        symmetries=chosen["symmetries"] if symmetries is None else symmetries,
    )  # fmt: skip


def run_bwas(
    puzzle: Any, start, limits: Limits, *, model=None, device: str = "cpu", weight=None, batch=None, quality=None,
    precision: str = "fp32", **common,
) -> SolveResult:  # fmt: skip
    """Batch weighted A* with a learned cost-to-go (DeepCubeA); feasible, never proven.

    :func:`learned.bwas.bwas` with the network of ``model``."""
    _needs_torch("bwas")
    from learned.bwas import bwas, quality_settings

    heuristic = heuristic_for(puzzle, model, device, precision)
    chosen = quality_settings(heuristic.card, quality)
    return bwas(
        puzzle, start, heuristic, weight=chosen["weight"] if weight is None else float(weight),
        batch=chosen["batch"] if batch is None else int(batch), max_nodes=limits.nodes, time_limit=left(limits.time),
        progress=bool(common.get("progress")),
    )  # fmt: skip


BALL_SHARE = 0.5
"""The share of a beam's time limit (what is left after loading) its goal ball may take to build;
a radius that would take longer is lowered (:func:`learned.ballstore.fitting_radius`)."""

LOAD_SECONDS = 4.0
"""About how long importing torch and loading a network takes the first time in a process on 2
loaded cores (about 2 s on idle ones); ``auto`` skips a learned step that would not have this."""


def _setups(puzzle: Any, options: Any, pdb_dir: Any) -> list[Setup]:
    """The network: loaded already in this process (a cached heuristic), or to be loaded."""
    import sys

    warm = "torch" in sys.modules and _heuristic.cache_info().currsize > 0
    return [Setup({}, 0, True, 0.5 if warm else LOAD_SECONDS, what="loading its network")]


# ranked after every exact method: "auto" means proven, and these prove nothing
MODEL = Option("model", "text", None, "a model.safetensors (default: the puzzle's shipped network)")
DEVICE = Option("device", "text", "cpu", "the torch device: cpu, cuda, cuda:1, ...")
QUALITY = Option("quality", "text", None, "the settings the model's card measured: fast or best", QUALITIES)
PRECISION = Option("precision", "text", "auto", "the network's arithmetic: auto, fp32, bf16 or int8", PRECISIONS)
BEAM_OPTIONS = (
    MODEL, DEVICE,
    Option("width", "positive", None, "states kept per step (default: from quality)"),
    Option("ball", "count", None, "meet every state within this many moves of the goal (default: from quality)"),
    Option("inverse", "flag", None, "also search from the start's inverse (default: from quality)"),
    Option("symmetries", "count", None, "also search from this many conjugates of the start (default: from quality)"),
    QUALITY,
    Option("max_steps", "positive", 1000, "steps before the beam gives up"),
    Option("restarts", "count", 0, "beams again after a stagnation, its states banned"),
    Option("patience", "positive", None, "steps without progress that make a stagnation (default: none)"),
    PRECISION,
)  # fmt: skip
BWAS_OPTIONS = (
    MODEL, DEVICE,
    Option("weight", "real", None, "lambda in f = lambda g + h (default: from quality)"),
    Option("batch", "positive", None, "nodes expanded per step (default: from quality)"),
    QUALITY, PRECISION.with_default("fp32"),
)  # fmt: skip
register_method("beam", run_beam, applies=_applies, proves=False, options=BEAM_OPTIONS, rank=200, setups=_setups,
                extra="learned", installed=_has_torch, nodes=True)  # fmt: skip
register_method("bwas", run_bwas, applies=_applies, proves=False, options=BWAS_OPTIONS, rank=201, setups=_setups,
                extra="learned", installed=_has_torch, nodes=True)  # fmt: skip
