"""Benchmark of IDA* with pattern databases on 15-puzzle sets: Korf's 100, DeepCubeA's 500.

Writes docs/benchmarks/ida.md. Usage:

    python benchmarks/ida.py --heuristics pdb-663,pdb-555 --repeats 3 --sets korf100,deepcubea500

For DeepCubeA's 500 the file carries their PDB solver's nodes and seconds per state: the page
puts our totals beside theirs as a ratio (their machine, not this one).

Each instance is solved ``--repeats`` times; its seconds are the median, its nodes those of any
run (the search is deterministic). Every length is checked against the file's optimal length.
Tables are built (or loaded) first, into ``--pdb-dir`` (default: the user cache).
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exact import registry  # noqa: E402
from exact.ida import ida_tiles  # noqa: E402
from exact.pdb import check_partition, default_dir, tile_heuristic  # noqa: E402
from exact.pdb.catalog import PARTITIONS, tile_spec  # noqa: E402
from exact.pdb.store import load  # noqa: E402
from exact.result import Status  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "tiles"
SETS = {"korf100": "korf100.tsv", "deepcubea500": "deepcubea_puzzle15_500.tsv"}
PUBLISHED = {"pdb-663": "617,555 nodes, 0.163 s per instance", "pdb-78": "36,710 nodes, 0.034 s per instance"}


def cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        name = next((ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name")), "")
    except OSError:
        name = ""
    return f"{platform.system()} {platform.machine()}, {name or platform.processor()}, {os.cpu_count()} cores"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--heuristics", default="pdb-663,pdb-555")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--first", type=int, default=None, help="only the first N instances of each set")
    ap.add_argument("--sets", default="korf100")
    ap.add_argument("--pdb-dir", default=None)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "ida.md"))
    args = ap.parse_args()
    p = registry.get("tiles15")
    t_all = time.perf_counter()
    lines = []
    summary = []
    for set_name in args.sets.split(","):
        rows = list(csv.DictReader((DATA / SETS[set_name]).open(), delimiter="\t"))[: args.first]
        for name in args.heuristics.split(","):
            patterns = check_partition(4, 4, PARTITIONS[(4, 4)][name[4:]])
            tables = [load(tile_spec(q), args.pdb_dir, progress=False) for q in patterns]
            build = sum(t.meta["build_seconds"] for t in tables)
            mem = sum(t.data.nbytes for t in tables) / 1e6
            h = tile_heuristic(name, 4, 4, pdb_dir=args.pdb_dir, progress=False)
            h(p.goal[None])  # compile the kernels before timing
            ida_tiles(p, p.parse_state(rows[0]["tiles"]), h)
            per = []
            for row in rows:
                board = p.parse_state(row["tiles"])
                runs = [ida_tiles(p, board, h) for _ in range(args.repeats)]
                r = runs[0]
                assert r.status is Status.OPTIMAL and r.length == int(row["optimal_length"]), row["id"]
                per.append((row["id"], r.length, r.nodes, statistics.median(x.seconds for x in runs)))
            nodes = [x[2] for x in per]
            secs = [x[3] for x in per]
            peer = PUBLISHED.get(name, "-") if set_name == "korf100" else "-"
            if "pdb_seconds" in rows[0]:
                theirs = sum(float(r["pdb_seconds"]) for r in rows)
                their_nodes = statistics.mean(float(r["pdb_nodes_generated"]) for r in rows)
                peer = (
                    f"their PDB solver: {theirs:.1f} s in all, {their_nodes:,.0f} nodes per state; "
                    f"time ratio ours/theirs {sum(secs) / theirs:.2f}"
                )
            summary.append(
                f"| {set_name} | {h.name} | {len(per)}/{len(rows)} | {sum(secs):.1f} s | "
                f"{statistics.mean(secs):.3f} s | "
                f"{statistics.mean(nodes):,.0f} | {sum(nodes) / sum(secs) / 1e6:.1f} M/s | {build:.1f} s | "
                f"{mem:.1f} MB | {peer} |"
            )
            lines.append(
                f"\n### {set_name}, {h.name}\n\n| id | length | nodes | seconds (median of {args.repeats}) |"
                "\n|---|---|---|---|"
            )
            lines += [f"| {i} | {n} | {nodes:,} | {s:.3f} |" for i, n, nodes, s in per]
    text = [
        "# Benchmark: IDA* with pattern databases on Korf's 100",
        "",
        f"Command: `python benchmarks/ida.py --heuristics {args.heuristics} --repeats {args.repeats} "
        f"--sets {args.sets}`  ",
        f"Machine: {cpu()}, Python {platform.python_version()}, one core (numba, no threads)  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s; "
        f"tables in {args.pdb_dir or default_dir()}",
        "",
        "Every length equals the file's optimal length (the script asserts it). Published figures",
        "(Korf & Felner, C on 2004 hardware) are per instance, beside ours as the peer; no peer",
        "program was run on this machine.",
        "",
        "| set | heuristic | optimal | total | mean per instance | mean nodes | nodes/s | table build | table memory |"
        " peer |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *summary,
        *lines,
        "",
    ]
    Path(args.out).write_text("\n".join(text))
    print("\n".join(summary))


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
