"""Solving the CP-SAT model: iterative deepening (default) or one minimisation."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

import numpy as np
import ortools
from ortools.sat.python import cp_model

from exact.cpsat.model import CpsatModel, build_cpsat, middle_order, time_order
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
    progress: Callable[[dict], None] | None = None,
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
        progress: Called with ``{"stage": "horizon", "T": h, "status": ..., "seconds": ...}``
            after each horizon is decided (or runs out of time).
    """
    T = check_horizon(T)
    if strategy not in STRATEGIES:
        raise PuzzleoptError(f"strategy {strategy!r} is unknown: use one of {', '.join(STRATEGIES)}")
    start, hint, why = check_solve_args(puzzle, start, T, threads, time_limit, hint)
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

    result = SolveResult.recorder(puzzle, start, solver="cp-sat", solver_version=version, settings=settings, since=t0)

    if why is not None:
        return result([], Status.UNSOLVABLE, None, 0, {"unsolvable": why})
    if puzzle.solved(start):
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
        left = None
        if time_limit is not None:
            left = time_limit - (time.perf_counter() - t0)
            if left <= 0:
                return None, None, built
        ts = time.perf_counter()
        status, solver = _solve(built, exact, threads, left, seed, verbose)
        if status == cp_model.MODEL_INVALID:  # never a "limit": our model or parameters are wrong, a bug
            raise RuntimeError(f"CP-SAT rejected the T = {h} model of {puzzle.name}: {built.model.validate()}")
        extra["solve_seconds"] += time.perf_counter() - ts
        conflicts += int(solver.num_conflicts)
        extra["horizons"].append(
            {"T": h, "status": solver.status_name(status), "seconds": round(time.perf_counter() - tb, 3)}
        )
        if progress is not None:
            progress({"stage": "horizon", **extra["horizons"][-1]})
        return status, solver, built

    def lifted(solver, built):
        chosen = [m for m in built.chosen_moves(solver) if m is not None]
        return replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, chosen))

    parity = move_parity(problem.table, problem.start, problem.goal)
    if strategy == "deepen":
        for h in range(1, last + 1):
            if parity is not None and h % 2 != parity:
                extra["horizons"].append({"T": h, "status": "INFEASIBLE (parity)", "seconds": 0.0})
                if progress is not None:
                    progress({"stage": "horizon", **extra["horizons"][-1]})
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


def _params(solver: cp_model.CpSolver, workers: int, fixed: bool, left: float | None, seed: int, verbose: bool) -> None:
    solver.parameters.num_workers = workers
    # Presolve took longer than the proofs it prepared; a fixed search over the moves, step by
    # step, proved and found depth-8 3x3 solutions fastest (measured, docs/mip.md).
    solver.parameters.cp_model_presolve = False
    if fixed:
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
    solver.parameters.random_seed = seed
    solver.parameters.log_search_progress = verbose
    if left is not None:
        solver.parameters.max_time_in_seconds = left


def _solve(built: CpsatModel, exact: bool, threads: int, left: float | None, seed: int, verbose: bool):
    """Solve one horizon; returns ``(status, solver)``.

    A minimisation runs CP-SAT's own portfolio. A fixed horizon (``exact``) branches on the moves:
    with one thread from the middle step outwards; with more, a race between the middle-out and
    the time order, one worker each (the first to finish wins, the other is stopped), because
    which order finds a solution sooner varies from scramble to scramble while their best is
    steady (measured, docs/mip.md). Statuses are the same whichever wins; the solution may differ.
    """
    if not exact or threads == 1:
        solver = cp_model.CpSolver()
        _params(solver, threads, exact, left, seed, verbose)
        model = built.branching(middle_order(built.T)) if exact else built.model
        return solver.solve(model), solver
    orders = [time_order(built.T), middle_order(built.T)]
    solvers = [cp_model.CpSolver() for _ in orders]
    for i, solver in enumerate(solvers):
        _params(solver, threads - 1 if i == 0 else 1, True, left, seed, verbose and i == 0)
    models = [built.branching(order) for order in orders]
    finished: list[tuple[int, int]] = []
    decided = threading.Event()

    def run(i: int) -> None:
        status = solvers[i].solve(models[i])
        finished.append((i, status))
        if status != cp_model.UNKNOWN:
            decided.set()

    workers = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(orders))]
    for w in workers:
        w.start()
    while any(w.is_alive() for w in workers):
        if decided.wait(0.05):  # stop the others; repeated, since a stop sent before a solve starts is lost
            for solver in solvers:
                solver.stop_search()
            time.sleep(0.01)
    for w in workers:
        w.join()
    decided = [f for f in finished if f[1] != cp_model.UNKNOWN]
    i, status = decided[0] if decided else finished[0]
    return status, solvers[i]
