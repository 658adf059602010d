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
from typing import TYPE_CHECKING

import numpy as np

from exact.errors import PuzzleoptError
from exact.progress import SearchProgress
from exact.provenance import toolkit
from exact.result import SolveResult, Status

if TYPE_CHECKING:
    from exact.puzzle import Puzzle


def best_first(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    weight: float = 1.0,
    batch: int = 1,
    admissible: bool = False,
    node_limit: int | None = None,
    time_limit: float | None = None,
    solver: str = "best-first",
    progress: bool = False,
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
        progress: show the nodes expanded and their rate as the search runs (:mod:`exact.progress`).

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
    settings = {"weight": weight, "batch": int(batch), "admissible": admissible, "node_limit": node_limit,
                "time_limit": time_limit}  # fmt: skip
    done = SolveResult.recorder(puzzle, start, solver=solver, solver_version=toolkit(), settings=settings, since=t0)
    search = _Search(puzzle, start, heuristic, weight)
    with SearchProgress(f"{solver} {puzzle.name}", progress, unit="expanded nodes", stage=None) as watch:
        result = _loop(search, done, batch, admissible and weight == 1.0, node_limit, time_limit, t0, watch)
        watch.close(result.status.value, result.nodes)
    return result


def _loop(search, done, batch: int, optimal: bool, node_limit, time_limit, t0: float, watch) -> SolveResult:
    """Iterations of :func:`best_first` until a goal (proven best with ``optimal``) or a limit."""
    while True:
        watch.update(None, search.expanded, open=len(search.heap))
        # The least f still open bounds every solution not yet found (admissible h, w = 1).
        floor = search.heap[0][0] if search.heap else np.inf
        best = search.best
        if best is not None and (not optimal or floor >= best[0] - 1e-9):
            return search.result(done, Status.OPTIMAL if optimal else Status.FEASIBLE, best[0] if optimal else None)
        if not search.heap:
            return search.result(done, Status.UNSOLVABLE, None)
        if (node_limit is not None and search.expanded >= node_limit) or (
            time_limit is not None and time.perf_counter() - t0 > time_limit
        ):
            bound = min(int(np.ceil(floor - 1e-9)), best[0] if best else 10**9) if optimal else None
            return search.result(done, Status.FEASIBLE if best is not None else Status.LIMIT, bound)
        work = search.take(batch)
        if work and (search.best is None or optimal):
            search.expand(work)


class _Search:
    """The open list (a heap of ``(f, g, tie, key)``), the best ``g`` and parent of every state
    seen, and the shortest goal taken."""

    def __init__(self, puzzle, start: np.ndarray, heuristic, weight: float) -> None:
        self.puzzle, self.heuristic, self.weight = puzzle, heuristic, weight
        key0 = start.tobytes()
        self.g = {key0: 0}
        self.parent: dict[bytes, tuple[bytes, int]] = {}
        self.states = {key0: start}
        self.tie = 0
        self.heap = [(float(heuristic(start[None])[0]), 0, 0, key0)]
        self.expanded = self.generated = 0
        self.best: tuple[int, bytes] | None = None  # the shortest goal taken so far

    def take(self, batch: int) -> list[tuple[int, bytes]]:
        """Up to ``batch`` open nodes of least ``f``; goals among them become ``best``; the rest
        is returned for expansion."""
        taken: list[tuple[int, bytes]] = []
        while self.heap and len(taken) < batch:
            _, gk, _, key = heapq.heappop(self.heap)
            if gk > self.g[key]:
                continue  # a stale entry: the node was reached again by a shorter path
            taken.append((gk, key))
        if not taken:
            return []
        goals = self.puzzle.is_goal(np.stack([self.states[k] for _, k in taken])).tolist()
        for (gk, key), is_goal in zip(taken, goals):
            if is_goal and (self.best is None or gk < self.best[0]):
                self.best = (gk, key)
        return [(gk, key) for (gk, key), is_goal in zip(taken, goals) if not is_goal]

    def expand(self, work: list[tuple[int, bytes]]) -> None:
        """Every child of ``work`` in one heuristic call; a state reached by a shorter path is (re)opened."""
        self.expanded += len(work)
        children, ids = self.puzzle.expand(np.stack([self.states[k] for _, k in work]))
        ok = ids >= 0
        kids = children[ok]
        self.generated += len(kids)
        hs = np.asarray(self.heuristic(kids), dtype=np.float64).tolist() if len(kids) else []
        for child, owner, row, hc in zip(kids, np.nonzero(ok)[0].tolist(), ids[ok].tolist(), hs):
            gp, pk = work[owner]
            ck = child.tobytes()
            gc = gp + 1
            if gc < self.g.get(ck, np.inf):
                self.g[ck] = gc
                self.parent[ck] = (pk, int(row))
                self.states[ck] = child
                self.tie += 1
                heapq.heappush(self.heap, (self.weight * gc + hc, gc, self.tie, ck))

    def path(self, key: bytes) -> list[int]:
        moves = []
        while key in self.parent:
            key, m = self.parent[key]
            moves.append(m)
        return moves[::-1]

    def result(self, done, status: Status, bound: int | None) -> SolveResult:
        moves = self.path(self.best[1]) if self.best is not None and status.has_solution else []
        return done(moves, status, bound, self.expanded, {"generated": self.generated})
