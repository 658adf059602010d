"""A puzzle's symmetries (:class:`exact.puzzle.Conjugation`): a conjugate of a scramble is the
conjugated scramble, the goal stays a goal, and a conjugate's solutions map back."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry
from exact.cube.symmetry import conjugate_moves, conjugate_state, symmetry_of
from exact.errors import PuzzleoptError, StateError
from exact.puzzles.cube.geometry import SYMMETRY_MATRICES, symmetry_action
from exact.puzzles.cube.puzzle import CubePuzzle

CUBES = [(3, "faces", "qtm"), (3, "faces", "htm"), (2, "faces", "qtm"), (4, "faces", "htm"), (3, "layers", "qtm")]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CUBES), st.integers(0, 47), st.integers(0, 2**32 - 1), st.integers(0, 12))
def test_a_conjugate_of_a_scramble_is_the_conjugated_scramble_and_its_solutions_map_back(cube, k, seed, length):
    p = CubePuzzle(*cube)
    c = p.symmetries()[k]
    rng = np.random.default_rng(seed)
    rows = [int(m) for m in rng.integers(p.table.num_moves, size=length)]
    x = p.table.apply(p.goal, rows)
    assert np.array_equal(c.apply(x), p.table.apply(p.goal, c.moves[rows].tolist()))
    assert np.array_equal(c.apply(p.table.apply(x, rows)), p.table.apply(c.apply(x), c.moves[rows].tolist()))
    assert np.array_equal(c.apply(p.goal), p.goal) and c.back(c.moves[rows]) == rows
    solution = p.table.undoing(c.moves[rows].tolist())  # solves the conjugate
    assert p.solved(p.table.apply(c.apply(x), solution)) and p.solved(p.table.apply(x, c.back(solution)))
    assert p.solved(c.apply(x)) == p.solved(x) and c.apply(x).dtype == x.dtype


def test_the_cube_has_48_symmetries_the_identity_and_the_diagonal_turns_first():
    p = registry.get("cube3")
    syms = p.symmetries()
    assert len(syms) == 48 and len({c.positions.tobytes() for c in syms}) == 48
    assert np.array_equal(syms[0].positions, np.arange(54)) and np.array_equal(syms[0].moves, np.arange(12))
    assert [round(np.linalg.det(a)) for a in SYMMETRY_MATRICES[:6]] == [1, 1, 1, -1, -1, -1]
    names = p.table.names
    assert [names[m] for m in syms[1].moves[::2]] == ["F", "U", "R", "B", "D", "L"]  # U->F, R->U, F->R
    assert [names[m] for m in syms[3].moves[:4]] == ["U'", "U", "L'", "L"]  # a mirror reverses the turns
    for a, c in zip(SYMMETRY_MATRICES, syms):  # the 3x3 solver's symmetries are the same ones
        sym = symmetry_of(a)
        assert np.array_equal(sym.sigma, c.positions) and np.array_equal(sym.cmap, c.labels)
        assert np.array_equal(conjugate_moves(p.table, sym), c.moves)
        state = p.random_walk(1, 9, np.random.default_rng(1))[0]
        assert np.array_equal(conjugate_state(state, sym), c.apply(state))


def test_puzzles_without_symmetries_have_the_identity_and_refuse_others():
    tiles = registry.get("tiles8")
    (ident,) = tiles.symmetries()
    assert np.array_equal(ident.moves, np.arange(tiles.table.num_moves))
    with pytest.raises(PuzzleoptError, match="guarded moves have no conjugates"):
        tiles.conjugation(np.arange(9)[::-1], np.arange(9))
    p = registry.get("cube3")
    quarter = p.table.subset(["U", "U'", "R", "R'"])
    with pytest.raises(StateError, match="the image of 'U' is not one of its moves"):
        quarter.conjugated(p.symmetries()[1].positions)
    with pytest.raises(PuzzleoptError, match="positions must be a permutation of 0..53"):
        p.conjugation(np.zeros(54, np.int64), np.arange(6))
    with pytest.raises(PuzzleoptError, match="labels must be a permutation of 0..5"):
        p.conjugation(np.arange(54), np.arange(5))
    with pytest.raises(PuzzleoptError, match="does not map the goal state to itself"):
        p.conjugation(np.arange(54), np.roll(np.arange(6), 1))
    with pytest.raises(PuzzleoptError, match="does not map the cube onto itself"):
        symmetry_action(3, 2 * np.eye(3, dtype=np.int64))
