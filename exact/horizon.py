"""The horizon from a method: a registered method (exact, or learned through the same registry)
solves the start, and a time-indexed model runs with ``T`` = the length of its solution and that
solution as its incumbent, proving it optimal or finding a shorter one. The one route for every
entry point: ``--turns auto`` of ``python -m exact.mip``/``exact.cpsat`` and ``puzzleopt
mip``/``cpsat`` (the learned ``bwas`` there), the benchmarks and the notebook.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from exact import solvers
from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from exact.result import SolveResult


def solve_at_method_horizon(
    puzzle: Puzzle, start: np.ndarray, solve: Callable[..., SolveResult], method: str, kwargs: dict[str, Any], *,
    progress: bool = False, time_limit: float | None = None, method_options: dict[str, Any] | None = None,
) -> SolveResult:  # fmt: skip
    """Solve ``start`` with the model ``solve`` at the horizon a registered method sets: ``T`` =
    the length of its solution, which is the model's incumbent. Where the method proves its
    solution optimal, the model's own proof repeats it independently (no solution within
    ``T - 1``); a learned method's (``bwas``, ``beam``) is proven or shortened.

    Args:
        puzzle: The puzzle.
        start: The start ``(P,)``.
        solve: A model solver ``solve(puzzle, start, T, hint=..., **kwargs)``
            (:func:`exact.mip.solve_mip`, :func:`exact.cpsat.solve_cpsat`).
        method: The registered method that sets the horizon.
        kwargs: The model's own arguments; its ``time_limit`` covers both parts.
        progress: Show the method's table builds (the optimal cube solver builds 1.67 GB on its
            first use).
        time_limit: Caps the method's part.
        method_options: The method's own options (a learned method's ``model``, ``weight``,
            ``batch``).

    Returns:
        The model's :class:`SolveResult` with ``extra["horizon_from"]`` (the method) and
        ``extra["horizon_solver"]`` (its status, length, bound, seconds); the method's own
        result (``limit`` with its bound) where it found no solution.
    """
    t0 = time.perf_counter()
    chosen = solvers.choose(puzzle, method)
    limit = kwargs.get("time_limit")
    first_limit = min((x for x in (limit, time_limit) if x is not None), default=None)
    first = solvers.solve(
        puzzle, start, method=chosen.name, limits=solvers.Limits(time=first_limit), progress=progress,
        **(method_options or {}),
    )  # fmt: skip
    facts = {
        "method": chosen.name,
        "status": first.status.value,
        "length": first.length,
        "lower_bound": first.lower_bound,
        "seconds": first.seconds,
    }
    if not first.status.has_solution or first.length == 0:
        return dataclasses.replace(first, extra={**first.extra, "horizon_from": chosen.name, "horizon_solver": facts})
    hint = puzzle.table.parse(" ".join(first.moves), np.asarray(start))
    if limit is not None:
        kwargs = {**kwargs, "time_limit": max(limit - (time.perf_counter() - t0), 0.1)}
    res = solve(puzzle, start, len(hint), hint=hint, **kwargs)
    return dataclasses.replace(
        res,
        seconds=time.perf_counter() - t0,
        extra={**res.extra, "horizon_from": chosen.name, "horizon_solver": facts},
    )


__all__ = ["solve_at_method_horizon"]


def from_scramble(
    puzzle: Puzzle, method: solvers.Method, path: Sequence[str] | None, options: Mapping[str, Any], where: str
) -> dict[str, Any]:
    """The horizon and incumbent a start's scramble gives a time-indexed model: the one rule of
    the notebook (a state's :attr:`~puzzleopt.states.State.path`) and the commands (``--scramble``).

    A model without a horizon (not ready with ``options``) gets ``T`` = the scramble's length:
    its inverse reaches the solved state, so it bounds the optimum. Where the method takes a hint
    and the inverse fits within the horizon (given or so set), the inverse is the incumbent
    (``hint``, with ``hint_source`` where the method reports one), as every move has an inverse
    there. A method with neither gets nothing.

    Args:
        puzzle: The puzzle (with its goal: a partial goal the solved state meets is bounded too).
        method: The registered method about to run.
        path: The moves that made the start from the solved state, or ``None`` (a given state).
        options: The options given so far.
        where: How the user gives a horizon here, for the error (``"horizon=T"``, ``"--horizon T"``).

    Returns:
        The options to add: ``{}``, or ``horizon`` and, where it exists, ``hint`` (move rows).

    Raises:
        PuzzleoptError: a model without a horizon, and no scramble to bound it.
    """
    ready = method.ready(dict(options))
    usable = path is not None and puzzle.solved(puzzle.goal)
    if not ready and not usable:
        raise PuzzleoptError(
            f"method {method.name!r} needs a horizon: give {where}, or a start made by a scramble from the solved "
            "state, whose length bounds the moves"
        )
    if not usable:
        return {}
    assert path is not None
    out: dict[str, Any] = {} if ready else {"horizon": max(len(path), 1)}
    horizon = options.get("horizon", out.get("horizon"))
    if "hint" not in method.option_names or "hint" in options or horizon is None or len(path) > int(horizon):
        return out
    table = puzzle.table
    rows = table.undoing(table.rows(list(path), puzzle.goal)) if path else []
    if rows and min(rows) >= 0:
        out["hint"] = rows
        if "hint_source" in method.option_names and "hint_source" not in options:
            out["hint_source"] = "the scramble's inverse"
    return out
