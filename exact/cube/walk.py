"""The 2x2x2 by its complete distance table: :mod:`exact.tablewalk` on the puzzle's declared
ranked space (:meth:`exact.puzzles.cube.CubePuzzle.ranked_space`: all corners, DBL home).

Kept for the names the tests and benchmarks use; the registered method is ``table-walk``.
"""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError
from exact.pdb.store import TableSpec
from exact.result import SolveResult
from exact.tablewalk import solve_table, table_spec


def cube2_spec(puzzle) -> TableSpec:
    """The stored distance table of a 2x2x2 move set (4 bits: QTM distances reach 14)."""
    return table_spec(puzzle)


def solve_cube2(puzzle, start: np.ndarray, *, pdb_dir=None, progress: bool = True) -> SolveResult:
    """An optimal 2x2x2 solution by walking down the complete distance table."""
    if puzzle.table.metadata.get("n") != 2:
        raise PuzzleoptError(f"the table walk solves the 2x2x2, not {puzzle.table.description}")
    return solve_table(puzzle, start, pdb_dir=pdb_dir, progress=progress)
