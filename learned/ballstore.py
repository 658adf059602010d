"""The goal ball in the pattern-database store (:mod:`exact.pdb.store`): built once, then read.

A ball of ``S`` states is stored as one table of ``9 S`` bytes: its sorted uint64 hashes
(little-endian), then its uint8 distances. The store verifies the sha256 on every load; the
audit here checks what a checksum cannot: sorted, distinct keys, distances within the radius,
and the goal states at distance 0. A ball read back is only ever a guide: every way down it is
checked move by move and every solution is replayed (:mod:`learned.beam`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

import numpy as np

from exact.logs import get_logger
from exact.pdb import store
from exact.puzzle import Puzzle
from learned.beam_parts import HASH_SEED, GoalBall, ball_states, goal_ball, goal_states, state_hashes

logger = get_logger(__name__)

STORE_FROM = 100_000
"""Balls of fewer states are built each time: faster than reading and verifying a file."""


BALL_SECONDS_PER_STATE = 1.5e-6
"""Seconds to build a goal ball, per state it holds: 1.0e-6 measured (the 3x3's radius 7,
9,205,558 states in 9 s on one core; :func:`learned.beam_parts.goal_ball`), rounded up."""


def _ball_name(puzzle: Puzzle, depth: int) -> str:
    desc = puzzle.spec.to_dict()
    key = hashlib.sha256(json.dumps([desc, HASH_SEED, int(depth)], sort_keys=True).encode()).hexdigest()[:16]
    return f"ball-{puzzle.name}-d{int(depth)}-{key}"


def fitting_radius(puzzle: Puzzle, depth: int, seconds: float | None, directory: str | Path | None = None) -> int:
    """The largest radius up to ``depth`` whose goal ball is stored in ``directory`` or, by
    :func:`ball_states` and :data:`BALL_SECONDS_PER_STATE`, builds within ``seconds``; 0 where
    none does. A radius lowered is logged (a warning): the beam then meets a smaller ball."""
    if seconds is None or depth <= 0:
        return int(depth)
    spec = getattr(puzzle, "spec", None)
    for radius in range(int(depth), 0, -1):
        if spec is not None and store.stored_entries(_ball_name(puzzle, radius), directory) is not None:
            break
        need = ball_states(puzzle, radius) * BALL_SECONDS_PER_STATE
        if need <= seconds:
            break
    else:
        radius = 0
    if radius < depth:
        logger.warning(
            "%s: the goal ball's radius lowered from %d to %d: radius %d (about %s states to build, not stored) "
            "would not fit in the %.1f s it may take; build it once without a time limit to keep it",
            puzzle.name, depth, radius, radius + 1, f"{ball_states(puzzle, radius + 1):,}", seconds,
        )  # fmt: skip
    return radius


def stored_goal_ball(puzzle: Puzzle, depth: int, directory: str | Path | None = None) -> GoalBall:
    """:func:`learned.beam.goal_ball` of a registry puzzle (it has a ``spec``), stored in
    ``directory`` (default: the store's) when it holds at least :data:`STORE_FROM` states."""
    desc = puzzle.spec.to_dict()
    name = _ball_name(puzzle, depth)
    built: list[GoalBall] = []
    entries = store.stored_entries(name, directory)
    if entries is None:
        built.append(goal_ball(puzzle, depth))
        if len(built[0].keys) < STORE_FROM:
            return built[0]
        entries = 9 * len(built[0].keys)

    def build(advance) -> np.ndarray:
        ball = built.pop() if built else goal_ball(puzzle, depth)
        advance(1)
        return np.concatenate([ball.keys.astype("<u8").view(np.uint8), ball.dist])

    spec = store.TableSpec(
        name=name, puzzle=puzzle.name, entries=entries, packed=False, build=build, progress_total=1,
        pattern={"goal_ball": int(depth), "spec": desc, "hash_seed": HASH_SEED,
                 "layout": "uint64 state hashes (little-endian, sorted), then uint8 distances"},
        audit=lambda table: _audit(puzzle, int(depth), table.data),
    )  # fmt: skip
    return _ball(int(depth), store.load(spec, directory, progress=False, log=logger.info).data)


def _ball(depth: int, data: np.ndarray) -> GoalBall:
    s = data.size // 9
    return GoalBall(depth, np.array(data[: 8 * s]).view("<u8").astype(np.uint64), np.array(data[8 * s :]))


def _audit(puzzle: Puzzle, depth: int, data: np.ndarray) -> str | None:
    if data.size % 9:
        return f"{data.size} bytes is not 9 per state"
    ball = _ball(depth, data)
    if not (ball.keys[1:] > ball.keys[:-1]).all():  # not np.diff: uint64 differences wrap
        return "its keys are not sorted and distinct"
    if ball.dist.size and int(ball.dist.max()) > depth:
        return f"a distance {int(ball.dist.max())} exceeds the radius {depth}"
    goals = np.sort(state_hashes(goal_states(puzzle)))
    if not np.array_equal(np.sort(ball.keys[ball.dist == 0]), goals):
        return "its distance-0 states are not the goal states"
    return None


@functools.lru_cache(maxsize=4)
def _cached_ball(spec: str, depth: int, directory: str | None) -> GoalBall:
    from exact.batch import rebuilt

    return stored_goal_ball(rebuilt(json.loads(spec)), depth, directory)


def cached_goal_ball(puzzle: Puzzle, depth: int, directory: str | None = None) -> GoalBall:
    """:func:`goal_ball`, read from the table store (``directory``, default the store's) where a
    large one was built before (:mod:`learned.ballstore`), else built and stored; kept once per
    process for each puzzle spec, depth and directory. A puzzle made outside the registry (no
    ``spec``) gets its ball built each time."""
    spec = getattr(puzzle, "spec", None)
    if spec is None:
        return goal_ball(puzzle, depth)
    where = None if directory is None else str(directory)
    return _cached_ball(json.dumps(spec.to_dict(), sort_keys=True), int(depth), where)
