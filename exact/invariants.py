"""Every start is checked before any kernel sees it, and an invariant that rules the goal out
ends the solve as ``unsolvable`` before any search.

:func:`checked_start` runs the puzzle's :meth:`~exact.puzzle.Puzzle.check_state` (a state of the
puzzle at all: labels, pieces, stacks) and :meth:`~exact.puzzle.Puzzle.unsolvable` (a parity, a
linear condition, a partial goal no state meets). :func:`exact.solvers.solve` and the
time-indexed drivers call it, so every method, entry point and worker does the same.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from exact.result import SolveResult, Status


def checked_start(puzzle: Any, start: Any) -> tuple[Any, str | None]:
    """``start`` checked as a state of ``puzzle``, and why no solution exists (``None``: no
    invariant rules one out).

    Puzzles outside the protocol (FreeCell's boards, a Sokoban level object) check their own
    starts; they are passed through.

    Raises:
        StateError: ``start`` is no state of ``puzzle`` (the message says why).
    """
    check = getattr(puzzle, "check_state", None)
    if check is None or not isinstance(start, (np.ndarray, list, tuple)):
        return start, None
    state = check(start)
    return state, puzzle.unsolvable(state)


def unsolvable_result(
    puzzle: Any, start: np.ndarray, why: str, *, solver: str, solver_version: str = "",
    settings: Mapping[str, Any] | None = None, since: float | None = None,
) -> SolveResult:  # fmt: skip
    """The ``unsolvable`` result of a start an invariant rules out (``why``, in words)."""
    return SolveResult.build(
        puzzle, start, [], Status.UNSOLVABLE, seconds=0.0 if since is None else time.perf_counter() - since,
        solver=solver, solver_version=solver_version, settings=settings, extra={"unsolvable": why},
    )  # fmt: skip
