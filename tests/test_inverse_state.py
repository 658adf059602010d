"""Puzzle.inverse_state: the state a solution reaches from the goal, where the puzzle has one."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry
from exact.goals import with_goal

HAS_INVERSE = [
    ("cube3", {}),
    ("cube2", {"moves": "faces", "metric": "qtm"}),
    ("pancake", {"n": 7}),
    ("pancake", {"n": 5, "burnt": True}),
]


@pytest.mark.parametrize(("name", "opts"), HAS_INVERSE)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_inverse_state_is_what_the_undoing_moves_reach_from_the_goal(name, opts, data):
    p = registry.get(name, **opts)
    rows = data.draw(st.lists(st.integers(0, p.table.num_moves - 1), max_size=25))
    state = p.table.apply(p.goal, rows)
    back = p.inverse_state(state)
    assert back is not None and back.dtype == state.dtype
    undo = p.table.undoing(rows)
    assert len(undo) == len(rows) and p.solved(p.table.apply(state, undo))  # undoing undoes
    assert np.array_equal(back, p.table.apply(p.goal, undo))
    assert np.array_equal(p.inverse_state(back), state)  # an involution
    # a solution of the state (undo), reversed and inverted (rows), solves its inverse
    assert p.solved(p.table.apply(back, rows))


@pytest.mark.parametrize(
    ("name", "opts", "why"),
    [("tiles8", {}, "guarded moves"), ("lightsout", {"rows": 3}, "labels repeat")],
)
def test_puzzles_without_a_group_inverse_say_none(name, opts, why):
    p = registry.get(name, **opts)
    state = p.random_walk(1, 7, np.random.default_rng(3))[0]
    assert p.inverse_state(state) is None, why


def test_a_partial_goal_has_no_inverse_state():
    p = registry.get("cube3")
    assert p.inverse_state(p.table.apply(p.goal, "R U")) is not None
    assert with_goal(p, "cross").inverse_state(p.table.apply(p.goal, "R U")) is None
