"""The split's pieces, solved in worker processes: a phase's LP file read once per worker, a
prefix's columns fixed, HiGHS run (:func:`solve_piece`, the task of the split's stream).

This module imports neither Pyomo nor numba: a worker imports it by the task's name, and where
the forkserver was started without the split's preload (by another stream of the same process
first) each worker would otherwise import both again, about 2 s a worker and a phase.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from exact.mip.highs import quiet_highs, run_highs

REFUTED, SOLVED, LIMIT = "refuted", "solved", "limit"

PRELOAD = ("exact.mip.pieces", "highspy", "exact.mip.split")
"""What the worker processes' forkserver imports once for all of them, where the split starts it.
``exact.mip.split`` too: a script run by its path is imported again by every worker (Python's
forkserver does so), and its imports of the MIP then cost the workers nothing (measured: 1 s a
2x2 split solve with it, 3 s without)."""


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
