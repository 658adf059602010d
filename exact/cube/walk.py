"""2x2x2 solving as a walk down its complete distance table.

The table holds the distance of every 2x2x2 position (``7! * 3^6 = 3,674,160``, the DBL corner
held home) under the puzzle's metric. It is built once by BFS with the moves of the reduced
frame (:func:`exact.timeindexed.prepare`: each move followed by the rotation that brings DBL
back), stored like a pattern database, and then a solution is any path that lowers the distance
by one at each move. Optimality is proven by the table itself (an exhausted search).
"""

from __future__ import annotations

import time

import numpy as np

from exact.bfs import descend
from exact.errors import PuzzleoptError
from exact.pdb.store import TableSpec, load
from exact.result import SolveResult, Status
from exact.timeindexed import prepare


def cube2_spec(puzzle) -> TableSpec:
    """The stored distance table of a 2x2x2 move set (4 bits: QTM distances reach 14)."""
    from exact.bfs import distance_table
    from exact.puzzles.cube.space import CornerSpace

    meta = puzzle.table.metadata
    space = CornerSpace(2, fixed_corner=True)

    def build(advance):
        reduced = prepare(puzzle, puzzle.goal).table
        dist = distance_table(space, reduced, puzzle.goal)
        advance(space.size)
        return dist

    return TableSpec(
        name=f"cube2-{meta['moves']}-{meta['metric']}-distances",
        puzzle="cube2",
        pattern={"kind": "all corners, DBL home", "moves": meta["moves"], "metric": meta["metric"]},
        entries=space.size,
        packed=True,
        build=build,
    )


def solve_cube2(puzzle, start: np.ndarray, *, pdb_dir=None, progress: bool = True) -> SolveResult:
    """An optimal 2x2x2 solution by walking down the complete distance table."""
    from exact.puzzles.cube.space import CornerSpace

    if puzzle.table.metadata.get("n") != 2:
        raise PuzzleoptError(f"the table walk solves the 2x2x2, not {puzzle.table.description}")
    t0 = time.perf_counter()
    table = load(cube2_spec(puzzle), pdb_dir, progress=progress)
    space = CornerSpace(2, fixed_corner=True)
    problem = prepare(puzzle, np.asarray(start))
    state = np.asarray(problem.frame_start)
    reduced = problem.table

    def distance(states: np.ndarray) -> np.ndarray:
        return table.values(space.rank(states))

    chosen = descend(reduced, state, distance)
    moves = problem.lift(puzzle.table, np.asarray(start), chosen)
    return SolveResult.build(
        puzzle,
        start,
        moves,
        Status.OPTIMAL,
        lower_bound=len(chosen),  # each step of the walk is one closer by the table
        nodes=len(chosen) * reduced.num_moves,
        seconds=time.perf_counter() - t0,
        solver="table-walk",
        solver_version="puzzleopt",
        settings={"table": table.spec.name},
        extra={"proof": "complete distance table (exhausted BFS)"},
    )
