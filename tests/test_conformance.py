"""The conformance kit over every registered puzzle, and the two puzzles added through it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from exact import registry, solvers
from exact.bfs import layer_counts
from exact.puzzles.pancake import BURNT_PANCAKE_NUMBERS, PANCAKE_NUMBERS
from exact.testing import check_puzzle

GOLDEN = Path(__file__).with_name("golden")


# Options a puzzle needs to be built at all (the cubical sliding puzzle: one of its instances).
NEEDS = {"hypercube": {"instance": "d3-level0", "k": 1}}


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_puzzle_conforms(name: str) -> None:
    check_puzzle(registry.get(name, **NEEDS.get(name, {})), np.random.default_rng(0), walks=6, depth=8)


def test_specs_rebuild_the_puzzle() -> None:
    for name in registry.names():
        p = registry.get(name, **NEEDS.get(name, {}))
        assert registry.rebuild(p.spec.to_dict()) is p
    p = registry.get("pancake", n=7, burnt=True)
    assert registry.rebuild(json.loads(json.dumps(p.spec.to_dict()))) is p


# perft-style: positions per depth from the goal, one file per registered puzzle
# (tests/golden/<name>.json; each table names its spec, its source and the depth checked here).
NO_GOLDEN = {"sokoban": "its goal is a set (boxes on goals, the player anywhere), not one state to count from"}


def test_every_puzzle_has_golden_counts_or_a_reason() -> None:
    files = {f.stem for f in GOLDEN.glob("*.json")}
    assert files == set(registry.names()) - set(NO_GOLDEN)


@pytest.mark.parametrize("name", [n for n in registry.names() if n not in NO_GOLDEN])
def test_golden_counts(name: str) -> None:
    golden = json.loads((GOLDEN / f"{name}.json").read_text())
    assert golden["puzzle"] == name and golden["tables"]
    for t in golden["tables"]:
        assert t["spec"]["name"] == name and t["source"]
        p = registry.rebuild(t["spec"])
        depth = t["check_depth"]
        assert layer_counts(p.table, p.goal, depth) == t["counts"][: depth + 1], t["spec"]
        if "total" in t:
            assert sum(t["counts"]) == t["total"]


def test_pyraminx_positions_per_depth() -> None:
    # the whole space: 933,120 positions, God's number 11
    (table,) = json.loads((GOLDEN / "pyraminx.json").read_text())["tables"]
    p = registry.rebuild(table["spec"])
    counts = layer_counts(p.table, p.goal, 20)
    assert counts == table["counts"]
    assert sum(counts) == 933_120 and len(counts) - 1 == 11


def test_pancake_numbers() -> None:
    for n in range(2, 9):
        p = registry.get("pancake", n=n)
        assert len(layer_counts(p.table, p.goal, 40)) - 1 == PANCAKE_NUMBERS[n - 1]
    for n in range(1, 6):
        p = registry.get("pancake", n=n, burnt=True)
        assert len(layer_counts(p.table, p.goal, 40)) - 1 == BURNT_PANCAKE_NUMBERS[n - 1]


def test_pyraminx_text_names_the_defect() -> None:
    p = registry.get("pyraminx")
    text = p.format_state(p.goal)
    with pytest.raises(ValueError, match="no piece has the colours"):
        p.parse_state("r" + text[1:])
    with pytest.raises(ValueError, match="colour letters"):
        p.parse_state(text[:-1])


@pytest.mark.parametrize("name, options, steps", [
    ("pancake", {"n": 7}, 6), ("pancake", {"n": 4, "burnt": True}, 6), ("pyraminx", {"tips": False}, 6),
    ("pyraminx", {}, 4), pytest.param("pyraminx", {}, 6, marks=pytest.mark.slow),  # the MIPs of walks of 6: 70 s
])  # fmt: skip
def test_new_puzzles_agree_across_methods(name: str, options: dict, steps: int, tmp_path) -> None:
    p = registry.get(name, **options)
    rng = np.random.default_rng(3)
    for start in p.random_walk(3, steps, rng):
        results = {}
        walk = ("table-walk",) if p.ranked_space() is not None else ()  # unburnt pancakes: a ranked space
        for method in ("ida*", "bfs", "cp-sat", "mip", *walk):
            kw = {"horizon": steps + 2} if method in ("cp-sat", "mip") else {}
            if method == "ida*":
                kw["pdb_dir"] = tmp_path
            r = solvers.solve(p, start, method=method, limits=solvers.Limits(time=120), **kw)
            assert r.status.value == "optimal", (method, r.status)
            results[method] = r.length
        assert len(set(results.values())) == 1, results
        assert bool(walk) == (name == "pancake" and not options.get("burnt"))
    if name == "pancake" and not options.get("burnt"):
        gap = solvers.solve(p, start, method="ida*", heuristic="gap")
        pdb = solvers.solve(p, start, method="ida*", heuristic="pdb", pdb_dir=tmp_path)
        assert gap.length == pdb.length == results["bfs"]


def test_limits_end_honestly() -> None:
    p = registry.get("pancake", n=14)
    start = p.random_states(1, np.random.default_rng(0))[0]
    r = solvers.solve(p, start, method="ida*", limits=solvers.Limits(nodes=5))
    assert r.status.value == "limit" and r.nodes <= 5 and r.lower_bound >= 1
    with pytest.raises(ValueError, match="takes no option"):
        solvers.solve(p, start, method="ida*", horizon=3)
    with pytest.raises(ValueError, match="Limits.nodes"):
        solvers.Limits(nodes=0)


def test_hybrid_certifies_the_new_puzzles(tmp_path) -> None:
    from exact.solvers import Limits
    from hybrid.certify import verify_solution

    budget = dict(limits=Limits(time=120), pdb_dir=tmp_path)
    # auto's proof: the gap heuristic's IDA* at once (nothing to build); the 9-pancake's complete
    # table is built in memory, so the quick BFS goes first and finds the one flip
    for n, solvers_seen in ((10, ("ida*",)), (9, ("bfs", "table-walk"))):
        p = registry.get("pancake", n=n)
        start = p.parse_state("2 1 " + " ".join(map(str, range(3, n + 1))))
        assert verify_solution(p, start, "f2", **budget).verdict == "optimal"
        r = verify_solution(p, start, "f3 f2 f3 f2 f3", **budget)  # 5 flips where 1 does
        assert r.verdict == "suboptimal" and r.gap == 4 and r.method == "auto"
        assert r.result.extra["exact"]["solver"] in solvers_seen
        r = verify_solution(p, start, "f3 f2 f3 f2 f3", method="table-walk" if n == 9 else "ida*", **budget)
        assert r.verdict == "suboptimal" and r.gap == 4
    q = registry.get("pyraminx", tips=False)
    start = q.table.apply(q.goal, "U L' R B'")
    r = verify_solution(q, start, "B R' L U'", **budget)
    # ida*'s pattern databases are not on disk (they declare their build): the quick BFS's bound
    # of 4 proves the 4 moves before any table is built
    assert r.verdict == "optimal" and r.method == "auto" and r.result.extra["exact"]["solver"] == "bfs"
    assert r.result.extra["exact"]["lower_bound"] == 4
    r = verify_solution(q, start, "B R' L U'", method="ida*", **budget)  # and the tables' proof agrees
    assert r.verdict == "optimal" and r.result.extra["exact"]["solver"] == "ida*"


# ----------------------------------------------------------------------------- state checks
def test_labels_that_are_no_state_are_refused_before_any_kernel():
    from exact.errors import StateError
    from puzzleopt import State

    for name, labels, opts in [("cube3", [0] * 54, {"metric": "qtm"}), ("pyraminx", [0] * 36, {}),
                               ("tiles8", [1] * 9, {}), ("pancake", [0, 0, 1], {"n": 3})]:  # fmt: skip
        with pytest.raises(StateError, match="not a state of the puzzle"):
            State(name, labels=labels, **opts)
    p = registry.get("pancake", n=3, burnt=True)
    torn = p.goal.copy()
    torn[1] = torn[0]  # one pancake's two sides the same face
    with pytest.raises(StateError):
        p.check_state(torn)


@pytest.mark.parametrize(
    ("name", "opts", "text", "methods"),
    [
        ("tiles8", {}, "0 2 1 3 4 5 6 7 8", ["table-walk", "ida*", "bfs", "cp-sat", "mip"]),
        ("lightsout", {"rows": 5}, "1" + "0" * 24, ["lightsout", "lightsout-mip", "lightsout-cpsat", "cp-sat"]),
    ],
)
def test_an_invariant_says_unsolvable_for_every_method_before_any_search(name, opts, text, methods):
    from exact.result import Status

    p = registry.get(name, **opts)
    start = p.parse_state(text)
    assert p.unsolvable(start)
    for m in methods:
        more = {"horizon": 3} if m in ("cp-sat", "mip") else {}
        r = solvers.solve(p, start, method=m, **more)
        assert r.status is Status.UNSOLVABLE and r.extra["unsolvable"] == p.unsolvable(start), m
        assert r.exit_code == 3 and "no solution exists:" in r.proof


def test_an_unreachable_goal_is_unsolvable_not_a_search():
    from exact.goals import with_goal
    from exact.result import Status

    p = registry.get("cube3", moves="faces", metric="htm")
    text = list(p.format_state(p.goal))
    text[7], text[19] = text[19], text[7]  # the UF edge flipped in place: no cube shows it
    g = with_goal(p, "".join(text))
    start = p.table.apply(p.goal, "R U F")
    for m in ("ida*-goal", "cp-sat"):
        r = solvers.solve(g, start, method=m, horizon=3) if m == "cp-sat" else solvers.solve(g, start, method=m)
        assert r.status is Status.UNSOLVABLE and "flipped" in r.extra["unsolvable"], m
    tiles = registry.get("tiles8")
    odd = with_goal(tiles, _goal_allowing(tiles, tiles.parse_state("0 2 1 3 4 5 6 7 8")))
    assert "cannot be reached" in odd.unsolvable(tiles.goal)


def _goal_allowing(puzzle, state):
    from exact.puzzle import Goal

    allowed = np.zeros((puzzle.num_positions, puzzle.num_labels), dtype=bool)
    allowed[np.arange(puzzle.num_positions), state] = True
    return Goal(allowed=allowed)
