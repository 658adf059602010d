"""Benchmark: torch's intra-op threads for the learned commands, on an idle and on a busy machine.

Writes docs/benchmarks/threads.md. Usage:

    python benchmarks/threads.py --repeats 3

Each row runs one command as a user types it, with ``--threads 1`` and with ``--threads N`` for
N = the cores (torch's own default when nothing sets it, which is what the commands did before
they took ``--threads``), on an idle machine and with every core busy (one spinning process per
core, started before and stopped after each run). Each cell is the median over ``--repeats`` runs
of the seconds of the work the command reports in its JSON (the search, or the training steps),
and of the wall clock of the whole command (start, imports and model load included). Commands:

* ``learned.solve --puzzle tiles8 --tiles "8 6 7 2 5 4 3 0 1"`` (the issue's example; BWAS with
  the shipped network at its card's settings);
* ``learned.evaluate --puzzle tiles15 --instances DeepCubeA's 15-puzzles --first 5 --quality fast``;
* ``learned.train --puzzle tiles8 --preset small --steps 30 --batch 1000`` (fresh folder each run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact.cli import cores  # noqa: E402

COMMANDS = {
    "solve tiles8": ["-m", "learned.solve", "--puzzle", "tiles8", "--tiles", "8 6 7 2 5 4 3 0 1", "--json"],
    "evaluate tiles15 (5 of DeepCubeA's)": [
        "-m",
        "learned.evaluate",
        "--puzzle",
        "tiles15",
        "--instances",
        str(instances.path("deepcubea-tiles15")),
        "--first",
        "5",
        "--quality",
        "fast",
        "--no-progress",
        "--json",
    ],
    "train tiles8 (30 steps of 1,000)": [
        "-m",
        "learned.train",
        "--puzzle",
        "tiles8",
        "--preset",
        "small",
        "--steps",
        "30",
        "--batch",
        "1000",
        "--eval-every",
        "0",
        "--no-progress",
        "--json",
    ],
}


@contextmanager
def busy(n: int):
    """``n`` processes spinning on a core each (the load of a test run, CI or a worker pool)."""
    spin = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        time.sleep(0.5)
        yield
    finally:
        for p in spin:
            p.kill()
            p.wait()


def run(argv: list[str], threads: int) -> tuple[float, float]:
    """``(work seconds from the command's JSON, wall seconds of the whole command)``."""
    with tempfile.TemporaryDirectory() as tmp:
        extra = ["--out", str(Path(tmp) / "run")] if "learned.train" in argv else []
        t = time.perf_counter()
        out = subprocess.run([sys.executable, *argv, *extra, "--threads", str(threads)], cwd=ROOT, capture_output=True)
        wall = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} --threads {threads} failed: {out.stderr.decode()[-500:]}")
    doc = json.loads(out.stdout.decode().strip().splitlines()[-1])
    work = doc["mean_seconds"] * doc["instances"] if "mean_seconds" in doc else doc["seconds"]
    return work, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "threads.md"))
    args = ap.parse_args()
    n = cores()
    meter = load_meter()
    t0 = time.perf_counter()
    rows = []
    for name, argv in COMMANDS.items():
        for load_name, spinning in (("idle", 0), (f"{n} cores busy", n)):
            work, wall = {}, {}
            for threads in (1, n):
                with busy(spinning):
                    runs = [run(argv, threads) for _ in range(args.repeats)]
                work[threads] = [w for w, _ in runs]
                wall[threads] = statistics.median(x for _, x in runs)
            med1, medn = statistics.median(work[1]), statistics.median(work[n])
            rows.append(
                [
                    name,
                    load_name,
                    f"{med1:.2f} s ({', '.join(f'{x:.2f}' for x in work[1])}); whole {wall[1]:.2f} s",
                    f"{medn:.2f} s ({', '.join(f'{x:.2f}' for x in work[n])}); whole {wall[n]:.2f} s",
                    f"{medn / med1:.2f}",
                ]
            )
            print(rows[-1], flush=True)
    lines = [
        "# Benchmark: torch threads for the learned commands, idle and under load",
        "",
        f"Command: `python benchmarks/threads.py --repeats {args.repeats}`  ",
        f"Machine: {machine()}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t0:.0f} s; {meter()}  ",
        f"Each cell: the median over {args.repeats} runs of the seconds of the work the command reports in its "
        "JSON (BWAS's search, or the training steps; the runs in brackets), then the median wall clock of the "
        f"whole command (start, imports, model load). `--threads {n}` is torch's own default on this machine "
        f'(every core), which the commands used before they set it; "{n} cores busy" runs one spinning '
        "process per core beside the command.",
        "",
        *markdown_table(["command", "machine", "--threads 1", f"--threads {n}", f"{n} threads / 1 thread"], rows),
        "",
    ]
    write_page(args.out, lines)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
