"""The IDA* driver: iterations of a resumable kernel under time and node limits.

:func:`deepen` runs any :class:`~exact.ida.search.ResumableSearch` (the generic kernel of
:mod:`exact.ida.generic`, or a puzzle's fast one, e.g. :mod:`exact.tiles.kernel`) and
:func:`ida` solves any puzzle with a heuristic that has a numba kernel.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from exact.errors import PuzzleoptError
from exact.heuristic import UNREACHABLE, Heuristic, kernel_of
from exact.ida.generic import GenericSearch
from exact.ida.search import FOUND, PAUSED
from exact.progress import SearchProgress
from exact.provenance import toolkit
from exact.result import SolveResult, Status
from exact.timeindexed import move_parity

if TYPE_CHECKING:
    from exact.puzzle import Puzzle

CHUNK = 2_000_000  # nodes between two looks at the clock (well under a second)


def deepen(
    search: Any,
    t0: float,
    time_limit: float | None,
    node_limit: int | None,
    stop_at: int | None = None,
    watch: SearchProgress | None = None,
) -> tuple[int, int, int, int, int]:
    """Run IDA* iterations on a resumable ``search`` until it finds a solution or a limit.

    With ``stop_at``, it also stops (as at a limit) once the threshold reaches ``stop_at``: every
    shorter threshold is then exhausted, which proves a known solution of that length optimal.

    Args:
        node_limit: Nodes *expanded* (:class:`exact.solvers.Limits`); the kernels run in
            budgets of generated nodes no larger than what is left, and every expansion
            generates at least one node, so the limit is never passed.
        watch: a :class:`exact.progress.SearchProgress` told the bound and nodes after each budget.

    Returns:
        ``(code, bound, generated, expanded, iterations)``, ints: ``code`` is ``FOUND`` or
        ``PAUSED`` (a limit); ``bound`` is the solution length when found, else the proven lower
        bound.
    """

    def threshold(b: int) -> int:
        return b + 1 if search.parity is not None and (b - search.parity) % 2 else b

    bound, nodes, iterations = threshold(search.root_h), 0, []
    while True:
        if stop_at is not None and bound >= stop_at:
            return PAUSED, bound, nodes, int(search.acc[1]), iterations
        search.restart()
        it_nodes = 0
        while True:
            left = None if node_limit is None else node_limit - int(search.acc[1])
            budget = CHUNK if left is None else min(CHUNK, left)
            if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                return PAUSED, bound, nodes, int(search.acc[1]), iterations
            code, k = search.run(bound, budget)
            nodes += k
            it_nodes += k
            if watch is not None:
                watch.update(bound, nodes)
            if code == FOUND:
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                return FOUND, bound, nodes, int(search.acc[1]), iterations
            if code != PAUSED:
                break
        iterations.append({"bound": bound, "nodes": it_nodes, "complete": True})
        bound = threshold(int(search.acc[0]))


def watched(what: str, progress: bool, search, t0: float, time_limit, node_limit, stop_at):
    """:func:`deepen` with its progress shown where ``progress`` (:class:`SearchProgress` named ``what``)."""
    with SearchProgress(what, progress, unit="generated nodes") as watch:
        out = deepen(search, t0, time_limit, node_limit, stop_at, watch)
        watch.close("solved" if out[0] == FOUND else "stopped at a limit", out[2])  # the result's generated count
    return out


def finish(search, code, bound, generated, expanded, iterations, done) -> SolveResult:
    """The result of a :func:`deepen` run through ``done`` (a :meth:`SolveResult.recorder`):
    ``optimal`` with the solution found (every shorter threshold was exhausted), else ``limit``
    with the proven bound. ``nodes`` counts expanded nodes, ``extra["generated"]`` generated."""
    extra = {"iterations": iterations, "generated": generated}
    if code == FOUND:
        moves = search.moves()
        return done(moves, Status.OPTIMAL, len(moves), expanded, extra)
    return done([], Status.LIMIT, bound, expanded, extra)


def ida(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: Heuristic,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop_at: int | None = None,
    max_depth: int = 200,
    goal_positions: np.ndarray | None = None,
    progress: bool = False,
) -> SolveResult:
    """A shortest solution by IDA* over the puzzle's move table, with any heuristic that has a
    numba kernel (:mod:`exact.heuristic`).

    Args:
        puzzle: Any puzzle whose goal is its one ``goal`` state.
        start: The start ``(P,)``.
        heuristic: Admissible (checked), with ``kernel``.
        time_limit: Seconds; ``node_limit``: expanded nodes; ``None`` for none.
        stop_at: Stop with ``limit`` and the bound ``stop_at`` once every shorter threshold is
            exhausted (to prove a known solution of that length optimal).
        max_depth: The deepest solution searched for.
        goal_positions: int ``(G,)``: the positions where a solution must show ``puzzle.goal``'s
            labels (default: all); the heuristic must be 0 on every such state.
        progress: show the bound, nodes and rate as the search runs (:mod:`exact.progress`).

    Returns:
        ``optimal`` with the solution, or ``limit`` with the proven lower bound.
    """
    if not heuristic.admissible:
        raise PuzzleoptError(f"heuristic {heuristic.name} is not admissible: IDA* with it would not be optimal")
    kernel = kernel_of(heuristic)
    if kernel is None:
        raise PuzzleoptError(f"heuristic {heuristic.name} has no numba kernel; use A* (exact.astar) with it")
    start = np.asarray(start, dtype=np.uint8)
    settings = {"heuristic": heuristic.name, "time_limit": time_limit, "node_limit": node_limit, "stop_at": stop_at}
    t0 = time.perf_counter()
    done = recorder(puzzle, start, settings, t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    search = GenericSearch.create(puzzle.table, puzzle.goal, start, kernel, max_depth, goal_positions)
    if search.root_h >= UNREACHABLE:
        return done([], Status.UNSOLVABLE, None, 0, {"proof": f"{heuristic.name}: the abstract goal is out of reach"})
    search.parity = move_parity(puzzle.table, start, puzzle.goal_spec(start))
    # the kernel keeps one row per depth, so no threshold beyond max_depth is searched
    cap = max_depth + 1 if stop_at is None else min(stop_at, max_depth + 1)
    code, bound, generated, expanded, iterations = watched(
        f"ida* {puzzle.name}", progress, search, t0, time_limit, node_limit, cap
    )
    if code != FOUND and bound >= UNREACHABLE:
        # an iteration pruned nothing: every path ran into a dead end, none reached the goal
        extra = {"proof": "IDA* exhausted the whole search tree", "generated": generated}
        return done([], Status.UNSOLVABLE, None, expanded, extra)
    if code != FOUND and bound > max_depth and (stop_at is None or stop_at > bound):
        extra = {"iterations": iterations, "generated": generated, "limit": f"max_depth {max_depth}"}
        return done([], Status.LIMIT, bound, expanded, extra)
    return finish(search, code, bound, generated, expanded, iterations, done)


def recorder(puzzle, start, settings, t0):
    """:meth:`SolveResult.recorder` for IDA* (solver name and version)."""
    return SolveResult.recorder(
        puzzle, start, solver="ida*", solver_version=toolkit(f"numba {numba.__version__}"), settings=settings, since=t0
    )
