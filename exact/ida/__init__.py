"""IDA*: optimal solutions with node counts and honest limits.

:func:`ida` searches any puzzle's move table with any heuristic that has a numba kernel
(:mod:`exact.heuristic`); :func:`deepen` drives the puzzles' own fast kernels too
(:mod:`exact.tiles`, :mod:`exact.cube`). ``python -m exact.ida`` is the command line.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.ida.solve": (
            "deepen",
            "ida",
        ),
    },
)

__all__ = ["deepen", "ida"]
