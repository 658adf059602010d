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
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.executor import Executor, InProcess, Processes, Ray, Stream
from exact.mip.adapters import quiet_highs, run_highs
from exact.timeindexed import MoveRules, Problem

# The options of every piece: interior point for the degenerate LPs of the flow model, one
# thread a worker, and stop at the first solution (any solution is a new incumbent, and the
# next phase asks for a shorter one anyway).
PIECE_OPTIONS: dict[str, Any] = {"mip_lp_solver": "ipm", "threads": 1, "mip_max_improving_sols": 1}

# The free moves a first piece leaves. Measured on 3x3 layers QTM (docs/mip.md): pieces with
# six free moves fall to presolve in 0.3-8 s, pieces with seven reach 10-60 s limits and are
# split anyway, so deeper horizons start from longer prefixes instead of paying those limits.
FREE_MOVES = 6

REFUTED, SOLVED, LIMIT = "refuted", "solved", "limit"


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


# ----------------------------------------------------------------------------- the workers


@dataclass(frozen=True)
class PieceTask:
    """One piece for a worker: the phase's model file with the ``fixed`` columns set to 0.

    Attributes:
        phase: The phase's number (answers of an earlier phase are stale).
        piece: The piece's number within its phase.
        model: The phase's LP file on this machine.
        fixed: Columns whose upper bound is 0 (the ``y`` the prefix rules out).
        time_limit: Seconds for HiGHS.
        options: HiGHS options.
        confirm: Re-run an infeasible piece without presolve, and trust only agreement.
        blob: The model file's bytes (:class:`exact.executor.Blob`) for workers that do not share
            this machine's files (Ray); ``None`` where they do.
    """

    phase: int
    piece: int
    model: str
    fixed: tuple[int, ...]
    time_limit: float
    options: dict[str, Any]
    confirm: bool
    blob: Any = None


@dataclass(frozen=True)
class PieceAnswer:
    """How a piece ended: ``kind`` refuted / solved / limit, its HiGHS seconds and nodes, the
    objective bound at a limit, the solution's column values when solved, and whether an
    infeasibility was confirmed without presolve (``None``: not asked)."""

    phase: int
    piece: int
    kind: str
    seconds: float
    bound: float | None
    values: np.ndarray | None
    nodes: int
    confirmed: bool | None


class PieceSolver:
    """Solves pieces one after the other in one process: loads each phase's model once, then per
    piece resets the bounds the last piece changed, fixes the new ones and runs HiGHS."""

    def __init__(self) -> None:
        self.h = None
        self.path: str | None = None
        self.changed: list[int] = []

    def solve(self, task: PieceTask, path: str | None = None) -> PieceAnswer:
        """Solve ``task`` (its model read from ``path``, default ``task.model``)."""
        import highspy

        path = path or task.model
        if path != self.path:
            self.h = quiet_highs()
            self.h.readModel(path)
            self.path, self.changed = path, []
            lp = self.h.getLp()
            self.lower, self.upper = np.array(lp.col_lower_), np.array(lp.col_upper_)
        h = self.h
        for c in self.changed:
            h.changeColBounds(c, self.lower[c], self.upper[c])
        for c in task.fixed:
            h.changeColBounds(c, 0.0, 0.0)
        self.changed = list(task.fixed)
        for key, value in task.options.items():
            h.setOptionValue(key, value)
        h.setOptionValue("time_limit", float(task.time_limit))
        h.clearSolver()
        t0 = time.perf_counter()
        run_highs(h)
        status = h.getModelStatus()
        values, confirmed = None, None
        if status == highspy.HighsModelStatus.kInfeasible and task.confirm:
            h.clearSolver()
            h.setOptionValue("presolve", "off")
            h.setOptionValue("time_limit", float(max(0.01, task.time_limit - (time.perf_counter() - t0))))
            run_highs(h)
            h.setOptionValue("presolve", task.options.get("presolve", "choose"))
            status = h.getModelStatus()
            confirmed = status == highspy.HighsModelStatus.kInfeasible
        info = h.getInfo()
        if info.primal_solution_status == 2:  # a feasible point: the piece holds a solution
            values = np.asarray(h.getSolution().col_value)
        if status == highspy.HighsModelStatus.kInfeasible:
            kind = REFUTED
        elif values is not None:
            kind = SOLVED
        else:
            kind = LIMIT
        bound = float(info.mip_dual_bound) if kind == LIMIT else None
        seconds = time.perf_counter() - t0
        return PieceAnswer(task.phase, task.piece, kind, seconds, bound, values, int(info.mip_node_count), confirmed)


_SOLVER: dict[str, Any] = {}  # this worker's PieceSolver and the model file a blob was written to


def solve_piece(shared: Any, task: PieceTask) -> PieceAnswer:
    """The task of the split's :class:`~exact.executor.Stream` (``shared`` is unused): a worker
    keeps one :class:`PieceSolver`; a model that came as a blob is written to this worker's
    folder once per phase (the last phase's file removed)."""
    solver = _SOLVER.setdefault("solver", PieceSolver())
    if task.blob is None:
        return solver.solve(task)
    if _SOLVER.get("key") != task.blob.key:
        import tempfile

        folder = _SOLVER.get("dir") or tempfile.mkdtemp(prefix="puzzleopt-piece-")
        if _SOLVER.get("path"):
            Path(_SOLVER["path"]).unlink(missing_ok=True)
        path = os.path.join(folder, f"{task.blob.key[:16]}.lp")
        Path(path).write_bytes(task.blob.get())
        _SOLVER.update(key=task.blob.key, dir=folder, path=path)
    return solver.solve(task, _SOLVER["path"])


PRELOAD = ("exact.mip.split", "highspy")
"""What the worker processes' forkserver imports once for all of them."""


def split_executor(executor: Any, workers: int) -> Executor:
    """The executor the pieces run on: ``"processes"`` (``workers`` local processes, the
    default), ``"in-process"``, ``"ray"``, or an :class:`exact.executor.Executor` (with its own
    workers). The split closes it when done; closing leaves up a Ray the caller started."""
    if executor in ("processes", None):
        return Processes(workers, threads=None)  # HiGHS's pieces run no numba kernel
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
    """Write ``model`` as an LP file with its own names and map each ``y[k, t]`` to its column."""
    path = os.path.join(directory, f"{name}.lp")
    model.write(path, io_options={"symbolic_solver_labels": True})
    h = quiet_highs()
    h.readModel(path)
    names = h.getLp().col_names_
    col = {n: i for i, n in enumerate(names)}
    ycol = {}
    for k, t in model.y.index_set():
        label = model.y[k, t].getname(fully_qualified=True)
        # Pyomo's LP labels: y[3,0] -> y(3_0)
        lp_name = label.replace("[", "(").replace("]", ")").replace(",", "_")
        if lp_name in col:
            ycol[k, t] = col[lp_name]
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
    Raises ``KeyboardInterrupt`` through (the caller closes the pool).
    """
    todo: deque[Piece] = deque()
    running: dict[int, Piece] = {}
    refuted = 0
    next_id = 0

    def push_children(parent: Piece) -> PhaseOutcome | None:
        nonlocal refuted
        for c in children(problem, parent.prefix, rules):
            state = problem.table.apply(problem.start, list(c))
            if problem.goal.holds(state):
                record.pieces.append(PieceRecord(format_moves(list(c)), "replayed", 0.0, len(c)))
                return PhaseOutcome("improved", floor, list(c))
            if len(c) >= horizon:  # no free move left: the prefix is all there is, and it fails
                refuted += 1
                record.pieces.append(PieceRecord(format_moves(list(c)), REFUTED, 0.0, horizon + 1))
                continue
            todo.append(Piece(c, max(parent.bound, len(c) + 1)))
        return None

    def report() -> None:
        if on_progress is not None:
            on_progress(
                {
                    "stage": "pieces",
                    "horizon": horizon,
                    "refuted": refuted,
                    "total": refuted + len(todo) + len(running),
                    "bound": current_bound(),
                }
            )

    def current_bound() -> int:
        open_ = [p.bound for p in todo] + [p.bound for p in running.values()]
        return min([horizon + 1, *open_]) if open_ else horizon + 1

    # The first pieces: every allowed prefix of first_prefix_length(horizon) moves.
    level = [Piece((), floor)]
    for _ in range(first_prefix_length(horizon)):
        todo.clear()
        for parent in level:
            found = push_children(parent)
            if found is not None:
                return found
        level = list(todo)
    report()
    while todo or running:
        now = time.perf_counter()
        if deadline is not None and now >= deadline:
            return PhaseOutcome("stopped", current_bound())
        while todo and len(running) < stream.capacity:
            piece = todo.popleft()
            limit = piece_time_limit if deadline is None else min(piece_time_limit, max(0.01, deadline - now))
            fixed = [sm.ycol[k, s] for s, k in prefix_bounds(piece.prefix, sm.actions, sm.L) if (k, s) in sm.ycol]
            task = PieceTask(phase_id, next_id, sm.path, tuple(fixed), limit, options, confirm, sm.blob)
            stream.submit((phase_id, next_id), task)
            running[next_id] = piece
            next_id += 1
        wait = 0.2 if deadline is None else max(0.01, min(0.2, deadline - time.perf_counter()))
        got = stream.result(wait)
        if got is None:
            continue
        answer: PieceAnswer = got[1]
        if answer.phase != phase_id or answer.piece not in running:  # pragma: no cover - a stale answer
            continue
        piece = running.pop(answer.piece)
        kind, seconds, dual, values = answer.kind, answer.seconds, answer.bound, answer.values
        nodes, confirmed = answer.nodes, answer.confirmed
        text = format_moves(list(piece.prefix))
        if kind == REFUTED:
            refuted += 1
            record.pieces.append(PieceRecord(text, REFUTED, seconds, horizon + 1, confirmed, nodes))
        elif kind == SOLVED:
            record.pieces.append(PieceRecord(text, SOLVED, seconds, None, confirmed, nodes))
            # HiGHS stopped at its first solution: a shorter one may still be in this piece.
            return PhaseOutcome("improved", min(current_bound(), piece.bound), sm.moves(values))
        else:
            b = piece.bound if dual is None or not np.isfinite(dual) else max(piece.bound, int(np.ceil(dual - 1e-6)))
            if b > horizon:  # the objective bound alone refutes it
                refuted += 1
                record.pieces.append(PieceRecord(text, REFUTED, seconds, b, confirmed, nodes))
            else:
                record.pieces.append(PieceRecord(text, LIMIT, seconds, b, confirmed, nodes))
                found = push_children(Piece(piece.prefix, b))
                if found is not None:
                    return found
        report()
    return PhaseOutcome("refuted", horizon + 1)


__all__ = [
    "FREE_MOVES", "PIECE_OPTIONS", "PRELOAD", "Phase", "PhaseOutcome", "PieceAnswer", "PieceRecord", "PieceSolver",
    "PieceTask", "SplitModel", "children", "first_prefix_length", "prefix_bounds", "run_phase", "solve_piece",
    "split_executor", "write_model",
]  # fmt: skip
