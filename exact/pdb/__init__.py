"""Pattern databases, split as Fast Downward splits them.

* :mod:`exact.pdb.pattern`: which tiles a pattern tracks, and its perfect ranking;
* :mod:`exact.pdb.build`: the 0-1 breadth-first search that fills a table;
* :mod:`exact.pdb.store`: tables on disk (atomic writes, format version, sha256, memory maps);
* :mod:`exact.pdb.heuristic`: the adapters searches evaluate (admissible / consistent flags);
* :mod:`exact.pdb.catalog`: the named tables and heuristics; ``python -m exact.pdb``.
"""

from exact.pdb.catalog import PARTITIONS, catalog, tile_heuristic, tile_heuristics
from exact.pdb.heuristic import TileHeuristic, additive, manhattan
from exact.pdb.pattern import TilePattern, check_partition
from exact.pdb.store import PdbError, Table, TableSpec, default_dir, load

__all__ = [
    "PARTITIONS",
    "PdbError",
    "Table",
    "TableSpec",
    "TileHeuristic",
    "TilePattern",
    "additive",
    "catalog",
    "check_partition",
    "default_dir",
    "load",
    "manhattan",
    "tile_heuristic",
    "tile_heuristics",
]
