"""The executor (in-process, local processes, Ray) and the batch commands on it: the same results
on every backend, workers killed mid-task, Ctrl-C and --resume. Ray is real: a local Ray with
two CPUs, started once for the module."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from exact import registry
from exact.batch import run_batch
from exact.errors import PuzzleoptError, ReplayError
from exact.executor import InProcess, Processes, Ray, WorkerLost
from exact.resultlog import ResultLog, read_log

ray = pytest.importorskip("ray", reason="Ray is the optional extra puzzleopt[scale]")

# the timing fields differ from run to run; everything else must not
TIMES = {"seconds", "certify_seconds", "learned_seconds", "build_seconds", "solve_seconds", "incumbent_seconds"}


def _timeless(x):
    if isinstance(x, dict):
        return {k: _timeless(v) for k, v in x.items() if k not in TIMES and k not in ("worker_pids", "sha256")}
    if isinstance(x, list):
        return [_timeless(v) for v in x]
    return x


@pytest.fixture(scope="module")
def local_ray():
    import ray.cloudpickle

    # the tasks below live in this test module, which Ray's workers cannot import by name
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _square(shared, item):
    return shared["k"] * item * item


def _die_once(shared, item):
    """Kill this worker process the first time item 2 runs (a marker file remembers)."""
    marker = Path(shared["dir"]) / f"died-{item}"
    if item == 2 and not marker.exists():
        marker.write_text("x")
        os._exit(9)
    return item + 100


def _always_die(shared, item):
    os._exit(9)


@pytest.mark.parametrize("backend", ["in-process", "processes", "ray"])
def test_every_backend_gives_every_result_once(backend, request):
    if backend == "ray":
        request.getfixturevalue("local_ray")
    ex = {"in-process": InProcess, "processes": lambda: Processes(2), "ray": lambda: Ray()}[backend]()
    with ex:
        got = dict(ex.map(_square, list(range(12)), {"k": 3}))
    assert got == {i: 3 * i * i for i in range(12)}


@pytest.mark.parametrize("backend", ["processes", "ray"])
def test_a_worker_killed_mid_task_is_retried(backend, tmp_path, request):
    if backend == "ray":
        request.getfixturevalue("local_ray")
    ex = Processes(2) if backend == "processes" else Ray()
    with ex:
        got = list(ex.map(_die_once, list(range(6)), {"dir": str(tmp_path)}))
    assert sorted(i for i, _ in got) == list(range(6))  # every task once
    assert dict(got) == {i: i + 100 for i in range(6)} and (tmp_path / "died-2").exists()


def test_a_task_that_always_kills_its_worker_is_reported():
    with Processes(1) as ex, pytest.raises(WorkerLost, match="died 2 times"):
        list(ex.map(_always_die, [0], None, retries=1))


# ----------------------------------------------------------------------------- hybrid.verify
def _walk(p, rng, k):
    rows, s = [], p.goal.copy()
    for _ in range(k):
        ok = [m for m in range(p.table.num_moves) if p.table.applicable(s[None])[0][m]]
        ok = [m for m in ok if not rows or m != p.table.inverse[rows[-1]]] or ok
        m = int(rng.choice(ok))
        rows.append(m)
        s = p.table.apply(s, [m])
    undo = [int(p.table.inverse[m]) for m in reversed(rows)]
    return s, undo


@pytest.fixture(scope="module")
def boards(tmp_path_factory):
    """Ten 8-puzzle boards and the walks back (optimal or not: the certificates say)."""
    p = registry.get("tiles8")
    rng = np.random.default_rng(11)
    d = tmp_path_factory.mktemp("boards")
    walks = [_walk(p, rng, 6 + 2 * i) for i in range(10)]
    inst = d / "boards.tsv"
    inst.write_text("id\tstate\n" + "".join(f"b{i}\t{p.format_state(s)}\n" for i, (s, _) in enumerate(walks)))
    sols = d / "solutions.txt"
    sols.write_text("".join(p.table.format(u) + "\n" for _, u in walks))
    return inst, sols


def _verify(tmp_path, boards, name, *extra):
    from hybrid.verify import main

    inst, sols = boards
    out = tmp_path / name
    argv = ["--puzzle", "tiles8", "--instances", str(inst), "--solutions", str(sols), "--out", str(out)]
    code = main([*argv, "--no-progress", "--json", *extra])
    return code, read_log(out / "certificates.jsonl")


def test_verify_on_ray_and_processes_equals_in_process(tmp_path, boards, local_ray, capsys):
    code, here = _verify(tmp_path, boards, "here")
    assert code == 0 and [c["id"] for c in here] == [f"b{i}" for i in range(10)]
    assert {c["verdict"] for c in here} <= {"optimal", "suboptimal"}
    for name, extra in (("ray", ["--ray", "auto"]), ("procs", ["--workers", "2"])):
        code, there = _verify(tmp_path, boards, name, *extra)
        assert code == 0 and len(there) == len(here), name
        for a, b in zip(_timeless(there), _timeless(here)):
            assert a == b, (name, {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})
    assert ray.is_initialized()  # the test's Ray is left running: the command did not start it


def test_ctrl_c_then_resume_completes_every_instance_once(tmp_path, boards, monkeypatch, caplog):
    import hybrid.many as verify  # where hybrid.verify's per-instance task lives

    _, full = _verify(tmp_path, boards, "full")
    real, calls = verify._certify, []

    def interrupted_on_the_fourth(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(verify, "_certify", interrupted_on_the_fourth)
    code, part = _verify(tmp_path, boards, "cut")
    assert code == 130 and [c["id"] for c in part] == ["b0", "b1", "b2"]
    monkeypatch.setattr(verify, "_certify", real)
    with pytest.raises(PuzzleoptError, match="already holds results; add --resume"):
        _verify(tmp_path, boards, "cut")
    log = tmp_path / "cut" / "certificates.jsonl"
    log.write_bytes(log.read_bytes() + b'{"format": "puzzleopt-certif')  # a write cut short
    code, done = _verify(tmp_path, boards, "cut", "--resume", "--workers", "2")
    assert code == 0 and _timeless(done) == _timeless(full)
    assert "cut short" in caplog.text


def test_a_damaged_or_foreign_results_file_fails_clearly(tmp_path):
    log = ResultLog(tmp_path / "r.jsonl", "puzzleopt-certificate/3", run={"k": 1})
    log.start()
    log.append({"id": "1", "x": 1})
    log.append({"id": "2", "x": 2})
    log.close()
    lines = log.path.read_text().splitlines()
    log.path.write_text("\n".join([lines[0], lines[1].replace('"x": 1', '"x": 7'), lines[2]]) + "\n")
    with pytest.raises(PuzzleoptError, match="r.jsonl: line 2 is damaged or was edited"):
        log.read()
    with pytest.raises(PuzzleoptError, match="not 'other/1'"):
        _foreign(tmp_path, lines)


def _foreign(tmp_path, lines):
    (tmp_path / "f.jsonl").write_text("\n".join(lines) + "\n")
    return ResultLog(tmp_path / "f.jsonl", "other/1").read()


def test_the_batch_loop_writes_as_results_arrive(tmp_path):
    log = ResultLog(tmp_path / "r.jsonl", "t/1")
    seen = []

    def on_result(ident, value):
        seen.append(len(log.path.read_text().splitlines()))  # already on disk when reported (after the header)

    run = run_batch(InProcess(), _square, [1, 2, 3], ["a", "b", "c"], {"k": 1}, log=log,
                    to_record=lambda i, v: {"id": i, "v": v}, on_result=on_result, progress=False)  # fmt: skip
    assert seen == [2, 3, 4] and run.in_order() == [1, 4, 9]


# ----------------------------------------------------------------------------- the MIP split
def test_the_mip_split_on_ray_equals_in_process(local_ray):
    from exact.mip import MipOptions, solve_mip

    p = registry.get("cube2", moves="faces", metric="qtm")
    start = p.table.apply(p.goal, "R U F' R")
    here = solve_mip(
        p, start, 5, MipOptions(split=True, threads=1, incumbent="mip", executor="in-process", formulation="tight")
    )
    there = solve_mip(
        p, start, 5, MipOptions(split=True, threads=2, incumbent="mip", executor="ray", formulation="tight")
    )
    assert here.status.value == there.status.value == "optimal"
    assert (here.length, here.lower_bound) == (there.length, there.lower_bound) == (4, 4)
    assert there.extra["proof"]["executor"].startswith("ray")


def test_certificates_are_records_that_read_back():
    from dataclasses import replace

    from hybrid.certify import Certificate, verify_solution

    p = registry.get("tiles8")
    start = p.table.apply(p.goal, "R D R D")
    c = replace(verify_solution(p, start, "U L U L", method="bfs"), id="1", known_optimal=4, learned_seconds=0.5)
    assert c.verdict == "optimal" and c.given_length == c.best_length == 4
    d = json.loads(json.dumps(c.to_dict()))
    assert Certificate.from_dict(d, p) == c  # the best solution replayed on the way back
    d["result"]["moves"] = ["U", "L", "U", "R"]
    with pytest.raises(ReplayError, match="do not reach the goal"):  # a forged record fails its replay
        Certificate.from_dict(d, p)


# ----------------------------------------------------------------------------- files of starts
def _lines(path):
    return read_log(path)


def test_exact_ida_and_solve_over_a_file_on_every_backend(tmp_path, boards, local_ray, capsys):
    from exact.ida.__main__ import main as ida_main
    from exact.solve import main as solve_main

    inst, _ = boards
    runs = {}
    for name, extra in (("here", []), ("procs", ["--workers", "2"]), ("ray", ["--ray"])):
        out = tmp_path / f"ida-{name}"
        assert (
            ida_main(["--puzzle", "tiles8", "--instances", str(inst), "--no-progress", "--out", str(out), *extra]) == 0
        )
        runs[name] = _timeless(_lines(out / "results.jsonl"))
    assert runs["procs"] == runs["here"] == runs["ray"]
    assert [r["id"] for r in runs["here"]] == [f"b{i}" for i in range(10)]
    capsys.readouterr()
    out = tmp_path / "solve"
    argv = ["--puzzle", "tiles8", "--instances", str(inst), "--method", "bfs", "--out", str(out), "--json"]
    assert solve_main([*argv, "--workers", "2"]) == 0
    streamed = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert sorted(r["id"] for r in streamed) == [f"b{i}" for i in range(10)]
    assert [r["length"] for r in _lines(out / "results.jsonl")] == [r["length"] for r in runs["here"]]
    assert solve_main([*argv, "--resume"]) == 0  # everything is there already: nothing runs again,
    again = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]  # and what was kept is shown
    by_id = {r["id"]: r for r in streamed}
    assert [r["id"] for r in again] == [f"b{i}" for i in range(10)]
    assert all(r["seconds"] == by_id[r["id"]]["seconds"] and r["moves"] == by_id[r["id"]]["moves"] for r in again)


def test_a_result_read_back_is_replayed():
    from exact.result import SolveResult

    p = registry.get("tiles8")
    start = p.table.apply(p.goal, "R D L")
    r = SolveResult.build(p, start, p.table.parse("R U L", start), "optimal", lower_bound=3, solver="t")
    back = SolveResult.from_dict(r.to_dict(), p)
    assert back == r
    bad = r.to_dict() | {"moves": ["R", "U"], "length": 2, "lower_bound": 2}
    with pytest.raises(Exception, match="do not reach the goal"):
        SolveResult.from_dict(bad, p)


def test_evaluate_sends_the_network_once_and_agrees(tmp_path, boards, local_ray, capsys):
    """learned.evaluate with --model: the file goes to the workers as a blob (Ray's object store)."""
    pytest.importorskip("torch")
    from learned.evaluate import main

    inst, _ = boards
    model = Path(__file__).resolve().parents[1] / "learned" / "models" / "tiles8.safetensors"
    runs = {}
    for name, extra in (("here", []), ("ray", ["--ray"]), ("procs", ["--workers", "2"])):
        out = tmp_path / f"eval-{name}"
        argv = ["--puzzle", "tiles8", "--instances", str(inst), "--model", str(model), "--out", str(out)]
        assert main([*argv, "--no-progress", "--threads", "1", *extra]) == 0
        runs[name] = [
            {k: r[k] for k in ("id", "status", "length", "moves", "nodes")} for r in _lines(out / "results.jsonl")
        ]
    assert runs["ray"] == runs["here"] == runs["procs"] and len(runs["here"]) == 10


def test_ctrl_c_on_ray_keeps_the_finished_results_and_resume_completes(tmp_path):
    """A real SIGINT to a command running its tasks on Ray: exit 130, the results that had come
    back are in the file, and --resume (in this process) runs only the rest."""
    import signal
    import subprocess
    import time

    p = registry.get("tiles15")
    rng = np.random.default_rng(3)
    inst = tmp_path / "boards.tsv"
    starts = [p.random_walk(1, 400, rng)[0] for _ in range(10)]
    inst.write_text("id\tstate\n" + "".join(f"s{i}\t{p.format_state(s)}\n" for i, s in enumerate(starts)))
    out = tmp_path / "out"
    # IDA* with Manhattan distance on deep boards, 2 s each: most end at their limit
    argv = ["--puzzle", "tiles15", "--instances", str(inst), "--method", "ida*", "--heuristic", "manhattan"]
    argv += ["--time-limit", "2", "--out", str(out)]
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "exact.solve", *argv, "--ray"], cwd=root, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    log = out / "results.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and (not log.exists() or len(log.read_text().splitlines()) < 3):  # header + 2
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=120) == 130, proc.stderr.read()
    _kept = read_log(log)
    kept = [d["id"] for d in _kept]
    assert 2 <= len(kept) < 10 and len(set(kept)) == len(kept)
    from exact.solve import main

    assert main([*argv, "--resume", "--workers", "2"]) in (0, 4)  # 4: a start ended at its limit
    done = read_log(log)
    assert [d["id"] for d in done] == [f"s{i}" for i in range(10)]
    assert {d["id"]: d for d in done if d["id"] in kept} == {d["id"]: d for d in _kept}


# ----------------------------------------------------------------------------- DAVI
def _davi(**kw):
    from learned.davi import DaviConfig

    base = dict(puzzle="tiles8", preset="tiny-nobn", steps=6, batch=120, max_scramble=10, eval_every=0,
                check_every=2, threshold=10.0, shards=2, log_every=1)  # fmt: skip
    return DaviConfig(**(base | kw))


def _weights(folder):
    from learned.weights import load_model

    net, _ = load_model(Path(folder) / "model.safetensors")
    return {k: v.double() for k, v in net.state_dict().items()}


def test_davi_shards_are_the_same_wherever_they_are_made(tmp_path, local_ray):
    """The batch's shards made here, by two processes, or on Ray: the same network, bit for bit
    (the target network goes to the workers once per update: threshold 10 updates it every 2 steps)."""
    pytest.importorskip("torch")
    import torch

    from learned.davi import train

    here = train(_davi(), tmp_path / "here", progress=False)
    assert here["target_updates"] == 3
    for name, ex in (("procs", Processes(2)), ("ray", Ray())):
        with ex:
            train(_davi(), tmp_path / name, progress=False, executor=ex)
        a, b = _weights(tmp_path / "here"), _weights(tmp_path / name)
        assert all(torch.equal(a[k], b[k]) for k in a), name


def test_ddp_on_two_cpu_processes_equals_one_process_and_resumes(tmp_path):
    """torch.distributed with gloo, 2 ranks: gradients averaged over the ranks' shards equal the
    one-process gradient of the whole batch (no batch norm in this preset); a run stopped at
    step 3 and resumed with DDP ends where the uninterrupted one does."""
    pytest.importorskip("torch")
    import torch

    from learned.davi import train
    from learned.train import main

    train(_davi(), tmp_path / "one", progress=False)
    argv = ["--puzzle", "tiles8", "--preset", "tiny-nobn", "--batch", "120", "--max-scramble", "10"]
    argv += ["--eval-every", "0", "--check-every", "2", "--threshold", "10", "--shards", "2"]
    argv += ["--no-progress", "--threads", "1"]
    assert main([*argv, "--steps", "3", "--ddp", "2", "--out", str(tmp_path / "ddp")]) == 0
    assert main([*argv, "--steps", "6", "--ddp", "2", "--out", str(tmp_path / "ddp")]) == 0
    a, b = _weights(tmp_path / "one"), _weights(tmp_path / "ddp")
    assert all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
    assert not all(torch.equal(a[k], _weights_of_fresh(tmp_path)[k]) for k in a)  # it did train


def _weights_of_fresh(tmp_path):
    from learned.davi import train

    train(_davi(steps=1), tmp_path / "fresh", progress=False)
    return _weights(tmp_path / "fresh")


@pytest.mark.parametrize("module", ["hybrid.verify", "learned.evaluate"])
def test_the_commands_run_as_python_m_on_ray(module, tmp_path, boards):
    """Run as ``python -m``, a command is ``__main__``, which Ray's workers do not have: its tasks
    must reach them by their module's own name."""
    import subprocess

    if module == "learned.evaluate":
        pytest.importorskip("torch")
    inst, sols = boards
    argv = [sys.executable, "-m", module, "--puzzle", "tiles8", "--instances", str(inst), "--no-progress"]
    argv += ["--out", str(tmp_path / "out"), "--ray", "--workers", "2"]
    argv += ["--solutions", str(sols)] if module == "hybrid.verify" else ["--threads", "1"]
    r = subprocess.run(argv, cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    name = "certificates.jsonl" if module == "hybrid.verify" else "results.jsonl"
    assert [d["id"] for d in _lines(tmp_path / "out" / name)] == [f"b{i}" for i in range(10)]
