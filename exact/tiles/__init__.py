"""Solvers special to the sliding tiles: Korf & Felner's additive pattern databases and the
tiles' numba IDA* kernel, registered as fast specialisations of the generic stacks.

* :mod:`exact.tiles.pattern`: which tiles a table tracks and its ranking;
* :mod:`exact.tiles.build`: the 0-1 BFS that fills a tile table;
* :mod:`exact.tiles.heuristic`: Manhattan, linear conflicts and additive tables (with the mirror);
* :mod:`exact.tiles.catalog`: Korf's partitions and the heuristics named after them;
* :mod:`exact.tiles.kernel`, :mod:`exact.tiles.solve`: IDA* (:func:`ida_tiles`).
"""

from exact.tiles.catalog import (
    PARTITIONS,
    default_tile_heuristic,
    tile_heuristic,
    tile_heuristics,
    tile_spec,
)
from exact.tiles.heuristic import TileHeuristic, additive, manhattan
from exact.tiles.pattern import TilePattern, check_partition
from exact.tiles.solve import ida_tiles

__all__ = [
    "PARTITIONS",
    "TileHeuristic",
    "TilePattern",
    "additive",
    "check_partition",
    "default_tile_heuristic",
    "ida_tiles",
    "manhattan",
    "tile_heuristic",
    "tile_heuristics",
    "tile_spec",
]
