"""Exact solving and graph analysis of the cubical sliding puzzle (see :mod:`exact.puzzles.hypercube`).

``python -m exact.hypercube solve --instance NAME --k K`` (bidirectional BFS, :mod:`.solve`);
``python -m exact.hypercube analyse --d 3 --k 2 --l 4`` (components and diameters, :mod:`.analyse`).
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.hypercube.solve": ("solve_bibfs",),
    },
)

__all__ = ["solve_bibfs"]
