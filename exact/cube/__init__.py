"""Solvers special to the NxNxN cube: the optimal 3x3x3 solver, Korf's 3x3x3 pattern databases
and their numba IDA* kernel, Kociemba-style coordinates, the move-table exports of the case study
and the outside optimal solver used as a peer (``rubiks_optimal``). (The 2x2x2 is solved by the
generic :mod:`exact.tablewalk` over the cube's declared ranked space.)

* :mod:`exact.cube.optimal` (:func:`optimal_cube`, method ``cube3-optimal``), with
  :mod:`exact.cube.prune` (the symmetry-reduced flip-slice x twist table),
  :mod:`exact.cube.symmetry` (the 16 U-D symmetries, conjugation) and
  :mod:`exact.cube.optkernel` (the parallel numba IDA*);
* :mod:`exact.cube.pdb`, :mod:`exact.cube.catalog`: the piece-level tables (Korf 1997);
* :mod:`exact.cube.kernel`, :mod:`exact.cube.solve`: IDA* with them (:func:`ida_cube`);
* :mod:`exact.cube.coords`: twist, flip, UD-slice (with or without order) and corner-permutation
  coordinates;
* :mod:`exact.cube.export`, :mod:`exact.cube.peers`.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.cube.optimal": (
            "optimal_cube",
            "optimal_tables",
        ),
        "exact.cube.pdb": (
            "CubePattern",
            "korf_patterns",
        ),
        "exact.cube.solve": (
            "cube_tables",
            "ida_cube",
        ),
    },
)

__all__ = ["CubePattern", "cube_tables", "ida_cube", "korf_patterns", "optimal_cube", "optimal_tables"]
