"""Breadth-first search: distance tables over ranked spaces and layer counts by row hashing."""

from __future__ import annotations

import math

import numpy as np
import pytest

import exact.bidirectional as bidirectional
from exact.bfs import RankedSpace, depth_counts, distance_table, layer_counts
from exact.bidirectional import HashSide, TableSide, search
from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.tiles import TilesSpace, is_solvable, tile_moves
from exact.ranking import PermutationSpace as PermSpace  # a RankedSpace outside the tiles package

# Permutations of 5 under adjacent transpositions: distance = inversion count (Mahonian numbers).
MAHONIAN5 = [1, 4, 9, 15, 20, 22, 20, 15, 9, 4, 1]


def adjacent_swaps(n: int) -> MoveTable:
    perms = []
    for i in range(n - 1):
        p = np.arange(n)
        p[[i, i + 1]] = [i + 1, i]
        perms.append(p)
    return MoveTable(names=tuple(f"s{i}" for i in range(n - 1)), perms=np.array(perms), description=f"swaps{n}")


@pytest.fixture(scope="module")
def reference(distance_tables):
    return distance_tables


@pytest.fixture(scope="module")
def puzzle8():
    space = TilesSpace(3, 3)
    return space, distance_table(space, tile_moves(3, 3), space.goal_states())


def test_puzzle8_blank_corner_golden(puzzle8, reference):
    space, dist = puzzle8
    counts = depth_counts(dist)
    assert dist.dtype == np.uint8 and dist.shape == (181_440,)
    assert sum(counts) == 181_440 and (dist != 255).all()
    assert len(counts) - 1 == 31  # diameter
    assert counts == reference["puzzle8_blank_corner"]
    # the two positions at distance 31 are solvable boards that rank back to themselves
    far = space.unrank(np.flatnonzero(dist == 31))
    assert is_solvable(far, 3, 3).all() and len(far) == 2


def test_puzzle8_blank_centre_golden(reference):
    space, table = TilesSpace(3, 3), tile_moves(3, 3)
    centre = table.apply(space.goal_states()[0], "R D")  # blank at cell 4
    assert centre[4] == 0
    counts = depth_counts(distance_table(space, table, centre))
    assert counts == reference["puzzle8_blank_center"]
    assert len(counts) - 1 == 30


def test_distance_table_small_chunks_scan_path(puzzle8):
    # chunk_size 500 keeps at most 2,000 ranks per layer, so big layers are found by scanning.
    space, dist = puzzle8
    again = distance_table(space, tile_moves(3, 3), space.goal_states(), chunk_size=500)
    np.testing.assert_array_equal(again, dist)


def test_max_depth_and_progress(puzzle8, capsys, monkeypatch):
    from exact import progress

    space, dist = puzzle8
    part = distance_table(space, tile_moves(3, 3), space.goal_states(), max_depth=10, progress=True)
    assert depth_counts(part) == depth_counts(dist)[:11]
    np.testing.assert_array_equal(part[dist <= 10], dist[dist <= 10])
    assert (part[dist > 10] == 255).all()
    assert "BFS" not in capsys.readouterr().err  # stderr is no terminal here: no bar
    monkeypatch.setattr(progress, "bars_wanted", lambda: True)  # as on a terminal
    distance_table(space, tile_moves(3, 3), space.goal_states(), max_depth=3, progress=True)
    assert "BFS" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rows", "cols", "goal"), [(2, 2, "korf"), (2, 3, "korf"), (3, 2, "blank-last"), (2, 4, "korf")]
)
def test_parity_rule_matches_reachability(rows, cols, goal):
    # BFS over all N!/2 boards the rule calls solvable reaches every one of them.
    space = TilesSpace(rows, cols, goal)
    dist = distance_table(space, tile_moves(rows, cols), space.goal_states())
    assert (dist != 255).all()
    assert sum(depth_counts(dist)) == math.factorial(rows * cols) // 2


def test_layer_counts_match_distance_table(puzzle8):
    space, dist = puzzle8
    expected = depth_counts(dist)[:15]
    assert layer_counts(tile_moves(3, 3), space.goal_states(), 14) == expected
    wide = space.goal_states().astype(np.int64)  # byte order differs from value order for int64
    assert layer_counts(tile_moves(3, 3), wide, 14, dedupe="rows", chunk_size=100) == expected
    assert layer_counts(tile_moves(3, 3), wide, 14, dedupe="bytes", chunk_size=100) == expected
    assert layer_counts(tile_moves(2, 2), space.goal_states()[:, :4], 50) == [1, 2, 2, 2, 2, 2, 1]


def test_unguarded_space_and_protocol():
    space, table = PermSpace(5), adjacent_swaps(5)
    assert isinstance(space, RankedSpace) and isinstance(TilesSpace(3, 3), RankedSpace)
    start = np.arange(5, dtype=np.uint8)
    assert depth_counts(distance_table(space, table, start)) == MAHONIAN5
    assert layer_counts(table, start, 20) == MAHONIAN5
    # several starts: distance to the nearer one
    two = np.stack([start, start[::-1].copy()])
    assert depth_counts(distance_table(space, table, two)) == [2, 8, 18, 30, 40, 22]


def test_moves_without_inverse_are_rejected():
    cycle = MoveTable(names=("c",), perms=np.array([[1, 2, 0]]), description="3-cycle")
    assert cycle.inverse[0] == -1
    with pytest.raises(PuzzleoptError, match="inverse"):
        distance_table(PermSpace(3), cycle, np.arange(3))
    with pytest.raises(PuzzleoptError, match="inverse"):
        layer_counts(cycle, np.arange(3), 3)


def test_bad_arguments():
    space, table = PermSpace(4), adjacent_swaps(4)
    with pytest.raises(PuzzleoptError, match="max_depth"):
        distance_table(space, table, np.arange(4), max_depth=255)
    with pytest.raises(PuzzleoptError, match="shape"):
        distance_table(space, table, np.arange(5))
    with pytest.raises(PuzzleoptError, match="dedupe"):
        layer_counts(table, np.arange(4), 2, dedupe="hash")
    assert depth_counts(np.array([0, 1, 1, 255, 3], dtype=np.uint8)) == [1, 2, 0, 1]
    assert depth_counts(np.full(3, 255, dtype=np.uint8)) == []


def _replay(table: MoveTable, state: np.ndarray, rows: list[int]) -> np.ndarray:
    for r in rows:
        assert table.applicable(state[None])[0, r], table.names[r]
        state = state[table.perms[r]]
    return state


def test_bidirectional_equals_distance_table_on_guarded_tiles(puzzle8):
    # the guarded backward side undoes moves by their inverse rows
    space, dist = puzzle8
    table = tile_moves(3, 3)
    goal = space.goal_states()[0]
    rng = np.random.default_rng(7)
    for rank in rng.choice(space.size, 40, replace=False):
        start = space.unrank(np.array([rank]))[0]
        met = search(TableSide(table, start), TableSide(table, goal, backward=True))
        assert met.outcome == "met" and met.bound == len(met.rows) == dist[rank]
        assert np.array_equal(_replay(table, start, met.rows), goal)
        assert sum(met.forward_layers) + sum(met.backward_layers) == met.seen
        if dist[rank] > 3:
            capped = search(
                TableSide(table, start), TableSide(table, goal, backward=True), max_depth=int(dist[rank]) - 1
            )
            assert capped.outcome == "depth" and capped.rows is None and capped.bound == dist[rank]


def test_bidirectional_unguarded_and_several_goals():
    table = adjacent_swaps(6)
    rng = np.random.default_rng(3)
    for _ in range(20):
        start = rng.permutation(6).astype(np.uint8)
        inversions = sum(int(a > b) for i, a in enumerate(start) for b in start[i + 1 :])
        met = search(TableSide(table, start), TableSide(table, np.arange(6, dtype=np.uint8), backward=True))
        assert len(met.rows) == inversions
        assert np.array_equal(_replay(table, start, met.rows), np.arange(6))
    # a start that is a goal; and the nearer of two goals
    two = np.stack([np.arange(6), np.arange(6)[::-1]]).astype(np.uint8)
    assert search(TableSide(table, two[1]), TableSide(table, two, backward=True)).rows == []
    near = np.array([5, 4, 3, 2, 0, 1], dtype=np.uint8)
    assert len(search(TableSide(table, near), TableSide(table, two, backward=True)).rows) == 1


def test_bidirectional_exhausts_a_component_and_keeps_limits():
    # 2x3 tiles: boards of the other parity lie in the other component (360 boards each)
    table = tile_moves(2, 3)
    goal = np.array([1, 2, 3, 4, 5, 0], dtype=np.uint8)
    odd = np.array([2, 1, 3, 4, 5, 0], dtype=np.uint8)
    met = search(TableSide(table, odd), TableSide(table, goal, backward=True))
    assert met.outcome == "exhausted" and met.rows is None and met.bound is None
    side = met.forward_layers if met.exhausted == "start" else met.backward_layers
    assert sum(side) == 360
    small = search(TableSide(table, odd), TableSide(table, goal, backward=True), max_stored=50)
    assert small.outcome == "stored" and small.bound == len(small.forward_layers) + len(small.backward_layers) - 1
    assert small.seen <= 50  # the cap is looked at before a layer, not after it overshot
    late = search(TableSide(table, odd), TableSide(table, goal, backward=True), time_limit=0.0)
    assert late.outcome == "time"
    cycle = MoveTable(names=("c",), perms=np.array([[1, 2, 0]]), description="3-cycle")
    # no inverse row: the backward side applies the inverse permutation (two turns of a 3-cycle)
    assert search(TableSide(cycle, np.array([1, 2, 0])), TableSide(cycle, np.arange(3), backward=True)).rows == [0, 0]
    assert search(TableSide(cycle, np.array([2, 0, 1])), TableSide(cycle, np.arange(3), backward=True)).rows == [0]


def test_a_hash_side_grown_in_chunks_keeps_the_layers_and_parents_of_one_piece(monkeypatch):
    perms = np.array(  # prefix reversals of 7 pancakes: an unguarded table
        [np.r_[np.arange(k)[::-1], np.arange(k, 7)] for k in range(2, 8)]
    )
    start = np.array([3, 0, 6, 2, 5, 1, 4], dtype=np.uint8)

    def layers():
        side = HashSide(perms, start)
        out = [side.grow() for _ in range(4)]
        return out, side.parents, side.rows, side.states

    whole = layers()
    monkeypatch.setattr(bidirectional, "CHUNK_LABELS", 5 * perms.size)  # five parents a chunk
    chunked = layers()
    monkeypatch.setattr(bidirectional, "COMPACT_CODES", 40)  # and their repeats dropped every few chunks
    merged = layers()
    for a, b, c in zip(whole, chunked, merged, strict=True):
        assert all(np.array_equal(x, y) and np.array_equal(x, z) for x, y, z in zip(a, b, c, strict=True))
