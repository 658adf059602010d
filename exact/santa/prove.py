"""Proven-optimal Santa 2023 solutions: bidirectional breadth-first search
(:func:`exact.bidirectional.search` over :class:`~exact.bidirectional.HashSide` s), grown from the
goal side out of every state the wildcards allow. The first meeting is a shortest solution and
every layer grown before it is a proven lower bound, so a limit still ends with an honest bound."""

from __future__ import annotations

import itertools
import math
import time

import numpy as np

from exact.bidirectional import HashSide, search
from exact.provenance import toolkit
from exact.result import SolveResult, Status
from exact.santa.puzzle import SantaPuzzle

MAX_GOALS = 2_000_000
"""More goal states than this (many wildcards on a large puzzle) and the proof is not tried."""
MAX_STORED = 60_000_000
"""States both sides may hold together (about 22 bytes each plus a byte a label)."""


def goal_states(goal: np.ndarray, wildcards: int, cap: int = MAX_GOALS) -> np.ndarray | None:
    """Every state with ``goal``'s labels that differs from it in at most ``wildcards`` positions,
    ``(G, P)``; ``None`` when there could be more than ``cap``.

    Such a state is the goal with the labels of ``k <= wildcards`` positions rearranged so that
    each of them changes: every ``k``-subset, every arrangement, the repeats (identical labels)
    dropped.
    """
    goal = np.asarray(goal)
    p = len(goal)
    sizes = range(2, min(wildcards, p) + 1)
    if sum(math.comb(p, k) * math.factorial(k) for k in sizes) > 8 * cap:
        return None
    out = [goal[None]]
    for k in sizes:
        subsets = np.array(list(itertools.combinations(range(p), k)), dtype=np.int64)
        orders = np.array(list(itertools.permutations(range(k))), dtype=np.int64)
        for chunk in np.array_split(subsets, max(1, len(subsets) * len(orders) // 500_000)):
            src = chunk[:, orders]  # (S, k!, k): where each position of the subset takes its label
            labels = goal[src]
            moved = (labels != goal[chunk][:, None, :]).all(axis=2)
            states = np.repeat(goal[None], int(moved.sum()), axis=0)
            rows = np.arange(len(states))[:, None]
            states[rows, np.broadcast_to(chunk[:, None, :], src.shape)[moved]] = labels[moved]
            out.append(_distinct(states))
    states = _distinct(np.concatenate(out))
    return None if len(states) > cap else states


def _distinct(states: np.ndarray) -> np.ndarray:
    """The distinct rows of ``states``."""
    rows = np.ascontiguousarray(states)
    keys = rows.view(np.dtype((np.void, rows.dtype.itemsize * rows.shape[1]))).ravel()
    return rows[np.unique(keys, return_index=True)[1]]


def prove(puzzle: SantaPuzzle, *, time_limit: float | None = None, max_stored: int = MAX_STORED) -> SolveResult:
    """The puzzle's shortest solution by bidirectional BFS, or a limit with the proven bound.

    Args:
        puzzle: The puzzle; the search starts from ``puzzle.start``.
        time_limit: Seconds (a layer that would end past it is not started).
        max_stored: States both sides may hold together.

    Returns:
        ``optimal`` with the proof's layers in ``extra``, or ``limit`` with ``lower_bound``.
    """
    t0 = time.perf_counter()
    done = SolveResult.recorder(puzzle, puzzle.start, solver="santa-bfs", solver_version=toolkit(),
                                settings={"time_limit": time_limit, "stored": max_stored}, since=t0)  # fmt: skip
    goals = goal_states(puzzle.goal, puzzle.wildcards)
    if time_limit is not None:
        time_limit -= time.perf_counter() - t0
    if goals is None:
        return done([], Status.LIMIT, 0, 0, {"limit": f"the goal states {puzzle.wildcards} wildcards allow exceed "
                                               f"{MAX_GOALS:,}"})  # fmt: skip
    perms = puzzle.table.perms
    met = search(HashSide(perms, puzzle.start), HashSide(perms, goals, puzzle.table.inverse), max_stored=max_stored,
                 time_limit=time_limit)  # fmt: skip
    extra = met.extra() | {"goal_states": len(goals)}
    if met.outcome == "met":
        return done(met.rows, Status.OPTIMAL, met.bound, met.expanded, extra | {"proof": "bidirectional BFS"})
    limit = {"stored": f"{max_stored:,} stored states", "time": f"{time_limit} s"}.get(met.outcome, met.outcome)
    return done([], Status.LIMIT, met.bound, met.expanded, extra | {"limit": limit})


__all__ = ["MAX_GOALS", "MAX_STORED", "goal_states", "prove"]
