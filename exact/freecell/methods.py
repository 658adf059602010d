"""FreeCell's method, for puzzles that declare ``freecell-deal``."""

from __future__ import annotations

from exact.contract import Limits
from exact.deadline import left
from exact.result import SolveResult
from exact.solvers import register_method


def _search(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """FreeCell: a solution or a proof that none exists, not the shortest (a Board, a deal number
    with the puzzle's free cells, or a board text); python -m exact.freecell and
    puzzleopt.FreeCell solve through it."""
    from exact.freecell.solve import solve_freecell
    from exact.puzzles.freecell import Board

    cells = None if isinstance(start, Board) else puzzle.freecells
    return solve_freecell(start, freecells=cells, time_limit=left(limits.time), max_states=limits.stored)


register_method("freecell", _search, needs="freecell-deal", proves=False, stored=True, rank=95)
