"""Solving the MIP with Pyomo (HiGHS by default) into the project's :class:`SolveResult`."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.bfs import meet_in_the_middle
from exact.errors import PuzzleoptError
from exact.invariants import unsolvable_result
from exact.mip import split as sp
from exact.mip.adapters import PyomoSolver, SolverOutcome
from exact.mip.build import Formulation, build_mip, formulation
from exact.mip.split import PIECE_OPTIONS
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.timeindexed import check_horizon, check_solve_args, move_rules, piece_links, prepare, replay_until_goal

# HiGHS solves the flow model's degenerate root LP far faster by interior point than by dual
# simplex (docs/mip.md); users' solver_options override these. HiGHS 1.14's presolve declared a
# feasible tight model infeasible (a 3-move 3x3 layers scramble, kept in tests/test_models.py);
# 1.16 gets it right and its claims are trusted (docs/mip.md, "Infeasibility claims");
# confirm_infeasible re-checks every claim without presolve.
_DEFAULT_OPTIONS = {"highs": {"mip_lp_solver": "ipm"}}


def model_size(model: pyo.ConcreteModel) -> dict[str, int]:
    """Variables, binaries/integers and constraints of a model (fixed variables not counted)."""
    variables = [v for v in model.component_data_objects(pyo.Var, active=True) if not v.fixed]
    return {
        "variables": len(variables),
        "integer_variables": sum(1 for v in variables if v.is_integer()),
        "constraints": sum(1 for _ in model.component_data_objects(pyo.Constraint, active=True)),
    }


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
    executor: Any = "processes",
) -> SolveResult:
    """Shortest solution within ``T`` moves by the time-indexed MIP, with a proof status.

    Two ways to prove: the whole model in one solver run (``split=False``), or, with HiGHS and
    the ``tight``/``pairs`` formulations, by splitting (``split=True``, :mod:`exact.mip.split`):
    an incumbent of ``U`` moves is proven optimal by refuting "at most ``U - 1``" piece by piece
    on the first moves, in ``threads`` worker processes. The incumbent is ``hint`` if given; then
    ``incumbent`` says how to find one or a shorter one: ``"bfs"`` (bidirectional BFS within
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
        executor: Where the split's pieces run: ``"processes"`` (``threads`` local worker
            processes, the default), ``"in-process"`` (one at a time, here), ``"ray"`` (a local
            Ray) or an :class:`exact.executor.Executor` (``Ray(address)`` to use a cluster).

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
    settings = {
        "formulation": form.name,
        "horizon": T,
        "solver": solver,
        "time_limit": time_limit,
        "threads": threads,
        "hint": None if hint is None else puzzle.table.format(hint),
    }
    t0 = time.perf_counter()
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver=solver, solver_version=run.version(), settings=settings)
    solved = puzzle.solved(start)
    if solved or T == 0:
        status = Status.OPTIMAL if solved else Status.INFEASIBLE_WITHIN_HORIZON
        return SolveResult.build(
            puzzle,
            start,
            [],
            status,
            lower_bound=0 if status is Status.OPTIMAL else 1,
            seconds=time.perf_counter() - t0,
            solver=solver,
            solver_version=run.version(),
            settings=settings,
            extra={"build_seconds": 0.0, "solve_seconds": 0.0},
        )
    if split:
        if solver != "highs" or form.name == "seed":
            raise PuzzleoptError(
                f"the split proof needs solver 'highs' and the tight or pairs formulation (got {solver!r}, "
                f"{form.name!r}); turn it off (--no-split) for other solvers and the seed model"
            )
        if not piece_time_limit > 0:
            raise PuzzleoptError(f"piece time limit {piece_time_limit} must be a positive number of seconds")
        if incumbent not in ("bfs", "mip"):
            raise PuzzleoptError(f"incumbent {incumbent!r} is unknown: use 'bfs' or 'mip'")
        settings.update(
            split=True, piece_time_limit=piece_time_limit, confirm_infeasible=confirm_infeasible, incumbent=incumbent
        )
        return _solve_split(
            puzzle,
            start,
            T,
            form,
            hint,
            hint_source,
            time_limit=time_limit,
            threads=threads,
            piece_time_limit=piece_time_limit,
            confirm=confirm_infeasible,
            incumbent=incumbent,
            progress=progress,
            options={**PIECE_OPTIONS, **(solver_options or {})},
            links_on=piece_links_on,
            settings=settings,
            version=run.version(),
            t0=t0,
            executor=executor,
        )
    cutoff = None if hint is None else len(hint) - 1
    problem = prepare(puzzle, start, form.reduce_frame)
    links = piece_links(problem.pieces) if piece_links_on else ()

    def build() -> pyo.ConcreteModel:
        return build_mip(
            problem.table, problem.start, problem.goal, T, form.name, problem.num_labels, max_moves=cutoff, links=links
        )

    model = build()
    build_seconds = time.perf_counter() - t0
    size = model_size(model)
    if write_model:
        _write(model, write_model)
    t1 = time.perf_counter()
    options = {**_DEFAULT_OPTIONS.get(solver, {}), **(solver_options or {})}
    # the limit covers the model's build too: the solver gets what is left of it
    left = None if time_limit is None else time_limit - (t1 - t0)
    if left is not None and left <= 0:
        extra = {"model": size, "build_seconds": build_seconds, "solve_seconds": 0.0,
                 "limit": f"building the model took {build_seconds:.1f} s of the {time_limit:g} s limit"}  # fmt: skip
        return SolveResult.build(
            puzzle, start, [], Status.LIMIT, lower_bound=0, seconds=time.perf_counter() - t0, solver=solver,
            solver_version=run.version(), settings=settings, extra=extra,
        )  # fmt: skip
    outcome = run.solve(model, time_limit=left, threads=threads, verbose=verbose, options=options)
    confirmed = None
    if outcome.infeasible and confirm_infeasible and solver == "highs" and options.get("presolve") != "off":
        # Asked for: the infeasibility claim is confirmed without presolve, by a fresh HiGHS on
        # the written model.
        left = None if time_limit is None else time_limit - (time.perf_counter() - t1)
        confirmed = confirm_infeasible(model, left, threads, verbose) if left is None or left > 0 else None
        if confirmed is False:
            # Presolve was wrong: solve a fresh copy without it (re-solving the same model through
            # Pyomo's persistent HiGHS interface crashed the process).
            model = build()
            left = None if time_limit is None else max(1.0, time_limit - (time.perf_counter() - t1))
            outcome = PyomoSolver.named(solver).solve(
                model, time_limit=left, threads=threads, verbose=verbose, options={**options, "presolve": "off"}
            )
        elif confirmed is None:
            outcome = SolverOutcome("maxTimeLimit", False, False, False, outcome.bound, outcome.nodes)
    solve_seconds = time.perf_counter() - t1
    extra: dict[str, Any] = {
        "model": size,
        "build_seconds": build_seconds,
        "solve_seconds": solve_seconds,
        "termination": outcome.termination,
        "presolve_infeasibility_confirmed": confirmed,
    }
    bound = None if outcome.bound is None else min(form.length_bound(outcome.bound), T + 1)
    moves: list[int] = []
    if outcome.has_solution:
        chosen = [m for m in form.chosen_moves(model, puzzle.table.num_moves) if m is not None]
        moves = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, chosen))
        status = Status.OPTIMAL if outcome.optimal else Status.FEASIBLE
        bound = len(moves) if outcome.optimal else bound
    elif outcome.infeasible and hint is not None:
        moves, status, bound = hint, Status.OPTIMAL, len(hint)  # nothing shorter than the hint exists
    elif outcome.infeasible:
        status, bound = Status.INFEASIBLE_WITHIN_HORIZON, T + 1
    elif hint is not None:
        moves, status = hint, Status.FEASIBLE
    else:
        status = Status.LIMIT
    if status is Status.FEASIBLE and bound is not None and bound >= len(moves):
        status, bound = Status.OPTIMAL, len(moves)
    return SolveResult.build(
        puzzle,
        start,
        moves,
        status,
        lower_bound=bound,
        nodes=outcome.nodes,
        seconds=time.perf_counter() - t0,
        solver=solver,
        solver_version=run.version(),
        settings=settings,
        extra=extra,
    )


# Both sides of the bidirectional BFS together (54-byte keys in dicts: a few hundred MB at most).
_BFS_MAX_STATES = 2_000_000


def _solve_split(
    puzzle: Puzzle,
    start: np.ndarray,
    T: int,
    form: Formulation,
    hint: list[int] | None,
    hint_source: str | None,
    *,
    time_limit: float | None,
    threads: int,
    piece_time_limit: float,
    confirm: bool,
    incumbent: str,
    progress: Callable[[dict[str, Any]], None] | None,
    options: dict[str, Any],
    links_on: bool,
    settings: dict[str, Any],
    version: str,
    t0: float,
    executor: Any = "processes",
) -> SolveResult:
    """``solve_mip`` by splitting (see :mod:`exact.mip.split` for the method)."""
    emit = progress or (lambda event: None)
    deadline = None if time_limit is None else t0 + time_limit
    problem = prepare(puzzle, start, form.reduce_frame)
    links = piece_links(problem.pieces) if links_on else ()
    rules = move_rules(problem.table)
    best, source, primal_seconds = hint, (hint_source or "the given hint") if hint is not None else None, 0.0
    if incumbent == "bfs" and not problem.table.guarded and problem.goal.state is not None:
        # Also below a hint: a shorter incumbent spares the MIP a phase of finding, the costly
        # part (a T = 9 phase's pieces stall while a T = 8 refutation falls; docs/mip.md).
        t = time.perf_counter()
        depth = T if best is None else len(best) - 1
        path = meet_in_the_middle(problem.table, problem.start, problem.goal.state, depth, _BFS_MAX_STATES)
        primal_seconds = time.perf_counter() - t
        if path is not None:
            best = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, path))
            source = "bidirectional BFS" if source is None else f"{source}, shortened by bidirectional BFS"
    if best is not None:
        emit({"stage": "incumbent", "length": len(best), "source": source, "moves": puzzle.table.format(best)})

    def fmt(rows: list[int]) -> str:
        return problem.table.format(rows)

    floor = 1  # the start is not solved
    phases: list[sp.Phase] = []
    runner = sp.split_executor(executor, threads)
    interrupted = False
    ended = "refuted"
    pids: list[int] = []
    stream = None
    with tempfile.TemporaryDirectory(prefix="puzzleopt-split-") as tmp:
        try:
            stream = runner.stream(sp.solve_piece, preload=sp.PRELOAD)
            pids = list(stream.pids)
            while True:
                H = T if best is None else len(best) - 1
                if H < floor:
                    break
                tb = time.perf_counter()
                model = build_mip(
                    problem.table, problem.start, problem.goal, H, form.name, problem.num_labels, links=links
                )
                sm = sp.write_model(model, tmp, f"h{H}")
                if not runner.shares_files:
                    sm.blob = runner.blob(Path(sm.path).read_bytes())
                phase = sp.Phase(H, build_seconds=time.perf_counter() - tb, size=model_size(model))
                del model
                phases.append(phase)
                emit({"stage": "model", "horizon": H, "size": phase.size, "build_seconds": phase.build_seconds})
                tp = time.perf_counter()
                try:
                    out = sp.run_phase(
                        stream,
                        len(phases),
                        sm,
                        problem,
                        rules,
                        H,
                        floor,
                        piece_time_limit=piece_time_limit,
                        deadline=deadline,
                        options=options,
                        confirm=confirm,
                        record=phase,
                        format_moves=fmt,
                        on_progress=emit,
                    )
                finally:
                    phase.seconds = time.perf_counter() - tp
                if out.kind == "improved":
                    moves = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, out.moves or []))
                    if len(moves) > H:  # pragma: no cover - the model holds at most H moves
                        raise PuzzleoptError(f"a piece's solution has {len(moves)} moves, more than {H}")
                    best = moves
                    source = "the MIP (a piece of the split)" if source is None else f"{source}, shortened by the MIP"
                    floor = max(floor, out.bound)
                    emit({"stage": "incumbent", "length": len(best), "source": source, "moves": fmt(best)})
                    stream.close()  # pieces still running asked the old question
                    stream = runner.stream(sp.solve_piece, preload=sp.PRELOAD)
                    pids += stream.pids
                    continue
                if out.kind == "refuted":
                    phase.refuted = True
                    floor = H + 1
                    break
                floor, ended = max(floor, out.bound), "limit"
                break
        except KeyboardInterrupt:
            interrupted, ended = True, "interrupted"
        finally:
            if stream is not None:
                stream.close()
            runner.close()
    if best is not None and floor >= len(best):
        status, bound = Status.OPTIMAL, len(best)
    elif best is not None:
        status, bound = Status.FEASIBLE, floor
    elif ended == "refuted":
        status, bound = Status.INFEASIBLE_WITHIN_HORIZON, T + 1
    else:
        status, bound = Status.LIMIT, min(floor, T + 1)
    pieces = sum(len(p.pieces) for p in phases)
    seconds = time.perf_counter() - t0
    proof = {
        "incumbent_source": source,
        "incumbent_seconds": primal_seconds,
        "phases": [p.to_dict() for p in phases],
        "pieces": pieces,
        "summary": _summary(status, bound, phases, ended, seconds),
        "worker_pids": pids,
        "executor": f"{runner.name}, {runner.workers} worker{'s' * (runner.workers != 1)}",
    }
    size = phases[-1].size if phases else {}
    return SolveResult.build(
        puzzle,
        start,
        best or [],
        status,
        lower_bound=bound,
        nodes=sum(p.nodes or 0 for ph in phases for p in ph.pieces),
        seconds=seconds,
        solver="highs",
        solver_version=version,
        settings=settings,
        extra={
            "model": size,
            "build_seconds": sum(p.build_seconds for p in phases),
            "solve_seconds": sum(p.seconds for p in phases),
            "proof": proof,
            "interrupted": interrupted,
        },
    )


def _summary(status: Status, bound: int, phases: list, ended: str, seconds: float) -> str:
    """One line: what the split proved, e.g. ``lower bound 8: at most 7 moves refuted in 18 pieces``."""
    last = phases[-1] if phases else None
    if last is not None and last.refuted:
        n = len(last.pieces)
        moves = "move" if last.horizon == 1 else "moves"
        what = f"at most {last.horizon} {moves} refuted in {n} piece{'s' * (n != 1)} ({last.seconds:.1f} s)"
        if status is Status.INFEASIBLE_WITHIN_HORIZON:
            return f"no solution within {last.horizon} moves: {what}"
        return f"lower bound {bound}: {what}"
    if status is Status.OPTIMAL:
        if last is None:
            return f"lower bound {bound}: the start is not solved, so no shorter solution exists (no piece needed)"
        return (
            f"lower bound {bound}: when the MIP found this solution, every piece still open had a proven bound "
            f"of at least {bound} ({len(last.pieces)} pieces, {last.seconds:.1f} s)"
        )
    if last is None:
        return f"lower bound {bound} proven; stopped before any piece ran ({seconds:.1f} s in all)"
    done = sum(1 for p in last.pieces if p.status == "refuted")
    why = "Ctrl-C" if ended == "interrupted" else "the time limit"
    return (
        f"lower bound {bound} proven; at most {last.horizon} moves: {done} pieces refuted, others open "
        f"when {why} stopped it ({seconds:.1f} s in all)"
    )


def _write(model: pyo.ConcreteModel, path: str) -> None:
    if not path.endswith((".lp", ".mps")):
        raise PuzzleoptError(f"--write-model {path!r}: use a file name ending in .lp or .mps")
    model.write(path, io_options={"symbolic_solver_labels": True})


__all__ = ["model_size", "solve_mip"]
