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
from exact.mip import MipOptions, solve_mip, split
from exact.mip.__main__ import main as mip_main
from exact.puzzles.cube import rotations, scramble
from exact.result import Status
from exact.timeindexed import prepare

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


# The split's verdicts on the cube cases are checked in tests/test_models.py's one case matrix
# (test_mip_equals_cpsat_equals_bfs), beside the whole models', with the pieces in-process; here,
# one case with its worker processes, as the commands run it.
def test_the_split_in_worker_processes_gives_the_verdict() -> None:
    p, start, text, d = _instance(3, "faces", "qtm", 5)
    r = solve_mip(p, start, d, MipOptions(formulation="pairs", split=True, threads=2))
    assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d
    assert len(r.extra["proof"]["worker_pids"]) == 2 and _gone(r.extra["proof"]["worker_pids"])
    assert r.extra["proof"]["executor"] == "processes, 2 workers"


def test_a_piece_at_its_limit_is_split_again_into_its_children() -> None:
    """The re-split rule on a stub solver (milliseconds): a piece that ends at its limit becomes
    its one-move-longer prefixes, and the phase is refuted once every piece is; the slow test
    below runs the same rule with HiGHS."""
    import tempfile

    from exact.executor import InProcess
    from exact.executor.streams import LocalStream
    from exact.mip import FORMULATIONS
    from exact.mip.pieces import LIMIT, REFUTED, PieceAnswer
    from exact.timeindexed import move_rules

    p = registry.get("cube2")
    start = p.table.apply(p.goal, "R U F'")
    form = FORMULATIONS["pairs"]
    problem = prepare(p, start, form.reduce_frame)
    out_at_limit = 3  # the first three pieces handed out end at their limit, every other is refuted
    asked: list = []

    def stub(shared, task) -> PieceAnswer:
        asked.append(task)
        kind = LIMIT if len(asked) <= out_at_limit else REFUTED
        return PieceAnswer(task.phase, task.piece, kind, 0.0, 1.0 if kind == LIMIT else None, None, 0, None)

    with tempfile.TemporaryDirectory() as tmp:
        sm, phase = split._phase_model(problem, 2, form, (), InProcess(), tmp, lambda event: None)
        out = split.run_phase(LocalStream(stub, None), 1, sm, problem, move_rules(problem.table), 2, 1,
                              piece_time_limit=1.0, deadline=None, options={}, confirm=False, record=phase,
                              format_moves=lambda rows: problem.table.format(rows))  # fmt: skip
    statuses = [(len(q.prefix.split()), q.status) for q in phase.pieces]
    assert out.kind == "refuted" and out.bound == 3, out
    assert [s for s in statuses if s[1] == "limit"] == [(1, "limit")] * out_at_limit
    children = [q for q in phase.pieces if len(q.prefix.split()) == 2]
    limited = {q.prefix for q in phase.pieces if q.status == "limit"}
    assert children and {q.prefix.rsplit(" ", 1)[0] for q in children} == limited  # the children of those three
    assert all(q.status in ("refuted", "replayed") for q in children)


@pytest.mark.slow  # 36 s: the rule above, with HiGHS and real time limits
def test_a_piece_at_its_limit_is_split_again() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    start, text = scramble(3, 6, np.random.default_rng(1), "layers", "qtm")  # pieces that take a while
    d = shortest_distance(p.table, start, p.goal[rotations(3)], 14)
    r = solve_mip(p, start, d, MipOptions(formulation="pairs", split=True, threads=2, piece_time_limit=1e-3))
    pieces = r.extra["proof"]["phases"][-1]["pieces"]
    assert any(q["status"] == "limit" for q in pieces)
    assert any(len(q["prefix"].split()) > 1 for q in pieces)  # children of pieces at their limit
    assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d
    r = solve_mip(p, start, d - 1, MipOptions(formulation="pairs", split=True, threads=2, piece_time_limit=1e-3))
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON


def test_deep_horizons_start_from_longer_prefixes(monkeypatch) -> None:
    assert [split.first_prefix_length(h) for h in (1, 2, 7, 8, 9)] == [1, 1, 1, 2, 3]
    p, start, text, d = _instance(3, "layers", "qtm", 4)
    monkeypatch.setattr(split, "FREE_MOVES", d - 3)  # so the refuted horizon d - 1 starts at two moves
    r = solve_mip(p, start, d, MipOptions(formulation="pairs", split=True, threads=2))
    assert r.status is Status.OPTIMAL and r.length == d and r.lower_bound == d
    last = r.extra["proof"]["phases"][-1]
    assert last["refuted"] and last["horizon"] == d - 1
    assert all(len(q["prefix"].split()) >= 2 for q in last["pieces"]) and len(last["pieces"]) > 18
    r = solve_mip(p, start, d - 1, MipOptions(formulation="pairs", split=True, threads=2, incumbent="mip"))
    assert r.status is Status.INFEASIBLE_WITHIN_HORIZON and r.lower_bound == d


def test_the_time_limit_stops_every_worker() -> None:
    p = registry.get("cube3", moves="layers", metric="qtm")
    start, text = scramble(3, 8, np.random.default_rng(0), "layers", "qtm")
    hint = [int(p.table.inverse[m]) for m in reversed(p.table.parse(text))]
    r = solve_mip(p, start, 8, MipOptions(formulation="pairs", split=True, threads=2), hint=hint, time_limit=4.0)
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
