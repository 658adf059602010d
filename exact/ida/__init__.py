"""IDA*: optimal solutions with node counts and honest limits.

:func:`ida` searches any puzzle's move table with any heuristic that has a numba kernel
(:mod:`exact.heuristic`); :func:`deepen` drives the puzzles' own fast kernels too
(:mod:`exact.tiles`, :mod:`exact.cube`). ``python -m exact.ida`` is the command line.
"""

from exact.ida.solve import deepen, ida

__all__ = ["deepen", "ida"]
