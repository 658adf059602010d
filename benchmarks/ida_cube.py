"""Benchmark of cube IDA* with Korf's tables on seeded random face-turn scrambles.

Writes one section of docs/benchmarks/ida_cube.md per configuration (``--section``). Usage:

    python benchmarks/ida_cube.py --lengths 10,12,14 --seeds 3 --metrics htm,qtm --time-limit 300

Tables are loaded once (built on first use) before timing; each scramble is solved ``--repeats``
times and the median seconds reported. ``rubiks_optimal`` (Reid's optimal solver, Debian package
``rubiks``, quarter-turn metric only) is run on the same QTM states, as many times, when it is
installed; otherwise the page says so. Its time is to its first optimal solution (as ours), its
start-up (table building) is timed apart, and its lengths must equal ours. Our scrambles run on
the executor ``--workers``/``--ray`` name (default: in this process, one after the other); the
peer then runs alone in this process, one state after the other.
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

from benchmarks.common import (  # noqa: E402
    add_section_option,
    add_worker_options,
    machine,
    once,
    open_executor,
    run_instances,
    worker_flags,
    workers_text,
    write_page,
)
from exact import registry, solvers  # noqa: E402
from exact.cube.peers import ReidOptimal  # noqa: E402
from exact.puzzles.cube import scramble  # noqa: E402


def solve_scramble(shared: tuple, item: tuple) -> tuple:
    """One scramble (metric, length, seed) by cube IDA*: ``repeats`` runs when the first proves
    its optimum, one when it reaches the limit. The tables load (and the kernels compile) once per
    process, before any timing. Returns the scramble's text, its start, the first run's result and
    the median seconds."""
    pdb_dir, time_limit, repeats = shared
    metric, length, seed = item
    p = registry.get("cube3", moves="faces", metric=metric)
    limits = solvers.Limits(time=time_limit)

    def ida_cube(start):
        # the registry picks the cube's kernel (ida*-cube); its tables load once per process
        return solvers.solve(p, start, method="ida*-cube", pdb_dir=pdb_dir, limits=limits)

    once(("ida_cube", metric, pdb_dir), lambda: ida_cube(p.table.apply(p.goal, "R")))
    start, text = scramble(3, length, np.random.default_rng(seed), "faces", metric)
    runs = [ida_cube(start)]
    if runs[0].status.value == "optimal":
        runs += [ida_cube(start) for _ in range(repeats - 1)]
    return text, start, runs[0], statistics.median(x.seconds for x in runs)


def write_results(args, rows, peer, t_all, note="") -> None:
    text = [
        "# Benchmark: cube IDA* with Korf's pattern databases",
        "",
        f"Command: `python benchmarks/ida_cube.py --lengths {args.lengths} --seeds {args.seeds} "
        + (f"--first-seed {args.first_seed} " if args.first_seed else "")
        + f"--metrics {args.metrics} --time-limit {args.time_limit:.0f} --repeats {args.repeats}"
        + f"{worker_flags(args)} --section {args.section}`  ",
        f"Machine: {machine()}, one core per solve; {workers_text(args)}; the peer alone, after ours  ",
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
    write_page(args.out, text, section=args.section, title="Benchmark: cube IDA* with Korf's pattern databases")


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
    add_section_option(ap)
    add_worker_options(ap)
    args = ap.parse_args()

    t_all = time.perf_counter()
    peer = ReidOptimal().start() if ReidOptimal.available() else None
    items = [
        (metric, int(length), seed)
        for metric in args.metrics.split(",")
        for length in args.lengths.split(",")
        for seed in range(args.first_seed, args.first_seed + args.seeds)
    ]
    shared = (args.pdb_dir, args.time_limit, args.repeats)
    with open_executor(args) as ex:
        outs = run_instances(
            ex, solve_scramble, shared, items, desc="scrambles",
            on_result=lambda k, out: print(items[k], out[0], out[2].status.value, flush=True),
        )  # fmt: skip
    rows = []
    # the peer after ours, one state at a time in this process: its times are its own, alone
    for (metric, length, seed), (text, start, r, secs) in zip(items, outs):
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
        write_results(args, rows, peer, t_all, "(run not finished: the rows so far)")
    if peer is not None:
        peer.close()
    write_results(args, rows, peer, t_all)


if __name__ == "__main__":
    main()
