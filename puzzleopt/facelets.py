"""The kociemba-style one-liner: a solution of a facelet string, as notation."""

from __future__ import annotations

from typing import Any

from exact.contract import Limits
from exact.errors import PuzzleoptError
from exact.result import Status
from puzzleopt.states import Cube


def solve_facelets(
    facelets: str,
    optimal: bool = True,
    metric: str = "qtm",
    *,
    method: str = "auto",
    time_limit: float | None = None,
    **options: Any,
) -> str:
    """A solution of a cube's facelet string, as notation (``""`` for a solved cube).

    Args:
        facelets: ``6*n*n`` letters URFDLB (kociemba's format; any size 2-7).
        optimal: Only a proven optimal solution (the default); ``False`` accepts any, found by
            BWAS where a network ships for the cube and metric (:mod:`learned.models`), else by
            the optimal methods.
        metric: ``"qtm"`` (the default, as everywhere in puzzleopt) or ``"htm"`` (kociemba's).
        method: The exact method (``"auto"``: on the 3x3x3 the optimal solver, whose 1.67 GB
            table is built once, in minutes, on first use; on the 2x2x2 the distance table).
        time_limit: Seconds.
        options: The method's own options.

    Raises:
        PuzzleoptError: a bad facelet string, or the limit ended the search without the answer
            asked for (the message gives the proven lower bound).
    """
    Limits(time=time_limit)  # a bad limit is refused even where the cube is already solved
    cube = Cube.from_facelets(facelets, moves="faces", metric=metric)
    if cube.is_solved:
        return ""
    result = None
    if not optimal:
        try:
            result = cube.solve(method="bwas", time_limit=time_limit)
        except PuzzleoptError:  # no network ships for this cube (or no learned extra)
            result = None
    if result is None or not result.status.has_solution:
        result = cube.solve(method=method, time_limit=time_limit, **options)
    if result.status is Status.OPTIMAL or (not optimal and result.status.has_solution):
        return " ".join(result.moves)
    raise PuzzleoptError(
        f"solve_facelets: {result.status.value} after {result.seconds:.1f} s without "
        f"{'a proven optimal' if optimal else 'a'} solution (lower bound {result.lower_bound}); raise time_limit"
    )
