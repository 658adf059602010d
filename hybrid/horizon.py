"""The network bounds the horizon: BWAS finds a solution of length ``L``, the exact model runs
with ``T = L`` and that solution as its incumbent, and proves it optimal or finds a shorter one.

A library function over a heuristic object. The commands (``puzzleopt mip --turns auto``,
``python -m exact.mip --turns auto --horizon-method bwas``) take the same route through the method
registry (:func:`exact.cli.models.exact_horizon`, the learned methods of :mod:`learned.methods`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from exact.puzzle import Puzzle
from exact.result import SolveResult, Status


def solve_with_learned_horizon(
    puzzle: Puzzle,
    start: np.ndarray,
    solve: Callable[..., SolveResult],
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    weight: float | None = None,
    batch: int | None = None,
    max_nodes: int | None = None,
    bwas_time_limit: float | None = None,
    **solver_options: Any,
) -> SolveResult:
    """Solve ``start`` exactly with the horizon and the incumbent from a learned solution.

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        solve: An exact solver ``solve(puzzle, start, T, hint=..., **solver_options)``
            (:func:`exact.mip.solve_mip`, :func:`exact.cpsat.solve_cpsat`).
        heuristic: The learned cost-to-go for BWAS (e.g. :func:`learned.solve.load_heuristic`).
        weight: BWAS's ``lambda`` (default: the model card's ``fast`` quality,
            :func:`learned.bwas.quality_settings`: the exact solver proves or shortens the
            solution anyway, so the cheaper search is the better horizon).
        batch: BWAS's nodes per iteration (default: the same quality's).
        max_nodes: BWAS's expanded nodes before it gives up (default: none).
        bwas_time_limit: BWAS's seconds (default: none).
        solver_options: Passed to ``solve`` (time limit, threads, formulation, ...).

    Returns:
        The exact solver's :class:`SolveResult` for ``T = L`` (``optimal``: the learned solution
        or a shorter one, proven; ``feasible``: the learned solution with the bound proven
        within the limit), with ``extra["learned"]`` (BWAS's length, nodes and seconds) and
        ``extra["horizon_from"] = "bwas"``; ``limit`` without a solution if BWAS found none.
    """
    from learned.bwas import bwas, quality_settings

    fast = quality_settings(getattr(heuristic, "card", {}), "fast")
    t0 = time.perf_counter()
    learned = bwas(
        puzzle,
        np.asarray(start),
        heuristic,
        weight=fast["weight"] if weight is None else weight,
        batch=fast["batch"] if batch is None else batch,
        max_nodes=max_nodes,
        time_limit=bwas_time_limit,
    )
    facts: dict[str, Any] = {"length": learned.length, "nodes": learned.nodes, "seconds": learned.seconds}
    facts["status"] = learned.status.value
    if not learned.status.has_solution:
        return SolveResult.build(
            puzzle,
            start,
            [],
            Status.LIMIT,
            lower_bound=learned.lower_bound,
            seconds=time.perf_counter() - t0,
            solver="bwas",
            solver_version=learned.solver_version,
            settings={"horizon": "auto"},
            extra={"learned": facts, "horizon_from": "bwas", "why": "BWAS found no solution to bound the horizon"},
        )
    hint = puzzle.table.parse(" ".join(learned.moves), np.asarray(start))
    res = solve(puzzle, start, len(hint), hint=hint, **solver_options)
    return dataclasses.replace(
        res,
        seconds=time.perf_counter() - t0,
        extra={**res.extra, "learned": facts, "horizon_from": "bwas"},
    )


__all__ = ["solve_with_learned_horizon"]
