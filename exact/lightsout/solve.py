"""One entry point for the three exact Lights Out solvers, which are methods of the one registry
(:mod:`exact.solvers`: ``lightsout``, ``lightsout-mip``, ``lightsout-cpsat``); here they keep their
short names ``gf2``, ``mip`` and ``cpsat``."""

from __future__ import annotations

from typing import Any

import numpy as np

from exact import registry, solvers
from exact.contract import Limits, Method
from exact.errors import PuzzleoptError
from exact.puzzles.lightsout import LightsOutPuzzle
from exact.resources import MAX_THREADS
from exact.result import SolveResult

METHODS: dict[str, str] = {"gf2": "lightsout", "mip": "lightsout-mip", "cpsat": "lightsout-cpsat"}
"""Short name -> the registered method (:func:`exact.solvers.get_method`), whose description says what it is."""


def get_method(name: str) -> Method:
    """The registered method the short name ``name`` stands for."""
    if name not in METHODS:
        raise PuzzleoptError(f"unknown lightsout method {name!r}; use one of {', '.join(METHODS)}")
    return solvers.get_method(METHODS[name])


def lightsout_puzzle(puzzle_or_size: LightsOutPuzzle | int | tuple[int, int]) -> LightsOutPuzzle:
    """A board from a puzzle, a side (square board) or a ``(rows, cols)`` pair."""
    if isinstance(puzzle_or_size, LightsOutPuzzle):
        return puzzle_or_size
    if isinstance(puzzle_or_size, tuple) and len(puzzle_or_size) == 2:
        return _puzzle(*puzzle_or_size)
    if isinstance(puzzle_or_size, (int, np.integer)) and not isinstance(puzzle_or_size, bool):
        return _puzzle(puzzle_or_size, puzzle_or_size)
    raise PuzzleoptError(
        f"a lightsout board is a LightsOutPuzzle, a side (e.g. 7) or (rows, cols), got {puzzle_or_size!r}"
    )


def _puzzle(rows: int, cols: int) -> LightsOutPuzzle:
    return registry.get("lightsout", rows=int(rows), cols=int(cols))  # the registry keeps one per size


def solve_lightsout(
    puzzle_or_size: LightsOutPuzzle | int | tuple[int, int],
    lights: str | np.ndarray,
    method: str = "gf2",
    time_limit: float | None = None,
    threads: int = 1,
    **options: Any,
) -> SolveResult:
    """Minimum presses that turn every light off, with a proof status.

    Args:
        puzzle_or_size: The board: a :class:`LightsOutPuzzle`, a side or ``(rows, cols)``.
        lights: A lights string (``"0101..."``, row-major), 0/1 lights ``(R, C)`` or ``(R * C,)``,
            or a state ``(2 * R * C,)``.
        method: ``"gf2"`` (default, milliseconds), ``"mip"`` (HiGHS) or ``"cpsat"``.
        time_limit: Seconds for the MIP/CP-SAT solver (``None``: none; gf2 needs none).
        threads: Solver threads.
        **options: Passed to the method (``verbose``; mip: ``solver_options``; cpsat: ``seed``).

    Returns:
        The :class:`~exact.result.SolveResult` (moves: the presses in row-major order).
    """
    if time_limit is not None and not time_limit > 0:
        raise PuzzleoptError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= MAX_THREADS:
        raise PuzzleoptError(f"threads must be an integer in 1..{MAX_THREADS}, got {threads!r}")
    chosen = get_method(method)
    puzzle = lightsout_puzzle(puzzle_or_size)
    start = puzzle.lights(lights)  # bad input fails here, before a solver loads
    return solvers.solve(puzzle, start, method=chosen.name, limits=Limits(time=time_limit), threads=threads, **options)
