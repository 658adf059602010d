"""What the two beams share (:mod:`learned.beam`, :mod:`learned.beam_torch`): the 64-bit state
hash, the goal ball (every state within ``d`` moves of the goal states a puzzle can reach,
:func:`exact.puzzle.goal_states`) and the way down it, and the path read back from a beam's
parent pointers."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle, goal_states

HASH_SEED = 20250213
"""Seed of the hash weights: the same states hash alike in every run."""


def state_hashes(states: np.ndarray) -> np.ndarray:
    """uint64 ``(B,)``: a 64-bit hash of each state ``(B, P)`` (a random linear form mod 2^64,
    the same in every run); equal states hash alike, distinct ones collide with probability
    about ``2^-64`` a pair."""
    weights = np.random.default_rng(HASH_SEED).integers(1, 2**63, size=states.shape[1], dtype=np.uint64) | 1
    out, term = np.zeros(len(states), dtype=np.uint64), np.empty(len(states), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j, w in enumerate(weights):  # a column at a time: no (B, P) uint64 copy (3x faster, 8x less memory)
            np.multiply(states[:, j], w, out=term, dtype=np.uint64, casting="unsafe")
            out += term
    return out


@dataclass(frozen=True)
class GoalBall:
    """Every state within ``depth`` moves of the goal: their hashes (sorted) and distances.

    Attributes:
        depth: The radius.
        keys: uint64 ``(S,)``: :func:`state_hashes` of the states, sorted.
        dist: uint8 ``(S,)``: each state's distance to the goal.
    """

    depth: int
    keys: np.ndarray
    dist: np.ndarray

    def lookup(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)``: each state's distance to the goal, ``-1`` outside the ball."""
        return self.lookup_keys(state_hashes(states))

    def lookup_keys(self, keys: np.ndarray) -> np.ndarray:
        """:meth:`lookup` of states by their :func:`state_hashes` ``(B,)``. Give them sorted where
        the ball is large (the beam's are): 700,000 random keys in the 3x3's radius-8 ball took
        5.3 s, sorted 0.13 s."""
        if len(self.keys) == 0:
            return np.full(len(keys), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        hit = self.keys[at] == keys
        return np.where(hit, self.dist[at].astype(np.int64), -1)


def goal_ball(puzzle: Puzzle, depth: int, max_states: int = 100_000_000) -> GoalBall:
    """The :class:`GoalBall` of radius ``depth`` around the puzzle's goal states (every whole-puzzle
    turn of the goal that is a goal too), by breadth-first search.

    The 3x3's radius 7 (9,205,558 states in QTM) took 9 s on one core and 1.1 GB at its peak;
    its radius 8 (86,049,153 states) took 140 s of CPU and 8.1 GB at its peak (the ball itself
    holds 9 bytes a state); a frontier is expanded :data:`BALL_CHUNK` states at a time, and the
    last one's children are kept only as hashes.

    Raises:
        PuzzleoptError: a move has no inverse (distances from the goal are then not distances
            to it), or the ball would hold more than ``max_states`` states.
    """
    if (np.asarray(puzzle.table.inverse) < 0).any():
        raise PuzzleoptError(f"{puzzle.name}: a goal ball needs every move's inverse; this table lacks some")
    if depth > PROBE_RADIUS and (about := ball_states(puzzle, depth)) > max_states:  # before memory runs out
        raise PuzzleoptError(
            f"{puzzle.name}: the goal ball of radius {depth} exceeds {max_states:,} states (about {about:,.3g}, "
            "by the growth of its first layers); give a smaller radius (or a larger max_states)"
        )
    frontier = goal_states(puzzle)
    keys, dist = [state_hashes(frontier)], [np.zeros(len(frontier), dtype=np.uint8)]
    seen = keys[0]
    for d in range(1, int(depth) + 1):
        kids, k = _layer(puzzle, frontier, keep_states=d < depth)
        _, first = np.unique(k, return_index=True)
        first = first[~np.isin(k[first], seen)]
        frontier, k = kids[first], k[first]
        seen = np.concatenate([seen, k])
        if len(seen) > max_states:
            raise PuzzleoptError(
                f"{puzzle.name}: the goal ball of radius {depth} exceeds {max_states:,} states; "
                "give a smaller radius (or a larger max_states)"
            )
        keys.append(k)
        dist.append(np.full(len(k), d, dtype=np.uint8))
    allk, alld = np.concatenate(keys), np.concatenate(dist)
    order = np.argsort(allk)
    return GoalBall(int(depth), allk[order], alld[order])


PROBE_RADIUS = 3
"""The radius built to measure how a puzzle's ball grows (milliseconds: 1,000-odd states)."""


def ball_states(puzzle: Puzzle, depth: int) -> int:
    """About how many states the goal ball of radius ``depth`` holds: the ball of
    :data:`PROBE_RADIUS` built, its last layer's growth carried on (an overestimate: real layers
    grow more slowly as states repeat)."""
    probe = goal_ball(puzzle, min(int(depth), PROBE_RADIUS))
    layers = np.bincount(probe.dist, minlength=probe.depth + 1).astype(float)
    if depth <= probe.depth:
        return int(layers[: depth + 1].sum())
    growth = layers[-1] / max(layers[-2], 1.0) if len(layers) > 1 else 1.0
    total, layer = float(layers.sum()), float(layers[-1])
    for _ in range(int(depth) - probe.depth):
        layer *= growth
        total += layer
    return int(min(total, 2**62))


BALL_CHUNK = 100_000
"""Frontier states expanded at a time while a goal ball is built: bounds its memory."""


def _layer(puzzle: Puzzle, frontier: np.ndarray, keep_states: bool) -> tuple[np.ndarray, np.ndarray]:
    """The frontier's children ``(N, P)`` (an empty ``(N, 0)`` array unless ``keep_states``) and
    their hashes ``(N,)``, in order, duplicates included."""
    states, keys = [], []
    for at in range(0, len(frontier), BALL_CHUNK):
        children, rows = puzzle.expand(frontier[at : at + BALL_CHUNK])
        kids = children[rows >= 0]
        keys.append(state_hashes(kids))
        states.append(kids if keep_states else kids[:, :0])
    width = frontier.shape[1] if keep_states else 0
    if not keys:
        return np.empty((0, width), dtype=frontier.dtype), np.empty(0, dtype=np.uint64)
    return np.concatenate(states), np.concatenate(keys)


def _descend(puzzle: Puzzle, state: np.ndarray, ball: GoalBall) -> list[int] | None:
    """The rows from ``state`` down the ball to the goal, one distance less each move; ``None``
    where a step finds no such child (a hash collision put the state in the ball)."""
    out, d = [], int(ball.lookup(state[None])[0])
    while d > 0:
        children, rows = puzzle.expand(state[None])
        near = np.flatnonzero((rows[0] >= 0) & (ball.lookup(children[0]) == d - 1))
        if near.size == 0:
            return None
        state, d = children[0, near[0]], d - 1
        out.append(int(rows[0, near[0]]))
    return out if puzzle.solved(state) else None


def _path(parents: list[tuple[np.ndarray, np.ndarray]], index: int) -> list[int]:
    """The move rows from the start to child ``index`` of the last step."""
    out = []
    for parent, moves in reversed(parents):
        out.append(int(moves[index]))
        index = int(parent[index])
    return out[::-1]
