"""The tiles' variant of ``ida*``, for boards that declare ``korf-tiles``: the tiles' numba kernel
with Manhattan distance and linear conflicts or Korf & Felner's additive tables."""

from __future__ import annotations

import functools

import numpy as np

from exact.contract import Limits, Setup, table_puzzle
from exact.deadline import left
from exact.errors import PuzzleoptError
from exact.options import Option
from exact.result import SolveResult
from exact.solvers import register_method

TILE_HEURISTICS = {16: "pdb-663", 25: "pdb-6666"}
"""The tile heuristic IDA* uses per board size (cells) when none is named; boards of at most 9
cells use Manhattan distance with linear conflicts."""


TILE_OPTIONS = (
    Option("heuristic", "text", None, "the tables: pdb-663, pdb-555, pdb-78, manhattan-lc or manhattan (default: "
           "the best whose tables are on disk or small)"),
    Option("patterns", "object", None, "pattern databases: lists of positions whose labels are projected"),
    Option("mirror", "flag", True, "also read the tables mirrored on the diagonal (the larger of the two)"),
)  # fmt: skip


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


COMPILE_SECONDS = 6.0
"""numba's first compile of the tiles' IDA* kernel and heuristics on 2 cores: a 15-puzzle walk of
30 with Manhattan distance and linear conflicts, cache removed 6.2 s (median of 3), cached 0.5 s
(2026-11-28)."""


def _setups(puzzle, options, pdb_dir) -> list[Setup]:
    """The heuristic named, or the board's pattern databases, then Manhattan distance with linear
    conflicts (nothing to build): ``auto`` builds the 510 MB of ``pdb-6666`` only when asked."""
    from exact.kernels import with_compile
    from exact.pdb.store import setup_estimate
    from exact.tiles import heuristic as tile_kernels
    from exact.tiles import kernel
    from exact.tiles.catalog import PARTITIONS, tile_spec
    from exact.tiles.pattern import check_partition

    if options.get("patterns") is not None:  # projections: the generic kernel's set-up
        from exact.ida.methods import generic_setups

        return generic_setups(puzzle, options, pdb_dir)
    cells = puzzle.rows * puzzle.cols
    default = TILE_HEURISTICS.get(cells, "manhattan-lc") if cells > 9 else "manhattan-lc"
    names = [options["heuristic"]] if options.get("heuristic") else [default, "manhattan-lc"]
    out = []
    for name in dict.fromkeys(names):
        part = PARTITIONS.get((puzzle.rows, puzzle.cols), {}).get(name[4:]) if name.startswith("pdb-") else None
        specs = [] if part is None else [tile_spec(p) for p in check_partition(puzzle.rows, puzzle.cols, part)]
        out.append(Setup({"heuristic": name}, sum(s.nbytes for s in specs), *setup_estimate(specs, pdb_dir)))
    return with_compile(out, kernel, tile_kernels, seconds=COMPILE_SECONDS)


register_method(
    "ida*",
    _ida_tiles,
    applies=table_puzzle,
    needs="korf-tiles",
    options=TILE_OPTIONS,
    rank=30,
    setups=_setups,
    nodes=True,
)
