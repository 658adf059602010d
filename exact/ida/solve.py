"""Optimal tile solving by IDA*, returning the project's :class:`~exact.result.SolveResult`."""

from __future__ import annotations

import time

import numba
import numpy as np

from exact.errors import PuzzleoptError
from exact.ida.tiles import EXHAUSTED, FOUND, TileSearch
from exact.pdb.heuristic import TileHeuristic
from exact.result import SolveResult, Status

CHUNK = 2_000_000  # nodes between two looks at the clock (well under a second)


def ida_tiles(
    puzzle,
    start: np.ndarray,
    heuristic: TileHeuristic,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> SolveResult:
    """A shortest solution of a tile board by IDA* with ``heuristic``.

    Args:
        puzzle: A :class:`~exact.puzzles.tiles.TilesPuzzle` with Korf's goal.
        start: The board, uint8 ``(n,)``.
        heuristic: An admissible heuristic for the same board shape.
        time_limit: Seconds (checked every :data:`CHUNK` nodes); ``None`` for none.
        node_limit: Generated nodes; ``None`` for none.

    Returns:
        ``optimal`` with the solution; ``unsolvable`` for a board of the wrong parity; ``limit``
        with the proven lower bound (the threshold being searched) when a limit is reached.
    """
    if (puzzle.rows, puzzle.cols) != (heuristic.rows, heuristic.cols):
        raise PuzzleoptError(
            f"heuristic {heuristic.name} is for {heuristic.rows}x{heuristic.cols} boards, not {puzzle.name}"
        )
    if puzzle.goal_kind != "korf":
        raise PuzzleoptError(f"{puzzle.name}: IDA* works with Korf's goal; convert with korf_to_blank_last")
    if not heuristic.admissible:
        raise PuzzleoptError(f"heuristic {heuristic.name} is not admissible: IDA* with it would not be optimal")
    start = puzzle.parse_state(start) if isinstance(start, str) else np.asarray(start, dtype=np.uint8)
    settings = {"heuristic": heuristic.name, "time_limit": time_limit, "node_limit": node_limit}
    t0 = time.perf_counter()

    def result(moves, status, bound, nodes, extra=None):
        rows = puzzle.table.parse(" ".join(moves), start) if moves else []
        return SolveResult.build(
            puzzle,
            start,
            rows,
            status,
            lower_bound=bound,
            nodes=nodes,
            seconds=time.perf_counter() - t0,
            solver="ida*",
            solver_version=f"puzzleopt numba {numba.__version__}",
            settings=settings,
            extra=extra or {},
        )

    if not puzzle.is_solvable(start):
        return result([], Status.UNSOLVABLE, None, 0, {"proof": "permutation parity differs from the blank's"})
    search = TileSearch.create(start, heuristic)
    bound, nodes, iterations = search.root_h, 0, []
    if bool(puzzle.is_goal(start[None])[0]):
        return result([], Status.OPTIMAL, 0, 0)
    while True:
        search.restart()
        it_nodes = 0
        while True:
            budget = CHUNK if node_limit is None else min(CHUNK, node_limit - nodes)
            if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                return result([], Status.LIMIT, bound, nodes, {"iterations": iterations})
            code, k = search.run(bound, budget)
            nodes += k
            it_nodes += k
            if code == FOUND:
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                moves = search.moves()
                # every threshold below `bound` was exhausted, so no solution is shorter
                return result(moves, Status.OPTIMAL, len(moves), nodes, {"iterations": iterations})
            if code == EXHAUSTED:
                break
        iterations.append({"bound": bound, "nodes": it_nodes, "complete": True})
        bound = int(search.acc[0])
