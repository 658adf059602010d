"""Checked by mypy --strict, not run (pyproject's [tool.mypy] lists it): the public API's return
types are precise, so a user's type checker follows a chain of calls."""

from __future__ import annotations

from typing import assert_type

import numpy as np

from exact import registry, solvers
from exact.moves import cube_moves
from exact.movetable import MoveTable
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from hybrid import Certificate, certify_many, verify_solution
from puzzleopt import Cube, LightsOut, Tiles


def chains() -> None:
    cube = Cube(3).apply("R U R' F").scramble(3, rng=0)
    assert_type(cube, Cube)
    assert_type(cube.facelets, str)
    assert_type(Cube.from_facelets(cube.facelets), Cube)
    assert_type(cube.to_deepcubea(), np.ndarray)
    assert_type(Tiles(8).apply("L"), Tiles)
    assert_type(Tiles.from_board("1 0 2 3 4 5 6 7 8"), Tiles)
    assert_type(LightsOut(5).lights, np.ndarray)
    result = cube.solve(method="ida*", time_limit=10.0)
    assert_type(result, SolveResult)
    assert_type(result.status, Status)
    assert_type(result.length, int | None)
    assert_type(cube.certify("F' R U' R'"), Certificate)


def library() -> None:
    p = registry.get("tiles8")
    assert_type(p, Puzzle)
    assert_type(cube_moves(3), MoveTable)
    r = solvers.solve(p, p.goal, method="auto", limits=solvers.Limits(time=1.0))
    assert_type(r, SolveResult)
    assert_type(verify_solution(p, p.goal, ""), Certificate)
    assert_type(certify_many(p, [p.goal], [""]), list[Certificate])
