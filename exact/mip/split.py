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

Pieces run in worker processes (``forkserver`` where the platform has it, so no solver threads
of the caller are forked), one HiGHS thread each; workers ignore SIGINT and the caller stops
every one of them on return, on its time limit and on Ctrl-C (:meth:`Pool.close`).

Infeasibility claims: HiGHS >= 1.16 passes the presolve regression instance that 1.14 got wrong
(``tests/test_models.py``), so its claims are trusted by default; ``confirm_infeasible`` re-runs
every refuted piece without presolve and accepts the refutation only if that agrees.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import queue
import signal
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.executor import RETRIES, InProcess, Processes, Ray, WorkerLost
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

_BANNER_SHOWN = False


def quiet_highs():
    """A ``highspy.Highs`` with its output off. HiGHS prints its banner on the first instance of a
    process, before any option can be set; that line would land in the middle of a report (and
    of every worker's), so standard output is pointed at /dev/null while the first is made."""
    import highspy

    global _BANNER_SHOWN
    if _BANNER_SHOWN:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(devnull)
        _BANNER_SHOWN = True
    h.setOptionValue("output_flag", False)
    return h


class PieceSolver:
    """Solves pieces one after the other in one process: loads each phase's model once, then per
    piece resets the bounds the last piece changed, fixes the new ones and runs HiGHS."""

    def __init__(self) -> None:
        self.h = None
        self.path: str | None = None
        self.changed: list[int] = []

    def solve(self, task: tuple) -> tuple:
        """``task = (phase, piece, model_path, fixed, limit, options, confirm)`` -> ``(phase, piece,
        kind, seconds, dual bound, values, nodes, confirmed)``."""
        import highspy

        phase, piece, model_path, fixed, limit, options, confirm = task
        if model_path != self.path:
            self.h = quiet_highs()
            self.h.readModel(model_path)
            self.path, self.changed = model_path, []
            lp = self.h.getLp()
            self.lower, self.upper = np.array(lp.col_lower_), np.array(lp.col_upper_)
        h = self.h
        for c in self.changed:
            h.changeColBounds(c, self.lower[c], self.upper[c])
        for c in fixed:
            h.changeColBounds(c, 0.0, 0.0)
        self.changed = list(fixed)
        for key, value in options.items():
            h.setOptionValue(key, value)
        h.setOptionValue("time_limit", float(limit))
        h.clearSolver()
        t0 = time.perf_counter()
        h.run()
        status = h.getModelStatus()
        values, confirmed = None, None
        if status == highspy.HighsModelStatus.kInfeasible and confirm:
            h.clearSolver()
            h.setOptionValue("presolve", "off")
            h.setOptionValue("time_limit", float(max(0.01, limit - (time.perf_counter() - t0))))
            h.run()
            h.setOptionValue("presolve", options.get("presolve", "choose"))
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
        return phase, piece, kind, time.perf_counter() - t0, bound, values, int(info.mip_node_count), confirmed


def _worker(tasks, results) -> None:  # pragma: no cover - runs in the worker processes
    """Solve pieces until stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the caller handles Ctrl-C and stops us
    _die_with_parent()
    solver = PieceSolver()
    while True:
        results.put(solver.solve(tasks.get()))


def _die_with_parent() -> None:  # pragma: no cover - runs in the worker processes
    """Linux: the kernel kills this process if its parent dies, so no worker outlives a crash
    (workers and, through :mod:`exact.mip.serverguard`, the forkserver that forks them)."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _context():
    if "forkserver" not in mp.get_all_start_methods():  # pragma: no cover - not Linux/macOS
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    # The server imports only what a worker needs, not the caller's __main__ (a script without a
    # main guard would run again, and a CLI's imports cost a second per start), and first the
    # guard that makes it die with the caller (exact.mip.serverguard).
    ctx.set_forkserver_preload(["exact.mip.serverguard", "exact.mip.split", "highspy"])
    return ctx


class Pool:
    """``n`` worker processes solving pieces; :meth:`close` stops them all, whatever happens."""

    name = "processes"

    def __init__(self, n: int) -> None:
        self.n = n
        self._procs: list = []
        self._tasks = self._results = None

    def start(self) -> None:
        ctx = _context()
        self._tasks, self._results = ctx.Queue(), ctx.Queue()
        args = (self._tasks, self._results)
        self._procs = [ctx.Process(target=_worker, args=args, daemon=True) for _ in range(self.n)]
        for p in self._procs:
            p.start()

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._procs if p.pid is not None]

    def submit(self, task: tuple) -> None:
        self._tasks.put(task)

    def result(self, timeout: float):
        try:
            return self._results.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop every worker at once (they may be mid-piece; their answers are no longer wanted)."""
        started = [p for p in self._procs if p.pid is not None]
        for p in started:
            if p.is_alive():
                p.terminate()
        for p in started:
            p.join(timeout=5.0)
            if p.is_alive():  # pragma: no cover - SIGTERM is not caught by the workers
                p.kill()
                p.join()
        for q in (self._tasks, self._results):
            if q is not None:
                q.close()
                q.cancel_join_thread()
        self._procs = []


class LocalPool:
    """The pieces one at a time in this process (the in-process executor): :meth:`result` solves
    the next piece submitted."""

    name = "in-process"
    n = 1
    pids: list[int] = []

    def __init__(self) -> None:
        self._todo: deque = deque()
        self._solver = PieceSolver()

    def start(self) -> None:
        self._todo.clear()

    def submit(self, task: tuple) -> None:
        self._todo.append(task)

    def result(self, timeout: float):
        return self._solver.solve(self._todo.popleft()) if self._todo else None

    def close(self) -> None:
        self._todo.clear()


_RAY_SOLVER: dict[str, Any] = {}


def _ray_piece(model, task: tuple) -> tuple:  # pragma: no cover - in Ray's workers
    """One piece in a Ray worker. ``model`` is the phase's LP file as an
    :class:`exact.executor.Blob`: fetched from the object store and written to this worker's
    folder once per phase (the last phase's file removed)."""
    if _RAY_SOLVER.get("key") != model.key:
        import tempfile

        folder = _RAY_SOLVER.get("dir") or tempfile.mkdtemp(prefix="puzzleopt-piece-")
        if _RAY_SOLVER.get("path"):
            Path(_RAY_SOLVER["path"]).unlink(missing_ok=True)
        path = os.path.join(folder, f"{model.key[:16]}.lp")
        Path(path).write_bytes(model.get())
        _RAY_SOLVER.update(key=model.key, dir=folder, path=path, solver=_RAY_SOLVER.get("solver") or PieceSolver())
    phase, piece, _, fixed, limit, options, confirm = task
    return _RAY_SOLVER["solver"].solve((phase, piece, _RAY_SOLVER["path"], fixed, limit, options, confirm))


class RayPool:
    """Pieces as Ray tasks (:class:`exact.executor.Ray`): each phase's model file goes to the
    object store once (a blob); a piece Ray loses with its worker is run again by Ray
    (``max_retries``), and :class:`~exact.executor.WorkerLost` ends the proof after that."""

    name = "ray"

    def __init__(self, executor, own: bool = False) -> None:
        self.executor = executor
        self.own = own  # a Ray this pool's caller did not hand in is ended by shutdown()
        self.n = 1
        self.pids: list[int] = []
        self._out: dict = {}
        self._models: dict[str, Any] = {}  # model path -> its blob

    def start(self) -> None:
        import ray

        self.executor.start()
        self.n = self.executor.workers
        self._remote = ray.remote(_ray_piece).options(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)

    def submit(self, task: tuple) -> None:
        path = task[2]
        if path not in self._models:
            self._models[path] = self.executor.blob(Path(path).read_bytes())
        self._out[self._remote.remote(self._models[path], task)] = task

    def result(self, timeout: float):
        import ray

        if not self._out:
            time.sleep(min(timeout, 0.05))
            return None
        ready, _ = ray.wait(list(self._out), num_returns=1, timeout=timeout)
        if not ready:
            return None
        self._out.pop(ready[0])
        try:
            return ray.get(ready[0])
        except ray.exceptions.RayTaskError as exc:
            raise exc.as_instanceof_cause() from None
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as exc:
            raise WorkerLost(f"a piece's worker died {RETRIES + 1} times ({exc})") from None

    def close(self) -> None:
        import ray

        for r in self._out:
            ray.cancel(r)  # not force=True: see exact.executor.Ray.map
        self._out = {}

    def shutdown(self) -> None:
        if self.own:
            self.executor.close()


def make_pool(executor, workers: int):
    """The pool of pieces for ``executor``: ``"processes"`` (:class:`Pool` of ``workers``),
    ``"in-process"`` (:class:`LocalPool`), or ``"ray"`` / an :class:`exact.executor.Ray`
    (:class:`RayPool`)."""
    if executor in ("processes", None) or isinstance(executor, Processes):
        return Pool(workers if not isinstance(executor, Processes) else executor.workers)
    if executor == "in-process" or isinstance(executor, InProcess):
        return LocalPool()
    if executor == "ray":
        return RayPool(Ray(), own=True)
    if isinstance(executor, Ray):
        return RayPool(executor, own=True)  # its close() ends only a Ray it started itself
    raise ValueError(f"executor {executor!r}: use 'in-process', 'processes', 'ray' or an exact.executor.Executor")


# ----------------------------------------------------------------------------- one phase


@dataclass
class SplitModel:
    """A phase's model as the workers see it: the written file and the column of each ``y``."""

    path: str
    ycol: dict[tuple[int, int], int]  # (action, step) -> column
    actions: tuple[tuple[int, ...], ...]
    L: int

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
    pool: Pool,
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
        while todo and len(running) < pool.n:
            piece = todo.popleft()
            limit = piece_time_limit if deadline is None else min(piece_time_limit, max(0.01, deadline - now))
            fixed = [sm.ycol[k, s] for s, k in prefix_bounds(piece.prefix, sm.actions, sm.L) if (k, s) in sm.ycol]
            pool.submit((phase_id, next_id, sm.path, fixed, limit, options, confirm))
            running[next_id] = piece
            next_id += 1
        wait = 0.2 if deadline is None else max(0.01, min(0.2, deadline - time.perf_counter()))
        got = pool.result(wait)
        if got is None:
            continue
        phase, pid, kind, seconds, dual, values, nodes, confirmed = got
        if phase != phase_id or pid not in running:  # pragma: no cover - a stale answer
            continue
        piece = running.pop(pid)
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
    "FREE_MOVES",
    "PIECE_OPTIONS",
    "Phase",
    "PhaseOutcome",
    "PieceRecord",
    "LocalPool",
    "PieceSolver",
    "Pool",
    "RayPool",
    "SplitModel",
    "children",
    "first_prefix_length",
    "make_pool",
    "prefix_bounds",
    "run_phase",
    "write_model",
]
