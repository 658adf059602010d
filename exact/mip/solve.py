"""Solving the MIP with Pyomo (HiGHS by default) into the project's :class:`SolveResult`."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.errors import PuzzleoptError
from exact.invariants import checked_start, unsolvable_result
from exact.mip import split as sp
from exact.mip.adapters import PyomoSolver, SolverOutcome, confirm_infeasible
from exact.mip.build import Formulation, build_mip, formulation, model_size
from exact.mip.options import MipOptions
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
    how: MipOptions | None = None,
    *,
    time_limit: float | None = None,
    hint: Sequence[int] | None = None,
    hint_source: str | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> SolveResult:
    """Shortest solution within ``T`` moves by the time-indexed MIP, with a proof status.

    Two ways to prove (``how``, :class:`~exact.mip.options.MipOptions`; its defaults are the
    ``mip`` method's): by splitting (``split``, HiGHS with the ``tight``/``pairs`` formulations,
    :mod:`exact.mip.split`): an incumbent of ``U`` moves is proven optimal by refuting "at most
    ``U - 1``" piece by piece on the first moves, in this process (``threads`` unset or 1) or in
    ``threads`` worker processes; or the whole model in one solver run (``split=False``, the
    ``seed`` formulation, solvers other than HiGHS). The incumbent is ``hint`` if given; then
    ``how.incumbent`` says how to find one or a shorter one: ``"bfs"`` (bidirectional BFS within
    ``T``, or below the hint's length, for unguarded tables with one goal state and at most 2
    million states; otherwise as ``"mip"``) or ``"mip"`` (the split model itself).

    Args:
        puzzle: The puzzle (its move table and goal).
        start: The start state ``(P,)``; checked here (:func:`exact.solvers.solve` calls the
            checked core, :func:`solve_checked`, once it has checked it).
        T: Horizon.
        how: The formulation, the proof and the solver (default: ``MipOptions()``).
        time_limit: Seconds in all, the model's build included (``None``: no limit).
        hint: A known solution (move rows, at most ``T``): the incumbent. The model then asks for
            a strictly shorter one; if there is none the hint is proven optimal.
        hint_source: Where the hint came from (reported: ``extra["proof"]["incumbent_source"]``).
        progress: Called with a dict at each stage (``"model"``, ``"incumbent"``, ``"pieces"``)
            while the split works.

    Returns:
        ``optimal`` (proven), ``feasible`` (limit hit with a solution; the bound is proven),
        ``infeasible_within_horizon`` (proven: nothing within ``T``), or ``limit``. With the
        split, ``extra["proof"]`` holds the incumbent's source, each phase's pieces with their
        statuses and seconds, and a one-line summary; ``extra["interrupted"]`` is true when
        Ctrl-C ended it (every worker is stopped either way).
    """
    how = how or MipOptions()
    T = check_horizon(T)
    start, why = checked_start(puzzle, start)
    return solve_checked(puzzle, start, T, how, time_limit=time_limit, hint=hint, hint_source=hint_source,
                         progress=progress, why=why)  # fmt: skip


def solve_checked(
    puzzle: Puzzle, start: np.ndarray, T: int, how: MipOptions, *, time_limit: float | None = None,
    hint: Sequence[int] | None = None, hint_source: str | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None, why: str | None = None,
) -> SolveResult:  # fmt: skip
    """:func:`solve_mip` on a start already checked (``why``: the invariant that rules its goal
    out, from :func:`exact.invariants.checked_start`)."""
    form = formulation(how.formulation)
    start, hint = check_solve_args(puzzle, start, T, how.workers, time_limit, hint)
    run = PyomoSolver.named(how.solver)
    settings = {"formulation": form.name, "horizon": T, "solver": how.solver, "time_limit": time_limit,
                "threads": how.workers, "hint": None if hint is None else puzzle.table.format(hint)}  # fmt: skip
    t0 = time.perf_counter()
    done = SolveResult.recorder(puzzle, start, solver=how.solver, solver_version=run.version(), settings=settings,
                                since=t0)  # fmt: skip
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver=how.solver, solver_version=run.version(),
                                 settings=settings)  # fmt: skip
    if puzzle.solved(start) or T == 0:
        solved = puzzle.solved(start)
        status = Status.OPTIMAL if solved else Status.INFEASIBLE_WITHIN_HORIZON
        return done([], status, 0 if solved else 1, None, {"build_seconds": 0.0, "solve_seconds": 0.0})
    _check(how)
    if how.splits:
        settings.update(split=True, piece_time_limit=how.piece_time_limit, confirm_infeasible=how.confirm_infeasible,
                        incumbent=how.incumbent)  # fmt: skip
        return sp.solve_split(puzzle, start, T, how, hint, hint_source, time_limit=time_limit, progress=progress,
                              done=done)  # fmt: skip
    whole = Whole(run, time_limit, how.workers, how.verbose, how.confirm_infeasible,
                  {**_DEFAULT_OPTIONS.get(how.solver, {}), **(how.solver_options or {})})  # fmt: skip
    return _solve_whole(puzzle, start, T, form, hint, whole, done, t0, write_model=how.write_model,
                        links_on=how.piece_links)  # fmt: skip


def _check(how: MipOptions) -> None:
    """The options that contradict each other or their kind, refused before anything is built."""
    if how.executor is not None and not how.splits:
        raise PuzzleoptError(
            "an executor (--ray) runs the split's pieces: it needs the split (split true, solver highs, formulation "
            f"tight or pairs; got split {how.split}, solver {how.solver!r}, formulation {how.formulation!r})"
        )
    if not how.piece_time_limit > 0:
        raise PuzzleoptError(f"piece time limit {how.piece_time_limit} must be a positive number of seconds")
    if how.incumbent not in ("bfs", "mip"):
        raise PuzzleoptError(f"incumbent {how.incumbent!r} is unknown: use 'bfs' or 'mip'")


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


__all__ = ["MipOptions", "model_size", "solve_checked", "solve_mip"]
