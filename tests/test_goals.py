"""Partial goals (exact.goals): a cross, F2L pairs, masks and patterns, by IDA*, CP-SAT and the MIP,
against breadth-first search to the goal set."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact import registry, solvers
from exact.errors import PuzzleoptError
from exact.goals import pins, with_goal
from exact.puzzles.cube.facelets import to_facelets
from exact.puzzles.cube.goals import format_mask, goal_names, mask_goal, parse_goal
from puzzleopt import Cube


@pytest.fixture(scope="module")
def pdb_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("goal-pdbs")


def bfs_to_goal(puzzle, start: np.ndarray, max_depth: int) -> int | None:
    """The fewest moves from ``start`` to a state ``puzzle.is_goal`` accepts (None beyond max_depth)."""
    frontier = np.asarray(start)[None]
    seen = {frontier[0].tobytes()}
    for depth in range(max_depth + 1):
        if puzzle.is_goal(frontier).any():
            return depth
        children = puzzle.expand(frontier)[0].reshape(-1, frontier.shape[1])
        children = np.unique(children, axis=0)
        fresh = [c for c in children if c.tobytes() not in seen]
        seen.update(c.tobytes() for c in fresh)
        frontier = np.array(fresh)
    return None


def cube3(metric="htm"):
    return registry.get("cube3", moves="faces", metric=metric)


@pytest.mark.parametrize("goal", ["cross", "pair-FR", "pair-BL", "cross+pair-FR", "layer-D"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ida_finds_the_bfs_distance_to_the_goal(goal, seed, pdb_dir):
    p = cube3()
    start = p.random_walk(1, 4 + seed % 2, np.random.default_rng(seed))[0]
    gp = with_goal(p, goal)
    r = solvers.solve(gp, start, method="auto", pdb_dir=pdb_dir)
    assert r.solver == "ida*-goal" and r.status.value == "optimal"
    assert r.length == bfs_to_goal(gp, start, 5)
    end = p.table.apply(start, list(r.moves))
    assert gp.solved(end) and not (r.length and gp.solved(p.table.apply(start, list(r.moves)[:-1])))


@pytest.mark.parametrize("seed", [3, 4])
def test_the_models_agree_with_ida_on_a_partial_goal(seed, pdb_dir):
    p = cube3()
    start = p.random_walk(1, 5, np.random.default_rng(seed))[0]
    gp = with_goal(p, "pair-FR")
    ida = solvers.solve(gp, start, method="ida*-goal", pdb_dir=pdb_dir)
    for method in ("cp-sat", "mip"):
        r = solvers.solve(gp, start, method=method, horizon=5)
        assert r.status.value == "optimal" and r.length == ida.length, (method, r, ida)
        assert gp.solved(p.table.apply(start, list(r.moves)))


def test_a_pattern_is_a_full_mask(pdb_dir):
    """A facelet string as the goal: reach that exact colouring (here a 3-move pattern from solved)."""
    p = cube3()
    pattern = to_facelets(p.table.apply(p.goal, "R2 F2 U"))
    gp = with_goal(p, pattern)
    assert gp.pinned.positions.size == 54 - 6  # every piece; the centres never move
    r = solvers.solve(gp, p.goal, method="auto", pdb_dir=pdb_dir)
    assert r.status.value == "optimal" and r.length == 3
    assert to_facelets(p.table.apply(p.goal, list(r.moves))) == pattern


def test_the_2x2_first_layer(pdb_dir):
    p = registry.get("cube2", moves="faces", metric="qtm")
    for seed in range(3):
        start = p.random_walk(1, 5, np.random.default_rng(seed))[0]
        gp = with_goal(p, "layer-D")
        r = solvers.solve(gp, start, pdb_dir=pdb_dir)
        assert r.status.value == "optimal" and r.length == bfs_to_goal(gp, start, 6)


def test_limits_end_honestly(pdb_dir):
    p = cube3()
    start = p.random_walk(1, 14, np.random.default_rng(9))[0]
    r = solvers.solve(with_goal(p, "f2l"), start, limits=solvers.Limits(nodes=50), pdb_dir=pdb_dir)
    assert r.status.value == "limit" and r.lower_bound is not None and not r.moves


def test_a_start_that_meets_the_goal_needs_no_moves(pdb_dir):
    p = cube3()
    start = p.table.apply(p.goal, "U R U' R'")
    gp = with_goal(p, "pair-BL")  # R and U never touch the BL slot
    assert gp.solved(start)
    assert solvers.solve(gp, start, pdb_dir=pdb_dir).length == 0


def test_methods_that_know_only_the_solved_state_refuse_a_partial_goal():
    gp = with_goal(cube3(), "cross")
    names = [m.name for m in solvers.methods(gp)]
    assert names == ["ida*-goal", "cp-sat", "mip"]
    with pytest.raises(PuzzleoptError, match="does not apply"):
        solvers.solve(gp, gp.goal, method="cube3-optimal")


def test_masks_parse_with_the_bad_letter_quoted():
    n = 3
    mask = "." * 27 + "D" * 9 + "." * 18  # the whole D face down
    g = mask_goal(mask, n)
    assert format_mask(g) == mask
    assert parse_goal(" ".join([mask[:27], mask[27:]]), n).allowed.tolist() == g.allowed.tolist()
    with pytest.raises(PuzzleoptError, match=r"'x' at position 3 \(face U, facelet 3\)"):
        mask_goal("...x" + "." * 50, n)
    with pytest.raises(PuzzleoptError, match="has 54 facelets, the mask has 53"):
        parse_goal("." * 53, n)
    with pytest.raises(PuzzleoptError, match="'crosss' is no goal name"):
        parse_goal("crosss", n)
    assert "cross" in goal_names(3) and goal_names(2) == ("layer-D",) and goal_names(4) == ()
    with pytest.raises(PuzzleoptError, match="names no partial goals"):
        with_goal(registry.get("tiles8"), "cross")


def test_masks_ida_cannot_take_are_refused_with_the_reason():
    p = cube3()
    half = mask_goal("." * 31 + "D" + "." * 22, 3)  # the D centre: never moves, fine
    assert pins(p, half.allowed).slots == ()
    edge_half = mask_goal("." * 28 + "D" + "." * 25, 3)  # one facelet of the DF edge (D face, facelet 1)
    with pytest.raises(PuzzleoptError, match="not all of it; IDA\\* needs whole pieces.*cp-sat"):
        pins(p, edge_half.allowed)
    twice = list("." * 54)
    twice[28], twice[25] = "D", "F"  # DF edge, right way up
    twice[30], twice[43] = "D", "F"  # ... and again at DL
    with pytest.raises(PuzzleoptError, match="one piece at positions"):
        pins(p, mask_goal("".join(twice), 3).allowed)
    gp = with_goal(p, mask_goal("." * 28 + "D" + "." * 25, 3), "half an edge")
    assert [m.name for m in solvers.methods(gp)] == ["cp-sat", "mip"]
    start = p.table.apply(p.goal, "F R")
    r = solvers.solve(gp, start, method="cp-sat", horizon=3)
    assert r.status.value == "optimal" and gp.solved(p.table.apply(start, list(r.moves)))


def test_the_object_api_takes_a_goal(pdb_dir):
    c = Cube(3, metric="htm").apply("R U F' L D2 B")
    r = c.solve(goal="cross", pdb_dir=pdb_dir)
    assert r.status.value == "optimal" and c.apply(list(r.moves)).meets("cross")
    m = c.solve(method="cpsat", goal="cross")  # the horizon from the path: the solved cube meets a cross
    assert m.length == r.length
    model = c.to_cpsat(r.length, goal="cross")
    assert model is not None
    with pytest.raises(PuzzleoptError, match="needs a horizon"):
        c.solve(method="mip", goal=to_facelets(Cube(3).apply("R").labels))  # a pattern the solved cube misses


def test_the_solve_clis_take_goal(capsys, pdb_dir):
    from exact.ida.__main__ import main as ida_main
    from exact.mip.__main__ import main as mip_main
    from exact.solve import main as solve_main

    scramble = "R U F' L D2 B"
    assert solve_main(["--puzzle", "cube3", "--option", "metric=htm", "--scramble", scramble, "--goal", "cross",
                       "--pdb-dir", str(pdb_dir), "--json"]) == 0  # fmt: skip
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["status"] == "optimal" and first["solver"] == "ida*-goal"
    assert ida_main(["--puzzle", "cube3", "--metric", "htm", "--scramble", scramble, "--goal", "cross",
                     "--pdb-dir", str(pdb_dir), "--no-progress", "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["length"] == first["length"]
    # the MIP at the horizon IDA* found (4 of the scramble's 6 moves: 3 s, against 20 s at 6 with the
    # scramble's inverse as incumbent) must prove the same length optimal
    horizon = str(first["length"])
    assert mip_main(["--size", "3", "--moves", "faces", "--metric", "htm", "--turns", horizon, "--scramble", scramble,
                     "--goal", "cross", "--no-split", "--json"]) == 0  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert (got["status"], got["length"], got["lower_bound"]) == ("optimal", first["length"], first["length"])
