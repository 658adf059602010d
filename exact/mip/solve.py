"""Solving the MIP with Pyomo (HiGHS by default) into the project's :class:`SolveResult`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.errors import PuzzleoptError
from exact.invariants import unsolvable_result
from exact.mip import split as sp
from exact.mip.adapters import PyomoSolver, SolverOutcome, confirm_infeasible
from exact.mip.build import Formulation, build_mip, formulation, model_size
from exact.mip.split import PIECE_OPTIONS
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.timeindexed import check_horizon, check_solve_args, decide, piece_links, prepare, replay_until_goal

# HiGHS solves the flow model's degenerate root LP far faster by interior point than by dual
# simplex (docs/mip.md); users' solver_options override these. HiGHS 1.14's presolve declared a
# feasible tight model infeasible (a 3-move 3x3 layers scramble, kept in tests/test_models.py);
# 1.16 gets it right and its claims are trusted (docs/mip.md, "Infeasibility claims");
# confirm_infeasible re-checks every claim without presolve.
_DEFAULT_OPTIONS = {"highs": {"mip_lp_solver": "ipm"}}


def solve_mip(
    puzzle: Puzzle,
    start: np.ndarray,
    T: int,
    *,
    formulation_name: str = "tight",
    solver: str = "highs",
    time_limit: float | None = None,
    threads: int = 1,
    hint: Sequence[int] | None = None,
    hint_source: str | None = None,
    split: bool = False,
    piece_time_limit: float = 10.0,
    confirm_infeasible: bool = False,
    incumbent: str = "bfs",
    progress: Callable[[dict[str, Any]], None] | None = None,
    verbose: bool = False,
    write_model: str | None = None,
    solver_options: dict[str, Any] | None = None,
    piece_links_on: bool = False,
    executor: Any = None,
) -> SolveResult:
    """Shortest solution within ``T`` moves by the time-indexed MIP, with a proof status.

    Two ways to prove: the whole model in one solver run (``split=False``), or, with HiGHS and
    the ``tight``/``pairs`` formulations, by splitting (``split=True``, :mod:`exact.mip.split`):
    an incumbent of ``U`` moves is proven optimal by refuting "at most ``U - 1``" piece by piece
    on the first moves, in this process (``threads`` 1) or in ``threads`` worker processes. The
    incumbent is ``hint`` if given; then ``incumbent`` says how to find one or a shorter one:
    ``"bfs"`` (bidirectional BFS within
    ``T``, or below the hint's length, for unguarded tables with one goal state and at most 2
    million states; otherwise as ``"mip"``) or ``"mip"`` (the split model itself: its pieces look
    for a shorter solution as they refute).

    Args:
        puzzle: The puzzle (its move table and goal).
        start: The start state ``(P,)``.
        T: Horizon.
        formulation_name: ``"tight"``, ``"pairs"`` or ``"seed"`` (:data:`exact.mip.FORMULATIONS`).
        solver: A Pyomo solver name (``"highs"`` through ``pyomo.contrib.solver``; others such as
            ``"cbc"`` through the classic interface where installed). The split needs HiGHS.
        time_limit: Seconds in all (``None``: no limit).
        threads: Solver threads; with ``split``, worker processes (one HiGHS thread each).
        hint: A known solution (move rows, at most ``T``): the incumbent. The model then asks for
            a strictly shorter one; if there is none the hint is proven optimal.
        hint_source: Where the hint came from (reported: ``extra["proof"]["incumbent_source"]``).
        split: Prove by splitting on the first moves (see above).
        piece_time_limit: Seconds of one piece before it is split again (``split``).
        confirm_infeasible: Accept HiGHS's infeasibility claims only when HiGHS without presolve
            agrees (for HiGHS versions whose presolve is not trusted; ``docs/mip.md``).
        incumbent: How the split finds an incumbent, or shortens ``hint``: ``"bfs"`` or ``"mip"``.
        progress: Called with a dict at each stage (``"model"``, ``"incumbent"``, ``"pieces"``)
            while the split works.
        verbose: Show the solver log (whole-model runs).
        write_model: Also write the model to this ``.lp`` or ``.mps`` file.
        solver_options: Options passed to the solver as they are (HiGHS: option names).
        piece_links_on: Add the piece links (T9) to the tight formulation.
        executor: Where the split's pieces run: ``None`` (the default: one after another in
            this process where ``threads`` is 1, else ``threads`` local worker processes),
            ``"processes"``, ``"in-process"``, ``"ray"`` (a local Ray) or an
            :class:`exact.executor.Executor` (``Ray(address)`` to use a cluster).

    Returns:
        ``optimal`` (proven), ``feasible`` (limit hit with a solution; the bound is proven),
        ``infeasible_within_horizon`` (proven: nothing within ``T``), or ``limit``. With
        ``split``, ``extra["proof"]`` holds the incumbent's source, each phase's pieces with
        their statuses and seconds, and a one-line summary; ``extra["interrupted"]`` is true
        when Ctrl-C ended it (every worker is stopped either way).
    """
    T = check_horizon(T)
    form = formulation(formulation_name)
    start, hint, why = check_solve_args(puzzle, start, T, threads, time_limit, hint)
    run = PyomoSolver.named(solver)
    settings = {"formulation": form.name, "horizon": T, "solver": solver, "time_limit": time_limit,
                "threads": threads, "hint": None if hint is None else puzzle.table.format(hint)}  # fmt: skip
    t0 = time.perf_counter()
    done = SolveResult.recorder(puzzle, start, solver=solver, solver_version=run.version(), settings=settings, since=t0)
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver=solver, solver_version=run.version(), settings=settings)
    if puzzle.solved(start) or T == 0:
        solved = puzzle.solved(start)
        status = Status.OPTIMAL if solved else Status.INFEASIBLE_WITHIN_HORIZON
        return done([], status, 0 if solved else 1, None, {"build_seconds": 0.0, "solve_seconds": 0.0})
    if split:
        _check_split(solver, form, piece_time_limit, incumbent)
        settings.update(
            split=True, piece_time_limit=piece_time_limit, confirm_infeasible=confirm_infeasible, incumbent=incumbent
        )
        return sp.solve_split(
            puzzle, start, T, form, hint, hint_source, time_limit=time_limit, threads=threads,
            piece_time_limit=piece_time_limit, confirm=confirm_infeasible, incumbent=incumbent, progress=progress,
            options={**PIECE_OPTIONS, **(solver_options or {})}, links_on=piece_links_on, done=done,
            executor=executor,
        )  # fmt: skip
    whole = Whole(run, time_limit, threads, verbose, confirm_infeasible, {**_DEFAULT_OPTIONS.get(solver, {}),
                  **(solver_options or {})})  # fmt: skip
    return _solve_whole(puzzle, start, T, form, hint, whole, done, t0, write_model=write_model, links_on=piece_links_on)


def _check_split(solver: str, form: Formulation, piece_time_limit: float, incumbent: str) -> None:
    if solver != "highs" or form.name == "seed":
        raise PuzzleoptError(
            f"the split proof needs solver 'highs' and the tight or pairs formulation (got {solver!r}, "
            f"{form.name!r}); turn it off (--no-split) for other solvers and the seed model"
        )
    if not piece_time_limit > 0:
        raise PuzzleoptError(f"piece time limit {piece_time_limit} must be a positive number of seconds")
    if incumbent not in ("bfs", "mip"):
        raise PuzzleoptError(f"incumbent {incumbent!r} is unknown: use 'bfs' or 'mip'")


@dataclass(frozen=True)
class Whole:
    """How the whole model is solved: the solver, its limit, threads, log, the infeasibility
    re-check and the solver's options."""

    run: PyomoSolver
    time_limit: float | None
    threads: int
    verbose: bool
    confirm: bool
    options: dict[str, Any]


def _solve_whole(puzzle, start, T: int, form: Formulation, hint, how: Whole, done, t0: float, *,
                 write_model: str | None, links_on: bool) -> SolveResult:  # fmt: skip
    """The whole model in one solver run (asking for fewer moves than ``hint``), its outcome
    turned into a status by the shared rules (:func:`exact.timeindexed.decide`)."""
    problem = prepare(puzzle, start, form.reduce_frame)
    links = piece_links(problem.pieces) if links_on else ()
    cutoff = None if hint is None else len(hint) - 1

    def build() -> pyo.ConcreteModel:
        return build_mip(problem.table, problem.start, problem.goal, T, form.name, problem.num_labels,
                         max_moves=cutoff, links=links)  # fmt: skip

    model = build()
    build_seconds = time.perf_counter() - t0
    size = model_size(model)
    if write_model:
        _write(model, write_model)
    t1 = time.perf_counter()
    # the limit covers the model's build too: the solver gets what is left of it
    left = None if how.time_limit is None else how.time_limit - (t1 - t0)
    if left is not None and left <= 0:
        why = f"building the model took {build_seconds:.1f} s of the {how.time_limit:g} s limit"
        return done([], Status.LIMIT, 0, None, {"model": size, "build_seconds": build_seconds, "solve_seconds": 0.0,
                                                "limit": why})  # fmt: skip
    outcome = how.run.solve(model, time_limit=left, threads=how.threads, verbose=how.verbose, options=how.options)
    outcome, model, confirmed = _confirmed(outcome, model, build, how, t1)
    extra: dict[str, Any] = {
        "model": size, "build_seconds": build_seconds, "solve_seconds": time.perf_counter() - t1,
        "termination": outcome.termination, "presolve_infeasibility_confirmed": confirmed,
    }  # fmt: skip
    found = None
    if outcome.has_solution:
        chosen = [m for m in form.chosen_moves(model, puzzle.table.num_moves) if m is not None]
        found = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, chosen))
    bound = None if outcome.bound is None else form.length_bound(outcome.bound)
    moves, status, bound = decide(found, proven=outcome.optimal, infeasible=outcome.infeasible and found is None,
                                  bound=bound, hint=hint, T=T)  # fmt: skip
    return done(moves, status, bound, outcome.nodes, extra)


def _confirmed(outcome: SolverOutcome, model, build, how: Whole, t1: float):
    """``(outcome, model, confirmed)``: where asked, HiGHS's infeasibility claim re-checked without
    presolve (``confirmed``: ``None`` not asked or out of time); a wrong claim re-solved without it."""
    if not (outcome.infeasible and how.confirm and how.run.name == "highs" and how.options.get("presolve") != "off"):
        return outcome, model, None
    left = None if how.time_limit is None else how.time_limit - (time.perf_counter() - t1)
    confirmed = confirm_infeasible(model, left, how.threads, how.verbose) if left is None or left > 0 else None
    if confirmed is False:
        # Presolve was wrong: solve a fresh copy without it (re-solving the same model through
        # Pyomo's persistent HiGHS interface crashed the process).
        model = build()
        left = None if how.time_limit is None else max(1.0, how.time_limit - (time.perf_counter() - t1))
        options = {**how.options, "presolve": "off"}
        outcome = PyomoSolver.named(how.run.name).solve(
            model, time_limit=left, threads=how.threads, verbose=how.verbose, options=options
        )
    elif confirmed is None:
        outcome = SolverOutcome("maxTimeLimit", False, False, False, outcome.bound, outcome.nodes)
    return outcome, model, confirmed


def _write(model: pyo.ConcreteModel, path: str) -> None:
    if not path.endswith((".lp", ".mps")):
        raise PuzzleoptError(f"--write-model {path!r}: use a file name ending in .lp or .mps")
    model.write(path, io_options={"symbolic_solver_labels": True})


__all__ = ["model_size", "solve_mip"]
