"""Optimal solutions of the cubical sliding puzzle by bidirectional breadth-first search.

The search is :func:`exact.bidirectional.search` (its docstring has the proof of optimality)
over configurations coded as int64 by :class:`~exact.hypercube.space.RingSpace`, whose layer
function moves every ring of a whole frontier at once. A side that runs out proves the instance
``unsolvable`` (start and target lie in different components); a state or time limit ends as
``limit`` with the bound ``a + b + 1``.
"""

from __future__ import annotations

import time

import numpy as np

from exact.bidirectional import CodeSide, search
from exact.hypercube.space import check_start
from exact.puzzles.hypercube.puzzle import HypercubePuzzle
from exact.result import SolveResult, Status

DEFAULT_MAX_STATES = 30_000_000


def solve_bibfs(
    puzzle: HypercubePuzzle,
    start: np.ndarray,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    time_limit: float | None = None,
) -> SolveResult:
    """A shortest solution of ``start`` in ``puzzle``, or a proof that there is none.

    Args:
        puzzle: The puzzle (its ``k`` and target).
        start: The start state, uint8 ``(2^d,)``: 0 empty, ``1..R`` the rings of the target.
        max_states: Most configurations kept by both searches together (memory: about 40 bytes
            each); ``None`` for no limit.
        time_limit: Seconds; ``None`` for no limit.

    Returns:
        ``optimal`` (a shortest solution; its length is proven by the exhausted layers),
        ``unsolvable`` (start and target lie in different components) or ``limit``.
    """
    t0 = time.perf_counter()
    space, s, a, b = check_start(puzzle, start)
    settings = {"k": puzzle.k, "d": puzzle.d, "max_states": max_states, "time_limit": time_limit}
    done = SolveResult.recorder(puzzle, s, solver="bibfs", solver_version="1", settings=settings, since=t0)
    if a == b:
        return done([], Status.OPTIMAL, 0, 0)
    met = search(
        CodeSide(a, space.next_layer), CodeSide(b, space.next_layer, inverse=puzzle.table.inverse),
        max_stored=max_states, time_limit=time_limit,
    )  # fmt: skip
    if met.outcome == "met":
        return done(met.rows, Status.OPTIMAL, len(met.rows), met.expanded, met.extra())
    if met.outcome == "exhausted":
        start_side = met.exhausted == "start"
        side = met.forward_layers if start_side else met.backward_layers
        extra = met.extra() | {"component_size": int(sum(side)), "exhausted": "start" if start_side else "target"}
        return done([], Status.UNSOLVABLE, None, met.expanded, extra)
    return done([], Status.LIMIT, met.bound, met.expanded, met.extra())
