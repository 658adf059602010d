"""Solving the CP-SAT model: iterative deepening (default) or one minimisation."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import ortools
from ortools.sat.python import cp_model

from exact.cpsat.model import build_cpsat
from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.timeindexed import check_horizon, check_solve_args, move_parity, prepare, replay_until_goal

STRATEGIES = ("deepen", "minimise")


def solve_cpsat(
    puzzle: Puzzle,
    start: np.ndarray,
    T: int,
    *,
    strategy: str = "deepen",
    time_limit: float | None = None,
    threads: int = 1,
    hint: Sequence[int] | None = None,
    verbose: bool = False,
    seed: int = 0,
) -> SolveResult:
    """Shortest solution within ``T`` moves by CP-SAT, with a proof status.

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        T: Horizon.
        strategy: ``"deepen"``: prove "no solution of exactly h moves" for h = 1, 2, ... and stop
            at the first h that has one (optimal by construction); ``"minimise"``: one model of
            horizon T minimising the number of moves.
        time_limit: Seconds in all (``None``: no limit).
        threads: CP-SAT workers.
        hint: A known solution (move rows, at most ``T``): the search only looks for shorter ones;
            if none exists the hint is proven optimal.
        verbose: Show the CP-SAT log.
        seed: CP-SAT's random seed (results are reproducible for one thread).
    """
    T = check_horizon(T)
    if strategy not in STRATEGIES:
        raise PuzzleoptError(f"strategy {strategy!r} is unknown: use one of {', '.join(STRATEGIES)}")
    start, hint = check_solve_args(puzzle, start, T, threads, time_limit, hint)
    settings = {
        "strategy": strategy,
        "horizon": T,
        "time_limit": time_limit,
        "threads": threads,
        "seed": seed,
        "hint": None if hint is None else puzzle.table.format(hint),
    }
    t0 = time.perf_counter()
    version = ortools.__version__

    done = SolveResult.recorder(puzzle, start, solver="cp-sat", solver_version=version, settings=settings, since=t0)

    def result(moves, status, bound, conflicts, extra):
        return done(moves, status, bound, conflicts, extra)

    goal = puzzle.goal_spec()
    if goal.holds(start):
        return result([], Status.OPTIMAL, 0, 0, {})
    problem = prepare(puzzle, start)
    last = T if hint is None else len(hint) - 1
    conflicts = 0
    extra: dict = {"build_seconds": 0.0, "solve_seconds": 0.0, "horizons": []}

    def run(h: int, exact: bool):
        nonlocal conflicts
        tb = time.perf_counter()
        built = build_cpsat(
            problem.table,
            problem.start,
            problem.goal,
            h,
            problem.num_labels,
            exact_moves=exact,
            max_moves=None if exact else last,
            pieces=problem.pieces,
        )
        extra["build_seconds"] += time.perf_counter() - tb
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = threads
        # Presolve took longer than the proofs it prepared; a fixed search over the moves in time
        # order proved and found depth-8 3x3 solutions fastest (measured, docs/mip.md).
        solver.parameters.cp_model_presolve = False
        if exact:
            solver.parameters.search_branching = cp_model.FIXED_SEARCH
        solver.parameters.random_seed = seed
        solver.parameters.log_search_progress = verbose
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - t0)
            if left <= 0:
                return None, None, built
            solver.parameters.max_time_in_seconds = left
        ts = time.perf_counter()
        status = solver.solve(built.model)
        extra["solve_seconds"] += time.perf_counter() - ts
        conflicts += int(solver.num_conflicts)
        extra["horizons"].append(
            {"T": h, "status": solver.status_name(status), "seconds": round(time.perf_counter() - tb, 3)}
        )
        return status, solver, built

    def lifted(solver, built):
        chosen = [m for m in built.chosen_moves(solver, problem.table.num_moves) if m is not None]
        return replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, chosen))

    parity = move_parity(problem.table, problem.start, problem.goal)
    if strategy == "deepen":
        for h in range(1, last + 1):
            if parity is not None and h % 2 != parity:
                extra["horizons"].append({"T": h, "status": "INFEASIBLE (parity)", "seconds": 0.0})
                continue
            status, solver, built = run(h, exact=True)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return result(lifted(solver, built), Status.OPTIMAL, h, conflicts, extra)
            if status != cp_model.INFEASIBLE:  # time is up: h is still open
                if hint is not None:
                    return result(hint, Status.FEASIBLE, h, conflicts, extra)
                return result([], Status.LIMIT, h, conflicts, extra)
        if hint is not None:
            return result(hint, Status.OPTIMAL, len(hint), conflicts, extra)
        return result([], Status.INFEASIBLE_WITHIN_HORIZON, T + 1, conflicts, extra)

    if last < 1:  # a hint of one move: nothing shorter exists
        return result(hint, Status.OPTIMAL, len(hint), conflicts, extra)
    status, solver, built = run(T, exact=False)
    if status == cp_model.OPTIMAL:
        moves = lifted(solver, built)
        return result(moves, Status.OPTIMAL, len(moves), conflicts, extra)
    if status == cp_model.INFEASIBLE:
        if hint is not None:
            return result(hint, Status.OPTIMAL, len(hint), conflicts, extra)
        return result([], Status.INFEASIBLE_WITHIN_HORIZON, T + 1, conflicts, extra)
    bound = None if solver is None else min(int(np.ceil(solver.best_objective_bound - 1e-6)), T + 1)
    if status == cp_model.FEASIBLE:
        moves = lifted(solver, built)
        return result(
            moves,
            Status.OPTIMAL if bound is not None and bound >= len(moves) else Status.FEASIBLE,
            bound,
            conflicts,
            extra,
        )
    if hint is not None:
        return result(hint, Status.FEASIBLE, bound, conflicts, extra)
    return result([], Status.LIMIT, bound, conflicts, extra)
