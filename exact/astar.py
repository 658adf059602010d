"""Best-first search, written once: ``f = w * g + h`` (A* for ``w = 1``), for small spaces.

It runs over the batched puzzle protocol (``puzzle.expand``, ``puzzle.is_goal``), so it serves
every puzzle; the heuristic is any function of a batch of states. A node reached again by a
shorter path is reopened, so an admissible but inconsistent heuristic (the tile pattern
databases) still gives optimal solutions. ``optimal`` is claimed only for ``w = 1`` with an
admissible heuristic; with ``w < 1`` (DeepCubeA's lambda) the solution is ``feasible``. An
exhausted open list proves ``unsolvable``.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable

import numpy as np

from exact.errors import PuzzleoptError
from exact.result import SolveResult, Status


def best_first(
    puzzle,
    start: np.ndarray,
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    weight: float = 1.0,
    admissible: bool = False,
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> SolveResult:
    """Weighted best-first search from ``start``.

    Args:
        puzzle: Any puzzle of the project (its table, goal and ``expand``).
        start: The start state ``(P,)``.
        heuristic: Maps states ``(B, P)`` to estimates ``(B,)``.
        weight: ``w`` in ``f = w * g + h``; 1 is A*.
        admissible: Whether ``heuristic`` never overestimates (then ``w = 1`` proves optimality).
        node_limit: Expanded nodes; ``time_limit``: seconds. Either ends with ``limit``.
    """
    if not 0 < weight <= 1:
        raise PuzzleoptError(f"weight {weight} must be in (0, 1]: f = w*g + h, and w = 1 is A*")
    t0 = time.perf_counter()
    start = np.asarray(start)
    settings = {"weight": weight, "admissible": admissible, "node_limit": node_limit, "time_limit": time_limit}
    key0 = start.tobytes()
    g = {key0: 0}
    parent: dict[bytes, tuple[bytes, int]] = {}
    states = {key0: start}
    tie = 0
    h0 = float(heuristic(start[None])[0])
    heap = [(h0, 0, tie, key0)]
    expanded = 0

    done = SolveResult.recorder(
        puzzle, start, solver="best-first", solver_version="puzzleopt", settings=settings, since=t0
    )

    def result(moves, status, bound):
        return done(moves, status, bound, expanded)

    optimal = admissible and weight == 1.0
    while heap:
        f, gk, _, key = heapq.heappop(heap)
        if gk > g[key]:
            continue  # a stale entry: the node was reached again by a shorter path
        s = states[key]
        if bool(puzzle.is_goal(s[None])[0]):
            moves = []
            while key in parent:
                key, m = parent[key]
                moves.append(m)
            moves.reverse()
            return result(moves, Status.OPTIMAL if optimal else Status.FEASIBLE, len(moves) if optimal else None)
        if (node_limit is not None and expanded >= node_limit) or (
            time_limit is not None and time.perf_counter() - t0 > time_limit
        ):
            # with A* and an admissible h, the least f still open bounds every solution below
            return result([], Status.LIMIT, int(np.ceil(f - 1e-9)) if optimal else None)
        expanded += 1
        children, ids = puzzle.expand(s[None])
        ok = ids[0] >= 0
        kids, rows = children[0][ok], ids[0][ok]
        hs = np.asarray(heuristic(kids), dtype=np.float64)
        for child, row, hc in zip(kids, rows.tolist(), hs.tolist()):
            ck = child.tobytes()
            gc = gk + 1
            if gc < g.get(ck, np.inf):
                g[ck] = gc
                parent[ck] = (key, int(row))
                states[ck] = child
                tie += 1
                heapq.heappush(heap, (weight * gc + hc, gc, tie, ck))
    return result([], Status.UNSOLVABLE, None)
