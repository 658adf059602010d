"""Certifying given solutions: optimal, suboptimal with the right gap, or rejected."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact import registry
from exact.bfs import distance_table, shortest_distance
from exact.errors import PuzzleoptError
from exact.puzzles.cube import rotations, scramble
from exact.puzzles.tiles import TilesSpace
from exact.result import Status
from exact.resultlog import read_log
from exact.solvers import Limits
from exact.tablewalk import solve_table
from exact.tiles import ida_tiles, tile_heuristic
from hybrid.certify import choose_method, verify_solution


def _walk(p, rng: np.random.Generator, k: int) -> tuple[np.ndarray, list[int]]:
    """A random legal walk of ``k`` moves from the goal: the state and the walk undone."""
    s, rows = p.goal.copy(), []
    for _ in range(k):
        legal = np.flatnonzero(p.table.applicable(s))
        m = int(rng.choice(legal))
        rows.append(m)
        s = p.table.apply(s, [m])
    return s, [int(p.table.inverse[m]) for m in reversed(rows)]


def _padded(p, start: np.ndarray, rows: list[int], at: int) -> list[int]:
    """``rows`` with a legal move and its inverse inserted after ``at`` moves."""
    here = p.table.apply(start, rows[:at]) if at else start
    m = int(np.flatnonzero(p.table.applicable(here))[0])
    return rows[:at] + [m, int(p.table.inverse[m])] + rows[at:]


@pytest.fixture(scope="module")
def eight():
    p = registry.get("tiles8")
    space = TilesSpace(3, 3)
    return p, space, distance_table(space, p.table, p.goal)


def test_padded_is_suboptimal_by_2_and_optimal_is_optimal(eight, cube2_tables) -> None:
    p8, space, dist = eight
    p2, pdb_dir, _ = cube2_tables
    rng = np.random.default_rng(0)
    for p, budget in ((p8, {}), (p2, {"pdb_dir": pdb_dir})):
        start, _ = _walk(p, rng, 30)
        optimal = (
            ida_tiles(p, start, tile_heuristic("manhattan-lc", 3, 3))
            if p is p8
            else solve_table(p, start, pdb_dir=pdb_dir)
        )
        rows = p.table.parse(" ".join(optimal.moves), start)
        r = verify_solution(p, start, rows, **budget)
        assert r.verdict == "optimal" and r.gap == 0
        assert r.status is Status.OPTIMAL and r.length == optimal.length == r.lower_bound
        padded = _padded(p, start, rows, len(rows) // 2)
        r = verify_solution(p, start, p.table.format(padded), **budget)
        assert r.verdict == "suboptimal" and r.gap == 2 and r.gap_exact
        assert r.given_length == len(rows) + 2 and r.length == len(rows) and r.status is Status.OPTIMAL


def test_a_non_solution_is_rejected(eight) -> None:
    p, _, _ = eight
    start, rows = _walk(p, np.random.default_rng(1), 12)
    with pytest.raises(PuzzleoptError, match="does not solve the start"):
        verify_solution(p, start, rows[:-1])
    with pytest.raises(PuzzleoptError, match="unknown move|illegal|cannot"):
        verify_solution(p, start, "Q")
    with pytest.raises(PuzzleoptError, match="does not apply"):
        verify_solution(p, start, rows, method="ida*-cube")


def test_certificates_agree_with_the_distance_tables(eight, cube2_tables) -> None:
    """Solutions of every quality (undone random walks, optimal, padded): each verdict matches
    the complete distance tables (on the 8-puzzle by the table method and by IDA*)."""
    p8, space8, dist8 = eight
    p2, pdb_dir, _ = cube2_tables
    rng = np.random.default_rng(2)
    seen = set()
    from exact import portfolio, solvers

    # auto's exact step on both is the one distance-table solver
    for p, where in ((p8, None), (p2, pdb_dir)):
        assert choose_method(p).name == "auto"
        assert portfolio.exact_step(solvers.methods(p), p, {}, where, False).method.name == "table-walk"
    for p, budget, methods in ((p8, {}, ("auto", "ida*")), (p2, {"pdb_dir": pdb_dir}, ("auto",))):
        for _ in range(12):
            start, undo = _walk(p, rng, int(rng.integers(1, 25)))
            if p is p8:
                d = int(dist8[space8.rank(start[None])[0]])
            else:  # meet-in-the-middle BFS, independent of the table the walk uses
                d = shortest_distance(p.table, start, p.goal[rotations(2)], 14)
            for rows in (undo, _padded(p, start, undo, 0)):
                for method in methods:
                    r = verify_solution(p, start, rows, method=method, **budget)
                    verdict = r.verdict
                    seen.add(verdict)
                    assert verdict in ("optimal", "suboptimal")  # no budget: always decided
                    assert r.status is Status.OPTIMAL and r.length == r.lower_bound == d
                    assert r.gap == len(rows) - d
                    assert (verdict == "optimal") == (len(rows) == d)
    assert seen == {"optimal", "suboptimal"}


@pytest.mark.parametrize("method", ["auto", "mip"])
def test_the_models_certify_short_cube_solutions(method) -> None:
    p = registry.get("cube3", moves="layers", metric="htm")
    start, _ = scramble(3, 4, np.random.default_rng(3), "layers", "htm")
    d = shortest_distance(p.table, start, p.goal[rotations(3)], 6)
    best = verify_solution(p, start, _walk_to(p, start, d), method=method)
    assert best.verdict == "optimal" and best.length == d == best.lower_bound and best.method == method
    padded = _padded(p, start, p.table.parse(" ".join(best.moves)), 1)
    r = verify_solution(p, start, padded, method=method)
    assert r.verdict == "suboptimal" and r.gap == 2 and r.length == d


def _walk_to(p, start: np.ndarray, d: int) -> list[int]:
    from exact.cpsat import solve_cpsat

    r = solve_cpsat(p, start, d)
    assert r.status is Status.OPTIMAL
    return p.table.parse(" ".join(r.moves))


def test_a_budget_ends_as_unknown_with_a_bound(eight) -> None:
    p, space, dist = eight
    start, undo = _walk(p, np.random.default_rng(4), 40)
    given = _padded(p, start, undo, 0)
    r = verify_solution(p, start, given, method="ida*", limits=Limits(nodes=1))
    assert r.verdict == "unknown" and r.gap is None and not r.gap_exact
    assert r.status is Status.FEASIBLE and r.length == len(given)
    assert r.lower_bound <= int(dist[space.rank(start[None])[0]]) < len(given)


def test_cli_certifies_a_file(tmp_path, eight, capsys) -> None:
    from exact.cli import EXIT_BAD_INPUT, run
    from hybrid.verify import EXIT_CONTRADICTION, EXIT_INVALID, main

    p, space, dist = eight
    rng = np.random.default_rng(5)
    starts, lines, truth = [], [], []
    for k in range(4):
        start, undo = _walk(p, rng, 10 + 5 * k)
        d = int(dist[space.rank(start[None])[0]])
        best = ida_tiles(p, start, tile_heuristic("manhattan-lc", 3, 3))
        rows = p.table.parse(" ".join(best.moves), start)
        given = [rows, _padded(p, start, rows, 0), undo, None][k]
        starts.append(p.format_state(start))
        lines.append("" if given is None else p.table.format(given))
        truth.append(d)
    inst = tmp_path / "boards.tsv"
    rows_tsv = "".join(f"b{i}\t{s}\t{d}\n" for i, (s, d) in enumerate(zip(starts, truth)))
    inst.write_text("id\tstate\toptimal_length\n" + rows_tsv)
    sols = tmp_path / "solutions.txt"
    sols.write_text("\n".join(lines) + "\n")
    out = tmp_path / "report"
    code = main(
        [
            "--puzzle",
            "tiles8",
            "--instances",
            str(inst),
            "--solutions",
            str(sols),
            "--out",
            str(out),
            "--json",
            "--no-progress",
        ]
    )
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["instances"] == 4 and summary["contradictions"] == []
    assert summary["optimal_share"] == 0.25 + 0.25 * (len(lines[2].split()) == truth[2])
    assert summary["no_solution_share"] == 0.25 and summary["suboptimal_share"] > 0
    certs = read_log(out / "certificates.jsonl")
    assert [c["verdict"] for c in certs][:2] == ["optimal", "suboptimal"] and certs[1]["gap"] == 2
    assert all(c["best_length"] == d for c, d in zip(certs[:3], truth))
    assert (out / "gaps.png").stat().st_size > 0 and "Command:" in (out / "summary.md").read_text()
    # a file whose optimal length is wrong: the certificate contradicts it, loudly
    inst.write_text("id\tstate\toptimal_length\n" + f"b0\t{starts[0]}\t{truth[0] + 2}\n")
    sols.write_text(lines[0] + "\n")  # one line per instance: more lines than instances is an error
    assert main(["--puzzle", "tiles8", "--instances", str(inst), "--solutions", str(sols), "--no-progress"]) == (
        EXIT_CONTRADICTION
    )
    assert "contradiction" in capsys.readouterr().err
    # too few solutions, and a solution that does not solve its board: one line, exit 2
    argv = ["--puzzle", "tiles8", "--instances", str(inst), "--solutions", str(sols), "--no-progress"]
    sols.write_text("")
    assert run(main, argv) == EXIT_BAD_INPUT
    assert "has 0 lines for 1 instances" in capsys.readouterr().err
    # a solution that does not solve its board is a wrong answer: counted as invalid, the run goes on
    inst.write_text("id\tstate\toptimal_length\n" + "".join(f"b{i}\t{starts[0]}\t{truth[0]}\n" for i in (0, 1)))
    sols.write_text(lines[1].split(" ", 1)[1] + "\n" + lines[0] + "\n")
    assert run(main, [*argv, "--json"]) == EXIT_INVALID
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["invalid"] == 1 and summary["invalid_share"] == 0.5 and summary["optimal_share"] == 0.5
    assert "invalid: instance b0: move 'U' (token 4" in captured.err  # why it is wrong, quoted
    # a board that is not a board: the file and the instance are named, before any search
    inst.write_text("id\tstate\toptimal_length\n" + "b7\t1 2 3\t4\n")
    assert run(main, argv) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"--instances {str(inst)!r}, instance b7:" in err and "expected 9 numbers" in err


@pytest.mark.parametrize(
    "learned", [[], ["--learned-method", "beam", "--width", "64", "--precision", "fp32"]], ids=["bwas", "beam"]
)
def test_cli_runs_the_learned_method_with_the_shipped_network(tmp_path, eight, capsys, learned) -> None:
    pytest.importorskip("torch")
    from hybrid.verify import main

    p, space, dist = eight
    rng = np.random.default_rng(6)
    starts = [_walk(p, rng, 30)[0] for _ in range(3)]
    inst = tmp_path / "boards.txt"
    inst.write_text("".join(p.format_state(s) + "\n" for s in starts))
    out = tmp_path / "report"
    from exact.cli import run

    assert main(["--puzzle", "tiles8", "--instances", str(inst), "--out", str(out), "--no-progress", *learned]) == 0
    certs = read_log(out / "certificates.jsonl")
    if learned:  # the arithmetic asked for is the run's, and the log's header says so
        assert '"precision": "fp32"' in (out / "certificates.jsonl").read_text().splitlines()[0]
        assert run(main, ["--puzzle", "tiles8", "--instances", str(inst), "--weight", "1", *learned]) == 2
        assert "--weight is not an option of --learned-method beam" in capsys.readouterr().err
    else:  # the beam's flags are refused for BWAS
        assert run(main, ["--puzzle", "tiles8", "--instances", str(inst), "--no-inverse"]) == 2
        assert "--inverse is not an option of --learned-method bwas" in capsys.readouterr().err
        assert run(main, ["--puzzle", "tiles8", "--instances", str(inst), "--symmetries", "1"]) == 2
        assert "--symmetries is not an option of --learned-method bwas" in capsys.readouterr().err
    for c, s in zip(certs, starts):
        assert c["learned_seconds"] is not None and c["verdict"] in ("optimal", "suboptimal")
        assert c["best_length"] == int(dist[space.rank(s[None])[0]])


def test_the_network_bounds_the_horizon(capsys) -> None:
    pytest.importorskip("torch")
    from exact.cli import EXIT_BAD_INPUT, run
    from exact.cpsat import solve_cpsat
    from exact.cpsat.__main__ import main as exact_cpsat_main
    from puzzleopt.console import _models

    cpsat_main = _models("cpsat")  # what `puzzleopt cpsat` runs
    from exact.horizon import solve_at_method_horizon

    p = registry.get("cube2")
    rng = np.random.default_rng(7)
    for _ in range(3):
        start, _ = scramble(2, 9, rng, "layers", "qtm")
        d = shortest_distance(p.table, start, p.goal[rotations(2)], 14)
        r = solve_at_method_horizon(p, start, solve_cpsat, "bwas", {})  # the shipped network's BWAS
        learned = r.extra["horizon_solver"]
        assert r.extra["horizon_from"] == "bwas" and r.settings["horizon"] == learned["length"] >= d
        assert r.status is Status.OPTIMAL and r.length == d == r.lower_bound
    code = cpsat_main(["--size", "2", "--turns", "auto", "--scramble", "R U F' L", "--json"])
    out = json.loads(capsys.readouterr().out)
    facts = out["extra"]["horizon_solver"]
    assert code == 0 and out["status"] == "optimal" and facts["length"] >= out["length"]
    assert out["extra"]["horizon_from"] == facts["method"] == "bwas"
    # the 3x3 from its shipped network: BWAS's 5-move solution of a 5-move scramble, proven by CP-SAT
    code = cpsat_main(["--size", "3", "--turns", "auto", "--scramble", "R U F' L D", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["status"] == "optimal" and out["length"] == out["lower_bound"] == 5
    assert run(cpsat_main, ["--size", "2", "--turns", "auto", "--scramble", "R U", "--hint", "U' R'"]) == EXIT_BAD_INPUT
    assert "--turns auto finds its own incumbent" in capsys.readouterr().err
    # one registry: exact's own command reaches the learned methods through it (exact imports neither)
    for method in ("bwas", "beam"):
        argv = ["--size", "2", "--turns", "auto", "--scramble", "R U", "--horizon-method", method, "--json"]
        assert run(exact_cpsat_main, argv) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == "optimal" and out["length"] == 2 and out["extra"]["horizon_from"] == method
    argv = ["--size", "2", "--turns", "auto", "--scramble", "R U", "--horizon-method", "bfs", "--model", "x"]
    assert run(exact_cpsat_main, argv) == EXIT_BAD_INPUT
    assert "takes no model" in capsys.readouterr().err


def test_ctrl_c_keeps_the_instances_done(tmp_path, eight, monkeypatch) -> None:
    import hybrid.verify as cli_module
    from exact.cli import run

    p, _, _ = eight
    rng = np.random.default_rng(8)
    walks = [_walk(p, rng, 12) for _ in range(3)]
    inst = tmp_path / "boards.txt"
    inst.write_text("".join(p.format_state(s) + "\n" for s, _ in walks))
    sols = tmp_path / "solutions.txt"
    sols.write_text("".join(p.table.format(u) + "\n" for _, u in walks))
    import hybrid.many as task_module  # where the command's per-instance task certifies

    real, calls = task_module.verify_solution, []

    def interrupted_on_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(task_module, "verify_solution", interrupted_on_the_second)
    out = tmp_path / "report"
    argv = ["--puzzle", "tiles8", "--instances", str(inst), "--solutions", str(sols), "--out", str(out)]
    argv.append("--no-progress")
    assert run(cli_module.main, argv) == 130
    certs = read_log(out / "certificates.jsonl")
    assert [c["id"] for c in certs] == ["1"] and (out / "summary.md").exists() and (out / "gaps.png").exists()
    assert not [f for f in out.iterdir() if f.name.startswith(".")]  # no temporary files left
