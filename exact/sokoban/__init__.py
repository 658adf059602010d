"""Exact Sokoban: move-optimal and push-optimal A* (:func:`solve_sokoban`), generated levels and
training states (:mod:`exact.puzzles.sokoban.generate`), ``python -m exact.sokoban``.

The puzzle itself (levels, XSB text, move table, LURD) is :mod:`exact.puzzles.sokoban`.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.puzzles.sokoban.generate": (
            "generate_level",
            "pull_boxes",
            "training_states",
        ),
        "exact.sokoban.solve": (
            "OPTIMIZE",
            "solve_sokoban",
        ),
    },
)

__all__ = ["OPTIMIZE", "generate_level", "pull_boxes", "solve_sokoban", "training_states"]
