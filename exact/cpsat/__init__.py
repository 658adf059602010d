"""CP-SAT (OR-Tools) models of move-table puzzles, from the same table and options as the MIP.

``python -m exact.cpsat --size 3 --turns 10`` is the command line (the same options as
``python -m exact.mip``).
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.cpsat.model": ("build_cpsat",),
        "exact.cpsat.solve": (
            "STRATEGIES",
            "solve_cpsat",
        ),
    },
)

__all__ = ["STRATEGIES", "build_cpsat", "solve_cpsat"]
