"""Every executor backend: a killed caller leaves no worker behind, and a stream answers, raises
and notices a dead worker."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from exact.executor import InProcess, Processes, WorkerLost

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = ["in-process", "processes"] + (["ray"] if importlib.util.find_spec("ray") else [])


def _descendants(pid: int) -> set[int]:
    from exact.executor.reaper import descendants

    return descendants(pid)


def _alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="the guarantee rests on Linux's parent-death signal (prctl) and the test reads /proc",
)
@pytest.mark.parametrize("how", ["map", "stream"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_killed_caller_leaves_no_worker(backend: str, how: str, tmp_path) -> None:
    cmd = [sys.executable, str(ROOT / "tests" / "killed_caller.py"), backend, how, str(tmp_path)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    want = 1 if backend == "in-process" else 2  # in-process runs one task at a time
    end = time.monotonic() + 180
    while len(list(tmp_path.glob("*.started"))) < want and time.monotonic() < end:
        assert proc.poll() is None, f"the caller ended with {proc.returncode}"
        time.sleep(0.2)
    assert len(list(tmp_path.glob("*.started"))) == want, "the tasks never started"
    family = _descendants(proc.pid)
    assert backend == "in-process" or len(family) >= 2, family
    proc.send_signal(signal.SIGKILL)  # no finally runs: only the kernel (and the reaper) can stop them
    proc.wait(timeout=30)
    end = time.monotonic() + 30
    while _alive(family) and time.monotonic() < end:
        time.sleep(0.5)
    left = {p: Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ")[:60] for p in _alive(family)}
    for p in left:  # leave the machine clean whatever the verdict
        os.kill(p, signal.SIGKILL)
    assert not left, left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's; /proc")
@pytest.mark.parametrize("how", ["map-slow", "stream-slow"])
def test_a_caller_killed_while_its_workers_start_leaves_none(how: str, tmp_path) -> None:
    """Killed while its workers still unpickle their ``shared`` (before they can ask for the
    parent-death signal), the caller leaves no worker: each finds it dead and exits."""
    cmd = [sys.executable, str(ROOT / "tests" / "killed_caller.py"), "processes", how, str(tmp_path)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 180
    while len(list(tmp_path.glob("*.unpickling"))) < 2 and time.monotonic() < end:
        assert proc.poll() is None, f"the caller ended with {proc.returncode}"
        time.sleep(0.05)
    workers = {int(f.name.split(".")[0]) for f in tmp_path.glob("*.unpickling")}
    assert len(workers) == 2, "the workers never started"
    family = _descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)  # inside the workers' 3 s of unpickling
    proc.wait(timeout=30)
    end = time.monotonic() + 30
    while _alive(family | workers) and time.monotonic() < end:
        time.sleep(0.5)
    left = {p: Path(f"/proc/{p}/cmdline").read_text().replace("\0", " ")[:60] for p in _alive(family | workers)}
    for p in left:  # leave the machine clean whatever the verdict
        os.kill(p, signal.SIGKILL)
    assert not left, left
    assert not list(tmp_path.glob("*.started")), "a task started after its caller died"


def _twice(shared, item):
    if item < 0:
        raise ValueError(f"item {item} is negative")
    return shared * item


def _exit(shared, item):
    os._exit(3)


@pytest.mark.parametrize("executor", [InProcess(), Processes(2)], ids=["in-process", "processes"])
def test_a_stream_answers_each_task_with_its_key_and_raises_a_tasks_error(executor) -> None:
    with executor.stream(_twice, 10) as stream:
        for i in range(5):
            stream.submit(("task", i), i)
        got = {}
        while len(got) < 5:
            answer = stream.result(5.0)
            if answer is not None:
                got[answer[0]] = answer[1]
        assert got == {("task", i): 10 * i for i in range(5)}
        stream.submit("bad", -1)
        with pytest.raises(ValueError, match="item -1 is negative"):
            while stream.result(5.0) is None:
                pass


def test_a_stream_whose_worker_dies_says_so() -> None:
    with Processes(1).stream(_exit) as stream:
        stream.submit(0, 0)
        with pytest.raises(WorkerLost, match="exit code 3"):
            end = time.monotonic() + 60
            while time.monotonic() < end:
                stream.result(0.5)


def test_a_task_of_a_script_is_handed_over_by_its_importable_name(tmp_path) -> None:
    """A task function of the script running as ``__main__`` goes to workers as ``pkg.script.f``
    (the module imported by its own name), not as ``__main__.f``, which a Ray worker lacks."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "script.py").write_text(
        "from exact.executor import importable\n\n\ndef task(shared, item):\n    return item\n\n\n"
        "if __name__ == '__main__':\n    f = importable(task)\n    print(f.__module__, f(None, 7))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(pkg / "script.py")], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["pkg.script", "7"]


STDIN_SCRIPT = """
import math
from exact.executor import Processes
from exact.executor.streams import ProcessStream

with Processes(2) as ex:
    print(sorted(ex.map(math.hypot, [3.0, 5.0], shared=4.0)))  # map yields as tasks finish, in any order
stream = ProcessStream(2, 1, math.hypot, 12.0)
try:
    stream.submit("a", 5.0)
    got = None
    while got is None:
        got = stream.result(0.5)
    print(got)
finally:
    stream.close()
"""


def test_a_script_read_from_stdin_starts_workers() -> None:
    # its __main__.__file__ is '<stdin>', which every worker tried to run as the caller's script
    done = subprocess.run(
        [sys.executable, "-"], input=STDIN_SCRIPT, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[:2] == ["[(0, 5.0), (1, 6.4031242374328485)]", "('a', 13.0)"]


UNGUARDED_TOUR = """
from puzzleopt import Cube

r = Cube(3).apply("R U R' F").solve(method="mip")  # the MIP's split proof starts worker processes
print(r.status.value, r.length)
"""

UNGUARDED_WORKERS = """
from puzzleopt import Cube

r = Cube(3).apply("R U R' F").solve(method="mip", threads=2)  # workers asked for: none start
print(r.status.value, r.length, r.extra["proof"]["executor"])
"""

UNGUARDED_TASK = """
from exact.executor import Processes


def task(shared, item):
    return item * shared


with Processes(2) as ex:
    print(sorted(ex.map(task, [1, 2, 3], shared=10)))
"""

GUARDED_TASK = """
import os

from exact.executor import Processes


def task(shared, item):
    return os.getpid()


if __name__ == "__main__":
    with Processes(2) as ex:
        pids = {pid for _, pid in ex.map(task, [1, 2, 3, 4], shared=None)}
    print(os.getpid() not in pids)
"""


def _script(tmp_path, text: str) -> subprocess.CompletedProcess:
    script = tmp_path / "tour.py"
    script.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300
    )


def test_a_script_without_a_main_guard_runs_the_tour(tmp_path) -> None:
    # the workers used to import the script, solve again and die (WorkerLost, 200 lines of traceback)
    done = _script(tmp_path, UNGUARDED_TOUR)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["optimal", "4"]
    assert "Traceback" not in done.stderr and "leaked" not in done.stderr


def test_a_single_solve_starts_no_worker_process_by_default() -> None:
    from puzzleopt import Cube

    r = Cube(3).apply("R U R' F").solve(method="mip")
    assert (r.status.value, r.length) == ("optimal", 4)
    assert r.extra["proof"]["executor"] == "in-process, 1 worker" and not r.extra["proof"]["worker_pids"]


def test_workers_asked_for_by_an_unguarded_script_run_in_process_with_one_warning(tmp_path) -> None:
    done = _script(tmp_path, UNGUARDED_WORKERS)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[:3] == ["optimal", "4", "in-process,"]
    warnings = [ln for ln in done.stderr.splitlines() if "RuntimeWarning" in ln]
    assert len(warnings) == 1 and "worker processes were asked for" in warnings[0], done.stderr
    assert "tour.py:4" in warnings[0] and "leaked" not in done.stderr, done.stderr  # at the script's line


def test_a_task_of_an_unguarded_script_runs_in_process_with_one_warning(tmp_path) -> None:
    done = _script(tmp_path, UNGUARDED_TASK)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[(0, 10), (1, 20), (2, 30)]"
    warnings = [ln for ln in done.stderr.splitlines() if "RuntimeWarning" in ln]
    assert len(warnings) == 1 and "worker processes were asked for (task)" in warnings[0], done.stderr
    assert "one process" in warnings[0] and "tour.py" in warnings[0], done.stderr  # it points at the call


def test_a_task_of_a_guarded_script_runs_in_workers(tmp_path) -> None:
    done = _script(tmp_path, GUARDED_TASK)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "True"
    assert "one process" not in done.stderr
