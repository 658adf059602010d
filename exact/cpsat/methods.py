"""The ``cp-sat`` method: the time-indexed CP-SAT model within a horizon."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.options import HINT, HORIZON, THREADS
from exact.progress import ModelProgress
from exact.result import SolveResult
from exact.solvers import register_method
from exact.timeindexed import horizon_for, model_applies, model_ready

OPTIONS = (HORIZON, THREADS.with_default(1, "CP-SAT's workers"), HINT)


def _cpsat(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, threads=1,
           hint=None) -> SolveResult:  # fmt: skip
    """The time-indexed CP-SAT model within a horizon (or stop_at - 1); ``progress``: a line per
    horizon decided (:class:`exact.progress.ModelProgress`)."""
    from exact.cpsat import solve_cpsat

    rows = None if hint is None else puzzle.table.rows(hint, start)
    with ModelProgress(f"cp-sat {puzzle.name}", bool(progress)) as shown:
        return solve_cpsat(puzzle, np.asarray(start), horizon_for(stop_at, horizon, "cp-sat"),
                           time_limit=left(limits.time), threads=threads, hint=rows, progress=shown)  # fmt: skip


register_method("cp-sat", _cpsat, applies=model_applies, options=OPTIONS, goals=True, ready=model_ready, rank=70)
