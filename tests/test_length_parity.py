"""Puzzle.length_parity: the parity every solution's length has (the beam's use of it: tests/test_beam.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry
from exact.bfs import distance_table
from exact.goals import with_goal
from exact.puzzles.tiles.space import TilesSpace

HAS_PARITY = [
    ("cube3", {}),
    ("cube2", {"moves": "faces", "metric": "qtm"}),  # 24 goal states, all of one parity
    ("tiles8", {}),  # guarded moves, each a swap
]
NO_PARITY = [
    ("cube3", {"metric": "htm"}),  # half turns are even
    ("cube3", {"moves": "layers"}),  # slice turns are even
    ("pancake", {"n": 7}),  # a flip of four is even
]


@pytest.mark.parametrize(("name", "opts"), HAS_PARITY)
@settings(max_examples=25, deadline=None)
@given(depth=st.integers(0, 30), seed=st.integers(0, 2**32 - 1))
def test_a_state_k_moves_from_the_goal_has_solutions_of_k_s_parity(name, opts, depth, seed):
    # a walk of k moves and a solution of L moves close a walk from goal to goal: L = k mod 2
    p = registry.get(name, **opts)
    for state in p.random_walk(3, depth, np.random.default_rng(seed)):
        assert p.length_parity(state) == depth % 2


@pytest.mark.parametrize(("name", "opts"), NO_PARITY)
def test_puzzles_with_even_moves_have_no_length_parity(name, opts):
    p = registry.get(name, **opts)
    for state in p.random_walk(5, 5, np.random.default_rng(4)):
        assert p.length_parity(state) is None


def test_the_tiles_parity_is_that_of_the_bfs_distance():
    tiles, space = registry.get("tiles8"), TilesSpace(3, 3)
    dist = distance_table(space, tiles.table, tiles.goal)
    for state in tiles.random_walk(30, np.arange(30), np.random.default_rng(2)):
        assert tiles.length_parity(state) == int(dist[space.rank(state[None])[0]]) % 2


def test_a_partial_goal_has_no_length_parity():
    p = registry.get("cube3")
    state = p.table.apply(p.goal, "U")  # the D cross is solved: 0 moves, though the state is odd
    assert p.length_parity(state) == 1
    cross = with_goal(p, "cross")
    assert cross.solved(state) and cross.length_parity(state) is None
