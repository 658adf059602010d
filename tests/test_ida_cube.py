"""Cube IDA*: piece moves against the facelets, optimal lengths against BFS, honest limits."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact import cli, registry
from exact.bfs import shortest_distance
from exact.cube import ida_cube
from exact.cube.pdb import CubePattern, build_cube_pattern
from exact.cube.peers import ReidOptimal
from exact.ida.__main__ import main as ida_main
from exact.moves import cube_moves
from exact.puzzles.cube import is_solved, rotations, scramble
from exact.puzzles.cube.cubies import cubie_moves, read_cubies
from exact.puzzles.cube.state import solved_state
from exact.result import Status


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_piece_moves_follow_the_facelets(metric: str) -> None:
    t = cube_moves(3, "faces", metric)
    cm = cubie_moves(t)
    rng = np.random.default_rng(0)
    for _ in range(30):
        s = solved_state(3)
        pos, ori, epos, eori = np.arange(8), np.zeros(8, int), np.arange(12), np.zeros(12, int)
        for m in rng.integers(0, t.num_moves, 15):
            s = t.apply(s, [int(m)])
            ori, pos = (ori + cm.corner_twist[m, pos]) % 3, cm.corner_to[m, pos]
            eori, epos = (eori + cm.edge_flip[m, epos]) % 2, cm.edge_to[m, epos]
        c = read_cubies(s, 3)
        assert (c.corner_perm[pos] == np.arange(8)).all() and (c.corner_ori[pos] == ori).all()
        assert (c.edge_perm[epos] == np.arange(12)).all() and (c.edge_ori[epos] == eori).all()


def _small(metric: str) -> list[CubePattern]:
    return [
        CubePattern("corners", (0, 1, 2, 3), metric),
        CubePattern("edges", (0, 1, 2, 3), metric),
        CubePattern("edges", (4, 5, 6, 7), metric),
    ]


def test_pattern_tables_reach_every_placement() -> None:
    t = cube_moves(3, "faces", "htm")
    p = CubePattern("edges", (0, 1, 2, 3), "htm")
    d = build_cube_pattern(p, t)
    assert d.size == 12 * 11 * 10 * 9 * 16 and (d == 0).sum() == 1 and d.max() < 16


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_ida_equals_bfs(tmp_path_factory, metric: str) -> None:
    pdb_dir = tmp_path_factory.mktemp(f"pdb-{metric}")
    p = registry.get("cube3", moves="faces", metric=metric)
    rng = np.random.default_rng(11)
    for length in (1, 2, 3, 4, 5, 6):
        start, _ = scramble(3, length, rng, "faces", metric)
        d = shortest_distance(p.table, start, p.goal[rotations(3)], 8)
        r = ida_cube(p, start, pdb_dir=pdb_dir, patterns=_small(metric), progress=False)
        assert r.status is Status.OPTIMAL and r.length == d == r.lower_bound, (metric, length)
        assert r.extra["iterations"][0]["bound"] <= d  # the heuristic at the start is a lower bound
        if metric == "qtm":  # every quarter turn flips the corner parity: thresholds keep d's parity
            assert all((it["bound"] - d) % 2 == 0 for it in r.extra["iterations"])


def test_limit_is_honest(tmp_path) -> None:
    p = registry.get("cube3", moves="faces", metric="htm")
    start, _ = scramble(3, 9, np.random.default_rng(3), "faces", "htm")
    r = ida_cube(p, start, pdb_dir=tmp_path, patterns=_small("htm"), node_limit=1000, progress=False)
    assert r.status is Status.LIMIT and r.length is None and 1 <= r.lower_bound <= 9


def test_bad_cube_input(capsys) -> None:
    assert cli.run(ida_main, ["--puzzle", "cube3", "--scramble", "R Q"]) == 2
    assert "Q" in capsys.readouterr().err
    # a scramble is a start for any puzzle now; a move the board does not allow is bad input
    assert cli.run(ida_main, ["--puzzle", "tiles15", "--scramble", "U"]) == 2
    assert "U" in capsys.readouterr().err
    assert cli.run(ida_main, ["--puzzle", "tiles15", "--scramble", "R", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["moves"] == ["L"] and out["length"] == 1
    turned = registry.get("cube3", moves="layers").table.apply(solved_state(3), "x")
    p = registry.get("cube3", moves="faces", metric="htm")
    with pytest.raises(ValueError, match="centres"):
        ida_cube(p, turned, progress=False)


def test_cube2_table_walk_is_optimal(cube2_tables) -> None:
    from exact.tablewalk import solve_table

    p, pdb_dir, _ = cube2_tables
    rng = np.random.default_rng(21)
    for length in (0, 1, 3, 5, 7):
        start, _ = scramble(2, length, rng, "faces", p.table.metadata["metric"])
        d = shortest_distance(p.table, start, p.goal[rotations(2)], 10)
        r = solve_table(p, start, pdb_dir=pdb_dir)
        assert r.status is Status.OPTIMAL and r.length == d == r.lower_bound


def test_cube2_table_equals_bfs_on_uniform_states(cube2_tables) -> None:
    # the table is the 2x2x2's pattern database of all corners: on states drawn uniformly (deep
    # ones included, unlike short scrambles) it must equal a separate meet-in-the-middle BFS
    from exact.puzzles.cube.space import CornerSpace
    from exact.timeindexed import prepare

    p, _, table = cube2_tables
    space = CornerSpace(2, fixed_corner=True)
    reduced = prepare(p, p.goal).table  # the moves of the frame that holds DBL home
    states = space.unrank(np.random.default_rng(5).integers(0, space.size, 6))
    for s in states:
        assert int(table.values(space.rank(s[None]))[0]) == shortest_distance(reduced, s, p.goal, 14)


@pytest.mark.skipif(not ReidOptimal.available(), reason="rubiks_optimal (Debian package rubiks) is not installed")
def test_ida_equals_reids_optimal_solver(tmp_path) -> None:
    """Our quarter-turn optima equal those of Reid's solver, whose solutions replay on our model."""
    p = registry.get("cube3", moves="faces", metric="qtm")
    htm = cube_moves(3, "faces", "htm")  # the peer writes half turns (F2 = two quarter turns)
    rng = np.random.default_rng(7)
    with ReidOptimal() as peer:
        for length in (0, 3, 6, 8, 9, 9):
            start, text = scramble(3, length, rng, "faces", "qtm")
            theirs = peer.solve(start, time_limit=120)
            assert is_solved(htm.apply(start, htm.parse(theirs.moves)), 3), (text, theirs.moves)
            ours = ida_cube(p, start, pdb_dir=tmp_path, patterns=_small("qtm"), progress=False)
            assert ours.status is Status.OPTIMAL and ours.length == theirs.length, (text, ours.moves, theirs.moves)


@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_a_forged_cube_table_fails_the_walk_check(metric: str) -> None:
    from exact.cube.pdb import cube_walk_violation

    for pattern in _small(metric):
        values = build_cube_pattern(pattern, cube_moves(3, "faces", metric))
        assert cube_walk_violation(pattern, values.__getitem__, np.random.default_rng(0)) is None
        forged = np.minimum(values.astype(np.int64) * 3, 15)
        assert "damaged or forged" in cube_walk_violation(pattern, forged.__getitem__, np.random.default_rng(0))
