"""puzzleopt in a notebook: puzzle states as immutable objects that solve, certify and draw.

::

    from puzzleopt import Cube, solve_facelets

    cube = Cube(3).apply("R U R' F")       # an immutable state; shown as a net in Jupyter
    result = cube.solve(method="mip")      # a SolveResult, shown as a card
    cube.certify("F' R U' R'")             # proven optimal, or a shorter solution
    solve_facelets(cube.facelets)          # "F' R U' R'" (kociemba-style one-liner)

Everything here is a thin layer over the three packages: puzzles come from
:mod:`exact.registry`, solves from :mod:`exact.solvers` (``method="bwas"`` from
:mod:`learned.bwas`), certificates from :mod:`hybrid.certify`. Names load on first use, so
``import puzzleopt`` is cheap and imports neither Pyomo nor torch.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from exact.provenance import package_version

__version__: str = package_version()
"""The installed package's version (its metadata: pyproject.toml's ``version``)."""

_EXPORTS = {
    "State": "puzzleopt.states",
    "Cube": "puzzleopt.states",
    "Tiles": "puzzleopt.states",
    "LightsOut": "puzzleopt.states",
    "Pyraminx": "puzzleopt.states",
    "Pancake": "puzzleopt.states",
    "Sokoban": "puzzleopt.states",
    "FreeCell": "puzzleopt.states",
    "solve": "puzzleopt.solving",
    "certify": "puzzleopt.solving",
    "solve_facelets": "puzzleopt.facelets",
    "METHODS": "puzzleopt.solving",
}

__all__ = [  # literal, so that type checkers read it; equal to sorted(_EXPORTS) (tests/test_layers.py)
    "__version__", "Cube", "FreeCell", "LightsOut", "METHODS", "Pancake", "Pyraminx", "Sokoban", "State", "Tiles",
    "certify", "solve", "solve_facelets",
]  # fmt: skip

if TYPE_CHECKING:  # what type checkers see; at run time each name loads on first use
    from puzzleopt.facelets import solve_facelets
    from puzzleopt.solving import METHODS, certify, solve
    from puzzleopt.states import Cube, FreeCell, LightsOut, Pancake, Pyraminx, Sokoban, State, Tiles


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'puzzleopt' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
