"""IDA* with the gap heuristic on random pancake stacks (Helmert 2010's setting).

Writes docs/benchmarks/pancake.md. Usage::

    python benchmarks/pancake.py --sizes 20,30,40 --seeds 5 --repeats 3 --time-limit 60

Stacks: ``PancakePuzzle(n).random_states(1, numpy.random.default_rng(seed))``; each solved
``--repeats`` times, seconds the median; nodes are expanded nodes (``extra["generated"]``
generated). Helmert's published node counts are not in ../shared/data, so no ratio is given.
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

from benchmarks.common import (  # noqa: E402
    add_worker_options,
    machine,
    once,
    open_executor,
    run_instances,
    worker_flags,
    workers_text,
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
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "pancake.md"))
    add_worker_options(ap)
    args = ap.parse_args()
    import benchmarks.pancake as this  # the tasks by an importable name (this file runs as __main__)

    numba.set_num_threads(1)
    t_all = time.perf_counter()
    items = [(int(n), seed) for n in args.sizes.split(",") for seed in range(args.seeds)]
    with open_executor(args) as ex:
        rows = run_instances(
            ex, this.solve_stack, (args.repeats, args.time_limit), items, desc="stacks",
            on_result=lambda k, row: print(row, flush=True),
        )  # fmt: skip
    page = [
        "# Benchmark: pancakes by IDA* with the gap heuristic",
        "",
        f"Command: `python benchmarks/pancake.py --sizes {args.sizes} --seeds {args.seeds} --repeats "
        f"{args.repeats} --time-limit {args.time_limit:.0f}{worker_flags(args)}`  ",
        f"Machine: {machine()}, one thread per solve; {workers_text(args)}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        "Generic IDA* (`exact.ida.generic`) over the pancake move table with the puzzle's declared gap",
        f"heuristic; seconds the median of {args.repeats} runs. Helmert (2010) reports node counts for",
        "this setting; they are not in ../shared/data, so no side-by-side ratio is given here.",
        "",
        "| n | seed | status | length | gap h(start) | expanded | generated | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    page += [
        f"| {n} | {s} | {st} | {ln} | {g} | {e:,} | {gen:,} | {sec:.3f} |" for n, s, st, ln, g, e, gen, sec in rows
    ]
    Path(args.out).write_text("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
