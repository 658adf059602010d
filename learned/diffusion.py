"""Training states for the diffusion-distance objective (CayleyPy, Chervov et al. 2025).

The network regresses the length ``k`` of a non-backtracking random walk from the goal: every
step takes an applicable move other than the inverse of the move before it, and ``k`` is drawn
uniformly from ``1..k_max``. Each training state costs one forward and backward pass, with no
Bellman target to compute (DAVI's :mod:`learned.davi` needs a forward pass per child).

:func:`diffusion_batch` makes a training batch on the CPU from any puzzle; :class:`TorchWalks`
makes one on a torch device (a GPU) for puzzles whose moves always apply. The trainer is
:mod:`learned.davi` with ``objective="diffusion"``.
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
    """``n`` training states and their labels: the states along non-backtracking walks of
    ``k_max`` moves, each labelled with the number of moves taken to it, so that the labels are
    uniform in ``1..k_max`` and each state costs one move, not ``k_max / 2`` (as CayleyPy draws
    them). ``ceil(n / k_max)`` walks are made and ``n`` of their states kept at random.

    Returns:
        ``states`` uint8 ``(n, P)`` and ``labels`` float32 ``(n,)``.
    """
    k_max = check_k_max(k_max)
    count = -(-int(n) // k_max)
    states = np.empty((k_max, count, puzzle.num_positions), dtype=puzzle.goal.dtype)
    labels = np.empty((k_max, count), dtype=np.float32)
    s = np.broadcast_to(puzzle.goal, (count, puzzle.num_positions)).copy()
    last = np.full(count, -1, dtype=np.int64)
    taken = np.zeros(count, dtype=np.int64)
    step_of = _gather_step if moves_always_apply(puzzle) else _step  # asked once, not every move
    for step in range(k_max):
        s, moved = step_of(puzzle, s, last, rng)
        last = np.where(moved >= 0, moved, last)
        taken += moved >= 0
        states[step], labels[step] = s, taken
    keep = rng.permutation(k_max * count)[: int(n)]
    return states.reshape(-1, puzzle.num_positions)[keep], labels.reshape(-1)[keep]


def _step(puzzle: Puzzle, s: np.ndarray, last: np.ndarray, rng: np.random.Generator):
    """One move of each walk: an applicable row other than the inverse of ``last`` (``-1``:
    none yet). Returns the new states and the rows taken (``-1`` at a dead end, which stays)."""
    children, rows = puzzle.expand(s)
    inverse = np.asarray(puzzle.table.inverse, dtype=np.int64)
    back = np.where(last >= 0, inverse[np.maximum(last, 0)], -2)
    ok = (rows >= 0) & (rows != back[:, None])
    pick = np.where(ok, rng.random(rows.shape), -1.0).argmax(axis=1)
    idx = np.arange(s.shape[0])
    moved = np.where(ok[idx, pick], rows[idx, pick], -1)
    return np.where((moved >= 0)[:, None], children[idx, pick], s), moved


def _gather_step(puzzle: Puzzle, s: np.ndarray, last: np.ndarray, rng: np.random.Generator):
    """:func:`_step` where every row applies: the same uniform choice among the rows other than
    ``last``'s inverse, but only the chosen row is applied (expanding every child cost a
    198-move Santa cube 198 times the work)."""
    t = puzzle.table
    m = t.num_moves
    back = np.where(last >= 0, np.asarray(t.inverse, dtype=np.int64)[np.maximum(last, 0)], m)
    r = rng.integers(0, np.where(last >= 0, m - 1, m))
    moved = r + (r >= back)
    return np.take_along_axis(s, np.asarray(t.perms)[moved], axis=1), moved


def moves_always_apply(puzzle: Puzzle) -> bool:
    """Whether every move of ``puzzle`` applies in every state (no guards, one row per action)."""
    t = puzzle.table
    return t.guard_pos.shape[1] == 0 and len(set(t.names)) == t.num_moves and t.num_moves >= 2


def check_k_max(k_max) -> int:
    """``k_max`` as an int, or a one-line error."""
    if not (isinstance(k_max, (int, np.integer)) and not isinstance(k_max, bool) and k_max >= 1):
        raise PuzzleoptError(f"k_max (the longest walk, --max-scramble) must be a whole number >= 1, got {k_max!r}")
    return int(k_max)


def default_k_max(puzzle: Puzzle, limit: int = 5_000_000) -> int:
    """The longest walk the diffusion objective draws when none is given: the puzzle's
    :attr:`~exact.puzzle.Puzzle.diameter` (God's number, or a proven bound) where it has one,
    else the diameter measured by breadth-first search where the puzzle ranks its states and has
    at most ``limit`` of them.

    Raises:
        PuzzleoptError: neither is available; give ``--max-scramble``.
    """
    if puzzle.diameter is not None:
        return int(puzzle.diameter)
    space = puzzle.ranked_space()
    if space is not None and space.size <= limit:
        from exact.bfs import distance_table

        dist = distance_table(space, puzzle.table, puzzle.goal[None])
        return int(dist[dist < np.iinfo(dist.dtype).max].max())
    raise PuzzleoptError(
        f"{puzzle.name}: its diameter is not known and too large to measure; give the longest walk with "
        "--max-scramble K (about the most moves a state needs)"
    )


class TorchWalks:
    """:func:`diffusion_batch` on a torch device, for puzzles whose every move applies everywhere
    (no guards, one row per action: the cube, the pancakes): the walks are gathers of the move
    table's permutations, so a GPU makes the states as fast as it trains on them.

    The walks of step ``t`` come from ``torch.Generator`` seeded with ``(seed, t)``, so a resumed
    run draws what an uninterrupted one would.
    """

    def __init__(self, puzzle: Puzzle, device: str, seed: int) -> None:
        import torch

        self.torch, self.device, self.seed = torch, device, int(seed)
        self.perms = torch.tensor(puzzle.table.perms, device=device)
        self.inverse = torch.tensor(np.asarray(puzzle.table.inverse, dtype=np.int64), device=device)
        self.goal = torch.tensor(puzzle.goal, device=device)  # a copy: the goal array is read-only

    @staticmethod
    def applies(puzzle: Puzzle) -> bool:
        """Whether every move of ``puzzle`` applies in every state (:func:`moves_always_apply`)."""
        return moves_always_apply(puzzle)

    def batch(self, n: int, k_max: int, step: int):
        """``n`` states (uint8 ``(n, P)``, on the device) and float32 labels, as :func:`diffusion_batch`."""
        torch = self.torch
        k_max, count, m = check_k_max(k_max), -(-int(n) // k_max), self.perms.shape[0]
        gen = torch.Generator(device=self.device).manual_seed(self.seed * 1_000_003 + int(step))
        s = self.goal.expand(count, -1).clone()
        out = torch.empty((k_max, count, s.shape[1]), dtype=s.dtype, device=self.device)
        last = torch.randint(0, m, (count,), generator=gen, device=self.device)
        s = torch.gather(s, 1, self.perms[last])
        out[0] = s
        for k in range(1, k_max):  # one of the m - 1 rows other than the last one's inverse, uniformly
            r = torch.randint(0, m - 1, (count,), generator=gen, device=self.device)
            back = self.inverse[last]
            last = r + (r >= back).long()
            s = torch.gather(s, 1, self.perms[last])
            out[k] = s
        labels = torch.arange(1, k_max + 1, device=self.device, dtype=torch.float32).repeat_interleave(count)
        keep = torch.randperm(k_max * count, generator=gen, device=self.device)[: int(n)]
        return out.reshape(-1, s.shape[1])[keep], labels[keep]
