"""The one result type: built only after a replay; optimal only with a proof; JSON out."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact.errors import ReplayError
from exact.registry import get
from exact.result import SolveResult, Status


def _cube_start():
    p = get("cube3", moves="faces", metric="htm")
    start = p.table.apply(p.goal, "R U F'")
    return p, start


def test_build_replays_and_serialises() -> None:
    p, start = _cube_start()
    moves = p.table.parse("F U' R'")
    r = SolveResult.build(
        p,
        start,
        moves,
        Status.OPTIMAL,
        lower_bound=3,
        nodes=10,
        seconds=0.5,
        solver="test",
        solver_version="1",
        settings={"T": 3},
    )
    assert r.length == 3 and r.moves == ("F", "U'", "R'") and r.exit_code == 0
    d = json.loads(r.to_json(scramble="R U F'"))
    assert d["status"] == "optimal" and d["scramble"] == "R U F'" and d["settings"] == {"T": 3}
    assert d["start"] == [int(v) for v in start]


def test_wrong_moves_raise_replay_error() -> None:
    p, start = _cube_start()
    with pytest.raises(ReplayError, match="do not reach the goal"):
        SolveResult.build(p, start, p.table.parse("F U' R"), Status.FEASIBLE)


def test_optimal_needs_equal_bound() -> None:
    p, start = _cube_start()
    moves = p.table.parse("F U' R'")
    with pytest.raises(ReplayError, match="lower bound equal"):
        SolveResult.build(p, start, moves, Status.OPTIMAL, lower_bound=2)
    with pytest.raises(ReplayError, match="lower bound equal"):
        SolveResult.build(p, start, moves, Status.OPTIMAL)
    feasible = SolveResult.build(p, start, moves, Status.FEASIBLE, lower_bound=1)
    assert feasible.status is Status.FEASIBLE


def test_no_solution_statuses_and_exit_codes() -> None:
    p, start = _cube_start()
    for status, code in [(Status.INFEASIBLE_WITHIN_HORIZON, 3), (Status.UNSOLVABLE, 3), (Status.LIMIT, 4)]:
        r = SolveResult.build(p, start, [], status, lower_bound=2)
        assert r.exit_code == code and r.length is None
    with pytest.raises(ReplayError, match="carries no moves"):
        SolveResult.build(p, start, [0], Status.LIMIT)


def test_direct_construction_with_moves_is_refused() -> None:
    with pytest.raises(ReplayError, match="SolveResult.build"):
        SolveResult(puzzle="cube3", start=(0,) * 54, moves=("R",), length=1, status=Status.FEASIBLE)


def test_tiles_result() -> None:
    p = get("tiles8")
    start = p.table.apply(p.goal, p.table.parse("R D", start=p.goal))
    moves = p.table.parse("U L", start=start)
    r = SolveResult.build(p, start, moves, "optimal", lower_bound=2)
    assert r.moves == ("U", "L") and np.array_equal(r.start, start)
