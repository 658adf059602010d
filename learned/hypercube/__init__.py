"""The approximate methods of Merleau, O'Malley, Roldan & Mukherjee for the cubical sliding puzzle.

:func:`~learned.hypercube.ea.solve_ea` (the evolutionary algorithm) and
:func:`~learned.hypercube.rl.solve_rl` (the RL search) each return a
:class:`~exact.result.SolveResult` (``feasible`` or ``limit``) that is checked against the exact
optimum of :func:`exact.hypercube.solve.solve_bibfs` in the tests and the benchmark.
:func:`run_many` repeats one method over seeded runs, as the paper's tables do (150 runs).
Imports numpy and numba only (no torch).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.hypercube import HypercubePuzzle, Instance, load_instance
from exact.result import SolveResult
from learned.hypercube.ea import EASettings, solve_ea
from learned.hypercube.rl import RLSettings, solve_rl

METHODS: dict[str, tuple[type, Callable[..., SolveResult]]] = {
    "ea": (EASettings, solve_ea),
    "rl": (RLSettings, solve_rl),
}
"""Method name -> (its settings class, its solve function)."""

__all__ = ["METHODS", "EASettings", "RLSettings", "RunSummary", "make_settings", "run_many", "solve_ea", "solve_rl"]


@dataclass(frozen=True)
class RunSummary:
    """What :func:`run_many` measured.

    Attributes:
        method, instance, k: What was run.
        runs: Number of runs; ``solved``: how many found a solution.
        lengths: The solution length of each successful run, in run order.
        min, median, max: Of ``lengths`` (``None`` when no run succeeded).
        cpu_seconds: ``time.process_time()`` of all runs together.
        settings: The method's settings (a dict).
        seed: The seed the runs' seeds were spawned from.
    """

    method: str
    instance: str
    k: int
    runs: int
    solved: int
    lengths: list[int]
    min: int | None
    median: float | None
    max: int | None
    cpu_seconds: float
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    @property
    def success_rate(self) -> float:
        return self.solved / self.runs if self.runs else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, with ``success_rate`` and ``cpu_seconds_per_run``."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__}
        d["success_rate"] = self.success_rate
        d["cpu_seconds_per_run"] = self.cpu_seconds / self.runs if self.runs else 0.0
        return d


def _method(name: str) -> tuple[type, Callable[..., SolveResult]]:
    if name not in METHODS:
        raise PuzzleoptError(f"method {name!r} is not one of {', '.join(METHODS)}")
    return METHODS[name]


def make_settings(method: str, **options: Any) -> EASettings | RLSettings:
    """The settings dataclass of ``method`` (``"ea"`` or ``"rl"``) with ``options`` (``None`` values dropped)."""
    cls, _ = _method(method)
    options = {k: v for k, v in options.items() if v is not None}
    unknown = set(options) - set(cls.__dataclass_fields__)
    if unknown:
        raise PuzzleoptError(
            f"{method}: unknown setting(s) {', '.join(sorted(unknown))}; use {', '.join(cls.__dataclass_fields__)}"
        )
    return cls(**options)


def run_many(
    method: str,
    instance: str | Instance,
    k: int,
    runs: int = 150,
    seed: int | None = 0,
    settings: EASettings | RLSettings | None = None,
) -> RunSummary:
    """Run ``method`` ``runs`` times on one instance and summarise the solution lengths.

    Run ``i`` gets its own generator from ``numpy.random.SeedSequence(seed).spawn(runs)[i]``, so the
    summary is repeatable and one run's randomness never depends on another's.

    Args:
        method: ``"ea"`` or ``"rl"``.
        instance: A shipped instance name, a JSON file path or an :class:`Instance`.
        k: Face dimension, 1..d.
        runs: Number of independent runs (the paper: 150).
        seed: Root seed (``None``: fresh entropy, not repeatable).
        settings: :class:`EASettings` / :class:`RLSettings` (default: the method's defaults).

    Returns:
        A :class:`RunSummary`.
    """
    expected, solve = _method(method)
    if isinstance(runs, bool) or not isinstance(runs, (int, np.integer)) or runs < 1:
        raise PuzzleoptError(f"runs={runs!r} must be a whole number >= 1")
    inst = instance if isinstance(instance, Instance) else load_instance(instance)
    puzzle = HypercubePuzzle.from_instance(inst, k)
    settings = settings or make_settings(method)
    if not isinstance(settings, expected):
        raise PuzzleoptError(f"{method}: settings must be {expected.__name__}, got {type(settings).__name__}")
    start = inst.state("start")
    lengths = []
    t0 = time.process_time()
    for child in np.random.SeedSequence(seed).spawn(runs):
        res = solve(puzzle, start, settings, seed=np.random.default_rng(child))
        if res.length is not None:
            lengths.append(res.length)
    cpu = time.process_time() - t0
    return RunSummary(
        method=method,
        instance=inst.name,
        k=int(k),
        runs=int(runs),
        solved=len(lengths),
        lengths=lengths,
        min=min(lengths) if lengths else None,
        median=statistics.median(lengths) if lengths else None,
        max=max(lengths) if lengths else None,
        cpu_seconds=cpu,
        settings=dict(settings.__dict__),
        seed=seed,
    )
