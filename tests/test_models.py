"""Time-indexed MIP and CP-SAT models: the same optimum as BFS, honest statuses, hints, CLIs."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from exact import cli, registry
from exact.bfs import depth_counts, distance_table, shortest_distance
from exact.cpsat import solve_cpsat
from exact.cpsat.__main__ import main as cpsat_main
from exact.errors import PuzzleoptError
from exact.mip import MipOptions, build_mip, solve_mip
from exact.mip.__main__ import main as mip_main
from exact.puzzles.cube import rotations, scramble
from exact.puzzles.tiles import TilesSpace
from exact.result import Status
from exact.solvers import solve as solve_with
from exact.timeindexed import move_parity, move_rules, prepare, steps_of


def _distance(p, start) -> int:
    n = int(p.table.metadata["n"])
    return shortest_distance(p.table, start, p.goal[rotations(n)], 14)


CASES = [
    (n, moves, metric, length)
    for n in (2, 3)
    for moves in ("faces", "layers")
    for metric in ("qtm", "htm")
    for length in range(1, 7)
]

# The largest 3x3 distance at which the one-move tight MIP proves these instances within seconds
# (measured; at 6 face-turn HTM moves it took 66 s, at 5 `layers` HTM moves it reached 120 s;
# docs/mip.md). `pairs` and CP-SAT are checked at every distance.
TIGHT_REACH_3X3 = {("faces", "qtm"): 6, ("faces", "htm"): 5, ("layers", "qtm"): 5, ("layers", "htm"): 4}


# The one case matrix of the cube models (issue 65): each case's distance by BFS once, then the
# whole models (tight, pairs, CP-SAT) and the split proof (exact.mip.split) against it. The split
# runs its pieces in this process here (its worker processes: tests/test_mip_split.py); its two
# 3x3 cases at 6 moves in HTM (35-90 s each) run with the slow tests (`make test-all`).
SLOW_SPLIT = {(3, "faces", "htm", 6), (3, "layers", "htm", 6)}


def _case(n: int, moves: str, metric: str, length: int):
    p = registry.get(f"cube{n}", moves=moves, metric=metric)
    rng = np.random.default_rng(100 * n + 10 * length + len(moves) + len(metric))
    start, text = scramble(n, length, rng, moves, metric)
    return p, start, text, _distance(p, start)


@pytest.mark.parametrize("n, moves, metric, length", CASES)
def test_mip_equals_cpsat_equals_bfs(n: int, moves: str, metric: str, length: int) -> None:
    p, start, text, d = _case(n, moves, metric, length)
    _whole_models(p, start, n, moves, metric, d)
    if (n, moves, metric, length) not in SLOW_SPLIT:
        _split_verdicts(p, start, text, n, length, d)


@pytest.mark.slow
@pytest.mark.parametrize("n, moves, metric, length", sorted(SLOW_SPLIT))
def test_the_split_on_the_deepest_cases(n: int, moves: str, metric: str, length: int) -> None:
    p, start, text, d = _case(n, moves, metric, length)
    _split_verdicts(p, start, text, n, length, d)


def _split_verdicts(p, start, text: str, n: int, length: int, d: int) -> None:
    """The split gives the whole model's verdicts, whichever way it finds its incumbent."""
    if d == 0:
        return
    inverse = [int(p.table.inverse[m]) for m in reversed(p.table.parse(text))]
    here = {"executor": "in-process"}
    for kwargs in (
        {"hint": inverse, "hint_source": "scramble", "incumbent": "mip"},  # the MIP shortens the hint
        {"hint": inverse, "hint_source": "scramble"},  # the CLI's incumbent, shortened by BFS
        {},  # bidirectional BFS finds the incumbent
        {"incumbent": "mip"},  # the split model of horizon T finds it
    ):
        how = MipOptions(formulation="pairs", incumbent=kwargs.pop("incumbent", "bfs"), **here)
        r = solve_mip(p, start, max(d, length), how, **kwargs)
        assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d, kwargs
        proof = r.extra["proof"]
        if "hint" in kwargs and len(inverse) > d:
            shortener = "bidirectional BFS" if how.incumbent == "bfs" else "the MIP"
            assert proof["incumbent_source"] == f"scramble, shortened by {shortener}", kwargs
        if d > 1 and "MIP" not in proof["incumbent_source"]:  # the incumbent was optimal: "at most d - 1" refuted
            last = proof["phases"][-1]
            assert last["refuted"] and last["horizon"] == d - 1
    r = solve_mip(p, start, d - 1, MipOptions(formulation="pairs", incumbent="mip", **here))
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON and r.lower_bound == d
    if n == 2:  # the one-move formulation splits too
        r = solve_mip(p, start, d, MipOptions(formulation="tight", **here))
        assert r.status is Status.OPTIMAL and r.length == d


def _whole_models(p, start, n: int, moves: str, metric: str, d: int) -> None:
    """Tight, pairs and CP-SAT, each solved whole: the distance, and nothing shorter."""
    pairs = solve_mip(p, start, d, MipOptions(formulation="pairs", split=False))
    cp = solve_cpsat(p, start, d)
    assert pairs.status is Status.OPTIMAL and pairs.length == d and pairs.lower_bound == d
    assert cp.status is Status.OPTIMAL and cp.length == d
    if n == 2 or d <= TIGHT_REACH_3X3[moves, metric]:
        mip = solve_mip(p, start, d, MipOptions(formulation="tight", split=False))
        assert mip.status is Status.OPTIMAL and mip.length == d and mip.lower_bound == d
    if d == 0:  # on the 2x2, R L' is a whole-cube turn: scrambles can be solved already
        return
    # one move fewer than the distance: proven impossible
    assert solve_cpsat(p, start, d - 1).status is Status.INFEASIBLE_WITHIN_HORIZON
    assert (
        solve_mip(p, start, d - 1, MipOptions(formulation="pairs", split=False)).status
        is Status.INFEASIBLE_WITHIN_HORIZON
    )
    if d <= 4 and (n == 2 or d <= 3):
        assert (
            solve_mip(p, start, d - 1, MipOptions(formulation="tight", split=False)).status
            is Status.INFEASIBLE_WITHIN_HORIZON
        )
        # a longer horizon still gives the shortest solution (the "done" chain)
        assert solve_mip(p, start, d + 2, MipOptions(formulation="tight", split=False)).length == d
        assert solve_mip(p, start, d + 1, MipOptions(formulation="pairs", split=False)).length == d
        assert solve_cpsat(p, start, d + 2, strategy="minimise").length == d


@pytest.mark.parametrize("metric", ["qtm", "htm"])
@pytest.mark.parametrize("distance", [5, 6])
def test_3x3_layers_at_distance_5_and_6(metric: str, distance: int) -> None:
    """Random scrambles drawn until one is as far as its length (the CASES above reach only 5)."""
    p = registry.get("cube3", moves="layers", metric=metric)
    rng = np.random.default_rng(7 * distance + len(metric))
    start, _ = scramble(3, distance, rng, "layers", metric)
    while _distance(p, start) != distance:
        start, _ = scramble(3, distance, rng, "layers", metric)
    cp = solve_cpsat(p, start, distance)
    assert cp.status is Status.OPTIMAL and cp.length == distance and cp.lower_bound == distance
    assert solve_cpsat(p, start, distance - 1).status is Status.INFEASIBLE_WITHIN_HORIZON
    if (metric, distance) != ("htm", 6):
        # At HTM distance 6 (27 moves a step) `pairs` reached 300 s with the bound 4 (docs/mip.md).
        pairs = solve_mip(p, start, distance, MipOptions(formulation="pairs", split=False))
        assert pairs.status is Status.OPTIMAL and pairs.length == distance and pairs.lower_bound == distance


def test_move_parity() -> None:
    """A parity exactly where every move is odd; it predicts the BFS distance's parity."""
    expected = {("cube2", "layers", "qtm"): True, ("cube3", "faces", "qtm"): True, ("cube3", "layers", "qtm"): False}
    expected[("cube3", "faces", "htm")] = False
    rng = np.random.default_rng(5)
    for (name, moves, metric), has in expected.items():
        p = registry.get(name, moves=moves, metric=metric)
        n = int(p.table.metadata["n"])
        for length in (3, 4):
            start, _ = scramble(n, length, rng, moves, metric)
            pr = prepare(p, start)
            parity = move_parity(pr.table, pr.start, pr.goal)
            assert (parity is not None) == has
            if has:
                assert parity == _distance(p, start) % 2
    tiles = registry.get("tiles8")
    space = TilesSpace(3, 3)
    dist = distance_table(space, tiles.table, tiles.goal)
    for state in tiles.random_walk(20, 15, np.random.default_rng(1)):
        pr = prepare(tiles, state)
        assert move_parity(pr.table, pr.start, pr.goal) == int(dist[space.rank(state[None])[0]]) % 2


def test_3x3_depth_6_mip_and_cpsat() -> None:
    p = registry.get("cube3", moves="faces", metric="qtm")
    start, _ = scramble(3, 6, np.random.default_rng(0), "faces", "qtm")
    d = _distance(p, start)
    assert d == 6
    assert solve_mip(p, start, 6, MipOptions(formulation="tight", split=False)).length == 6
    assert solve_cpsat(p, start, 6).length == 6


def test_steps_of_two_moves_compose_the_table() -> None:
    """Each action of a two-move step is its moves in order, guards included (sliding tiles)."""
    p = registry.get("tiles8")
    rules = move_rules(p.table)
    acts = steps_of(p.table, 2, rules)
    assert acts.table.num_moves == len(acts.seqs) and set(acts.cost.tolist()) == {1, 2}
    forbidden = set(rules.pairs)
    rng = np.random.default_rng(3)
    for state in p.random_walk(30, 12, rng):
        allowed = acts.table.applicable(state)
        for k, seq in enumerate(acts.seqs):
            if len(seq) == 2:
                assert (seq[0], seq[1]) not in forbidden
            cur, legal = state, True
            for move in seq:  # the moves one by one, each with its own guard
                legal = legal and bool(p.table.applicable(cur)[move])
                cur = cur[p.table.perms[move]]
            assert allowed[k] == legal
            if legal:
                assert np.array_equal(state[acts.table.perms[k]], cur)


@pytest.mark.parametrize("n, seq", [(2, "R U F'"), (2, "R U2"), (3, "R U'"), (3, "M E")])
def test_seed_equals_tight(n: int, seq: str) -> None:
    p = registry.get(f"cube{n}", moves="layers", metric="qtm")
    start = p.table.apply(p.goal, seq)
    tight = solve_mip(p, start, len(p.table.parse(seq)), MipOptions(formulation="tight", split=False))
    seed = solve_mip(p, start, len(p.table.parse(seq)), MipOptions(formulation="seed", split=False))
    assert seed.status is Status.OPTIMAL and tight.status is Status.OPTIMAL
    assert seed.length == tight.length == _distance(p, start)


def test_tiles_models_equal_the_bfs_table() -> None:
    p = registry.get("tiles8")
    space = TilesSpace(3, 3)
    dist = distance_table(space, p.table, p.goal)
    assert depth_counts(dist)[:3] == [1, 2, 4]
    rng = np.random.default_rng(4)
    for depth in (3, 6, 8):
        start = p.random_walk(1, 40, rng)[0]
        while dist[space.rank(start[None])[0]] != depth:
            start = p.random_walk(1, int(rng.integers(depth, 3 * depth)), rng)[0]
        mip = solve_mip(p, start, depth, MipOptions(formulation="tight", split=False))
        pairs = solve_mip(p, start, depth, MipOptions(formulation="pairs", split=False))
        cp = solve_cpsat(p, start, depth)
        assert mip.length == pairs.length == cp.length == depth
        assert pairs.status is Status.OPTIMAL
        assert solve_cpsat(p, start, depth - 1).status is Status.INFEASIBLE_WITHIN_HORIZON
    seed = solve_mip(
        p, p.table.apply(p.goal, p.table.parse("R D L", start=p.goal)), 3, MipOptions(formulation="seed", split=False)
    )
    assert seed.status is Status.OPTIMAL and seed.length == 3


@pytest.mark.parametrize("n", [2, pytest.param(3, marks=pytest.mark.slow)])  # the 3x3's MIPs take 45 s
def test_hints(n: int) -> None:
    p = registry.get(f"cube{n}", moves="faces", metric="htm")
    start = p.table.apply(p.goal, "R U F2 L'")
    optimal = p.table.parse("L F2 U' R'")
    padded = p.table.parse("L F2 U' D D' R'")
    tight = functools.partial(solve_mip, how=MipOptions(formulation="tight", split=False))
    pairs = functools.partial(solve_mip, how=MipOptions(formulation="pairs", split=False))
    for solve in (tight, pairs, solve_mip, solve_cpsat):  # solve_mip's defaults: the pairs split
        r = solve(p, start, 6, hint=optimal)
        assert r.status is Status.OPTIMAL and r.length == 4
        r = solve(p, start, 6, hint=padded)
        assert r.status is Status.OPTIMAL and r.length == 4
        with pytest.raises(PuzzleoptError, match="does not solve"):
            solve(p, start, 6, hint=p.table.parse("R"))
        with pytest.raises(PuzzleoptError, match="more than the horizon"):
            solve(p, start, 3, hint=optimal)


def test_limits_are_honest() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    start, _ = scramble(3, 9, np.random.default_rng(1), "layers", "qtm")
    r = solve_cpsat(p, start, 9, time_limit=0.05)
    assert r.status in (Status.LIMIT, Status.OPTIMAL)
    if r.status is Status.LIMIT:
        assert r.length is None and r.lower_bound <= 9 and r.exit_code == 4


def test_build_mip_is_pure() -> None:
    p = registry.get("cube2", moves="faces", metric="htm")
    start = p.table.apply(p.goal, "R U")
    a = build_mip(p.table, start, p.goal_spec(), 3)
    b = build_mip(p.table, start, p.goal_spec(), 3)
    assert a is not b and a.nvariables() == b.nvariables() and a.nconstraints() == b.nconstraints()


def test_cli_json_and_exit_codes(capsys) -> None:
    for main in (mip_main, cpsat_main):
        code = main(["--size", "2", "--turns", "3", "--scramble", "R U F", "--moves", "faces", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["status"] == "optimal" and out["length"] == 3 and out["scramble"] == "R U F"
        code = main(["--size", "2", "--turns", "2", "--scramble", "R U F", "--moves", "faces"])
        assert code == cli.EXIT_NO_SOLUTION
        assert "no solution within 2 moves" in capsys.readouterr().out
    code = mip_main(["--size", "3", "--turns", "2", "--scramble", "R U'", "--formulation", "seed"])
    assert code == 0 and "solution (2 moves)" in capsys.readouterr().out
    argv = ["--size", "3", "--turns", "3", "--scramble", "R U' M", "--moves", "layers", "--formulation", "pairs"]
    code = mip_main([*argv, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["length"] == 3 and out["settings"]["formulation"] == "pairs"


def test_cli_any_registered_puzzle(capsys) -> None:
    # --puzzle and --option instead of --size: the same models over any move table
    p = registry.get("pancake", n=6)
    start = "3 1 2 6 5 4"
    best = solve_with(p, p.parse_state(start), method="bfs").length
    for main in (mip_main, cpsat_main):
        code = main(["--puzzle", "pancake", "--option", "n=6", "--turns", "7", "--state", start, "--json"])
        out = json.loads(capsys.readouterr().out)
        assert code == 0 and out["status"] == "optimal" and out["length"] == best
        assert out["spec"] == {"name": "pancake", "n": 6} and out["start_text"] == start
        code = main(["--puzzle", "tiles8", "--turns", "4", "--scramble", "R D L"])
        assert code == 0 and "solution (3 moves)" in capsys.readouterr().out
        code = main(["--puzzle", "pyraminx", "--turns", "2", "--scramble", "U L R", "--json"])
        assert code == cli.EXIT_NO_SOLUTION and json.loads(capsys.readouterr().out)["lower_bound"] == 3


def test_bfs_meets_every_goal_orientation() -> None:
    """A cube is solved in any orientation: the bfs method grows its backward side from every
    solved orientation the start can reach (it claimed 4 moves 'optimal' on this 2x2, whose
    shortest solution ends in another orientation), and a 3x3 seen from another side is
    solved rather than called unsolvable."""
    p = registry.get("cube2", moves="faces", metric="htm")
    rng = np.random.default_rng(3)
    for _ in range(5):
        start, _ = scramble(2, 6, rng, "faces", "htm")
        r = solve_with(p, start, method="bfs")
        assert r.status is Status.OPTIMAL and r.length == _distance(p, start) == solve_with(p, start).length
    p3 = registry.get("cube3", moves="faces", metric="htm")
    for k in (1, 5, 17):
        turned = p3.table.apply(p3.goal, "R U F'")[rotations(3)[k]]
        r = solve_with(p3, turned, method="bfs")
        assert r.status is Status.OPTIMAL and r.length == 3


def test_turns_auto_from_an_exact_method(capsys) -> None:
    """``--turns auto`` in exact's own CLIs: the registry's exact method (or --horizon-method)
    finds a solution, whose length is the horizon and which is the incumbent; the model proves
    the same optimum."""
    p = registry.get("cube2", moves="faces", metric="htm")
    for main in (mip_main, cpsat_main):
        for method in ([], ["--horizon-method", "bfs"]):
            argv = ["--size", "2", "--moves", "faces", "--metric", "htm", "--turns", "auto", "--scramble-length", "6"]
            code = main([*argv, "--seed", "3", *method, "--json"])
            out = json.loads(capsys.readouterr().out)
            start, _ = scramble(2, 6, np.random.default_rng(3), "faces", "htm")
            d = _distance(p, start)
            assert code == 0 and out["status"] == "optimal" and out["length"] == out["lower_bound"] == d
            facts = out["extra"]["horizon_solver"]
            assert facts["length"] == d and facts["status"] == "optimal"
            assert out["extra"]["horizon_from"] == (method[1] if method else solve_with.__globals__["choose"](p).name)
    code = mip_main(["--size", "2", "--turns", "auto", "--scramble", "R U F", "--moves", "faces"])
    assert code == 0 and "incumbent from: --turns auto (" in capsys.readouterr().out
    argv = ["--size", "2", "--turns", "auto", "--scramble", "R U"]
    assert cli.run(cpsat_main, [*argv, "--horizon-method", "no-such"]) == cli.EXIT_BAD_INPUT
    assert "unknown method 'no-such'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, pattern",
    [
        (["--puzzle", "pancake", "--turns", "3", "--moves", "faces"], "--moves goes with --size"),
        (["--size", "2", "--turns", "3", "--option", "n=4"], "--option goes with --puzzle"),
        (["--puzzle", "pancake", "--option", "m=4", "--turns", "3"], "--option m=4"),
        (["--size", "3", "--puzzle", "pancake", "--turns", "3"], "not allowed with argument"),
        (["--size", "3", "--turns", "-1"], "horizon"),
        (["--size", "1", "--turns", "3"], "cube size"),
        (["--size", "3", "--turns", "x"], "--turns"),
        (["--size", "3", "--turns", "3", "--facelets", "UUUX"], "facelet string"),
        (["--size", "3", "--turns", "3", "--scramble", "R Q"], "unknown move 'Q'"),
        (["--size", "3", "--turns", "3", "--solver", "no-such-solver"], "no-such-solver"),
    ],
)
def test_cli_bad_input(argv, pattern, capsys) -> None:
    assert cli.run(mip_main, argv) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and pattern in err


def test_a_wrong_presolve_infeasibility_is_caught() -> None:
    """HiGHS 1.14's presolve called this feasible model infeasible (docs/mip.md, "Infeasibility
    claims"). From 1.16 on, presolve's claims are trusted by default, so this runs the default
    path: a HiGHS that gets this model wrong again fails here. The confirmation without presolve
    (``confirm_infeasible``) and the split proof must agree."""
    p = registry.get("cube3", moves="layers", metric="qtm")
    start = p.table.apply(p.goal, "U F' B'")
    r = solve_mip(p, start, 3, MipOptions(formulation="tight", split=False))
    assert r.status is Status.OPTIMAL and r.length == 3
    assert r.extra["presolve_infeasibility_confirmed"] is None  # nothing was re-checked
    assert (
        solve_mip(p, start, 2, MipOptions(formulation="tight", split=False)).status is Status.INFEASIBLE_WITHIN_HORIZON
    )
    confirmed = solve_mip(p, start, 2, MipOptions(confirm_infeasible=True, formulation="tight", split=False))
    assert confirmed.status is Status.INFEASIBLE_WITHIN_HORIZON
    assert confirmed.extra["presolve_infeasibility_confirmed"] is True
    for form in ("tight", "pairs"):
        split = solve_mip(p, start, 3, MipOptions(formulation=form, split=True, threads=2, incumbent="mip"))
        assert split.status is Status.OPTIMAL and split.length == 3 and split.lower_bound == 3
        checked = solve_mip(p, start, 3, MipOptions(formulation=form, split=True, threads=2, confirm_infeasible=True))
        assert checked.status is Status.OPTIMAL and checked.length == 3
        pieces = checked.extra["proof"]["phases"][-1]["pieces"]
        assert all(q["confirmed"] for q in pieces if q["status"] == "refuted" and q["seconds"] > 0)
