"""Exact FreeCell: a complete search that solves a board or proves it unsolvable.

:func:`solve_freecell` takes a Microsoft deal number, a board text or a board; :func:`prove` a
board. Both return a :class:`~exact.result.SolveResult`. The rules, notation and board text are
in :mod:`exact.puzzles.freecell`; why the search's proofs are sound is in :mod:`exact.freecell.solve`.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.freecell.solve": (
            "SOLVER",
            "SOLVER_VERSION",
            "prove",
            "solve_freecell",
        ),
    },
)

__all__ = ["SOLVER", "SOLVER_VERSION", "prove", "solve_freecell"]
