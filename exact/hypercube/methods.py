"""The cubical sliding puzzle's method, for puzzles that declare ``hypercube-configurations``."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.result import SolveResult
from exact.solvers import register_method


def _bibfs(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """The cubical sliding puzzle by bidirectional BFS over configurations."""
    from exact.hypercube.solve import DEFAULT_MAX_STATES, solve_bibfs

    stored = DEFAULT_MAX_STATES if limits.stored is None else limits.stored
    return solve_bibfs(puzzle, np.asarray(start), max_states=stored, time_limit=left(limits.time))


register_method("hypercube", _bibfs, needs="hypercube-configurations", stored=True, rank=50)
