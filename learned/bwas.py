"""Batch weighted A* (BWAS) with a learned cost-to-go, as DeepCubeA searches.

BWAS is the project's one best-first search (:func:`exact.astar.best_first`, ``f = w * g + h``)
with a batch: each iteration expands the ``batch`` open nodes of least ``f`` and evaluates all
their children in one network call. DeepCubeA's lambda is ``weight``. A learned heuristic is not
admissible, so a BWAS solution is ``feasible``; :mod:`hybrid` is what proves it optimal.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from exact.astar import best_first
from exact.invariants import checked_start, unsolvable_result
from exact.puzzle import Puzzle
from exact.result import SolveResult

DEFAULT_WEIGHT = 0.6
DEFAULT_BATCH = 100

QUALITIES = ("fast", "best")
# For a model whose card measured none: DeepCubeA's lambda, and N = 100 or its N = 1,000.
UNMEASURED = {
    "fast": {"weight": DEFAULT_WEIGHT, "batch": DEFAULT_BATCH},
    "best": {"weight": DEFAULT_WEIGHT, "batch": 1000},
    "default": "fast",
}


def quality_settings(card: dict, quality: str | None) -> dict:
    """BWAS ``weight`` and ``batch`` of ``quality`` (or the card's default) for a model's card.

    A shipped model's card holds ``search``: ``{"fast": {...}, "best": {...}, "default": ...,
    "measured": where}`` (``docs/learned.md``); other models get :data:`UNMEASURED`.
    """
    search = card.get("search") if isinstance(card.get("search"), dict) else UNMEASURED
    chosen = quality or search.get("default", "fast")
    got = search.get(chosen) or UNMEASURED[chosen]
    return {"weight": float(got["weight"]), "batch": int(got["batch"])}


def bwas(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    weight: float = DEFAULT_WEIGHT,
    batch: int = DEFAULT_BATCH,
    max_nodes: int | None = None,
    time_limit: float | None = None,
    progress: bool = False,
) -> SolveResult:
    """A solution of ``start`` by BWAS (see the module docstring).

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        heuristic: Batched cost-to-go (e.g. :class:`learned.values.NetHeuristic`); its
            ``admissible`` attribute, if true, with ``weight = 1`` makes the result a proof.
        weight: ``lambda`` in ``f = lambda * g + h`` (DeepCubeA: 0.6 for the cube).
        batch: ``N``, nodes expanded per iteration.
        max_nodes: Expanded nodes before giving up (``limit``); ``time_limit``: seconds.
        progress: show the nodes expanded and their rate as the search runs (:mod:`exact.progress`).

    Raises:
        StateError: ``start`` is no state of the puzzle (checked before the network sees it).
    """
    since = time.perf_counter()
    start, why = checked_start(puzzle, start)
    if why is not None:  # an invariant rules the goal out: no search, as for the exact methods
        return unsolvable_result(puzzle, np.asarray(start), why, solver="bwas", since=since)
    return best_first(
        puzzle,
        np.asarray(start),
        heuristic,
        weight=weight,
        batch=batch,
        admissible=bool(getattr(heuristic, "admissible", False)),
        node_limit=max_nodes,
        time_limit=time_limit,
        solver="bwas",
        progress=progress,
    )
