"""The ``mip`` method: the time-indexed MIP as ``python -m exact.mip`` runs it, its options
declared once in :data:`exact.mip.options.OPTIONS`."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.mip.options import OPTIONS, MipOptions
from exact.progress import ModelProgress
from exact.result import SolveResult
from exact.solvers import register_method
from exact.timeindexed import horizon_for, model_applies, model_ready


def _mip(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, hint=None,
         hint_source=None, **options) -> SolveResult:  # fmt: skip
    """The time-indexed MIP (HiGHS) within a horizon (or stop_at - 1), proven piece by piece
    (split=False: the whole model in one run).

    The ``pairs`` formulation proven piece by piece (the split) with an incumbent (``hint``,
    else bidirectional BFS), in this process unless ``threads`` asks for worker processes;
    ``split=False`` solves the whole model in one HiGHS run (``threads`` HiGHS threads, default
    1). ``progress``: the split's stages as they happen (:class:`exact.progress.ModelProgress`).
    The start was checked by :func:`exact.solvers.solve`."""
    from exact.mip.solve import solve_checked

    rows = None if hint is None else puzzle.table.rows(hint, start)
    T = horizon_for(stop_at, horizon, "mip")
    with ModelProgress(f"mip {puzzle.name}", bool(progress)) as shown:
        return solve_checked(puzzle, np.asarray(start), T, MipOptions.of(options), time_limit=left(limits.time),
                             hint=rows, hint_source=hint_source, progress=shown)  # fmt: skip


register_method("mip", _mip, applies=model_applies, options=OPTIONS, goals=True, ready=model_ready, rank=90)
