"""The MIP's split proof (exact.mip.split): the same verdicts as BFS, honest limits, no orphans."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from exact import cli, registry
from exact.bfs import meet_in_the_middle, shortest_distance
from exact.mip import solve_mip, split
from exact.mip.__main__ import main as mip_main
from exact.puzzles.cube import rotations, scramble
from exact.result import Status
from exact.timeindexed import prepare
from tests.test_models import CASES  # its instances (same seeds): the split must give the same verdicts

ROOT = Path(__file__).resolve().parents[1]


def _instance(n, moves, metric, length):
    p = registry.get(f"cube{n}", moves=moves, metric=metric)
    rng = np.random.default_rng(100 * n + 10 * length + len(moves) + len(metric))
    start, text = scramble(n, length, rng, moves, metric)
    d = shortest_distance(p.table, start, p.goal[rotations(n)], 14)
    return p, start, text, d


def _gone(pids: list[int], wait: float = 5.0) -> bool:
    """Whether none of ``pids`` is a live process (zombies count as gone)."""
    end = time.monotonic() + wait
    while True:
        alive = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
            except (FileNotFoundError, ProcessLookupError):
                continue
            if state != "Z":
                alive.append(pid)
        if not alive or time.monotonic() > end:
            return not alive
        time.sleep(0.1)


# The 3x3 cases at 6 moves in HTM (35-90 s each) run with the slow tests (`make test-all`).
SLOW_SPLIT = {(3, "faces", "htm", 6), (3, "layers", "htm", 6)}
SPLIT_CASES = [pytest.param(*c, marks=pytest.mark.slow) if c in SLOW_SPLIT else c for c in CASES]


@pytest.mark.parametrize("n, moves, metric, length", SPLIT_CASES)
def test_split_gives_the_verdicts_of_the_whole_model(n, moves, metric, length) -> None:
    p, start, text, d = _instance(n, moves, metric, length)
    if d == 0:
        return
    inverse = [int(p.table.inverse[m]) for m in reversed(p.table.parse(text))]
    for kwargs in (
        {"hint": inverse, "hint_source": "scramble", "incumbent": "mip"},  # the MIP shortens the hint
        {"hint": inverse, "hint_source": "scramble"},  # the CLI's incumbent, shortened by BFS
        {},  # bidirectional BFS finds the incumbent
        {"incumbent": "mip"},  # the split model of horizon T finds it
    ):
        r = solve_mip(p, start, max(d, length), formulation_name="pairs", split=True, threads=2, **kwargs)
        assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d, kwargs
        proof = r.extra["proof"]
        if "hint" in kwargs and len(inverse) > d:
            shortener = "bidirectional BFS" if kwargs.get("incumbent", "bfs") == "bfs" else "the MIP"
            assert proof["incumbent_source"] == f"scramble, shortened by {shortener}", kwargs
        if d > 1 and "MIP" not in proof["incumbent_source"]:  # the incumbent was optimal: "at most d - 1" refuted
            last = proof["phases"][-1]
            assert last["refuted"] and last["horizon"] == d - 1
    r = solve_mip(p, start, d - 1, formulation_name="pairs", split=True, threads=2, incumbent="mip")
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON and r.lower_bound == d
    if n == 2:  # the one-move formulation splits too
        r = solve_mip(p, start, d, split=True, threads=1)
        assert r.status is Status.OPTIMAL and r.length == d


def test_a_piece_at_its_limit_is_split_again() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    start, text = scramble(3, 6, np.random.default_rng(1), "layers", "qtm")  # pieces that take a while
    d = shortest_distance(p.table, start, p.goal[rotations(3)], 14)
    r = solve_mip(p, start, d, formulation_name="pairs", split=True, threads=2, piece_time_limit=1e-3)
    pieces = r.extra["proof"]["phases"][-1]["pieces"]
    assert any(q["status"] == "limit" for q in pieces)
    assert any(len(q["prefix"].split()) > 1 for q in pieces)  # children of pieces at their limit
    assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d
    r = solve_mip(p, start, d - 1, formulation_name="pairs", split=True, threads=2, piece_time_limit=1e-3)
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON


def test_deep_horizons_start_from_longer_prefixes(monkeypatch) -> None:
    assert [split.first_prefix_length(h) for h in (1, 2, 7, 8, 9)] == [1, 1, 1, 2, 3]
    p, start, text, d = _instance(3, "layers", "qtm", 5)
    monkeypatch.setattr(split, "FREE_MOVES", d - 3)  # so the refuted horizon d - 1 starts at two moves
    r = solve_mip(p, start, d, formulation_name="pairs", split=True, threads=2)
    assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d
    last = r.extra["proof"]["phases"][-1]
    assert last["refuted"] and last["horizon"] == d - 1
    assert all(len(q["prefix"].split()) >= 2 for q in last["pieces"]) and len(last["pieces"]) > 18
    r = solve_mip(p, start, d - 1, formulation_name="pairs", split=True, threads=2, incumbent="mip")
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON and r.lower_bound == d


def test_the_time_limit_stops_every_worker() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    start, text = scramble(3, 8, np.random.default_rng(0), "layers", "qtm")
    hint = [int(p.table.inverse[m]) for m in reversed(p.table.parse(text))]
    r = solve_mip(p, start, 8, formulation_name="pairs", split=True, threads=2, hint=hint, time_limit=4.0)
    assert r.status is Status.FEASIBLE and r.length == 8 and 1 <= r.lower_bound < 8
    assert r.seconds < 15
    pids = r.extra["proof"]["worker_pids"]
    assert len(pids) == 2 and _gone(pids)
    assert "time limit" in r.extra["proof"]["summary"]


def test_ctrl_c_stops_every_worker_and_reports_the_bound() -> None:
    # the case study's move set: its proof takes about 25 s, so the split is still running when stopped
    cmd = [sys.executable, "-m", "exact.mip", "--size", "3", "--turns", "8", "--moves", "layers", "--threads", "2"]
    cmd.append("--json")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    assert len(_family(proc.pid)) >= 3  # the forkserver and its two workers: the split is under way
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole process group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    res = json.loads(out)
    assert res["extra"]["interrupted"] and res["status"] == "feasible" and res["length"] == 8
    assert res["lower_bound"] is not None and res["lower_bound"] < 8
    assert _gone(res["extra"]["proof"]["worker_pids"])


def _descendants(pid: int) -> list[int]:
    parent = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().split(")")[-1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        parent[int(stat.parent.name)] = int(fields[1])
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, q in parent.items() if q == p]
        out += kids
        todo += kids
    return out


def _family(pid: int, size: int = 3, wait: float = 120.0) -> list[int]:
    """The descendants of ``pid`` once there are ``size`` of them (or when ``wait`` is spent):
    polled, not slept for, so a slow machine waits longer and a fast one not at all."""
    end = time.monotonic() + wait
    while len(family := _descendants(pid)) < size and time.monotonic() < end:
        time.sleep(0.2)
    return family


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_cli_leaves_no_worker_behind(sig) -> None:
    cmd = [sys.executable, "-m", "exact.mip", "--size", "3", "--turns", "8", "--moves", "layers", "--threads", "2"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    family = _family(proc.pid)
    assert len(family) >= 3, family  # the forkserver and its two workers
    proc.send_signal(sig)  # no finally runs: only the kernel can stop the workers
    proc.wait(timeout=30)
    assert _gone(family, wait=10.0), family


@pytest.mark.parametrize(
    "argv, pattern",
    [
        (["--threads", "0"], "--threads 0"),
        (["--threads", "-2"], "--threads -2"),
        (["--threads", "two"], "--threads"),
        (["--time-limit", "0"], "--time-limit: 0 must be a finite number of seconds above 0"),
        (["--time-limit", "-5"], "--time-limit: -5 must be a finite number of seconds above 0"),
        (["--time-limit", "soon"], "--time-limit"),
        (["--piece-time-limit", "0"], "--piece-time-limit: 0 must be a finite number of seconds above 0"),
        (["--hint", "R Q"], "unknown move 'Q'"),
        (["--hint", "R U"], "does not solve"),
        (["--hint", "U R U' R' R R' U U' R R'"], "more than the horizon"),
    ],
)
def test_bad_numbers_and_hints_are_one_line_and_exit_2(argv, pattern, capsys) -> None:
    try:
        code = cli.run(mip_main, ["--size", "3", "--turns", "8", "--scramble", "R U R' U'", *argv])
    except SystemExit as exc:  # argparse's own errors (not a number at all)
        code = exc.code
    assert code == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and pattern in err, err


def test_meet_in_the_middle_finds_shortest_paths() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    for seed in range(3):
        start, _ = scramble(3, 6, np.random.default_rng(seed), "layers", "qtm")
        problem = prepare(p, start)
        path = meet_in_the_middle(problem.table, problem.start, problem.goal.state, 8)
        assert path is not None and problem.goal.holds(problem.table.apply(problem.start, path))
        assert len(path) == shortest_distance(p.table, start, p.goal[rotations(3)], 14)
        assert meet_in_the_middle(problem.table, problem.start, problem.goal.state, len(path) - 1) is None


def test_cli_reports_the_incumbent_and_the_proof(capsys) -> None:
    code = mip_main(["--size", "3", "--turns", "4", "--seed", "3"])
    out = capsys.readouterr()
    assert code == 0 and "status: optimal (proven)" in out.out
    assert "incumbent from: the scramble's inverse" in out.out
    assert "proof (HiGHS, split on the first moves): lower bound" in out.out and "refuted in" in out.out
    assert "model of horizon" in out.err and "pieces refuted" in out.err
    start, _ = scramble(3, 4, np.random.default_rng(3), "faces", "qtm")  # --size's defaults
    from exact.puzzles.cube import to_facelets

    code = mip_main(["--size", "3", "--turns", "4", "--facelets", to_facelets(start), "--json"])
    res = json.loads(capsys.readouterr().out)
    assert code == 0 and res["status"] == "optimal"
    assert res["extra"]["proof"]["incumbent_source"] == "bidirectional BFS"
    assert all({"prefix", "status", "seconds"} <= set(q) for q in res["extra"]["proof"]["phases"][-1]["pieces"])


def test_the_pieces_module_imports_neither_pyomo_nor_numba() -> None:
    # a worker imports it by the task's name; where the forkserver was started by another stream
    # first, Pyomo, numba and SciPy cost each worker about 2 s a phase (the split tests after
    # test_executor's streams took 338 s, 59 s alone)
    heavy = "{'pyomo', 'numba', 'scipy'}"
    code = f"import sys, exact.mip.pieces; print(sorted({{m.split('.')[0] for m in sys.modules}} & {heavy}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr
