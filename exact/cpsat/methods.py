"""The ``cp-sat`` method: the time-indexed CP-SAT model within a horizon."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.options import HINT, HORIZON, SEED, THREADS, VERBOSE, Option
from exact.progress import ModelProgress
from exact.result import SolveResult
from exact.solvers import register_method
from exact.timeindexed import horizon_for, model_applies, model_ready

OPTIONS = (
    HORIZON, HINT, THREADS.with_default(1, "CP-SAT's workers"),
    Option("strategy", "text", "deepen", "deepen: horizons 1, 2, ... until one has a solution (optimal by "
           "construction); minimise: one model of the whole horizon minimising the moves", ("deepen", "minimise")),
    VERBOSE, SEED,
)  # fmt: skip


def _cpsat(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, hint=None,
           **options) -> SolveResult:  # fmt: skip
    """The time-indexed CP-SAT model within a horizon (or stop_at - 1); ``progress``: a line per
    horizon decided (:class:`exact.progress.ModelProgress`)."""
    from exact.cpsat.solve import solve_checked

    rows = None if hint is None else puzzle.table.rows(hint, start)
    with ModelProgress(f"cp-sat {puzzle.name}", bool(progress)) as shown:
        return solve_checked(puzzle, np.asarray(start), horizon_for(stop_at, horizon, "cp-sat"), None,
                             time_limit=left(limits.time), hint=rows, progress=shown, **options)  # fmt: skip


register_method("cp-sat", _cpsat, applies=model_applies, options=OPTIONS, goals=True, ready=model_ready, rank=70)
