"""Algebra of the cube move tables: inverses, orders, commuting moves, notation round trips."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact.errors import NotationError, PuzzleoptError
from exact.moves import cube_moves
from exact.puzzles.cube import parse_turn, solved_state, spellings
from exact.puzzles.cube.geometry import turn_perm

SIZES = range(2, 8)
MOVE_SETS = ("faces", "layers", "wide")
METRICS = ("qtm", "htm")
TABLES = st.tuples(st.sampled_from(list(SIZES)), st.sampled_from(MOVE_SETS), st.sampled_from(METRICS))


def test_issue_counts() -> None:
    assert len(cube_moves(3)) == 12  # the quarter-turn metric: puzzleopt's one cube default
    assert cube_moves(3).description == "cube3 faces qtm"
    assert len(cube_moves(3, moves="faces", metric="qtm")) == 12
    assert len(cube_moves(3, moves="layers", metric="qtm")) == 18
    assert set(cube_moves(3, "layers", "qtm").names) >= {"M", "M'", "E", "E'", "S", "S'"}


@pytest.mark.parametrize("n", SIZES)
def test_move_set_sizes(n: int) -> None:
    assert len(cube_moves(n, "layers", "qtm")) == 6 * n
    assert len(cube_moves(n, "layers", "htm")) == 9 * n
    assert len(cube_moves(n, "faces", "htm")) == 18
    # faces + wide turns of 2..n-1 layers + x, y, z
    assert len(cube_moves(n, "wide", "qtm")) == 12 + 12 * (n - 2) + 6
    for ms in MOVE_SETS:
        for me in METRICS:
            t = cube_moves(n, ms, me)
            assert len(set(t.names)) == len(t)
            # no two rows are the same permutation
            assert len({p.tobytes() for p in t.perms}) == len(t)


@given(TABLES, st.data())
def test_move_then_inverse_is_identity(spec, data) -> None:
    t = cube_moves(*spec)
    m = data.draw(st.integers(0, len(t) - 1))
    inv = int(t.inverse[m])
    assert inv >= 0
    ident = np.arange(t.num_positions)
    assert np.array_equal(t.compose([m, inv]), ident)
    assert np.array_equal(t.compose([inv, m]), ident)


@given(TABLES)
def test_move_orders(spec) -> None:
    t = cube_moves(*spec)
    ident = np.arange(t.num_positions)
    for m, name in enumerate(t.names):
        p = t.perms[m]
        half = name.endswith("2")
        assert not np.array_equal(p, ident)
        assert np.array_equal(p[p], ident) == half, name
        assert np.array_equal(p[p][p][p], ident), name


@given(TABLES)
def test_same_axis_moves_commute(spec) -> None:
    t = cube_moves(*spec)
    same = t.axis[:, None] == t.axis[None, :]
    assert t.commutes[same].all()
    # quarter turns of different axes share facelets and never commute (half turns can: M2 E2)
    quarter = np.array([not name.endswith("2") for name in t.names])
    assert not t.commutes[~same & quarter[:, None] & quarter[None, :]].any()


@given(TABLES, st.data())
def test_sequence_then_inverse_sequence(spec, data) -> None:
    n = spec[0]
    t = cube_moves(*spec)
    seq = data.draw(st.lists(st.integers(0, len(t) - 1), max_size=25))
    start = solved_state(n)
    mid = t.apply(start, seq)
    back = t.apply(mid, [int(t.inverse[m]) for m in reversed(seq)])
    assert np.array_equal(back, start)


@given(TABLES, st.data())
def test_notation_round_trip(spec, data) -> None:
    t = cube_moves(*spec)
    seq = data.draw(st.lists(st.integers(0, len(t) - 1), max_size=25))
    assert t.parse(t.format(seq)) == seq


@given(TABLES)
def test_every_alias_means_its_turn(spec) -> None:
    n = spec[0]
    t = cube_moves(*spec)
    for token, rows in t.aliases.items():
        axis, layers, q = parse_turn(token, n)
        assert np.array_equal(t.compose(list(rows)), turn_perm(n, axis, layers, q)), token


@pytest.mark.parametrize("n", SIZES)
def test_names_are_canonical_spellings(n: int) -> None:
    t = cube_moves(n, "wide", "htm")
    for name, axis, layers in zip(t.names, t.axis, t.layer):
        turn = parse_turn(name, n)
        assert turn[:2] == (axis, layers)
        assert spellings(n, turn)[0] == name


def test_wca_spellings_3x3_and_4x4() -> None:
    t3 = cube_moves(3, "layers", "htm")
    assert t3.parse("2R") == t3.parse("M'")
    assert t3.parse("2L") == t3.parse("M")
    assert np.array_equal(t3.compose("Rw"), t3.compose("R M'"))
    assert np.array_equal(t3.compose("x"), t3.compose("R M' L'"))
    t4 = cube_moves(4, "wide", "htm")
    assert np.array_equal(t4.compose("Rw"), t4.compose("2Rw"))
    assert np.array_equal(t4.compose("3Rw"), t4.compose("x L"))
    assert np.array_equal(t4.compose("4Rw"), t4.compose("x"))
    assert np.array_equal(t4.compose("R2'"), t4.compose("R2"))


def test_notation_people_type() -> None:
    t3 = cube_moves(3, "layers", "htm")
    assert t3.parse("r U l' d2") == t3.parse("Rw U Lw' Dw2")  # lowercase: two layers
    assert t3.parse("R\u2019 U\u2018 F\u2032") == t3.parse("R' U' F'")  # typographic apostrophes
    assert t3.parse("(R U)2 F") == t3.parse("R U R U F")
    assert t3.parse("((R U)2 D)3") == t3.parse("R U R U D") * 3
    assert t3.parse("(R U) F") == t3.parse("R U F")
    t2 = cube_moves(2, "wide", "htm")
    assert np.array_equal(t2.compose("r"), t2.compose("x"))
    for bad, where in [("(R U", "'(' at character 1"), ("R U)2", "')' at character 4"), ("(R)0", "must be in 1..")]:
        with pytest.raises(NotationError, match=re.escape(where)):
            t3.parse(bad)


@given(TABLES, st.data())
def test_repeat_groups_round_trip(spec, data) -> None:
    t = cube_moves(*spec)
    seq = data.draw(st.lists(st.integers(0, len(t) - 1), min_size=1, max_size=8))
    k = data.draw(st.integers(1, 5))
    assert t.parse(f"({t.format(seq)}){k}") == seq * k


def test_qtm_half_turns_count_two() -> None:
    t = cube_moves(3, "faces", "qtm")
    assert t.format(t.parse("R2 U L2")) == "R R U L L"


def test_notation_errors_name_token_and_position() -> None:
    t = cube_moves(3, "faces", "htm")
    with pytest.raises(NotationError, match=r"'Q'.*token 3, character 5"):
        t.parse("R U Q F")
    with pytest.raises(NotationError, match="'M'"):
        t.parse("R M")  # a slice is not a face turn
    with pytest.raises(NotationError, match="'R3'"):
        t.parse("R3")
    with pytest.raises(NotationError, match="out of range"):
        t.apply(solved_state(3), 18)
    with pytest.raises(NotationError):
        parse_turn("9Rw", 3)


@pytest.mark.parametrize("bad", [1, 0, -3, 2.5, "3", True])
def test_bad_sizes(bad) -> None:
    with pytest.raises(PuzzleoptError, match="cube size"):
        cube_moves(bad)


def test_bad_move_set_and_metric() -> None:
    with pytest.raises(PuzzleoptError, match="move set"):
        cube_moves(3, "slices")
    with pytest.raises(PuzzleoptError, match="metric"):
        cube_moves(3, "faces", "stm")
