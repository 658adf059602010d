"""Every registered puzzle as a Gymnasium environment (puzzleopt/gym.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

import puzzleopt.gym as pgym  # noqa: E402
from exact import registry  # noqa: E402
from exact.errors import PuzzleoptError  # noqa: E402

NEEDS = {"hypercube": {"instance": "d3-level0"}}  # puzzles that need an option to exist


@pytest.mark.parametrize("name", registry.names())
def test_check_env_passes_for_every_puzzle(name, tmp_path_factory) -> None:
    pdb_dir = str(tmp_path_factory.getbasetemp() / "gym-tables")
    env = gymnasium.make(pgym.env_id(name), pdb_dir=pdb_dir, **NEEDS.get(name, {}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        check_env(env.unwrapped)
    assert env.action_space.n == env.unwrapped.puzzle.num_actions


def test_make_imports_the_module_itself() -> None:
    env = gymnasium.make("puzzleopt.gym:puzzleopt/tiles8-v0")
    assert isinstance(env.unwrapped, pgym.PuzzleEnv)


@pytest.fixture
def tiles8():
    return gymnasium.make(pgym.env_id("tiles8"), scramble_depth=30, max_steps=5).unwrapped


def test_a_seed_gives_the_same_start_and_a_state_can_be_given(tiles8) -> None:
    a, _ = tiles8.reset(seed=7)
    b, _ = tiles8.reset(seed=7)
    assert np.array_equal(a, b) and a.dtype == np.uint8
    obs, info = tiles8.reset(options={"state": "1 2 0 3 4 5 6 7 8"})
    assert obs.tolist() == [1, 2, 0, 3, 4, 5, 6, 7, 8] and info["optimal_distance"] == 2
    with pytest.raises(PuzzleoptError):
        tiles8.reset(options={"state": "1 1 0 3 4 5 6 7 8"})


def test_following_the_optimal_distance_reaches_the_goal(tiles8) -> None:
    obs, info = tiles8.reset(seed=3, options={"scramble_depth": 12})
    tiles8.max_steps = 100
    d = info["optimal_distance"]
    assert d > 0
    for _ in range(d):
        better = []
        for a in np.flatnonzero(info["action_mask"]):
            probe = gymnasium.make(pgym.env_id("tiles8")).unwrapped
            probe.reset(options={"state": obs})
            _, _, _, _, after = probe.step(int(a))
            better.append((after["optimal_distance"], int(a)))
        dist, action = min(better)
        assert dist == d - 1
        obs, reward, terminated, truncated, info = tiles8.step(action)
        d = info["optimal_distance"]
        assert reward == -1.0 and not truncated
    assert terminated and d == 0


def test_an_illegal_action_costs_a_step_and_changes_nothing(tiles8) -> None:
    obs, info = tiles8.reset(options={"state": "0 1 2 3 4 5 6 7 8"})
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = tiles8.step(illegal)
    assert np.array_equal(after, obs) and reward == -1.0 and info["illegal_action"] and terminated


def test_an_episode_is_truncated_after_max_steps(tiles8) -> None:
    tiles8.reset(options={"state": "8 7 6 5 4 3 2 1 0"})  # far from the goal: no 5 steps reach it
    flags = []
    for _ in range(5):
        action = int(np.flatnonzero(tiles8.action_mask())[0])
        _, _, terminated, truncated, _ = tiles8.step(action)
        flags.append((terminated, truncated))
    assert flags == [(False, False)] * 4 + [(False, True)]


def test_bad_settings_are_named() -> None:
    with pytest.raises(PuzzleoptError, match="optimal='sometimes'"):
        pgym.PuzzleEnv("tiles8", optimal="sometimes")
    with pytest.raises(PuzzleoptError, match="reset options"):
        pgym.PuzzleEnv("tiles8").reset(options={"depth": 3})


def test_a_scramble_depth_is_bounded_and_a_reset_state_must_be_solvable(tiles8) -> None:
    """Issue 63: ``scramble_depth=10**9`` walked for minutes; an odd 8-puzzle never terminated."""
    for bad in (10**9, -1, True, 2.5):
        with pytest.raises(PuzzleoptError, match="scramble_depth"):
            pgym.PuzzleEnv("tiles8", scramble_depth=bad)
        with pytest.raises(PuzzleoptError, match="scramble_depth"):
            tiles8.reset(seed=0, options={"scramble_depth": bad})
    with pytest.raises(PuzzleoptError, match="no moves solve it"):
        tiles8.reset(seed=0, options={"state": "0 2 1 3 4 5 6 7 8"})
    obs, _ = tiles8.reset(seed=0, options={"state": "1 0 2 3 4 5 6 7 8"})
    assert obs.tolist() == [1, 0, 2, 3, 4, 5, 6, 7, 8]
