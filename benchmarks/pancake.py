"""IDA* with the gap heuristic on random pancake stacks, beside Helmert 2010's Table 1.

Writes docs/benchmarks/pancake.md. Usage::

    python benchmarks/pancake.py --sizes 20,30,40,55 --seeds 1000 --repeats 1 --time-limit 600

Stacks: ``PancakePuzzle(n).random_states(1, numpy.random.default_rng(seed))`` for seeds
``0..--seeds-1`` (``--seeds-for N=K`` fewer for a large ``n``); each solved ``--repeats`` times,
seconds the median. For each ``n``: mean optimal length, mean gap h(start), mean nodes
generated, beside Helmert's means over 1000 random stacks
(``instances/data/pancake/helmert2010_gap_ida.tsv``) as a ratio: the same search, so the ratio
checks our IDA* (its node count and tie-breaking), not the hardware.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import (  # noqa: E402
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


def solve_stack(shared: tuple, item: tuple) -> tuple:
    """Stack ``seed`` of ``n`` pancakes solved ``repeats`` times (the kernel compiled first, once
    per process): n, seed, status, length, gap h(start), expanded, generated, median seconds."""
    repeats, time_limit = shared
    n, seed = item
    p = registry.get("pancake", n=n)
    # a stack one flip from sorted: the search's kernel runs (and compiles); the goal itself would not
    one_flip = p.table.apply(p.goal, p.table.names[-1])
    once(("pancake", n), lambda: solvers.solve(p, one_flip, method="ida*", heuristic="gap"))
    start = p.random_states(1, np.random.default_rng(seed))[0]
    limits = solvers.Limits(time=time_limit)
    runs = [solvers.solve(p, start, method="ida*", heuristic="gap", limits=limits) for _ in range(repeats)]
    r = runs[0]
    gap = int(p.heuristics()["gap"]()(start)[0])
    return (n, seed, r.status.value, r.length, gap, r.nodes, r.extra.get("generated"),
            statistics.median(x.seconds for x in runs))  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20,30,40")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--seeds-for", default="", help="N=K,...: K stacks (not --seeds) of N pancakes")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "pancake.md"))
    add_worker_options(ap)
    args = ap.parse_args()

    numba.set_num_threads(1)
    t_all = time.perf_counter()
    fewer = {int(a): int(b) for a, b in (x.split("=") for x in args.seeds_for.split(",") if x)}
    items = [(int(n), seed) for n in args.sizes.split(",") for seed in range(fewer.get(int(n), args.seeds))]
    with open_executor(args) as ex:
        rows = run_instances(
            ex, solve_stack, (args.repeats, args.time_limit), items, desc="stacks",
            on_result=lambda k, row: print(row, flush=True),
        )  # fmt: skip
    helmert = _helmert()
    counts = ", ".join(f"{n}: {k} stacks" for n, k in fewer.items())
    page = [
        "# Benchmark: pancakes by IDA* with the gap heuristic, beside Helmert (2010)",
        "",
        f"Command: `python benchmarks/pancake.py --sizes {args.sizes} --seeds {args.seeds}"
        f"{' --seeds-for ' + args.seeds_for if args.seeds_for else ''} --repeats {args.repeats} --time-limit "
        f"{args.time_limit:.0f}{worker_flags(args)}`  ",
        f"Machine: {machine()}, one thread per solve; {workers_text(args)}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        "Generic IDA* (`exact.ida.generic`) over the pancake move table with the puzzle's declared gap",
        f"heuristic (the plate counts as pancake n + 1), on {args.seeds} random stacks per n"
        f"{' (' + counts + ')' if counts else ''}; seconds per stack the median of {args.repeats} run(s). Helmert's",
        "columns: Table 1 of 'Landmark Heuristics for the Pancake Problem' (SoCS 2010), means over 1000 random",
        "stacks, nodes GENERATED (`instances/data/pancake/helmert2010_gap_ida.tsv`). The ratio is ours over his:",
        "the same algorithm, so it checks the node count, not the machine (his hardware is not stated). Node",
        "counts are heavy-tailed: a mean over fewer stacks than his 1000 is the noisier for it.",
        "",
        "| n | stacks | solved | mean length (Helmert) | mean gap h (Helmert) | mean generated | Helmert's | ratio "
        "| mean expanded | mean seconds |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for n in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == n]
        done = [r for r in mine if r[2] == "optimal"]
        h = helmert.get(n, {})
        gen = statistics.mean(r[6] for r in done) if done else float("nan")
        ratio = f"{gen / h['nodes']:.2f}" if h and done else "-"
        page.append(
            f"| {n} | {len(mine)} | {len(done)} | {statistics.mean(r[3] for r in done):.3f} "
            f"({h.get('length', '-')}) | {statistics.mean(r[4] for r in mine):.3f} ({h.get('gap', '-')}) | "
            f"{gen:,.0f} | {h.get('nodes', 0):,.0f} | {ratio} | {statistics.mean(r[5] for r in done):,.0f} | "
            f"{statistics.mean(r[7] for r in done):.3f} |"
        )
    write_page(args.out, page)


def _helmert() -> dict[int, dict]:
    """Helmert's Table 1 by n: mean optimal length, gap h and nodes generated."""
    path = instances.path("helmert-pancake")
    out = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith(("#", "n\t")):
            n, length, gap, nodes, _ = line.split("\t")
            out[int(n)] = {"length": length, "gap": gap, "nodes": float(nodes)}
    return out


if __name__ == "__main__":
    main()
