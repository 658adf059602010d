"""One entry point for the three exact Lights Out solvers, chosen by name from a small registry."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from exact import registry
from exact.cli import MAX_THREADS
from exact.errors import PuzzleoptError
from exact.puzzles.lightsout import LightsOutPuzzle
from exact.result import SolveResult

METHODS: dict[str, tuple[str, str, str]] = {
    "gf2": ("exact.lightsout.gf2", "solve_gf2", "Gaussian elimination over GF(2), the solution coset enumerated"),
    "mip": ("exact.lightsout.mip", "solve_lightsout_mip", "parity MIP (integer slack) solved by HiGHS via Pyomo"),
    "cpsat": ("exact.lightsout.cpsat", "solve_lightsout_cpsat", "one XOR per cell, presses minimised by CP-SAT"),
}
"""Method name -> (module, function, description). Modules load on first use, so ``gf2`` never imports Pyomo."""


def get_method(name: str) -> Callable[..., SolveResult]:
    """The solve function registered under ``name`` (``puzzle, lights, *, time_limit, threads, ...``)."""
    entry = METHODS.get(name)
    if entry is None:
        raise PuzzleoptError(f"unknown lightsout method {name!r}; use one of {', '.join(METHODS)}")
    module, function, _ = entry
    return getattr(importlib.import_module(module), function)


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
    solve = get_method(method)
    puzzle = lightsout_puzzle(puzzle_or_size)
    return solve(puzzle, puzzle.lights(lights), time_limit=time_limit, threads=threads, **options)
