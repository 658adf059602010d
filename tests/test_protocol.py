"""The batched puzzle protocol and the registry."""

from __future__ import annotations

import numpy as np
import pytest

from exact import registry
from exact.errors import PuzzleoptError
from exact.puzzles.cube import CubePuzzle


def test_registry_names_and_errors() -> None:
    names = registry.names()
    for name in ["cube2", "cube3", "cube4", "tiles8", "tiles15", "tiles24"]:
        assert name in names
    assert registry.get("cube3") is registry.get("cube3")
    assert registry.get("cube3", moves="layers").table.num_moves == 18
    with pytest.raises(PuzzleoptError, match="unknown puzzle 'cube1'.*cube2"):
        registry.get("cube1")


@pytest.mark.parametrize("name", ["cube2", "cube3", "cube4", "tiles8", "tiles15", "tiles24"])
def test_protocol(name: str) -> None:
    p = registry.get(name)
    rng = np.random.default_rng(3)
    assert p.is_goal(p.goal[None])[0]
    states = p.random_walk(64, rng.integers(1, 20, 64), rng)
    assert states.shape == (64, p.num_positions) and states.dtype == np.uint8
    rng = np.random.default_rng(3)
    again = p.random_walk(64, rng.integers(1, 20, 64), rng)
    assert np.array_equal(states, again)  # the same seed, the same walks
    other = np.random.default_rng(4)
    assert not np.array_equal(states, p.random_walk(64, other.integers(1, 20, 64), other))
    children, ids = p.expand(states)
    assert children.shape == (64, p.num_actions, p.num_positions)
    assert ids.shape == (64, p.num_actions)
    for b in range(0, 64, 7):
        for a in range(p.num_actions):
            if ids[b, a] < 0:
                assert np.array_equal(children[b, a], states[b])
            else:
                assert p.table.names[ids[b, a]] == p.actions[a]
                assert np.array_equal(children[b, a], p.table.apply(states[b], int(ids[b, a])))
    x = p.encode(states)
    assert x.shape == (64, p.num_positions * p.num_labels) and x.dtype == np.float32
    assert np.array_equal(x.reshape(64, p.num_positions, -1).argmax(axis=2), states)
    assert np.all(x.sum(axis=1) == p.num_positions)
    assert p.parse_state(p.format_state(states[0])).tolist() == states[0].tolist()


def test_random_walk_is_seeded() -> None:
    p = registry.get("cube3")
    a = p.random_walk(10, 15, np.random.default_rng(42))
    b = p.random_walk(10, 15, np.random.default_rng(42))
    assert np.array_equal(a, b)
    assert np.array_equal(p.random_walk(3, 0, np.random.default_rng(0)), np.stack([p.goal] * 3))


def test_even_cube_goal_is_any_orientation() -> None:
    p = CubePuzzle(2, moves="wide")
    rotated = p.table.apply(p.goal, "x y")
    assert p.is_goal(rotated[None])[0]


def test_random_walk_stays_put_at_a_dead_end() -> None:
    # One guarded move that leads into a state where nothing applies: a walk must stop there,
    # not apply some other row (a bug that once took the table's last row).
    from exact.movetable import MoveTable
    from exact.puzzle import Puzzle

    table = MoveTable(
        names=("a", "b"),
        perms=np.array([[1, 0, 2], [0, 2, 1]]),
        guard_pos=np.array([[0], [0]]),
        guard_val=np.array([[0], [5]]),
    )
    p = Puzzle("deadend", table, np.array([0, 1, 2]), 6)
    walks = p.random_walk(4, 6, np.random.default_rng(0))
    assert walks.tolist() == [[1, 0, 2]] * 4
