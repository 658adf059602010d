"""Time-indexed MIP models of move-table puzzles (the cube above all), solved through Pyomo.

``build_mip`` builds a model from the move table alone (formulations ``"tight"``, ``"pairs"`` and ``"seed"``,
see ``docs/mip.md``); ``solve_mip`` solves it into the project's :class:`~exact.result.SolveResult`.
``python -m exact.mip --size 3 --turns 8`` is the command line.
"""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.mip.build": ("FORMULATIONS", "build_mip", "model_size"),
        "exact.mip.options": ("MipOptions",),
        "exact.mip.solve": ("solve_mip",),
    },
)

__all__ = ["FORMULATIONS", "MipOptions", "build_mip", "model_size", "solve_mip"]
