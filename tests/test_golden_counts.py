"""Positions per depth against published tables (../shared/data/distance_tables.json)."""

from __future__ import annotations

import numpy as np
import pytest

from exact.bfs import depth_counts, distance_table, layer_counts
from exact.moves import cube_moves
from exact.puzzles.cube import random_state, solved_state
from exact.puzzles.cube.space import CornerSpace

RUF = {"htm": ["R", "R2", "R'", "U", "U2", "U'", "F", "F2", "F'"], "qtm": ["R", "R'", "U", "U'", "F", "F'"]}


def test_3x3_qtm_depths_0_to_5(distance_tables: dict) -> None:
    counts = layer_counts(cube_moves(3, "faces", "qtm"), solved_state(3), 5)
    assert counts == [1, 12, 114, 1068, 10011, 93840]
    assert counts == distance_tables["cube3_qtm_exact_prefix"][:6]


def test_3x3_htm_depths_0_to_4(distance_tables: dict) -> None:
    counts = layer_counts(cube_moves(3, "faces", "htm"), solved_state(3), 4)
    assert counts == [1, 18, 243, 3240, 43239]
    assert counts == distance_tables["cube3_htm_exact_prefix"][:5]


@pytest.mark.parametrize("metric, diameter", [("qtm", 14), ("htm", 11)])
def test_whole_2x2_distance_distribution(metric: str, diameter: int, distance_tables: dict) -> None:
    space = CornerSpace(2, fixed_corner=True)
    assert space.size == 3_674_160
    table = cube_moves(2, "faces", metric).subset(RUF[metric])
    dist = distance_table(space, table, solved_state(2))
    counts = depth_counts(dist)
    assert sum(counts) == 3_674_160
    assert len(counts) - 1 == diameter
    assert counts == distance_tables[f"cube2_{metric}_fixed_corner"]


def test_corner_space_is_a_bijection() -> None:
    rng = np.random.default_rng(5)
    for fixed in (True, False):
        space = CornerSpace(2, fixed_corner=fixed)
        ranks = rng.integers(space.size, size=2000)
        assert np.array_equal(space.rank(space.unrank(ranks)), ranks)
    space = CornerSpace(3)
    assert space.size == 88_179_840
    states = np.stack([random_state(3, rng) for _ in range(200)])
    ranks = space.rank(states)
    back = space.unrank(ranks)
    assert np.array_equal(space.rank(back), ranks)
    corners = np.unique(np.concatenate([np.arange(0, 54, 9) + i for i in (0, 2, 6, 8)]))
    assert np.array_equal(back[:, corners], states[:, corners])
