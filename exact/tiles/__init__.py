"""Solvers special to the sliding tiles: Korf & Felner's additive pattern databases and the
tiles' numba IDA* kernel, registered as fast specialisations of the generic stacks.

* :mod:`exact.tiles.pattern`: which tiles a table tracks and its ranking;
* :mod:`exact.tiles.build`: the 0-1 BFS that fills a tile table;
* :mod:`exact.tiles.heuristic`: Manhattan, linear conflicts and additive tables (with the mirror);
* :mod:`exact.tiles.catalog`: Korf's partitions and the heuristics named after them;
* :mod:`exact.tiles.kernel`, :mod:`exact.tiles.solve`: IDA* (:func:`ida_tiles`).
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.tiles.catalog": (
            "PARTITIONS",
            "default_tile_heuristic",
            "tile_heuristic",
            "tile_heuristics",
            "tile_spec",
        ),
        "exact.tiles.heuristic": (
            "TileHeuristic",
            "additive",
            "manhattan",
        ),
        "exact.tiles.pattern": (
            "TilePattern",
            "check_partition",
        ),
        "exact.tiles.solve": ("ida_tiles",),
    },
)

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
