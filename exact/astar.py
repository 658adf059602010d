"""Best-first search, written once: ``f = w * g + h`` (A* for ``w = 1``; BWAS with a batch).

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
    batch: int = 1,
    admissible: bool = False,
    node_limit: int | None = None,
    time_limit: float | None = None,
    solver: str = "best-first",
) -> SolveResult:
    """Weighted best-first search from ``start``, ``batch`` nodes at a time.

    Each iteration takes the ``batch`` open nodes of least ``f = w * g + h`` and evaluates all
    their children in one call of ``heuristic`` (batch weighted A*, DeepCubeA's BWAS, for
    ``batch > 1``). Without a proof of optimality in view the search stops when it takes a goal
    (DeepCubeA's rule); with ``w = 1`` and an admissible heuristic it goes on until no open node
    has ``f`` below the best goal's length, which is then optimal.

    Args:
        puzzle: Any puzzle of the project (its table, goal and ``expand``).
        start: The start state ``(P,)``.
        heuristic: Maps states ``(B, P)`` to estimates ``(B,)``; 0 at goals.
        weight: ``w`` in ``f = w * g + h``; 1 is A*.
        batch: Nodes expanded per iteration (``N`` of BWAS).
        admissible: Whether ``heuristic`` never overestimates (then ``w = 1`` proves optimality).
        node_limit: Expanded nodes; ``time_limit``: seconds. Either ends with ``limit`` (or
            ``feasible`` when a goal was found but not proven best).
        solver: The name the result carries (``"bwas"`` for the learned solver).

    Returns:
        The project's :class:`SolveResult`; ``nodes`` counts expanded nodes, ``extra`` the
        generated ones.
    """
    if not 0 < weight <= 1:
        raise PuzzleoptError(f"weight {weight} must be in (0, 1]: f = w*g + h, and w = 1 is A*")
    if isinstance(batch, bool) or not isinstance(batch, (int, np.integer)) or batch < 1:
        raise PuzzleoptError(f"batch {batch!r} must be a whole number >= 1 (nodes expanded per iteration)")
    t0 = time.perf_counter()
    start = np.asarray(start)
    settings = {
        "weight": weight,
        "batch": int(batch),
        "admissible": admissible,
        "node_limit": node_limit,
        "time_limit": time_limit,
    }
    key0 = start.tobytes()
    g = {key0: 0}
    parent: dict[bytes, tuple[bytes, int]] = {}
    states = {key0: start}
    tie = 0
    heap = [(float(heuristic(start[None])[0]), 0, tie, key0)]
    expanded = generated = 0
    best: tuple[int, bytes] | None = None  # the shortest goal taken so far

    done = SolveResult.recorder(puzzle, start, solver=solver, solver_version="puzzleopt", settings=settings, since=t0)

    def path(key: bytes) -> list[int]:
        moves = []
        while key in parent:
            key, m = parent[key]
            moves.append(m)
        return moves[::-1]

    def result(status: Status, bound: int | None):
        moves = path(best[1]) if best is not None and status.has_solution else []
        return done(moves, status, bound, expanded, {"generated": generated})

    optimal = admissible and weight == 1.0
    while True:
        # The least f still open bounds every solution not yet found (admissible h, w = 1).
        floor = heap[0][0] if heap else np.inf
        if best is not None and (not optimal or floor >= best[0] - 1e-9):
            return result(Status.OPTIMAL if optimal else Status.FEASIBLE, best[0] if optimal else None)
        if not heap:
            return result(Status.UNSOLVABLE, None)
        if (node_limit is not None and expanded >= node_limit) or (
            time_limit is not None and time.perf_counter() - t0 > time_limit
        ):
            bound = min(int(np.ceil(floor - 1e-9)), best[0] if best else 10**9) if optimal else None
            return result(Status.FEASIBLE if best is not None else Status.LIMIT, bound)
        taken: list[tuple[int, bytes]] = []
        while heap and len(taken) < batch:
            _, gk, _, key = heapq.heappop(heap)
            if gk > g[key]:
                continue  # a stale entry: the node was reached again by a shorter path
            taken.append((gk, key))
        if not taken:
            continue
        block = np.stack([states[k] for _, k in taken])
        goals = puzzle.is_goal(block)
        for (gk, key), is_goal in zip(taken, goals.tolist()):
            if is_goal and (best is None or gk < best[0]):
                best = (gk, key)
        work = [(gk, key) for (gk, key), is_goal in zip(taken, goals.tolist()) if not is_goal]
        if not work or (best is not None and not optimal):
            continue
        expanded += len(work)
        children, ids = puzzle.expand(np.stack([states[k] for _, k in work]))
        ok = ids >= 0
        kids = children[ok]
        generated += len(kids)
        hs = np.asarray(heuristic(kids), dtype=np.float64).tolist() if len(kids) else []
        owners = np.nonzero(ok)[0].tolist()
        for child, owner, row, hc in zip(kids, owners, ids[ok].tolist(), hs):
            gp, pk = work[owner]
            ck = child.tobytes()
            gc = gp + 1
            if gc < g.get(ck, np.inf):
                g[ck] = gc
                parent[ck] = (pk, int(row))
                states[ck] = child
                tie += 1
                heapq.heappush(heap, (weight * gc + hc, gc, tie, ck))
