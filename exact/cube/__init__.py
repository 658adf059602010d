"""Solvers special to the NxNxN cube: Korf's 3x3x3 pattern databases and their numba IDA*
kernel, the 2x2x2's complete distance table, the move-table exports of the case study and the
outside optimal solver used as a peer (``rubiks_optimal``).

* :mod:`exact.cube.pdb`, :mod:`exact.cube.catalog`: the piece-level tables (Korf 1997);
* :mod:`exact.cube.kernel`, :mod:`exact.cube.solve`: IDA* (:func:`ida_cube`);
* :mod:`exact.cube.walk`: the 2x2x2 table walk (:func:`solve_cube2`);
* :mod:`exact.cube.export`, :mod:`exact.cube.peers`.
"""

from exact.cube.pdb import CubePattern, korf_patterns
from exact.cube.solve import cube_tables, ida_cube
from exact.cube.walk import solve_cube2

__all__ = ["CubePattern", "cube_tables", "ida_cube", "korf_patterns", "solve_cube2"]
