"""The 3x3x3 in DeepCubeA's and Jumanji's state formats (exact/puzzles/cube/formats.py).

DeepCubeA: every cube of its shipped test set, whose file gives both our facelets and its sticker
list. Jumanji: ``tests/data/jumanji_rubiks_cube3.json`` holds 30 move sequences and the cubes
Jumanji 1.1.2's own code made of them (``jumanji.environments.logic.rubiks_cube.utils``:
``generate_<face>_move(amount, 0)`` applied to ``make_solved_cube(3)``, seed 0); where jumanji is
installed the same is run live.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import instances
from exact import registry
from exact.errors import StateError
from exact.puzzles.cube.formats import from_deepcubea, from_jumanji, to_deepcubea, to_jumanji

GOLDEN = Path(__file__).parent / "data" / "jumanji_rubiks_cube3.json"


@pytest.fixture(scope="module")
def cube3():
    return registry.get("cube3", metric="htm")


def test_every_deepcubea_test_cube_converts_both_ways(cube3) -> None:
    import csv

    rows = list(csv.DictReader(instances.path("deepcubea-cube3").open(), delimiter="\t"))
    assert len(rows) == 1000
    for row in rows:
        ours = cube3.parse_state(row["facelets_URFDLB"])
        theirs = np.array(row["dca_sticker_perm54"].split(), dtype=np.int64)
        assert np.array_equal(to_deepcubea(ours), theirs), row["id"]
        assert np.array_equal(from_deepcubea(theirs), ours), row["id"]


def test_the_solved_cube_is_deepcubeas_identity(cube3) -> None:
    assert np.array_equal(to_deepcubea(cube3.goal), np.arange(54))


def test_a_sticker_list_that_is_no_cube_is_refused(cube3) -> None:
    twisted = to_deepcubea(cube3.goal)
    twisted[[0, 1]] = twisted[[1, 0]]  # two U stickers of different pieces swapped: same colours, no cube
    with pytest.raises(StateError, match="not those of a real cube"):
        from_deepcubea(twisted)
    with pytest.raises(StateError, match="permutation of 0..53"):
        from_deepcubea(np.zeros(54, dtype=np.int64))


def _our_state(cube3, moves) -> np.ndarray:
    names = ["UFRBLD"[f] + {1: "", -1: "'", 2: "2"}[a] for f, a in moves]
    return cube3.table.apply(cube3.goal, cube3.table.parse(" ".join(names), start=cube3.goal))


def test_jumanjis_recorded_moves_equal_ours(cube3) -> None:
    cases = json.loads(GOLDEN.read_text())
    assert len(cases) == 30
    for case in cases:
        theirs = np.array(case["cube"], dtype=np.int8)
        ours = _our_state(cube3, case["moves"])
        assert np.array_equal(to_jumanji(ours), theirs) and np.array_equal(from_jumanji(theirs), ours)


def test_jumanjis_moves_live(cube3) -> None:
    utils = pytest.importorskip("jumanji.environments.logic.rubiks_cube.utils")
    from jumanji.environments.logic.rubiks_cube.constants import CubeMovementAmount

    gens = [utils.generate_up_move, utils.generate_front_move, utils.generate_right_move,
            utils.generate_back_move, utils.generate_left_move, utils.generate_down_move]  # fmt: skip
    rng = np.random.default_rng(1)
    for _ in range(10):
        cube, moves = utils.make_solved_cube(3), []
        for _ in range(8):
            f, a = int(rng.integers(6)), [1, -1, 2][int(rng.integers(3))]
            cube = gens[f](CubeMovementAmount(a), 0)(cube)
            moves.append((f, a))
        assert np.array_equal(to_jumanji(_our_state(cube3, moves)), np.asarray(cube))


def test_bad_shapes_are_named() -> None:
    with pytest.raises(StateError, match="to_jumanji"):
        to_jumanji(np.zeros(53, dtype=np.uint8))
    with pytest.raises(StateError, match="from_jumanji"):
        from_jumanji(np.zeros((6, 9), dtype=np.int8))


def test_the_notebook_cube_converts_both_ways() -> None:
    from puzzleopt import Cube

    c = Cube(3).apply("R U R' F")
    assert Cube.from_deepcubea(c.to_deepcubea()) == c and Cube.from_jumanji(c.to_jumanji()) == c
    with pytest.raises(ValueError, match="only the 3x3x3"):
        Cube(2).to_deepcubea()
