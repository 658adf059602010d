"""Benchmark of IDA* with pattern databases on tile sets: Korf's 100, DeepCubeA's 500, the 17
15-puzzle positions at distance 80, Korf & Felner's 50 24-puzzles.

Writes one section of docs/benchmarks/ida.md per configuration (``--section``). Usage:

    python benchmarks/ida.py --heuristics pdb-78,pdb-663,pdb-555,manhattan-lc --repeats 3 \\
        --sets korf100,deepcubea500,fifteen80
    python benchmarks/ida.py --heuristics pdb-6666 --sets korf24 --repeats 1 --time-limit 600 --first 5 \\
        --section korf24

A heuristic (``pdb-<partition>``, ``manhattan`` or ``manhattan-lc``) is run on the sets of its
board. ``--first N`` takes the N shortest instances of a set (easiest first, by optimal length);
``--skip K`` then leaves out the K shortest of those (a long run continued in parts). With
``--time-limit`` an instance may end at the limit; the
table then shows its proven lower bound.

For DeepCubeA's 500 the file carries their PDB solver's nodes and seconds per state: the page
puts our totals beside theirs as a ratio (their machine, not this one).

Each instance is solved ``--repeats`` times; its seconds are the median, its nodes those of any
run (the search is deterministic). Every length is checked against the file's optimal length.
Tables are built (or loaded) first, into ``--pdb-dir`` (default: the user cache).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from datetime import date
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TITLE = "Benchmark: IDA* with pattern databases on the sliding tiles"
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import (  # noqa: E402
    add_section_option,
    add_worker_options,
    machine,
    once,
    open_executor,
    run_instances,
    workers_text,
    write_page,
)
from exact import registry, solvers  # noqa: E402
from exact.pdb import default_dir  # noqa: E402
from exact.pdb.store import load  # noqa: E402
from exact.result import Status  # noqa: E402
from exact.tiles import check_partition  # noqa: E402
from exact.tiles.catalog import PARTITIONS, tile_heuristics, tile_spec  # noqa: E402

SETS = {  # name on the page -> (shipped instance set, board side)
    "korf100": ("korf100", 4),
    "deepcubea500": ("deepcubea-tiles15", 4),
    "fifteen80": ("fifteen80", 4),
    "korf24": ("korf24", 5),
}
PUBLISHED = {"pdb-663": "617,555 nodes, 0.163 s per instance", "pdb-78": "36,710 nodes, 0.034 s per instance"}


class Case(NamedTuple):
    """What every instance's task reads: the board's side, the heuristic and the limits."""

    side: int
    heuristic: str
    pdb_dir: str | None
    time_limit: float | None
    repeats: int


def case_solver(case: Case):
    """The puzzle, its one-board solver and the heuristic's full name, made once per process: the
    first call loads the tables and compiles the kernels on a board one move from the goal, so
    that no instance's seconds carry them."""

    def make():
        p = registry.get(f"tiles{case.side * case.side - 1}")
        limits = solvers.Limits(time=case.time_limit)

        def ida_tiles(board):
            # the registry picks the tiles' kernel (ida*) with this heuristic, mirror lookups on
            return solvers.solve(p, board, method="ida*", heuristic=case.heuristic, pdb_dir=case.pdb_dir, limits=limits)

        one_move = p.goal.copy()
        one_move[[0, 1]] = one_move[[1, 0]]  # the blank (home: cell 0) one step away: runs the kernel
        return p, ida_tiles, ida_tiles(one_move).settings["heuristic"]

    return once(("ida", *case[:4]), make)


def solve_board(case: Case, tiles: str) -> tuple:
    """One board (the file's text) solved ``repeats`` times: status, length, nodes, median
    seconds and lower bound."""
    p, ida_tiles, _ = case_solver(case)
    board = p.parse_state(tiles)
    runs = [ida_tiles(board) for _ in range(case.repeats)]
    r = runs[0]
    return r.status, r.length, r.nodes, statistics.median(x.seconds for x in runs), r.lower_bound


def instance_table(title: str, per: list[tuple], repeats: int) -> str:
    head = f"\n### {title}\n\n| id | length | nodes | seconds (median of {repeats}) |\n|---|---|---|---|\n"
    return head + "\n".join(
        f"| {i} | {n if n is not None else f'limit, lower bound {lb}'} | {nodes:,} | {s:.3f} |"
        for i, n, nodes, s, lb in per
    )


DATA_DIR = ROOT / "docs" / "benchmarks" / "data"
"""Every instance's row (set, heuristic, id, length, nodes, seconds) goes to ``ida_<section>.tsv``
there: data beside the page's section."""


def instance_rows(set_name: str, shown: str, per: list[tuple]) -> list[str]:
    """The TSV rows of one (set, heuristic): length (or the bound a limit left), nodes, seconds."""
    return [
        f"{set_name}\t{shown}\t{i}\t{n if n is not None else f'limit>={lb}'}\t{nodes}\t{s:.4f}"
        for i, n, nodes, s, lb in per
    ]


def write_data(section: str, rows: list[str], repeats: int) -> Path:
    head = f"set\theuristic\tid\tlength\tnodes\tseconds_median_of_{repeats}"
    return write_page(DATA_DIR / f"ida_{section}.tsv", [head, *rows])


def write_results(args, t_all: float, summary: list[str], lines: list[str], partial: str = "") -> None:
    text = [
        "# Benchmark: IDA* with pattern databases on the sliding tiles",
        "",
        f"Command: `python benchmarks/ida.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {machine()}, one core (numba, no threads) per solve; {workers_text(args)}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s; "
        f"tables in {args.pdb_dir or default_dir()}",
        "",
        "Every length found equals the file's optimal length (the script asserts it). Published",
        "figures (Korf & Felner, C on 2004 hardware) are per instance, beside ours as the peer; no",
        "peer program was run on this machine. Totals and means are over the instances solved.",
        "",
        "| set | heuristic | optimal | total | mean per instance | mean nodes | nodes/s | table build | table memory |"
        " peer |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *summary,
        "",
        f"Every instance's length, nodes and seconds: `docs/benchmarks/data/ida_{args.section}.tsv` (one row each).",
        partial,
        "",
    ]
    write_page(args.out, text, section=args.section, title=TITLE)
    if lines:
        write_data(args.section, lines, args.repeats)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--heuristics", default="pdb-663,pdb-555")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--first", type=int, default=None, help="only the N shortest instances of each set")
    ap.add_argument("--skip", type=int, default=0, help="leave out the N shortest of those (run earlier)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per solve (default: none)")
    ap.add_argument("--sets", default="korf100")
    ap.add_argument("--pdb-dir", default=None)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "ida.md"))
    add_section_option(ap)
    add_worker_options(ap)
    args = ap.parse_args()

    t_all = time.perf_counter()
    lines = []
    summary = []
    with open_executor(args) as ex:
        for set_name in args.sets.split(","):
            shipped, side = SETS[set_name]
            rows = list(csv.DictReader(instances.path(shipped).open(), delimiter="\t"))
            if args.first is not None or args.skip:
                rows = sorted(rows, key=lambda r: int(r["optimal_length"]))[args.skip : args.first]
            for name in args.heuristics.split(","):
                if name not in tile_heuristics(side, side):
                    continue
                tables = []  # Manhattan distance needs none
                if name.startswith("pdb-"):
                    # built or loaded here for their metadata on the page (memory-mapped: the solver's
                    # own load below shares the pages)
                    patterns = check_partition(side, side, PARTITIONS[(side, side)][name[4:]])
                    tables = [load(tile_spec(q), args.pdb_dir, progress=False) for q in patterns]
                build = f"{sum(t.meta['build_seconds'] for t in tables):.1f} s" if tables else "none"
                mem = f"{sum(t.data.nbytes for t in tables) / 1e6:.1f} MB" if tables else "none"
                case = Case(side, name, args.pdb_dir, args.time_limit, args.repeats)
                shown = case_solver(case)[2]  # loads the heuristic, compiles the kernels
                per = [None] * len(rows)

                def take(k, out, set_name=set_name, name=name, per=per, rows=rows):
                    per[k] = (rows[k]["id"], *out[1:])
                    print(set_name, name, per[k], flush=True)
                    # the page so far, so that a long run stopped midway still leaves its results
                    done = [x for x in per if x is not None]
                    progress = f"{set_name}, {name}: {len(done)} of {len(rows)} so far (run not finished)"
                    write_results(args, t_all, summary, lines, instance_table(progress, done, args.repeats))

                outs = run_instances(ex, solve_board, case, [r["tiles"] for r in rows], [r["id"] for r in rows],
                                     desc=f"{set_name} {name}", on_result=take)  # fmt: skip
                for row, (status, length, *_) in zip(rows, outs):
                    if status is Status.OPTIMAL:
                        assert length == int(row["optimal_length"]), row["id"]
                    else:
                        assert status is Status.LIMIT and args.time_limit is not None, (row["id"], status)
                solved = [x for x in per if x[1] is not None]
                nodes = [x[2] for x in solved]
                secs = [x[3] for x in solved]
                peer = PUBLISHED.get(name, "-") if set_name == "korf100" else "-"
                if "pdb_seconds" in rows[0] and solved:
                    theirs = sum(float(r["pdb_seconds"]) for r in rows)
                    their_nodes = statistics.mean(float(r["pdb_nodes_generated"]) for r in rows)
                    peer = (
                        f"their PDB solver: {theirs:.1f} s in all, {their_nodes:,.0f} nodes per state; "
                        f"time ratio ours/theirs {sum(secs) / theirs:.2f}"
                    )
                figures = (
                    f"{sum(secs):.1f} s | {statistics.mean(secs):.3f} s | {statistics.mean(nodes):,.0f} | "
                    f"{sum(nodes) / sum(secs) / 1e6:.1f} M/s"
                    if solved
                    else "- | - | - | -"  # none solved: no means
                )
                summary.append(
                    f"| {set_name} | {shown} | {len(solved)}/{len(rows)} | {figures} | {build} | {mem} | {peer} |"
                )
                lines.extend(instance_rows(set_name, shown, per))
    write_results(args, t_all, summary, lines)
    print("\n".join(summary))


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
