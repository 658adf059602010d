"""The cube model against outside software: magiccube (every n and move set) and kociemba."""

from __future__ import annotations

import numpy as np
import pytest

from exact.moves import cube_moves
from exact.puzzles.cube import from_facelets, is_solved, random_state, solved_state, to_facelets

magiccube = pytest.importorskip("magiccube")
kociemba = pytest.importorskip("kociemba")


def _magiccube_facelets(n: int, sequence: str) -> str:
    cube = magiccube.Cube(n, hist=False)
    solved = cube.get_kociemba_facelet_colors()
    to_face = {solved[f * n * n]: "URFDLB"[f] for f in range(6)}  # its colour scheme -> face letters
    if sequence:
        cube.rotate(sequence.replace("2'", "2"))  # magiccube reads R2 but not R2'
    return "".join(to_face[c] for c in cube.get_kociemba_facelet_colors())


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("moves", ["faces", "layers", "wide"])
def test_1000_sequences_match_magiccube(n: int, moves: str) -> None:
    rng = np.random.default_rng(1000 * n + len(moves))
    tables = [cube_moves(n, moves, "qtm"), cube_moves(n, moves, "htm")]
    for i in range(1000):
        t = tables[i % 2]
        seq = rng.integers(t.num_moves, size=int(rng.integers(1, 25)))
        text = t.format(seq)
        ours = to_facelets(t.apply(solved_state(n), seq))
        assert ours == _magiccube_facelets(n, text), f"n={n} {t.description}: {text}"


def test_kociemba_solutions_replay_on_our_model() -> None:
    rng = np.random.default_rng(2024)
    t = cube_moves(3, "faces", "htm")
    for _ in range(50):
        state = random_state(3, rng)
        text = to_facelets(state)
        assert np.array_equal(from_facelets(text), state)
        solution = kociemba.solve(text)
        assert is_solved(t.apply(state, solution), 3), (text, solution)
