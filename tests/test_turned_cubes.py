"""A cube seen from another side: face-turn models turn it home, never "prove" it unsolvable.

Face turns never move the centres of an odd cube, so the models of the ``faces`` move set fix
the goal to the one solved state. A start turned whole (its centres elsewhere) used to be
modelled against that state and proven to have no solution, while ``is_goal`` called it solved.
"""

from __future__ import annotations

import numpy as np
import pytest

from exact import cli, registry
from exact.cpsat import solve_cpsat
from exact.mip import MipOptions, solve_mip
from exact.puzzles.cube import rotations
from exact.result import Status

ROTATED_SOLVED = "FFFFFFFFFRRRRRRRRRDDDDDDDDDBBBBBBBBBLLLLLLLLLUUUUUUUUU"


def _turned(puzzle, scramble: str, which: int) -> np.ndarray:
    start = puzzle.table.apply(puzzle.goal, scramble)
    return start[rotations(3)[which]]


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@pytest.mark.parametrize("which", [5, 11, 17])
def test_turned_scrambles_solve_in_the_same_length(metric: str, which: int) -> None:
    p = registry.get("cube3", moves="faces", metric=metric)
    scramble = "R U F'" if metric == "qtm" else "R U2 F'"
    start = _turned(p, scramble, which)
    assert not np.array_equal(start, p.table.apply(p.goal, scramble))
    want = solve_cpsat(p, p.table.apply(p.goal, scramble), 4)
    for res in (solve_cpsat(p, start, 4), solve_mip(p, start, 4, MipOptions(formulation="pairs", split=False))):
        assert res.status is Status.OPTIMAL and res.length == want.length == 3, res
        assert p.is_goal(p.table.apply(start, res.moves)[None])[0]  # replayed in the start's own frame
    split = solve_mip(p, start, 4, MipOptions(formulation="pairs", split=True, threads=1))
    assert split.status is Status.OPTIMAL and split.length == 3


def test_a_turned_solved_cube_is_solved(capsys) -> None:
    from exact.cpsat.__main__ import main as cpsat_main
    from exact.mip.__main__ import main as mip_main

    argv = ["--size", "3", "--moves", "faces", "--metric", "htm", "--facelets", ROTATED_SOLVED]
    assert cli.run(cpsat_main, [*argv, "--turns", "4"]) == cli.EXIT_OK
    assert cli.run(mip_main, [*argv, "--turns", "2"]) == cli.EXIT_OK
    assert "optimal" in capsys.readouterr().out
    p = registry.get("cube3", moves="faces", metric="htm")
    start = p.parse_state(ROTATED_SOLVED)
    assert (
        solve_cpsat(p, start, 4).length == 0
        and solve_mip(p, start, 2, MipOptions(formulation="tight", split=False)).length == 0
    )
