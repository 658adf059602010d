"""Training states for the diffusion-distance objective (CayleyPy, Chervov et al. 2025).

The network regresses the length ``k`` of a non-backtracking random walk from the goal: every
step takes an applicable move other than the inverse of the move before it, and ``k`` is drawn
uniformly from ``1..k_max``. Each training state costs one forward and backward pass, with no
Bellman target to compute (DAVI's :mod:`learned.davi` needs a forward pass per child).

Only the walks are here so far (issue 43); the trainer, the presets and the beam search's
registration are still to come.
"""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle


def walks(
    puzzle: Puzzle, depths: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Non-backtracking random walks from the goal, one per entry of ``depths``.

    Args:
        puzzle: The puzzle.
        depths: int ``(n,)``: each walk's number of moves (>= 0).
        rng: The only source of randomness.

    Returns:
        ``states`` uint8 ``(n, P)`` and ``moves`` int64 ``(n, max(depths))``: the table rows taken,
        ``-1`` after a walk's end (or where a dead end stopped it early: no move but the inverse
        applies, which the puzzles of a move table without dead ends never meet).
    """
    depths = np.asarray(depths, dtype=np.int64)
    if depths.ndim != 1 or (depths < 0).any():
        raise PuzzleoptError(f"walk depths must be whole numbers >= 0, one per walk; got shape {depths.shape}")
    n, table = depths.size, puzzle.table
    s = np.broadcast_to(puzzle.goal, (n, puzzle.num_positions)).copy()
    moves = np.full((n, int(depths.max(initial=0))), -1, dtype=np.int64)
    inverse = np.asarray(table.inverse, dtype=np.int64)
    for step in range(moves.shape[1]):
        active = np.flatnonzero(depths > step)
        children, rows = puzzle.expand(s[active])
        ok = rows >= 0
        if step:
            last = moves[active, step - 1]
            back = np.where(last >= 0, inverse[np.maximum(last, 0)], -2)
            ok &= rows != back[:, None]
        score = np.where(ok, rng.random(rows.shape), -1.0)
        pick = score.argmax(axis=1)
        moved = ok[np.arange(active.size), pick]
        chosen = active[moved]
        s[chosen] = children[moved, pick[moved]]
        moves[chosen, step] = rows[moved, pick[moved]]
        depths = np.where(np.isin(np.arange(n), active[~moved]), step, depths)  # a dead end ends the walk
    return s, moves


def diffusion_batch(
    puzzle: Puzzle, n: int, k_max: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``n`` training states and their labels: walks of ``k`` moves, ``k`` uniform in ``1..k_max``.

    Returns:
        ``states`` uint8 ``(n, P)`` and ``labels`` float32 ``(n,)``: each walk's length.
    """
    if not (isinstance(k_max, (int, np.integer)) and k_max >= 1):
        raise PuzzleoptError(f"k_max (the longest walk) must be a whole number >= 1, got {k_max!r}")
    depths = rng.integers(1, int(k_max) + 1, size=int(n))
    states, moves = walks(puzzle, depths, rng)
    return states, (moves >= 0).sum(axis=1).astype(np.float32)
