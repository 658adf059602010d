"""Pattern databases, split as Fast Downward splits them.

* :mod:`exact.pdb.projection`: the generic pattern (a projection of labels), its ranking, the
  0-1 BFS that fills its table and the heuristic adapter, for any puzzle with a move table;
* :mod:`exact.pdb.store`: tables on disk (atomic writes, format version, sha256, memory maps).

The tiles and the cube have faster specialisations of their own (:mod:`exact.tiles`,
:mod:`exact.cube`); ``python -m exact.pdb`` manages the named tables (:mod:`exact.catalog`).
"""

from exact.pdb.projection import PdbHeuristic, Projection, additive_ok, default_patterns, heuristic
from exact.pdb.store import PdbError, Table, TableSpec, default_dir, load

__all__ = [
    "PdbError",
    "PdbHeuristic",
    "Projection",
    "Table",
    "TableSpec",
    "additive_ok",
    "default_dir",
    "default_patterns",
    "heuristic",
    "load",
]
