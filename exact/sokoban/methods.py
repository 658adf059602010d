"""Sokoban's method, for puzzles that declare ``sokoban-level``: A* with deadlock tables."""

from __future__ import annotations

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.options import Option
from exact.solvers import register_method


def _astar(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, optimize="moves"):
    """Sokoban by A* with deadlock tables (moves or pushes optimal)."""
    from exact.sokoban.solve import DEFAULT_MAX_STORED, solve_sokoban

    level = puzzle.level_of(np.asarray(start)) if isinstance(start, np.ndarray) else start
    stored = DEFAULT_MAX_STORED if limits.stored is None else limits.stored
    return solve_sokoban(level, optimize, time_limit=left(limits.time), node_limit=limits.nodes, max_stored=stored)


COMPILE_SECONDS = 9.5
"""numba's first compile of the A* kernels on 2 cores: 9.4 s measured (Boxoban hard 0 with the
cache removed: 9.42 s, with it 0.47 s; 2026-11-28)."""


def _setups(puzzle, options, pdb_dir) -> list:
    """Nothing to build but the kernels, the first time (:func:`exact.kernels.compile_setup`)."""
    from exact.kernels import compile_setup
    from exact.sokoban import search

    return compile_setup(search, seconds=COMPILE_SECONDS)


OPTIMIZE = Option("optimize", "text", "moves", "what the solution is shortest in: moves or pushes", ("moves", "pushes"))
register_method(
    "sokoban", _astar, needs="sokoban-level", options=(OPTIMIZE,), stored=True, nodes=True, rank=51, setups=_setups
)
