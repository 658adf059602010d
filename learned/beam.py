"""Batched beam search over the puzzle protocol, guided by a cost-to-go (CayleyPy's solver).

Each step expands every state of the beam (:meth:`~exact.puzzle.Puzzle.expand`), drops the move
that undoes a state's last one, removes children seen in this layer or the two before (by a
64-bit hash of the state), stops as soon as a child is a goal, and keeps the ``width`` children
the heuristic scores lowest. A step limit, a time limit or an empty layer ends it as ``limit``.
A solution is replayed (:meth:`SolveResult.build`) and is ``feasible``, never ``optimal``:
a beam proves nothing about length.

Still to come (issue 43): restarts with banned states on stagnation, the meet-in-the-middle
table, and the ``beam`` method's registration.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from exact.errors import PuzzleoptError
from exact.invariants import checked_start, unsolvable_result
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status

HASH_SEED = 20250213
"""Seed of the hash weights: the same states hash alike in every run."""


def state_hashes(states: np.ndarray) -> np.ndarray:
    """uint64 ``(B,)``: a 64-bit hash of each state ``(B, P)`` (a random linear form mod 2^64,
    the same in every run); equal states hash alike, distinct ones collide with probability
    about ``2^-64`` a pair."""
    weights = np.random.default_rng(HASH_SEED).integers(1, 2**63, size=states.shape[1], dtype=np.uint64) | 1
    with np.errstate(over="ignore"):
        return (states.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def beam_search(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    width: int = 1024,
    max_steps: int = 1000,
    time_limit: float | None = None,
) -> SolveResult:
    """A solution of ``start`` by beam search (see the module docstring).

    Args:
        puzzle: The puzzle.
        start: The start, labels ``(P,)``.
        heuristic: Batched cost-to-go: states ``(B, P)`` -> float ``(B,)`` (lower is nearer).
        width: ``W``, states kept per step.
        max_steps: Steps (moves) before giving up.
        time_limit: Seconds before giving up (``None``: none).

    Returns:
        ``feasible`` with a replayed solution, ``unsolvable`` where an invariant rules the goal
        out, ``optimal`` only for a start that is solved, else ``limit``.
    """
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 1:
        raise PuzzleoptError(f"beam width must be a whole number >= 1, got {width!r}")
    t0 = time.perf_counter()
    start, why = checked_start(puzzle, start)
    settings = {"width": int(width), "max_steps": int(max_steps), "time_limit": time_limit}
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver="beam", settings=settings, since=t0)
    done = SolveResult.recorder(puzzle, start, solver="beam", solver_version="puzzleopt", settings=settings, since=t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    inverse = np.asarray(puzzle.table.inverse, dtype=np.int64)
    beam, last = start[None].copy(), np.array([-1])
    parents: list[tuple[np.ndarray, np.ndarray]] = []  # per step: (index into the beam before, move row)
    recent: list[np.ndarray] = [state_hashes(beam)]
    expanded = 0
    for _ in range(int(max_steps)):
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            break
        children, rows = puzzle.expand(beam)
        expanded += len(beam)
        ok = (rows >= 0) & (rows != np.where(last >= 0, inverse[np.maximum(last, 0)], -2)[:, None])
        parent, action = np.nonzero(ok)
        kids, moves = children[parent, action], rows[parent, action]
        keys = state_hashes(kids)
        _, first = np.unique(keys, return_index=True)
        first = first[~np.isin(keys[first], np.concatenate(recent))]
        kids, moves, parent, keys = kids[first], moves[first], parent[first], keys[first]
        if len(kids) == 0:
            break
        goal = np.flatnonzero(puzzle.is_goal(kids))
        if goal.size:
            parents.append((parent, moves))
            return done(_path(parents, int(goal[0])), Status.FEASIBLE, None, expanded, {"steps": len(parents)})
        if len(kids) > width:
            keep = np.argpartition(np.asarray(heuristic(kids), dtype=np.float64), width - 1)[:width]
            kids, moves, parent, keys = kids[keep], moves[keep], parent[keep], keys[keep]
        parents.append((parent, moves))
        recent = [*recent[-1:], keys]  # this layer and the one before
        beam, last = kids, moves
    return done([], Status.LIMIT, None, expanded, {"steps": len(parents)})


def _path(parents: list[tuple[np.ndarray, np.ndarray]], index: int) -> list[int]:
    """The move rows from the start to child ``index`` of the last step."""
    out = []
    for parent, moves in reversed(parents):
        out.append(int(moves[index]))
        index = int(parent[index])
    return out[::-1]
