"""Sliding tiles: move table, text, parity rule, goal conversion, puzzle protocol, ranked space."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.errors import NotationError, PuzzleoptError, StateError, UnsolvableError
from exact.puzzles.tiles import (
    TilesPuzzle,
    TilesSpace,
    blank_last_to_korf,
    format_board,
    goal_state,
    is_solvable,
    korf_to_blank_last,
    parse_board,
    random_state,
    require_solvable,
    tile_moves,
)

FAST = settings(max_examples=40, deadline=None)
SHAPES = st.sampled_from([(2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 4), (5, 5)])
SWAP = {"U": "D", "D": "U", "L": "R", "R": "L"}


@st.composite
def boards(draw, goal: str = "korf"):
    """(rows, cols, state): a uniformly random solvable board."""
    rows, cols = draw(SHAPES)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rows, cols, random_state(rows, cols, rng, goal)


def walk(table, state, steps, rng):
    """Row indices of a random walk of ``steps`` applicable moves from ``state``."""
    ids = []
    for _ in range(steps):
        ok = np.flatnonzero(table.applicable(state))
        m = int(rng.choice(ok))
        ids.append(m)
        state = state[table.perms[m]]
    return ids


# ------------------------------------------------------------------------------- move table
def test_move_table_layout():
    t = tile_moves(3, 4)
    assert t.actions == ("U", "D", "L", "R")
    assert t.num_moves == 2 * (3 * 3 + 4 * 2) and t.num_positions == 12
    assert t.description == "tiles11 (3x4)"
    assert dict(t.metadata) == {"puzzle": "tiles", "rows": 3, "cols": 4}
    assert tile_moves(4, 4).description == "tiles15 (4x4)"
    for m in range(t.num_moves):
        c = int(t.guard_pos[m, 0])
        assert t.guard_val[m, 0] == 0
        target = c + {"U": -4, "D": 4, "L": -1, "R": 1}[t.names[m]]
        expected = np.arange(12)
        expected[[c, target]] = [target, c]
        np.testing.assert_array_equal(t.perms[m], expected)
        assert abs(c // 4 - target // 4) + abs(c % 4 - target % 4) == 1


def test_inverse_rows_pair_opposite_moves():
    t = tile_moves(4, 4)
    assert (t.inverse >= 0).all()
    for m in range(t.num_moves):
        inv = int(t.inverse[m])
        c = int(t.guard_pos[m, 0])
        step = {"U": -4, "D": 4, "L": -1, "R": 1}[t.names[m]]
        assert t.names[inv] == SWAP[t.names[m]]
        assert int(t.guard_pos[inv, 0]) == c + step  # U at c is undone by D at c - cols


@pytest.mark.parametrize(("rows", "cols"), [(1, 3), (3, 1), (0, 0), (-2, 4)])
def test_too_small_boards_are_rejected(rows, cols):
    with pytest.raises(PuzzleoptError, match="at least 2"):
        tile_moves(rows, cols)
    with pytest.raises(PuzzleoptError, match="at least 2"):
        TilesPuzzle(rows, cols)


def test_other_bad_shapes():
    with pytest.raises(PuzzleoptError, match="257|at most 256"):
        tile_moves(17, 17)
    with pytest.raises(PuzzleoptError, match="integer"):
        tile_moves(3.0, 3)
    with pytest.raises(PuzzleoptError, match="unknown tiles goal"):
        goal_state(3, 3, "blank-first")


# ------------------------------------------------------------------------------- move properties
@FAST
@given(boards())
def test_each_move_then_its_inverse_is_identity(case):
    rows, cols, s = case
    t = tile_moves(rows, cols)
    app = t.applicable(s)
    assert app.sum() == len({t.names[m] for m in np.flatnonzero(app)})  # at most one row per action
    for m in np.flatnonzero(app):
        child = s[t.perms[m]]
        assert t.applicable(child)[t.inverse[m]]
        np.testing.assert_array_equal(child[t.perms[t.inverse[m]]], s)


@FAST
@given(boards(), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_sequence_then_inverse_sequence_restores(case, steps, seed):
    rows, cols, s = case
    t = tile_moves(rows, cols)
    ids = walk(t, s, steps, np.random.default_rng(seed))
    end = t.apply(s, ids)
    back = [int(t.inverse[m]) for m in reversed(ids)]
    np.testing.assert_array_equal(t.apply(end, back), s)
    # notation round trip: names are resolved against the state as the sequence is read
    assert t.parse(t.format(ids), s) == ids
    assert is_solvable(end, rows, cols) and is_solvable(s, rows, cols)


def test_parse_reports_a_move_that_cannot_be_applied():
    t = tile_moves(3, 3)
    with pytest.raises(NotationError, match="'U'"):
        t.parse("D U U", goal_state(3, 3))
    with pytest.raises(NotationError, match="'X'"):
        t.parse("D X", goal_state(3, 3))


# ------------------------------------------------------------------------------- parity rule
@FAST
@given(boards())
def test_solvability_is_invariant_under_moves_and_flips_with_a_swap(case):
    rows, cols, s = case
    t = tile_moves(rows, cols)
    assert is_solvable(s, rows, cols)
    children = s[t.perms[np.flatnonzero(t.applicable(s))]]
    assert is_solvable(children, rows, cols).all()
    swapped = s.copy()
    i, j = np.flatnonzero(s != 0)[:2]
    swapped[[i, j]] = swapped[[j, i]]
    assert not is_solvable(swapped, rows, cols)
    with pytest.raises(UnsolvableError, match="swap|Swapping"):
        require_solvable(swapped, rows, cols)
    np.testing.assert_array_equal(require_solvable(s, rows, cols), s)


def test_known_boards():
    assert is_solvable(goal_state(4, 4), 4, 4)
    # Sam Loyd's 14-15 puzzle is unsolvable in the blank-last convention
    loyd = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0], dtype=np.uint8)
    assert not is_solvable(loyd, 4, 4, goal="blank-last")
    with pytest.raises(UnsolvableError) as err:
        require_solvable(loyd, 4, 4, goal="blank-last")
    assert "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0" in str(err.value)
    # On 4x4 boards the two goals lie in different halves; on 3x3 in the same one
    assert not is_solvable(goal_state(4, 4, "blank-last"), 4, 4, goal="korf")
    assert is_solvable(goal_state(3, 3, "blank-last"), 3, 3, goal="korf")
    with pytest.raises(StateError, match="not a permutation"):
        is_solvable(np.array([0, 1, 1, 3]), 2, 2)


# ------------------------------------------------------------------------------- conversion
def test_conversion_maps_goals():
    for rows, cols in [(3, 3), (4, 4), (2, 5)]:
        np.testing.assert_array_equal(korf_to_blank_last(goal_state(rows, cols)), goal_state(rows, cols, "blank-last"))
        np.testing.assert_array_equal(blank_last_to_korf(goal_state(rows, cols, "blank-last")), goal_state(rows, cols))


@FAST
@given(boards(), st.integers(0, 40), st.integers(0, 2**32 - 1))
def test_conversion_preserves_solvability_and_solutions(case, steps, seed):
    rows, cols, s = case
    t = tile_moves(rows, cols)
    converted = korf_to_blank_last(s)
    assert converted.dtype == np.uint8
    assert is_solvable(converted, rows, cols, goal="blank-last")
    np.testing.assert_array_equal(blank_last_to_korf(converted), s)
    # A move sequence from s maps to one of the same length from the converted board (U<->D, L<->R).
    ids = walk(t, s, steps, np.random.default_rng(seed))
    mirrored = " ".join(SWAP[n] for n in t.format(ids).split())
    end = t.apply(converted, t.parse(mirrored, converted)) if ids else converted
    np.testing.assert_array_equal(end, korf_to_blank_last(t.apply(s, ids)))


# ------------------------------------------------------------------------------- text
@FAST
@given(boards(), st.booleans())
def test_board_text_round_trip(case, grid):
    rows, cols, s = case
    text = format_board(s, rows, cols, grid=grid)
    assert text.count("\n") == (rows - 1 if grid else 0)
    np.testing.assert_array_equal(parse_board(text, rows, cols), s)
    np.testing.assert_array_equal(parse_board(text.replace(" ", ",").replace("\n", ",\n"), rows, cols), s)


def test_format_grid_aligns_columns():
    assert format_board(goal_state(4, 4), grid=True).splitlines()[1] == " 4  5  6  7"
    assert format_board(goal_state(2, 3), rows=2, cols=3, grid=True) == "0 1 2\n3 4 5"
    assert format_board(goal_state(2, 3), cols=3, grid=True) == "0 1 2\n3 4 5"
    with pytest.raises(StateError, match="not square"):
        format_board(goal_state(2, 3), grid=True)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("1 2 3 4 0 5 6 7", ["'1 2 3 4 0 5 6 7'", "expected 9", "got 8"]),
        ("1 2 3 4 0 5 6 7 8 9", ["expected 9", "got 10"]),
        ("1 2 3 4 x 5 6 7 8", ["'x'", "not an integer", "value 5"]),
        ("1 2 3 4 0 5 6 7 9", ["9", "out of range 0..8"]),
        ("1 2 3 4 0 5 6 -7 8", ["-7", "out of range"]),
        ("1 2 3 4 0 5 6 6 8", ["tile(s) 6 appear more than once", "tile(s) 7 are missing"]),
        ("", ["expected 9", "got 0"]),
    ],
)
def test_malformed_boards_name_the_defect(text, fragments):
    with pytest.raises(StateError) as err:
        parse_board(text, 3, 3)
    assert isinstance(err.value, PuzzleoptError) and isinstance(err.value, ValueError)
    for f in fragments:
        assert f in str(err.value)


# ------------------------------------------------------------------------------- random states
def test_random_state_is_uniform_over_solvable_boards():
    rng = np.random.default_rng(7)
    s = random_state(2, 2, rng, n=12_000)
    assert s.dtype == np.uint8 and s.shape == (12_000, 4)
    assert is_solvable(s, 2, 2).all()
    _, counts = np.unique(s, axis=0, return_counts=True)
    assert len(counts) == 12  # 4!/2 solvable 2x2 boards
    assert counts.min() > 850 and counts.max() < 1150  # expected 1000 each, sd about 30
    again = random_state(2, 2, np.random.default_rng(7), n=12_000)
    np.testing.assert_array_equal(s, again)
    assert is_solvable(random_state(4, 4, rng, goal="blank-last", n=50), 4, 4, goal="blank-last").all()
    assert random_state(3, 3, rng).shape == (9,)
    with pytest.raises(PuzzleoptError, match="Generator"):
        random_state(3, 3, 42)


# ------------------------------------------------------------------------------- puzzle protocol
def test_puzzle_basics():
    p = TilesPuzzle(4, 4)
    assert p.name == "tiles15" and p.num_labels == 16 and p.num_actions == 4
    assert TilesPuzzle(2, 3).name == "tiles2x3"
    assert (p.rows, p.cols, p.goal_kind) == (4, 4, "korf")
    assert p.is_goal(p.goal[None]).tolist() == [True]
    q = TilesPuzzle(3, 3, goal="blank-last")
    np.testing.assert_array_equal(q.goal, [1, 2, 3, 4, 5, 6, 7, 8, 0])
    text = p.format_state(p.goal)
    assert text == " ".join(str(i) for i in range(16))
    np.testing.assert_array_equal(p.parse_state(text), p.goal)
    with pytest.raises(StateError, match="expected 16"):
        p.parse_state("1 2 3")


def test_expand_batch():
    p = TilesPuzzle(3, 3)
    corner = p.goal  # blank at cell 0: U and L impossible
    centre = np.array([1, 2, 3, 4, 0, 5, 6, 7, 8], dtype=np.uint8)
    edge = np.array([1, 2, 3, 4, 5, 0, 6, 7, 8], dtype=np.uint8)  # blank at cell 5: R impossible
    children, ids = p.expand(np.stack([corner, centre, edge]))
    assert children.shape == (3, 4, 9) and ids.shape == (3, 4)
    assert (ids[0] >= 0).tolist() == [False, True, False, True]
    assert (ids[1] >= 0).all()
    assert (ids[2] >= 0).tolist() == [True, True, True, False]
    np.testing.assert_array_equal(children[0, 0], corner)  # parent copied where no move
    np.testing.assert_array_equal(children[1, 0], [1, 0, 3, 4, 2, 5, 6, 7, 8])  # U
    np.testing.assert_array_equal(children[1, 1], [1, 2, 3, 4, 7, 5, 6, 0, 8])  # D
    np.testing.assert_array_equal(children[1, 2], [1, 2, 3, 0, 4, 5, 6, 7, 8])  # L
    np.testing.assert_array_equal(children[1, 3], [1, 2, 3, 4, 5, 0, 6, 7, 8])  # R
    for b, a in zip(*np.nonzero(ids >= 0)):
        assert p.table.names[ids[b, a]] == p.actions[a]


def test_random_walk_states_are_solvable():
    p = TilesPuzzle(4, 4, goal="blank-last")
    s = p.random_walk(200, np.arange(200) % 40, np.random.default_rng(1))
    assert s.dtype == np.uint8 and s.shape == (200, 16)
    assert p.is_solvable(s).all()
    np.testing.assert_array_equal(s[0], p.goal)  # depth 0
    assert p.is_solvable(p.random_states(5, np.random.default_rng(2))).all()


# ------------------------------------------------------------------------------- ranked space
@FAST
@given(
    SHAPES.filter(lambda rc: rc[0] * rc[1] <= 20), st.sampled_from(["korf", "blank-last"]), st.integers(0, 2**32 - 1)
)
def test_space_bijection(shape, goal, seed):
    rows, cols = shape
    space = TilesSpace(rows, cols, goal)
    rng = np.random.default_rng(seed)
    ranks = rng.integers(0, space.size, size=64)
    states = space.unrank(ranks)
    assert states.dtype == np.uint8 and states.shape == (64, rows * cols)
    assert is_solvable(states, rows, cols, goal).all()
    np.testing.assert_array_equal(space.rank(states), ranks)
    boards_ = random_state(rows, cols, rng, goal, n=64)
    r = space.rank(boards_)
    assert r.dtype == np.int64 and ((r >= 0) & (r < space.size)).all()
    np.testing.assert_array_equal(space.unrank(r), boards_)


@pytest.mark.parametrize(("rows", "cols", "goal"), [(2, 2, "korf"), (2, 3, "korf"), (3, 2, "blank-last")])
def test_space_enumerates_exactly_the_solvable_boards(rows, cols, goal):
    space = TilesSpace(rows, cols, goal)
    n = rows * cols
    assert space.size == np.prod(np.arange(1, n + 1)) // 2
    states = space.unrank(np.arange(space.size))
    assert len(np.unique(states, axis=0)) == space.size
    assert is_solvable(states, rows, cols, goal).all()
    np.testing.assert_array_equal(space.goal_states(), goal_state(rows, cols, goal)[None])


def test_space_rejects_bad_input():
    space = TilesSpace(3, 3)
    with pytest.raises(StateError, match="unsolvable"):
        space.rank(np.array([0, 2, 1, 3, 4, 5, 6, 7, 8]))
    with pytest.raises(StateError, match="not a permutation"):
        space.rank(np.array([[0, 1, 2, 3, 4, 5, 6, 7, 7]]))
    with pytest.raises(StateError, match="out of range"):
        space.unrank(np.array([space.size]))
    with pytest.raises(PuzzleoptError, match="at most 20 cells"):
        TilesSpace(5, 5)
