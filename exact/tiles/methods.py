"""The tiles' variant of ``ida*``, for boards that declare ``korf-tiles``: the tiles' numba kernel
with Manhattan distance and linear conflicts or Korf & Felner's additive tables."""

from __future__ import annotations

import functools

import numpy as np

from exact.contract import Limits, table_puzzle
from exact.deadline import left
from exact.errors import PuzzleoptError
from exact.result import SolveResult
from exact.solvers import register_method

TILE_HEURISTICS = {16: "pdb-663", 25: "pdb-6666"}
"""The tile heuristic IDA* uses per board size (cells) when none is named; boards of at most 9
cells use Manhattan distance with linear conflicts."""


TILE_OPTIONS = ("heuristic", "patterns", "mirror")


@functools.lru_cache(maxsize=4)
def _tile_heuristic(name: str, rows: int, cols: int, pdb_dir, progress: bool, mirror: bool):
    # loaded once for a whole file of instances: the 7-8 tables alone are 577 MB
    from exact.tiles import tile_heuristic

    return tile_heuristic(name, rows, cols, pdb_dir=pdb_dir, progress=progress, mirror=mirror)


def _tile_name(puzzle) -> str:
    cells = puzzle.rows * puzzle.cols
    name = "manhattan-lc" if cells <= 9 else TILE_HEURISTICS.get(cells)
    if name is None:
        raise PuzzleoptError(f"{puzzle.name}: no pattern databases for this board; name heuristic='manhattan-lc'")
    return name


def _ida_tiles(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, heuristic=None,
               patterns=None, mirror=True) -> SolveResult:  # fmt: skip
    """IDA* with the tiles' kernel and additive pattern databases (heuristic=pdb-663, ...,
    mirror=); projections of labels (patterns=) go to the generic kernel."""
    if patterns is not None:
        from exact.ida.methods import run_ida

        return run_ida(puzzle, start, limits, stop_at=stop_at, pdb_dir=pdb_dir, progress=progress,
                       heuristic=heuristic, patterns=patterns)  # fmt: skip
    from exact.tiles import ida_tiles

    h = _tile_heuristic(heuristic or _tile_name(puzzle), puzzle.rows, puzzle.cols, pdb_dir, progress, mirror)
    return ida_tiles(puzzle, np.asarray(start), h, time_limit=left(limits.time), node_limit=limits.nodes,
                     stop_at=stop_at, progress=progress)  # fmt: skip


register_method("ida*", _ida_tiles, applies=table_puzzle, needs="korf-tiles", options=TILE_OPTIONS, rank=30)
