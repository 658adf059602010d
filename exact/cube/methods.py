"""The cube's own methods: ``cube3-optimal`` and ``ida*-cube``, for puzzles that declare
``cube3-coordinates`` (the 3x3x3 with face turns, either metric)."""

from __future__ import annotations

import functools

import numpy as np

from exact.contract import Limits
from exact.deadline import left
from exact.result import SolveResult
from exact.solvers import register_method


def _optimal(
    puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, edge="slicesorted", threads=None
) -> SolveResult:
    """IDA* on the 3x3x3 (face turns) with the symmetry-reduced flip-slice x twist table read along
    three axes, on every thread (edge=slicesorted: 1.67 GB, the default; edge=slice: 70 MB)."""
    from exact.cube.optimal import optimal_cube

    return optimal_cube(
        puzzle, np.asarray(start), tables=_optimal_tables(puzzle, edge, pdb_dir, progress),
        time_limit=left(limits.time), node_limit=limits.nodes, stop_at=stop_at, threads=threads, progress=progress,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _optimal_tables(puzzle, edge: str, pdb_dir, progress: bool):
    from exact.cube.optimal import optimal_tables

    return optimal_tables(puzzle, edge=edge, pdb_dir=pdb_dir, progress=progress)


def _korf(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """IDA* on the 3x3x3 (face turns) with Korf's three pattern databases."""
    from exact.cube.solve import ida_cube

    tables = _korf_tables(puzzle.table.metadata.get("metric", "htm"), pdb_dir, progress)
    return ida_cube(
        puzzle, np.asarray(start), tables=tables, time_limit=left(limits.time), node_limit=limits.nodes,
        progress=progress, stop_at=stop_at,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _korf_tables(metric: str, pdb_dir, progress: bool) -> tuple:
    from exact.cube.solve import cube_tables

    return cube_tables(metric, pdb_dir=pdb_dir, progress=progress)


register_method("cube3-optimal", _optimal, needs="cube3-coordinates", options=("edge", "threads"), rank=20)
register_method("ida*-cube", _korf, needs="cube3-coordinates", rank=25)
