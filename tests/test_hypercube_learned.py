"""The paper's EA and RL search (learned.hypercube), checked against the exact optimum of bidirectional BFS."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from exact import cli
from exact.errors import PuzzleoptError
from exact.hypercube.solve import solve_bibfs
from exact.puzzles.hypercube import HypercubePuzzle, load_instance
from exact.result import Status
from learned.hypercube import EASettings, RLSettings, make_settings, run_many, solve_ea, solve_rl
from learned.hypercube.__main__ import main

SMALL_EA = EASettings(population=60, generations=30)
SMALL_RL = RLSettings(P=2000, episodes=60, max_steps=300)
SOLVERS = {"ea": (solve_ea, SMALL_EA), "rl": (solve_rl, SMALL_RL)}
CASES = [("d3-level0", 1), ("d3-level0", 2), ("d3-level1", 1), ("d3-level2", 2), ("d4-row1", 2)]


def setup(name: str, k: int) -> tuple[HypercubePuzzle, np.ndarray, int | None]:
    inst = load_instance(name)
    puzzle = HypercubePuzzle.from_instance(inst, k)
    start = inst.state("start")
    return puzzle, start, solve_bibfs(puzzle, start).length


def replays_to_goal(puzzle: HypercubePuzzle, start: np.ndarray, moves: tuple[str, ...]) -> bool:
    end = puzzle.table.apply(start, list(moves)) if moves else start
    return bool(np.array_equal(end, puzzle.goal))


@pytest.mark.parametrize("method", ["ea", "rl"])
def test_solves_easy_instance(method):
    puzzle, start, optimum = setup("d3-level0", 1)
    solve, settings = SOLVERS[method]
    res = solve(puzzle, start, settings, seed=1)
    assert res.status is Status.FEASIBLE and res.solver == method
    assert res.length == len(res.moves) >= optimum == 4
    assert replays_to_goal(puzzle, start, res.moves)
    assert res.settings["k"] == 1 and res.nodes > 0


@pytest.mark.parametrize("method", ["ea", "rl"])
@pytest.mark.parametrize(("name", "k"), CASES)
def test_never_shorter_than_optimum_and_always_valid(method, name, k):
    puzzle, start, optimum = setup(name, k)
    solve, settings = SOLVERS[method]
    for seed in range(3):
        res = solve(puzzle, start, settings, seed=seed)
        assert res.status in (Status.FEASIBLE, Status.LIMIT)
        if res.status is Status.FEASIBLE:
            assert res.length >= optimum
            assert replays_to_goal(puzzle, start, res.moves)
            # every prefix is legal too: apply raises on a slide whose face is not free
            state = start
            for m in res.moves:
                state = puzzle.table.apply(state, m)
        else:
            assert res.moves == () and res.length is None


@pytest.mark.parametrize("method", ["ea", "rl"])
def test_unsolvable_instance_ends_at_limit(method):
    puzzle, start, optimum = setup("d3-level3", 2)
    assert optimum is None  # proven unsolvable by the exact search
    solve, settings = SOLVERS[method]
    res = solve(puzzle, start, settings, seed=0)
    assert res.status is Status.LIMIT and res.length is None


@pytest.mark.parametrize("method", ["ea", "rl"])
def test_same_seed_same_result_different_seeds_differ(method):
    puzzle, start, _ = setup("d3-level2", 1)
    solve, settings = SOLVERS[method]
    a, b = solve(puzzle, start, settings, seed=5), solve(puzzle, start, settings, seed=5)
    assert (a.moves, a.nodes, a.status) == (b.moves, b.nodes, b.status)
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert solve(puzzle, start, settings, seed=g1).moves == solve(puzzle, start, settings, seed=g2).moves
    runs = {(r.moves, r.nodes) for r in (solve(puzzle, start, settings, seed=s) for s in range(6))}
    assert len(runs) > 1


def test_start_at_target_is_zero_moves():
    inst = load_instance("d3-level0")
    puzzle = HypercubePuzzle.from_instance(inst, 1)
    for solve, settings in SOLVERS.values():
        res = solve(puzzle, puzzle.goal, settings, seed=0)
        assert res.status is Status.FEASIBLE and res.length == 0


def test_run_many_summary_and_repeatable():
    s1 = run_many("ea", "d3-level0", 1, runs=4, seed=3, settings=SMALL_EA)
    s2 = run_many("ea", "d3-level0", 1, runs=4, seed=3, settings=SMALL_EA)
    assert s1.lengths == s2.lengths and s1.runs == 4
    assert s1.solved == len(s1.lengths) and 0 <= s1.success_rate <= 1
    assert s1.min <= s1.median <= s1.max and s1.min >= 4
    assert s1.cpu_seconds >= 0 and s1.settings["population"] == 60
    d = s1.to_dict()
    assert json.loads(json.dumps(d))["success_rate"] == s1.success_rate
    r = run_many("rl", "d3-level1", 2, runs=3, seed=0, settings=SMALL_RL)
    assert r.solved == 3 and r.min >= 7


@pytest.mark.parametrize(
    "call",
    [
        lambda: HypercubePuzzle.from_instance(load_instance("d3-level0"), 3 + 1),
        lambda: HypercubePuzzle.from_instance(load_instance("d3-level0"), 0),
        lambda: run_many("ea", "d3-level0", 4, runs=1, settings=SMALL_EA),
        lambda: run_many("ea", "no-such-instance", 1, runs=1),
        lambda: run_many("ga", "d3-level0", 1, runs=1),
        lambda: run_many("ea", "d3-level0", 1, runs=0),
        lambda: run_many("ea", "d3-level0", 1, runs=1, settings=SMALL_RL),
        lambda: make_settings("ea", episodes=3),
        lambda: EASettings(population=1),
        lambda: EASettings(c=1.0),
        lambda: EASettings(alpha=1.5),
        lambda: EASettings(elitism=1.0),
        lambda: RLSettings(P=0),
        lambda: RLSettings(gamma=0.0),
        lambda: solve_ea(HypercubePuzzle.from_instance(load_instance("d3-level0"), 1), np.zeros(8, np.uint8)),
        lambda: solve_rl(HypercubePuzzle.from_instance(load_instance("d3-level0"), 1), np.zeros(5, np.uint8)),
        lambda: solve_ea(HypercubePuzzle.from_instance(load_instance("d3-level0"), 1), np.zeros(8), seed=-1),
    ],
)
def test_bad_arguments_raise_clear_errors(call):
    with pytest.raises(PuzzleoptError):
        call()


def test_cli_exit_codes_and_json(capsys):
    argv = ["ea", "--instance", "d3-level0", "--k", "1", "--runs", "2", "--population", "40", "--generations", "10"]
    assert main([*argv, "--json"]) == cli.EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["optimum"]["length"] == 4 and out["runs"] == 2 and out["min"] >= 4
    assert main(argv) == cli.EXIT_OK
    text = capsys.readouterr().out
    assert "exact optimum (bidirectional BFS): 4" in text and "success rate" in text
    none = ["rl", "--instance", "d3-level3", "--k", "2", "--runs", "1", "--episodes", "5", "--P", "100"]
    assert main(none) == cli.EXIT_NO_SOLUTION  # no run succeeded, and the exact search proves none can
    assert main([*none, "--no-optimum"]) == cli.EXIT_LIMIT  # no run succeeded; nothing proven
    capsys.readouterr()
    assert cli.run(main, ["ea", "--instance", "nope", "--k", "1"]) == cli.EXIT_BAD_INPUT
    assert cli.run(main, ["ea", "--instance", "d3-level0", "--k", "9"]) == cli.EXIT_BAD_INPUT
    assert cli.run(main, ["ea", "--instance", "d3-level0", "--k", "1", "--episodes", "3"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "nope" in err and "k=9" in err


def test_import_does_not_pull_torch():
    code = "import sys, learned.hypercube, learned.hypercube.__main__; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_rl_value_table_grows_without_changing_results():
    # a tiny BFS prior and long walks: the value hash table is rebuilt larger several times mid-run
    puzzle, start, optimum = setup("d4-row1", 2)
    settings = RLSettings(P=50, episodes=40, max_steps=500)
    a, b = solve_rl(puzzle, start, settings, seed=1), solve_rl(puzzle, start, settings, seed=1)
    assert (a.moves, a.nodes, a.extra) == (b.moves, b.nodes, b.extra)
    assert a.nodes > 4 * 1024 and a.extra["configurations_seen"] > 1024
    if a.status is Status.FEASIBLE:
        assert a.length >= optimum and replays_to_goal(puzzle, start, a.moves)
