"""Proving the MIP's lower bound by splitting it on the first moves (cube-and-conquer).

The whole time-indexed model of a 3x3 8-move scramble does not close (its LP bound stalls near
5 once six or more steps are free), but the same model with its first moves fixed falls to
HiGHS's presolve in seconds (``docs/mip.md``). So the proof that nothing shorter than an
incumbent of ``U`` moves exists is split:

* **Phase.** The model of horizon ``H = U - 1`` (or the asked horizon ``T`` while no solution is
  known) is built once, written once, and loaded once by every worker.
* **Piece.** A prefix of moves ``(m1, ..., mj)``, at first of :func:`first_prefix_length`
  moves (one, or more on deep horizons): the model with ``y`` of its first steps fixed by
  column bounds (the same model, bounds changed; nothing is rebuilt). With ``L`` moves per step
  (the ``pairs`` formulation has ``L = 2``) a prefix that ends inside a step leaves every action of
  that step that begins with it. A piece is *refuted* when HiGHS proves it infeasible or its
  objective bound above ``H``; a piece that reaches its own time limit is split again into the
  prefixes one move longer (those the move rules allow; :func:`exact.timeindexed.move_rules`).
  A prefix is also a candidate solution itself and is replayed before its children are made, so
  the children and the prefix together cover every solution of the parent.
* **Verdict.** When every piece of the phase is refuted, nothing of at most ``H`` moves exists:
  the incumbent is optimal (or, without one, nothing exists within ``T``). A piece that finds a
  solution makes it the new incumbent, and a new phase with the shorter horizon begins.
* **Bound.** While pieces are open, the proven lower bound is the least objective bound of an
  open piece (a piece not yet run has its parent's).

Pieces run as :class:`PieceTask` s on a :class:`~exact.executor.Stream` of :mod:`exact.executor`
(local worker processes by default, forkserver where the platform has it, so no solver threads
of the caller are forked; or in this process; or on Ray), one HiGHS thread each; the caller stops
every worker on return, on its time limit and on Ctrl-C (the stream's ``close``), and a killed
caller's workers die with it (the executor's parent-death guard).

Infeasibility claims: HiGHS >= 1.16 passes the presolve regression instance that 1.14 got wrong
(``tests/test_models.py``), so its claims are trusted by default; ``confirm_infeasible`` re-runs
every refuted piece without presolve and accepts the refutation only if that agrees.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.bfs import meet_in_the_middle
from exact.executor import Executor, InProcess, Ray, Stream, worker_processes
from exact.logs import get_logger
from exact.mip.adapters import quiet_highs
from exact.mip.build import formulation
from exact.mip.options import MipOptions
from exact.mip.pieces import LIMIT, PRELOAD, REFUTED, SOLVED, PieceAnswer, PieceSolver, PieceTask, solve_piece
from exact.result import Status
from exact.timeindexed import MoveRules, Problem, decide, move_rules, piece_links, prepare, replay_until_goal

# The options of every piece: interior point for the degenerate LPs of the flow model, one
# thread a worker, and stop at the first solution (any solution is a new incumbent, and the
# next phase asks for a shorter one anyway).
PIECE_OPTIONS: dict[str, Any] = {"mip_lp_solver": "ipm", "threads": 1, "mip_max_improving_sols": 1}

# The free moves a first piece leaves. Measured on 3x3 layers QTM (docs/mip.md): pieces with
# six free moves fall to presolve in 0.3-8 s, pieces with seven reach 10-60 s limits and are
# split anyway, so deeper horizons start from longer prefixes instead of paying those limits.
FREE_MOVES = 6


def first_prefix_length(horizon: int) -> int:
    """How many moves the first pieces of a phase of ``horizon`` fix: at least one, and enough
    that at most :data:`FREE_MOVES` are left free."""
    return max(1, horizon - FREE_MOVES)


@dataclass
class PieceRecord:
    """One piece as it ended (``--json`` carries these)."""

    prefix: str
    status: str  # refuted / solved / limit / replayed (decided without the solver)
    seconds: float
    bound: int | None = None
    confirmed: bool | None = None
    nodes: int | None = None


@dataclass
class Phase:
    """One model of horizon ``horizon`` and what became of its pieces."""

    horizon: int
    pieces: list[PieceRecord] = field(default_factory=list)
    seconds: float = 0.0
    build_seconds: float = 0.0
    size: dict[str, int] = field(default_factory=dict)
    refuted: bool = False  # every piece refuted: nothing of at most `horizon` moves exists

    def to_dict(self) -> dict[str, Any]:
        return {
            "horizon": self.horizon,
            "refuted": self.refuted,
            "seconds": self.seconds,
            "build_seconds": self.build_seconds,
            "model": self.size,
            "pieces": [vars(p) for p in self.pieces],
        }


@dataclass
class PhaseOutcome:
    """How a phase ended: ``refuted`` (all pieces), ``improved`` (a solution, ``moves`` in the
    problem's rows) or ``stopped`` (time limit or Ctrl-C; ``bound`` is proven)."""

    kind: str
    bound: int
    moves: list[int] | None = None


# ----------------------------------------------------------------------------- the pieces


def prefix_bounds(prefix: tuple[int, ...], actions: tuple[tuple[int, ...], ...], L: int) -> list[tuple[int, int]]:
    """``(step, action)`` pairs whose ``y`` is fixed to 0 so that only ``prefix`` can begin a
    solution; steps the prefix fills completely keep one action, a step it ends inside keeps the
    actions that begin with the rest of it (and "done")."""
    out = []
    for s in range(-(-len(prefix) // L)):
        part = prefix[s * L : (s + 1) * L]
        out.extend((s, k) for k, seq in enumerate(actions) if tuple(seq[: len(part)]) != part)
    return out


def children(problem: Problem, prefix: tuple[int, ...], rules: MoveRules) -> list[tuple[int, ...]]:
    """The prefixes one move longer that the move rules and the guards allow."""
    pairs, triples = set(rules.pairs), set(rules.triples)
    table = problem.table
    state = table.apply(problem.start, list(prefix)) if prefix else problem.start
    legal = table.applicable(state) if table.guarded else np.ones(table.num_moves, dtype=bool)
    out = []
    for m in range(table.num_moves):
        if not legal[m]:
            continue
        if prefix and (prefix[-1], m) in pairs:
            continue
        if len(prefix) >= 2 and (prefix[-2], prefix[-1], m) in triples:
            continue
        out.append(prefix + (m,))
    return out


def split_executor(executor: Any, workers: int) -> Executor:
    """The executor the pieces run on: ``None`` (the default: ``workers`` local processes where
    ``workers`` > 1, else one piece after another in this process), ``"processes"``,
    ``"in-process"``, ``"ray"``, or an :class:`exact.executor.Executor` (with its own workers).
    The split closes it when done; closing leaves up a Ray the caller started."""
    if executor is None:
        executor = "processes" if workers > 1 else "in-process"
    if executor == "processes":
        return worker_processes(workers, None, "the split's pieces")  # they run no numba kernel: threads as they are
    if executor == "in-process":
        return InProcess()
    if executor == "ray":
        return Ray()
    if isinstance(executor, Executor):
        return executor
    raise ValueError(f"executor {executor!r}: use 'in-process', 'processes', 'ray' or an exact.executor.Executor")


# ----------------------------------------------------------------------------- one phase


@dataclass
class SplitModel:
    """A phase's model as the workers see it: the written file and the column of each ``y``."""

    path: str
    ycol: dict[tuple[int, int], int]  # (action, step) -> column
    actions: tuple[tuple[int, ...], ...]
    L: int
    blob: Any = None  # the file's bytes for workers that do not share this machine's files

    def moves(self, values: np.ndarray) -> list[int]:
        """The problem's moves of a solution vector, step by step."""
        steps = 1 + max((t for _, t in self.ycol), default=-1)
        out: list[int] = []
        for t in range(steps):
            pick = [k for k in range(len(self.actions)) if (k, t) in self.ycol and values[self.ycol[k, t]] > 0.5]
            if pick:
                out.extend(self.actions[pick[0]])
        return out


def write_model(model: pyo.ConcreteModel, directory: str, name: str) -> SplitModel:
    """Write ``model`` as an LP file and map each ``y[k, t]`` to its column.

    The columns are found by the writer's own labels (its symbol map): Pyomo's symbolic labels
    would cost a fifth of the writing on large models."""
    path = os.path.join(directory, f"{name}.lp")
    _, symbols = model.write(path, io_options={"symbolic_solver_labels": False})
    by_var = model.solutions.symbol_map[symbols].byObject
    h = quiet_highs()
    h.readModel(path)
    col = {n: i for i, n in enumerate(h.getLp().col_names_)}
    ycol = {}
    for k, t in model.y.index_set():
        label = by_var.get(id(model.y[k, t]))
        if label in col:  # a variable in no row is not written
            ycol[k, t] = col[label]
    L = max(len(a) for a in model.actions)
    return SplitModel(path, ycol, tuple(tuple(a) for a in model.actions), L)


@dataclass
class Piece:
    prefix: tuple[int, ...]
    bound: int  # proven lower bound on a solution within this piece


def run_phase(
    stream: Stream,
    phase_id: int,
    sm: SplitModel,
    problem: Problem,
    rules: MoveRules,
    horizon: int,
    floor: int,
    *,
    piece_time_limit: float,
    deadline: float | None,
    options: dict[str, Any],
    confirm: bool,
    record: Phase,
    format_moves: Callable[[list[int]], str],
    on_progress: Callable[[dict[str, Any]], None] | None = None,
) -> PhaseOutcome:
    """Refute "at most ``horizon`` moves" piece by piece, or find a solution within it.

    ``floor`` is the lower bound proven before this phase (a piece's bound is at least that).
    Raises ``KeyboardInterrupt`` through (the caller closes the stream).
    """
    run = _PhaseRun(stream, phase_id, sm, problem, rules, horizon, floor, record, format_moves, on_progress)
    # The first pieces: every allowed prefix of first_prefix_length(horizon) moves.
    level = [Piece((), floor)]
    for depth in range(first_prefix_length(horizon)):
        run.todo.clear()
        for parent in level:
            if deadline is not None and time.perf_counter() >= deadline:
                # every prefix of ``depth`` moves was tried and none solves: more are needed
                return PhaseOutcome("stopped", max(floor, depth + 1))
            if (found := run.push_children(parent)) is not None:
                return found
        level = list(run.todo)
    run.report()
    while run.todo or run.running:
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return PhaseOutcome("stopped", run.bound())
        limit = piece_time_limit if deadline is None else min(piece_time_limit, max(0.01, deadline - now))
        run.submit(limit, options, confirm)
        got = stream.result(0.2 if deadline is None else max(0.01, min(0.2, deadline - time.perf_counter())))
        if got is not None and (found := run.take(got[1])) is not None:
            return found
    return PhaseOutcome("refuted", horizon + 1)


class _PhaseRun:
    """One phase's pieces: waiting (``todo``), out on the stream (``running``), and what each
    answer makes of them."""

    def __init__(self, stream, phase_id, sm, problem, rules, horizon, floor, record, format_moves, on_progress) -> None:
        self.stream, self.phase_id, self.sm, self.problem, self.rules = stream, phase_id, sm, problem, rules
        self.horizon, self.floor, self.record = horizon, floor, record
        self.format_moves, self.on_progress = format_moves, on_progress
        self.todo: deque[Piece] = deque()
        self.running: dict[int, Piece] = {}
        self.refuted = 0
        self.next_id = 0

    def push_children(self, parent: Piece) -> PhaseOutcome | None:
        """Queue the prefixes one move longer; one that solves the start ends the phase."""
        for c in children(self.problem, parent.prefix, self.rules):
            state = self.problem.table.apply(self.problem.start, list(c))
            if self.problem.goal.holds(state):
                self.record.pieces.append(PieceRecord(self.format_moves(list(c)), "replayed", 0.0, len(c)))
                return PhaseOutcome("improved", self.floor, list(c))
            if len(c) >= self.horizon:  # no free move left: the prefix is all there is, and it fails
                self.refuted += 1
                self.record.pieces.append(PieceRecord(self.format_moves(list(c)), REFUTED, 0.0, self.horizon + 1))
                continue
            self.todo.append(Piece(c, max(parent.bound, len(c) + 1)))
        return None

    def bound(self) -> int:
        """The proven lower bound: the least bound of a piece still open (none: ``horizon + 1``)."""
        open_ = [p.bound for p in self.todo] + [p.bound for p in self.running.values()]
        return min([self.horizon + 1, *open_])

    def report(self) -> None:
        if self.on_progress is not None:
            total = self.refuted + len(self.todo) + len(self.running)
            self.on_progress({"stage": "pieces", "horizon": self.horizon, "refuted": self.refuted, "total": total,
                              "bound": self.bound()})  # fmt: skip

    def submit(self, limit: float, options: dict[str, Any], confirm: bool) -> None:
        """Hand out pieces while the stream has room."""
        sm = self.sm
        while self.todo and len(self.running) < self.stream.capacity:
            piece = self.todo.popleft()
            fixed = [sm.ycol[k, s] for s, k in prefix_bounds(piece.prefix, sm.actions, sm.L) if (k, s) in sm.ycol]
            task = PieceTask(self.phase_id, self.next_id, sm.path, tuple(fixed), limit, options, confirm, sm.blob)
            self.stream.submit((self.phase_id, self.next_id), task)
            self.running[self.next_id] = piece
            self.next_id += 1

    def take(self, answer: PieceAnswer) -> PhaseOutcome | None:
        """One piece's answer: refuted, a solution (the phase ends), or split again."""
        if answer.phase != self.phase_id or answer.piece not in self.running:  # pragma: no cover - a stale answer
            return None
        piece = self.running.pop(answer.piece)
        text, a = self.format_moves(list(piece.prefix)), answer
        if a.kind == SOLVED:
            self.record.pieces.append(PieceRecord(text, SOLVED, a.seconds, None, a.confirmed, a.nodes))
            # HiGHS stopped at its first solution: a shorter one may still be in this piece.
            return PhaseOutcome("improved", min(self.bound(), piece.bound), self.sm.moves(a.values))
        b = piece.bound
        if a.kind == LIMIT and a.bound is not None and np.isfinite(a.bound):
            b = max(piece.bound, int(np.ceil(a.bound - 1e-6)))
        if a.kind == REFUTED or b > self.horizon:  # infeasible, or the objective bound alone refutes it
            self.refuted += 1
            shown = self.horizon + 1 if a.kind == REFUTED else b
            self.record.pieces.append(PieceRecord(text, REFUTED, a.seconds, shown, a.confirmed, a.nodes))
        else:
            self.record.pieces.append(PieceRecord(text, LIMIT, a.seconds, b, a.confirmed, a.nodes))
            if (found := self.push_children(Piece(piece.prefix, b))) is not None:
                return found
        self.report()
        return None


# ----------------------------------------------------------------------------- the driver

_log = get_logger(__name__)

# Both sides of the bidirectional BFS together (54-byte keys in dicts: a few hundred MB at most).
_BFS_MAX_STATES = 2_000_000


@dataclass
class SplitRun:
    """What the split knows as it goes: the incumbent and where it came from, the proven floor,
    the phases, how it ended and the worker processes."""

    best: list[int] | None
    source: str | None
    floor: int = 1  # the start is not solved
    ended: str = "refuted"
    phases: list[Phase] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)
    incumbent_seconds: float = 0.0


def solve_split(puzzle, start: np.ndarray, T: int, how: MipOptions, hint: list[int] | None, hint_source: str | None,
                *, time_limit: float | None, progress, done):  # fmt: skip
    """:func:`exact.mip.solve_mip` by splitting (the method: this module's docstring); ``done`` is
    the result recorder (:meth:`exact.result.SolveResult.recorder`)."""
    emit = progress or (lambda event: None)
    t0 = time.perf_counter()
    form = formulation(how.formulation)
    problem = prepare(puzzle, start, form.reduce_frame)
    deadline = None if time_limit is None else t0 + time_limit
    state = _incumbent(puzzle, start, problem, T, hint, hint_source, how.incumbent, deadline)
    if state.best is not None:
        emit({"stage": "incumbent", "length": len(state.best), "source": state.source,
              "moves": puzzle.table.format(state.best)})  # fmt: skip
    runner = split_executor(how.executor, how.workers)
    asked = dict(piece_time_limit=how.piece_time_limit, options={**PIECE_OPTIONS, **(how.solver_options or {})},
                 confirm=how.confirm_infeasible, emit=emit, deadline=deadline)  # fmt: skip
    interrupted = False
    try:
        _phases(puzzle, start, problem, T, form, how.piece_links, state, runner, **asked)
    except KeyboardInterrupt:
        interrupted, state.ended = True, "interrupted"
    finally:
        runner.close()
    moves, status, bound = decide(None, infeasible=state.ended == "refuted", bound=state.floor, hint=state.best, T=T)
    phases = state.phases
    proof = {
        "incumbent_source": state.source,
        "incumbent_seconds": state.incumbent_seconds,
        "phases": [ph.to_dict() for ph in phases],
        "pieces": sum(len(ph.pieces) for ph in phases),
        "summary": _summary(status, bound, phases, state.ended, time.perf_counter() - t0),
        "worker_pids": state.pids,
        "executor": f"{runner.name}, {runner.workers} worker{'s' * (runner.workers != 1)}",
    }
    extra = {"model": phases[-1].size if phases else {}, "build_seconds": sum(ph.build_seconds for ph in phases),
             "solve_seconds": sum(ph.seconds for ph in phases), "proof": proof, "interrupted": interrupted}  # fmt: skip
    return done(moves, status, bound, sum(pc.nodes or 0 for ph in phases for pc in ph.pieces), extra)


# The incumbent's BFS takes at most this share of the time left: the pieces need the rest.
_BFS_SHARE = 0.4


def _incumbent(puzzle, start, problem: Problem, T: int, hint, hint_source, how: str,
               deadline: float | None = None) -> SplitRun:  # fmt: skip
    """The first incumbent: ``hint``, shortened (or found) by bidirectional BFS where ``how`` is
    ``"bfs"`` and the table allows it (within its share of the time left before ``deadline``)."""
    state = SplitRun(hint, (hint_source or "the given hint") if hint is not None else None)
    if how == "bfs" and not problem.table.guarded and problem.goal.state is not None:
        # Also below a hint: a shorter incumbent spares the MIP a phase of finding, the costly
        # part (a T = 9 phase's pieces stall while a T = 8 refutation falls; docs/mip.md).
        t = time.perf_counter()
        depth = T if hint is None else len(hint) - 1
        budget = None if deadline is None else max(0.0, deadline - t) * _BFS_SHARE
        path = meet_in_the_middle(problem.table, problem.start, problem.goal.state, depth, _BFS_MAX_STATES, budget)
        state.incumbent_seconds = time.perf_counter() - t
        if path is not None:
            state.best = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, path))
            source = "bidirectional BFS"
            state.source = source if state.source is None else f"{state.source}, shortened by {source}"
    return state


def _phases(puzzle, start, problem: Problem, T: int, form, links_on: bool, state: SplitRun, runner: Executor, *,
            piece_time_limit: float, options: dict, confirm: bool, emit, deadline: float | None) -> None:  # fmt: skip
    """Phase after phase, each horizon one below the incumbent, until one is refuted, the
    floor meets the horizon, or the limit ends it (``state`` records it all)."""
    links = piece_links(problem.pieces) if links_on else ()
    rules = move_rules(problem.table)

    def fmt(rows: list[int]) -> str:
        return problem.table.format(rows)

    with tempfile.TemporaryDirectory(prefix="puzzleopt-split-") as tmp:
        while (H := T if state.best is None else len(state.best) - 1) >= state.floor:
            if not _model_fits(problem, H, deadline):
                state.ended = "limit"
                return
            sm, phase = _phase_model(problem, H, form, links, runner, tmp, emit)
            state.phases.append(phase)
            with runner.stream(solve_piece, preload=PRELOAD) as stream:
                state.pids += stream.pids
                tp = time.perf_counter()
                try:
                    out = run_phase(stream, len(state.phases), sm, problem, rules, H, state.floor,
                                    piece_time_limit=piece_time_limit, deadline=deadline, options=options,
                                    confirm=confirm, record=phase, format_moves=fmt, on_progress=emit)  # fmt: skip
                finally:
                    phase.seconds = time.perf_counter() - tp
            if out.kind != "improved":  # refuted: nothing within H; stopped: the floor is what was proven
                phase.refuted = out.kind == "refuted"
                state.floor = H + 1 if phase.refuted else max(state.floor, out.bound)
                state.ended = "refuted" if phase.refuted else "limit"
                return
            moves = replay_until_goal(puzzle, start, problem.lift(puzzle.table, start, out.moves or []))
            if len(moves) > H:  # pragma: no cover - the model holds at most H moves
                raise RuntimeError(f"a piece's solution has {len(moves)} moves, more than {H}")
            source = "the MIP (a piece of the split)"
            state.best, state.floor = moves, max(state.floor, out.bound)
            state.source = source if state.source is None else f"{state.source}, shortened by the MIP"
            emit({"stage": "incumbent", "length": len(moves), "source": state.source, "moves": fmt(moves)})


BUILD_SECONDS_PER_CELL = 4e-4
"""Seconds to build and write a phase's model per (horizon x moves x positions): 2.5-3.4e-4
measured on the 2-core development machine (3x3 at horizons 7 and 11, 2x2 at 10, pairs
formulation), rounded up. A phase whose model would not be ready before the deadline is not
started: a build cannot be stopped halfway."""


def _model_fits(problem: Problem, H: int, deadline: float | None) -> bool:
    """Whether the phase's model would be built before ``deadline``; its estimate is logged first."""
    need = BUILD_SECONDS_PER_CELL * H * problem.table.num_moves * problem.start.shape[0]
    _log.info("the model of horizon %d: about %.1f s to build and write", H, need)
    if deadline is None:
        return True
    left = deadline - time.perf_counter()
    if need < left:
        return True
    if left > 0:
        _log.info("the model of horizon %d would take about %.1f s to build; %.1f s are left: stopped", H, need, left)
    return False


def _phase_model(problem: Problem, H: int, form, links, runner: Executor, tmp: str, emit) -> tuple[SplitModel, Phase]:
    """The model of horizon ``H``, built and written once for every worker (sent as bytes to
    workers that do not share this machine's files)."""
    from exact.mip.build import build_mip, model_size

    tb = time.perf_counter()
    model = build_mip(problem.table, problem.start, problem.goal, H, form.name, problem.num_labels, links=links)
    sm = write_model(model, tmp, f"h{H}")
    if not runner.shares_files:
        sm.blob = runner.blob(Path(sm.path).read_bytes())
    phase = Phase(H, build_seconds=time.perf_counter() - tb, size=model_size(model))
    emit({"stage": "model", "horizon": H, "size": phase.size, "build_seconds": phase.build_seconds})
    return sm, phase


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


__all__ = [
    "FREE_MOVES", "PIECE_OPTIONS", "PRELOAD", "Phase", "PhaseOutcome", "PieceAnswer", "PieceRecord", "PieceSolver",
    "PieceTask", "SplitModel", "children", "first_prefix_length", "prefix_bounds", "run_phase", "solve_piece",
    "solve_split", "split_executor", "write_model",
]  # fmt: skip
