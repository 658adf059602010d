"""Benchmark of cube IDA* with Korf's tables on seeded random face-turn scrambles.

Writes docs/benchmarks/ida_cube.md. Usage:

    python benchmarks/ida_cube.py --lengths 10,12,14 --seeds 3 --metrics htm,qtm --time-limit 300

Tables are loaded once (built on first use) before timing; each scramble is solved ``--repeats``
times and the median seconds reported. ``rubiks_optimal`` (Reid's optimal solver, Debian package
``rubiks``, quarter-turn metric only) is run on the same QTM states, as many times, when it is
installed; otherwise the page says so. Its time is to its first optimal solution (as ours), its
start-up (table building) is timed apart, and its lengths must equal ours.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import machine  # noqa: E402
from exact import registry, solvers  # noqa: E402
from exact.cube.peers import ReidOptimal  # noqa: E402
from exact.puzzles.cube import scramble  # noqa: E402


def write_page(args, rows, peer, t_all, note="") -> None:
    text = [
        "# Benchmark: cube IDA* with Korf's pattern databases",
        "",
        f"Command: `python benchmarks/ida_cube.py --lengths {args.lengths} --seeds {args.seeds} "
        + (f"--first-seed {args.first_seed} " if args.first_seed else "")
        + f"--metrics {args.metrics} --time-limit {args.time_limit:.0f} --repeats {args.repeats}`  ",
        f"Machine: {machine()}, one core  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        "Scrambles: `scramble(3, length, numpy.random.default_rng(seed), 'faces', metric)`. Seconds are",
        (f"the median of {args.repeats} runs (one run when a limit was reached)" if args.repeats > 1 else "one run")
        + ", tables loaded once",
        "before timing.",
        "Peer: "
        + (
            f"`rubiks_optimal` (Reid's optimal solver in C, Debian package `rubiks`), QTM only; its "
            f"start-up (building its tables) took {peer.startup_seconds:.1f} s and is not in its times. Its "
            "seconds are the median of as many runs, to its first optimal solution; ratio = ours / its."
            if peer
            else "`rubiks_optimal` (Debian package `rubiks`) is not installed on this machine, so no "
            "side-by-side ratio could be measured."
        ),
        "",
        "| metric | scramble length | seed | scramble | status | length | lower bound | nodes | seconds | M nodes/s "
        "| rubiks_optimal s | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        *rows,
        note,
        "",
    ]
    Path(args.out).write_text("\n".join(text))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lengths", default="10,12,14")
    ap.add_argument("--seeds", type=int, default=3, help="how many seeds per length")
    ap.add_argument("--first-seed", type=int, default=0, help="seeds run are first-seed .. first-seed+seeds-1")
    ap.add_argument("--metrics", default="htm,qtm")
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--pdb-dir", default=None)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "ida_cube.md"))
    args = ap.parse_args()
    t_all = time.perf_counter()
    peer = ReidOptimal().start() if ReidOptimal.available() else None
    rows = []
    for metric in args.metrics.split(","):
        p = registry.get("cube3", moves="faces", metric=metric)
        limits = solvers.Limits(time=args.time_limit)

        def ida_cube(start, p=p, limits=limits):
            # the registry picks the cube's kernel (ida*-cube); its tables load once per process
            return solvers.solve(p, start, method="ida*-cube", pdb_dir=args.pdb_dir, limits=limits)

        ida_cube(p.table.apply(p.goal, "R"))  # build or load the tables, compile the kernels
        for length in (int(x) for x in args.lengths.split(",")):
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                start, text = scramble(3, length, np.random.default_rng(seed), "faces", metric)
                runs = [ida_cube(start)]
                if runs[0].status.value == "optimal":
                    runs += [ida_cube(start) for _ in range(args.repeats - 1)]
                r = runs[0]
                secs = statistics.median(x.seconds for x in runs)
                rate = r.nodes / max(secs, 1e-9) / 1e6
                theirs = "- | -"
                if peer is not None and metric == "qtm":
                    peer_runs = [peer.solve(start, time_limit=args.time_limit) for _ in range(args.repeats)]
                    if all(x.length is not None for x in peer_runs):
                        if r.length is not None:
                            assert peer_runs[0].length == r.length, (text, r.moves, peer_runs[0].moves)
                        their = statistics.median(x.first_seconds for x in peer_runs)
                        ratio = f"{secs / their:.1f}" if r.length is not None else "-"
                        theirs = f"{their:.4f} | {ratio}"
                    else:
                        theirs = "limit | -"
                rows.append(
                    f"| {metric.upper()} | {length} | {seed} | `{text}` | {r.status.value} | "
                    f"{r.length if r.length is not None else '-'} | {r.lower_bound} | {r.nodes:,} | {secs:.2f} | "
                    f"{rate:.2f} | {theirs} |"
                )
                print(rows[-1], flush=True)
                # the page so far, so that a long run stopped midway still leaves its results
                write_page(args, rows, peer, t_all, "(run not finished: the rows so far)")
    if peer is not None:
        peer.close()
    write_page(args, rows, peer, t_all)


if __name__ == "__main__":
    main()
