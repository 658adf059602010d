"""Exact Lights Out solvers: linear algebra over GF(2), a MIP (HiGHS) and CP-SAT.

Board conventions are in :mod:`exact.puzzles.lightsout`. Every method returns the project's
:class:`~exact.result.SolveResult` with the presses, in row-major order, as moves of the puzzle's
move table: ``optimal`` (proven minimum), ``unsolvable`` (proven: no press set turns the lights
off; possible on singular boards such as 4x4, 5x5, 9x9), or, for MIP/CP-SAT at a time limit,
``feasible``/``limit``.

``solve_lightsout(7, "0101...", method="gf2")`` is the entry point;
``python -m exact.lightsout --size 7 --lights 0101...`` the command line.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.lightsout.gf2": (
            "MAX_NULLITY",
            "min_presses",
            "solve_gf2",
        ),
        "exact.lightsout.solve": (
            "METHODS",
            "get_method",
            "lightsout_puzzle",
            "solve_lightsout",
        ),
        "exact.puzzles.lightsout.presses": (
            "PressSystem",
            "press_system",
        ),
    },
)

__all__ = [
    "MAX_NULLITY",
    "METHODS",
    "PressSystem",
    "get_method",
    "lightsout_puzzle",
    "min_presses",
    "press_system",
    "solve_gf2",
    "solve_lightsout",
]
