"""The ``mip`` method: the time-indexed MIP as ``python -m exact.mip`` runs it."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.options import HINT, HORIZON, THREADS, Option
from exact.progress import ModelProgress
from exact.result import SolveResult
from exact.solvers import register_method
from exact.timeindexed import horizon_for, model_applies, model_ready

SPLIT_THREADS = THREADS.with_default(
    None,
    "worker processes of the split proof (unset: none, the pieces run one after another in this process); "
    "with split=False, HiGHS threads (unset: 1)",
)
OPTIONS = (
    HORIZON, SPLIT_THREADS,
    Option("formulation", "text", "pairs", "the model: tight, pairs (steps of two moves) or seed",
           ("tight", "pairs", "seed")),
    Option("split", "flag", True, "prove by splitting on the first moves, on every core (HiGHS)"),
    Option("incumbent", "text", "bfs", "how the split finds its first solution: bfs or mip", ("bfs", "mip")),
    HINT,
)  # fmt: skip


def _mip(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, threads=None,
         formulation="pairs", split=True, incumbent="bfs", hint=None) -> SolveResult:  # fmt: skip
    """The time-indexed MIP (HiGHS) within a horizon (or stop_at - 1), proven piece by piece
    (split=False: the whole model in one run).

    The ``pairs`` formulation proven piece by piece (the split) with an incumbent
    (``hint``, else bidirectional BFS), in this process unless ``threads`` asks for worker
    processes; ``split=False`` solves the whole model in one HiGHS run (``threads`` HiGHS
    threads, default 1). ``progress``: the split's stages as they happen
    (:class:`exact.progress.ModelProgress`)."""
    from exact.mip import solve_mip

    split = bool(split) and formulation != "seed"
    threads = 1 if threads is None else threads
    extra = {"split": True, "incumbent": incumbent} if split else {}
    rows = None if hint is None else puzzle.table.rows(hint, start)
    with ModelProgress(f"mip {puzzle.name}", bool(progress)) as shown:
        return solve_mip(puzzle, np.asarray(start), horizon_for(stop_at, horizon, "mip"), time_limit=left(limits.time),
                         threads=threads, formulation_name=formulation, hint=rows, progress=shown, **extra)  # fmt: skip


register_method("mip", _mip, applies=model_applies, options=OPTIONS, goals=True, ready=model_ready, rank=90)
