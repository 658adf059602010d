"""Optimal tile solving by IDA* with the tiles' own numba kernel (:mod:`exact.tiles.kernel`),
returning the project's :class:`~exact.result.SolveResult`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from exact.errors import PuzzleoptError
from exact.ida.solve import finish, recorder, watched
from exact.result import SolveResult, Status
from exact.tiles.heuristic import TileHeuristic
from exact.tiles.kernel import TileSearch

if TYPE_CHECKING:
    from exact.puzzle import Puzzle


def ida_tiles(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: TileHeuristic,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop_at: int | None = None,
    progress: bool = False,
) -> SolveResult:
    """A shortest solution of a tile board by IDA* with ``heuristic``.

    Args:
        puzzle: A :class:`~exact.puzzles.tiles.TilesPuzzle` with Korf's goal.
        start: The board, uint8 ``(n,)``.
        heuristic: An admissible heuristic for the same board shape.
        time_limit: Seconds (checked every :data:`CHUNK` nodes); ``None`` for none.
        node_limit: Expanded nodes; ``None`` for none.
        stop_at: Stop with ``limit`` and the lower bound ``stop_at`` once every shorter
            threshold is exhausted, without searching for a solution of that length (to prove a
            known solution of length ``stop_at`` optimal); ``None``: search to the end.
        progress: show the bound, nodes and rate as the search runs (:mod:`exact.progress`).

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
    settings = {"heuristic": heuristic.name, "time_limit": time_limit, "node_limit": node_limit, "stop_at": stop_at}
    t0 = time.perf_counter()

    record = recorder(puzzle, start, settings, t0)

    def done(moves, status, bound=None, nodes=None, extra=None):
        rows = puzzle.table.parse(" ".join(moves), start) if moves else []
        return record(rows, status, bound, nodes, extra)

    if not puzzle.is_solvable(start):
        return done([], Status.UNSOLVABLE, None, 0, {"proof": "permutation parity differs from the blank's"})
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    search = TileSearch.create(start, heuristic)
    return finish(search, *watched(f"ida* {puzzle.name}", progress, search, t0, time_limit, node_limit, stop_at), done)
