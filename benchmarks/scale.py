"""Benchmark of the executors (:mod:`exact.executor`): 1 and 2 workers, in-process, local
processes and Ray, on the commands users scale out. Writes docs/benchmarks/scale.md.

    python benchmarks/scale.py --first 24 --repeats 3

Three parts, each the median of ``--repeats`` runs of the real command (a subprocess, so every
run pays its own start-up, Ray's included):

* ``hybrid.verify`` on the first ``--first`` of DeepCubeA's 500 15-puzzles (BWAS with the shipped
  network, then IDA* with the 6-6-3 tables, built before timing);
* ``hybrid.verify --solutions`` on all 500 (``--certify``): the certificates alone (IDA* 6-6-3) of
  learned solutions found beforehand by ``learned.evaluate --quality fast`` (untimed);
* the MIP headline in the case study's move set, ``python -m exact.mip --size 3 --turns 8
  --moves layers`` (18 pieces of a few seconds each: enough work to share): its split's pieces on
  1 and 2 processes and on Ray;
* Ray's overhead per task: a map of ``--tasks`` tasks that do nothing, against the same map
  in-process.

Speedup is (1 worker's seconds) / (2 workers'), within each backend and against in-process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402

DATA = instances.path("deepcubea-tiles15")
PY = sys.executable


def _timed(argv: list[str], ok=(0,)) -> float:
    t0 = time.perf_counter()
    r = subprocess.run([PY, *argv], cwd=ROOT, capture_output=True, text=True)
    if r.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} exited {r.returncode}:\n{r.stderr[-3000:]}")
    return time.perf_counter() - t0


def _median(argv: list[str], repeats: int, ok=(0,)) -> float:
    return statistics.median(_timed(argv, ok) for _ in range(repeats))


BACKENDS = [
    ("in-process", 1, []),
    ("processes", 2, ["--workers", "2"]),
    ("ray", 1, ["--ray", "--workers", "1"]),
    ("ray", 2, ["--ray", "--workers", "2"]),
]


def learned_solutions(folder: Path, first: int) -> Path:
    """The first ``first`` instances' BWAS solutions (``learned.evaluate --quality fast`` on two
    worker processes), one line each in the puzzle's notation: ``hybrid.verify --solutions``."""
    out = folder / "evaluate"
    argv = ["-m", "learned.evaluate", "--puzzle", "tiles15", "--instances", str(DATA), "--first", str(first)]
    _timed([*argv, "--quality", "fast", "--out", str(out), "--no-progress", "--workers", "2", "--json"])
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    path = folder / "solutions.txt"
    path.write_text("".join(" ".join(r["moves"] or []) + "\n" for r in records))
    return path


def _noop(shared, item):
    return item


def ray_overhead(tasks: int, repeats: int) -> tuple[float, float]:
    """Seconds per task: a map of no-op tasks on an already started local Ray, and in-process."""
    import ray

    from exact.executor import InProcess, Ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ex = Ray()
        list(ex.map(_noop, list(range(50))))  # workers started, function exported
        on_ray = statistics.median(_map_seconds(ex, tasks) for _ in range(repeats)) / tasks
    finally:
        ray.shutdown()
    here = statistics.median(_map_seconds(InProcess(), tasks) for _ in range(repeats)) / tasks
    return on_ray, here


def _map_seconds(ex, tasks: int) -> float:
    t0 = time.perf_counter()
    list(ex.map(_noop, list(range(tasks))))
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--first", type=int, default=24, help="DeepCubeA 15-puzzles to certify")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--tasks", type=int, default=500, help="no-op tasks for Ray's overhead")
    ap.add_argument("--certify", type=int, default=500, help="DeepCubeA 15-puzzles whose given solutions to certify")
    ap.add_argument("--parts", default="verify,certify,mip,overhead")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "scale.md"))
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    meter = load_meter()
    t_all = time.perf_counter()
    lines = [
        "# Benchmark: one worker or two, in-process, processes and Ray",
        "",
        f"Command: `python benchmarks/scale.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {machine()}  ",
        f"Date: {date.today().isoformat()}",
        "",
        "Each figure is the median of the runs of the whole command in a fresh process (start-up and, for",
        "Ray, starting a local Ray included). Speedup: the in-process seconds over the backend's.",
        "",
    ]
    if "verify" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            base = ["-m", "hybrid.verify", "--puzzle", "tiles15", "--instances", str(DATA), "--first", str(args.first)]
            base += ["--no-progress", "--pdb-dir", tmp, "--threads", "1"]
            _timed([*base, "--first", "1"])  # the tables built (and the network loaded) before timing
            rows, here = [], None
            for name, workers, extra in BACKENDS:
                s = _median([*base, *extra], args.repeats)
                here = s if here is None else here
                rows.append([name, str(workers), f"{s:.1f}", f"{s / args.first:.2f}", f"{here / s:.2f}"])
        lines += [f"## hybrid.verify: DeepCubeA's 15-puzzles 0-{args.first - 1} (BWAS, then IDA* 6-6-3)", ""]
        lines += markdown_table(["backend", "workers", "seconds", "s / instance", "speedup"], rows) + [""]
    if "certify" in parts:
        with tempfile.TemporaryDirectory() as tmp:
            solutions = learned_solutions(Path(tmp), args.certify)
            base = [
                "-m",
                "hybrid.verify",
                "--puzzle",
                "tiles15",
                "--instances",
                str(DATA),
                "--first",
                str(args.certify),
            ]
            base += ["--solutions", str(solutions), "--no-progress", "--pdb-dir", tmp, "--threads", "1"]
            _timed([*base, "--first", "1"])  # the tables built before timing
            rows, here = [], None
            for name, workers, extra in BACKENDS:
                s = _median([*base, *extra], args.repeats)
                here = s if here is None else here
                rows.append([name, str(workers), f"{s:.1f}", f"{1000 * s / args.certify:.0f}", f"{here / s:.2f}"])
        lines += [
            f"## hybrid.verify --solutions: the certificates alone, DeepCubeA's 15-puzzles 0-{args.certify - 1}",
            "",
            "The learned solutions were found first (`python -m learned.evaluate --puzzle tiles15 --quality fast`,",
            "not timed); each task replays one and proves its start's optimum by IDA* with the 6-6-3 tables.",
            "",
        ]
        lines += markdown_table(["backend", "workers", "seconds", "ms / instance", "speedup"], rows) + [""]
    if "mip" in parts:
        base = ["-m", "exact.mip", "--size", "3", "--turns", "8", "--moves", "layers", "--json"]
        rows, here = [], None
        for name, workers, extra in (
            ("processes", 1, ["--threads", "1"]),
            ("processes", 2, ["--threads", "2"]),
            ("ray", 1, ["--ray", "--threads", "1"]),
            ("ray", 2, ["--ray", "--threads", "2"]),
        ):
            s = _median([*base, *extra], args.repeats)
            here = s if here is None else here
            rows.append([name, str(workers), f"{s:.1f}", f"{here / s:.2f}"])
        lines += ["## The MIP headline's split (`python -m exact.mip --size 3 --turns 8 --moves layers`)", ""]
        lines += markdown_table(["backend", "workers", "seconds", "speedup over 1 process"], rows) + [""]
    if "overhead" in parts:
        on_ray, here = ray_overhead(args.tasks, args.repeats)
        lines += [
            f"## Ray's overhead per task ({args.tasks} no-op tasks, a local Ray already started, 2 CPUs)",
            "",
            f"{on_ray * 1000:.2f} ms per task on Ray; {here * 1e6:.1f} us in-process.",
            "",
        ]
    lines += [f"Total {time.perf_counter() - t_all:.0f} s; {meter()}.", ""]
    write_page(args.out, lines)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
