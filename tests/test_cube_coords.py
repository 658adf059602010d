"""Kociemba-style coordinates of the 3x3x3 (issue 27's groundwork): bijections, move tables that
commute with the facelet moves, and distances that are lower bounds."""

from __future__ import annotations

import csv
from functools import cache

import numpy as np
import pytest
from conftest import shared_data
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry
from exact.bfs import shortest_distance
from exact.cube.coords import (
    SIZES,
    SOLVED,
    coord_tables,
    coordinates,
    corners_cubies,
    corners_of,
    distances,
    flip_cubies,
    flip_of,
    slice_cubies,
    slice_of,
    slicesorted_cubies,
    slicesorted_of,
    twist_cubies,
    twist_of,
)
from exact.puzzles.cube import rotations
from exact.puzzles.cube.facelets import from_facelets


@cache
def _tables(metric: str):
    p = registry.get("cube3", moves="faces", metric=metric)
    t = coord_tables(p.table)
    return p, t, {k: distances(t, k) for k in SIZES}


def test_coordinates_are_bijections() -> None:
    for name, (of, cubies) in {
        "twist": (twist_of, twist_cubies),
        "flip": (flip_of, flip_cubies),
        "slice": (slice_of, slice_cubies),
        "corners": (corners_of, corners_cubies),
        "slicesorted": (slicesorted_of, slicesorted_cubies),
    }.items():
        values = np.arange(SIZES[name])
        assert np.array_equal(of(cubies(values)), values), name
    assert (twist_cubies(np.arange(2187)).sum(axis=1) % 3 == 0).all()
    assert (flip_cubies(np.arange(2048)).sum(axis=1) % 2 == 0).all()


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_move_tables_commute_with_the_facelet_moves(metric: str) -> None:
    p, t, _ = _tables(metric)
    assert coordinates(p.goal) == SOLVED
    for name in SIZES:  # every move permutes each coordinate's values
        table = t.table(name)
        assert all(np.array_equal(np.sort(table[:, m]), np.arange(SIZES[name])) for m in range(table.shape[1]))
    rng = np.random.default_rng(5)
    for state in p.random_walk(20, 12, rng):
        c = coordinates(state)
        for m in range(p.table.num_moves):
            after = coordinates(state[p.table.perms[m]])
            assert after == {k: int(t.table(k)[c[k], m]) for k in SIZES}, (p.table.names[m], c)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2186), st.integers(0, 2047), st.integers(0, 494), st.integers(0, 40319), st.data())
def test_a_move_then_its_inverse_is_the_identity(tw, fl, sl, co, data) -> None:
    p, t, _ = _tables("htm")
    m = data.draw(st.integers(0, p.table.num_moves - 1))
    inv = int(p.table.inverse[m])
    for name, c in (("twist", tw), ("flip", fl), ("slice", sl), ("corners", co)):
        table = t.table(name)
        assert table[table[c, m], inv] == c


def test_distances_are_lower_bounds() -> None:
    # against BFS on short walks (every orientation of the solved cube is a goal), and against
    # the optimal QTM lengths of DeepCubeA's file
    for metric in ("htm", "qtm"):
        p, _, dist = _tables(metric)
        assert {k: int(d.max()) for k, d in dist.items()} and all((d < 255).all() for d in dist.values())
        for state in p.random_walk(8, 5, np.random.default_rng(1)):
            c = coordinates(state)
            h = max(int(dist[k][c[k]]) for k in SIZES)
            assert h <= shortest_distance(p.table, state, p.goal[rotations(3)], 10)
    p, _, dist = _tables("qtm")
    with open(shared_data("cube/deepcubea_cube3_qtm_1000.tsv")) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))[:200]
    for row in rows:
        c = coordinates(from_facelets(row["facelets_URFDLB"]))
        assert max(int(dist[k][c[k]]) for k in SIZES) <= int(row["optimal_qtm"]), row["id"]


# Positions per distance of each coordinate (computed here by exact.cube.coords.distances; a
# regression check beside the lower-bound and commutation tests above).
COUNTS = {
    "htm": {
        "twist": [1, 4, 34, 186, 816, 1018, 128],
        "flip": [1, 2, 25, 202, 620, 900, 285, 13],
        "slice": [1, 4, 50, 286, 152, 2],
        "corners": [1, 18, 243, 2646, 12516, 17624, 7080, 192],
        "slicesorted": [1, 12, 138, 1308, 6005, 4348, 68],
    },
    "qtm": {
        "twist": [1, 4, 26, 110, 372, 684, 816, 150, 24],
        "flip": [1, 2, 17, 132, 444, 866, 546, 40],
        "slice": [1, 4, 34, 202, 232, 22],
        "corners": [1, 12, 114, 876, 4931, 12972, 15066, 6300, 48],
        "slicesorted": [1, 8, 76, 524, 2294, 5028, 3769, 180],
    },
}


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_coordinate_distance_counts(metric: str) -> None:
    _, _, dist = _tables(metric)
    assert {k: np.bincount(d).tolist() for k, d in dist.items()} == COUNTS[metric]
    assert all(sum(c) == SIZES[k] for k, c in COUNTS[metric].items())
