"""A conformance kit for puzzles: :func:`check_puzzle` checks what every engine relies on.

Run it on each registered puzzle (``tests/test_conformance.py`` does, over
``registry.names()``); a new puzzle that passes it works with every generic method.
"""

from __future__ import annotations

import numpy as np

from exact.puzzle import Puzzle


def check_puzzle(puzzle: Puzzle, rng: np.random.Generator, *, walks: int = 16, depth: int = 12) -> None:
    """Assert the protocol's promises on ``puzzle`` (raises ``AssertionError`` naming the broken one).

    Checks: protocol shapes; ``expand`` equals ``apply`` move by move; notation round trips
    (moves and states); inverses undo; ``random_walk`` leaves the goal; Bellman targets
    (``1 + min`` over the children's goal test) are finite; ``goal_spec`` agrees with ``is_goal``;
    the state check (:func:`check_states`).
    """
    table, p = puzzle.table, puzzle.num_positions
    assert puzzle.goal.shape == (p,) and puzzle.goal.dtype == np.uint8, "goal: uint8 (P,)"
    assert puzzle.solved(puzzle.goal), "the goal is solved"
    states = puzzle.random_walk(walks, depth, rng)
    assert states.shape == (walks, p) and states.dtype == np.uint8, "random_walk: uint8 (B, P)"
    assert not puzzle.is_goal(states).all(), "random walks leave the goal"
    children, rows = puzzle.expand(states)
    assert children.shape == (walks, puzzle.num_actions, p) and rows.shape == (walks, puzzle.num_actions)
    enc = puzzle.encode(states)
    assert enc.shape == (walks, p * puzzle.num_labels) and np.allclose(enc.sum(axis=1), p), "one-hot encoding"
    assert puzzle.goal_spec(puzzle.goal).holds(puzzle.goal), "the goal state satisfies goal_spec"
    for b in range(walks):
        s = states[b]
        for a in range(puzzle.num_actions):
            m = int(rows[b, a])
            if m < 0:
                assert np.array_equal(children[b, a], s), "a move that does not apply leaves the state"
                continue
            assert np.array_equal(children[b, a], table.apply(s, [m])), "expand == apply"
            child = children[b, a]
            assert puzzle.goal_spec(child).holds(child) == puzzle.solved(child), "goal_spec agrees with is_goal"
            inv = int(table.inverse[m])
            if inv >= 0:
                assert np.array_equal(table.apply(children[b, a], [inv]), s), f"{table.names[m]} then its inverse"
        text = puzzle.format_state(s)
        assert np.array_equal(puzzle.parse_state(text), s), f"state text round trip: {text!r}"
        assert puzzle.goal_spec(s).holds(s) == puzzle.solved(s), "goal_spec agrees with is_goal"
        seq = rng.integers(0, table.num_moves, size=4)
        ok = [int(m) for m in seq if table.applicable(s[None])[0, int(m)]]
        if ok:
            assert table.parse(table.format(ok[:1]), s) == ok[:1], "notation round trip"
    check_states(puzzle, states)
    # Bellman targets of DAVI: 0 at the goal, else 1 + the least child value (here: goal or not)
    targets = np.where(
        puzzle.is_goal(states), 0, 1 + (~puzzle.is_goal(children.reshape(-1, p))).reshape(walks, -1).min(axis=1)
    )
    assert np.isfinite(targets).all()


def check_states(puzzle: Puzzle, states: np.ndarray) -> None:
    """Assert that :meth:`~exact.puzzle.Puzzle.check_state` keeps what moves reach (the goal and
    ``states``, walked from it) and calls none of them unsolvable, and that it refuses labels that
    are no state: every position one label, a label out of range, the wrong length."""
    from exact.errors import StateError

    for s in [puzzle.goal, *states]:
        assert np.array_equal(puzzle.check_state(s), s), "check_state keeps a reachable state as it is"
        assert puzzle.unsolvable(puzzle.check_state(s)) is None, "a state walked from the goal is solvable"
    bad = [np.full(puzzle.num_positions, puzzle.goal[0]), puzzle.goal[:-1]]
    bad.append(np.where(np.arange(puzzle.num_positions) == 0, puzzle.num_labels, puzzle.goal))
    for s in bad:
        if len(np.unique(puzzle.goal)) == 1 and s.shape == puzzle.goal.shape and s.max() < puzzle.num_labels:
            continue  # a goal of one label: all-equal labels are a state
        try:
            puzzle.check_state(s)
        except StateError:
            continue
        raise AssertionError(f"check_state accepted labels that are no state of {puzzle.name}: {s.tolist()[:12]}")
