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
from exact.invariants import checked_start
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.timeindexed import check_horizon, check_solve_args, decide, move_parity, prepare, replay_until_goal

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
    start, why = checked_start(puzzle, start)
    return solve_checked(puzzle, start, T, why, strategy=strategy, time_limit=time_limit, threads=threads, hint=hint,
                         verbose=verbose, seed=seed, progress=progress)  # fmt: skip


def solve_checked(
    puzzle: Puzzle, start: np.ndarray, T: int, why: str | None, *, strategy: str = "deepen",
    time_limit: float | None = None, threads: int = 1, hint: Sequence[int] | None = None, verbose: bool = False,
    seed: int = 0, progress: Callable[[dict], None] | None = None,
) -> SolveResult:  # fmt: skip
    """:func:`solve_cpsat` on a start already checked (``why``: the invariant that rules its goal
    out, from :func:`exact.invariants.checked_start`): the registry's ``cp-sat`` method checks
    each start once, in :func:`exact.solvers.solve`."""
    T = check_horizon(T)
    if strategy not in STRATEGIES:
        raise PuzzleoptError(f"strategy {strategy!r} is unknown: use one of {', '.join(STRATEGIES)}")
    start, hint = check_solve_args(puzzle, start, T, threads, time_limit, hint)
    settings = {"strategy": strategy, "horizon": T, "time_limit": time_limit, "threads": threads, "seed": seed,
                "hint": None if hint is None else puzzle.table.format(hint)}  # fmt: skip
    t0 = time.perf_counter()
    result = SolveResult.recorder(
        puzzle, start, solver="cp-sat", solver_version=ortools.__version__, settings=settings, since=t0
    )
    if why is not None:
        return result([], Status.UNSOLVABLE, None, 0, {"unsolvable": why})
    if puzzle.solved(start):
        return result([], Status.OPTIMAL, 0, 0, {})
    runs = _Runs(puzzle, start, prepare(puzzle, start), T, T if hint is None else len(hint) - 1, time_limit, t0,
                 threads, seed, verbose, progress)  # fmt: skip
    found, proven, infeasible, bound = (_deepen if strategy == "deepen" else _minimise)(runs)
    moves, status, bound = decide(found, proven=proven, infeasible=infeasible, bound=bound, hint=hint, T=T)
    return result(moves, status, bound, runs.conflicts, runs.extra)


class _Runs:
    """One CP-SAT model per horizon asked for, with the time left, the counts and the record."""

    def __init__(self, puzzle, start, problem, T: int, last: int, time_limit, t0: float, threads: int, seed: int,
                 verbose: bool, progress) -> None:  # fmt: skip
        self.puzzle, self.start, self.problem, self.T, self.last = puzzle, start, problem, T, last
        self.time_limit, self.t0, self.threads, self.seed, self.verbose = time_limit, t0, threads, seed, verbose
        self.progress = progress
        self.conflicts = 0
        self.extra: dict = {"build_seconds": 0.0, "solve_seconds": 0.0, "horizons": []}

    def record(self, entry: dict) -> None:
        self.extra["horizons"].append(entry)
        if self.progress is not None:
            self.progress({"stage": "horizon", **entry})

    def run(self, h: int, exact: bool):
        """``(status, solver, built)`` of horizon ``h`` (exactly ``h`` moves, or at most
        :attr:`last`); ``status`` is ``None`` when no time was left to run it."""
        p = self.problem
        tb = time.perf_counter()
        built = build_cpsat(p.table, p.start, p.goal, h, p.num_labels, exact_moves=exact,
                            max_moves=None if exact else self.last, pieces=p.pieces)  # fmt: skip
        self.extra["build_seconds"] += time.perf_counter() - tb
        left = None if self.time_limit is None else self.time_limit - (time.perf_counter() - self.t0)
        if left is not None and left <= 0:
            return None, None, built
        ts = time.perf_counter()
        status, solver = _solve(built, exact, self.threads, left, self.seed, self.verbose)
        if status == cp_model.MODEL_INVALID:  # never a "limit": our model or parameters are wrong, a bug
            raise RuntimeError(f"CP-SAT rejected the T = {h} model of {self.puzzle.name}: {built.model.validate()}")
        self.extra["solve_seconds"] += time.perf_counter() - ts
        self.conflicts += int(solver.num_conflicts)
        self.record({"T": h, "status": solver.status_name(status), "seconds": round(time.perf_counter() - tb, 3)})
        return status, solver, built

    def moves(self, solver, built) -> list[int]:
        chosen = [m for m in built.chosen_moves(solver) if m is not None]
        return replay_until_goal(self.puzzle, self.start, self.problem.lift(self.puzzle.table, self.start, chosen))


def _deepen(runs: _Runs) -> tuple:
    """ "No solution of exactly h moves" for h = 1, 2, ...: the first h with one is the optimum.
    Returns ``(found, proven, infeasible, bound)`` for :func:`exact.timeindexed.decide`."""
    p = runs.problem
    parity = move_parity(p.table, p.start, p.goal)
    for h in range(1, runs.last + 1):
        if parity is not None and h % 2 != parity:
            runs.record({"T": h, "status": "INFEASIBLE (parity)", "seconds": 0.0})
            continue
        status, solver, built = runs.run(h, exact=True)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return runs.moves(solver, built), True, False, h
        if status != cp_model.INFEASIBLE:  # time is up: h is still open
            return None, False, False, h
    return None, False, True, runs.last + 1


def _minimise(runs: _Runs) -> tuple:
    """One model of the whole horizon, minimising the moves (``(found, proven, infeasible, bound)``)."""
    if runs.last < 1:  # a hint of one move: nothing shorter exists
        return None, False, True, 1
    status, solver, built = runs.run(runs.T, exact=False)
    if status == cp_model.INFEASIBLE:
        return None, False, True, None
    bound = None if solver is None else int(np.ceil(solver.best_objective_bound - 1e-6))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return runs.moves(solver, built), status == cp_model.OPTIMAL, False, bound
    return None, False, False, bound


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
