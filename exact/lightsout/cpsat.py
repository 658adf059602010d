"""Minimum presses with OR-Tools CP-SAT: one XOR constraint per cell, the number of presses minimised."""

from __future__ import annotations

import math
import time

import numpy as np
import ortools
from ortools.sat.python import cp_model

from exact.puzzles.lightsout import LightsOutPuzzle, check_shape, lights_to_state
from exact.puzzles.lightsout.board import neighbourhood
from exact.result import SolveResult, Status


def build_lightsout_cpsat(rows: int, cols: int | None, lights: np.ndarray) -> tuple[cp_model.CpModel, list]:
    """The CP-SAT model of one board (a pure builder).

    Args:
        rows: Board rows.
        cols: Board columns (``None``: ``rows``).
        lights: 0/1 or bool ``(rows, cols)`` or ``(rows * cols,)``.

    Returns:
        The model and its press literals ``x`` (one per cell, row-major). Each cell carries
        ``XOR(x over its neighbourhood) == light``; the objective minimises ``sum(x)``.
    """
    rows, cols = check_shape(rows, cols)
    b = np.asarray(lights).astype(bool).ravel()
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"x_{j}") for j in range(rows * cols)]
    for i in range(rows * cols):
        lits = [x[j] for j in neighbourhood(i, rows, cols)]
        # add_bool_xor states "the XOR is true"; for an unlit cell one literal is negated instead.
        if not b[i]:
            lits[0] = lits[0].Not()
        m.add_bool_xor(lits)
    m.minimize(sum(x))
    return m, x


def solve_lightsout_cpsat(
    puzzle: LightsOutPuzzle,
    lights: np.ndarray,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    verbose: bool = False,
    seed: int = 0,
) -> SolveResult:
    """Minimum presses by CP-SAT (optimal only when CP-SAT proves OPTIMAL).

    Args:
        puzzle: The board.
        lights: bool ``(rows, cols)`` (see :meth:`LightsOutPuzzle.lights` for other forms).
        time_limit: Seconds (``None``: no limit).
        threads: CP-SAT workers.
        verbose: Show the CP-SAT log.
        seed: CP-SAT's random seed.

    Returns:
        ``optimal``, ``feasible`` (a limit hit with a solution; the bound is CP-SAT's, rounded
        up), ``unsolvable`` (CP-SAT proved INFEASIBLE) or ``limit``.
    """
    t0 = time.perf_counter()
    b = puzzle.lights(lights)
    settings = {"method": "cpsat", "time_limit": time_limit, "threads": threads, "seed": seed}
    done = SolveResult.recorder(
        puzzle, lights_to_state(b), solver="cp-sat", solver_version=ortools.__version__, settings=settings, since=t0
    )
    model, x = build_lightsout_cpsat(puzzle.rows, puzzle.cols, b)
    build_seconds = time.perf_counter() - t0
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = threads
    solver.parameters.random_seed = seed
    solver.parameters.log_search_progress = verbose
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    extra = {
        "build_seconds": build_seconds,
        "solve_seconds": time.perf_counter() - t0 - build_seconds,
        "status": solver.status_name(status),
    }
    conflicts = int(solver.num_conflicts)
    if status == cp_model.MODEL_INVALID:
        raise RuntimeError(f"{puzzle.name}: CP-SAT rejected the model: {model.validate()}")  # a bug, not bad input
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        moves = [j for j, v in enumerate(x) if solver.boolean_value(v)]
        bound = max(0, math.ceil(solver.best_objective_bound - 1e-6))
        if status == cp_model.OPTIMAL:
            return done(moves, Status.OPTIMAL, len(moves), conflicts, extra)
        return done(moves, Status.FEASIBLE, min(bound, len(moves)), conflicts, extra)
    if status == cp_model.INFEASIBLE:
        return done(
            [], Status.UNSOLVABLE, None, conflicts, {**extra, "proof": "CP-SAT proved the XOR model infeasible"}
        )
    return done([], Status.LIMIT, None, conflicts, extra)
