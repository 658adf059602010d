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

from benchmarks.common import machine  # noqa: E402
from exact import registry, solvers  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20,30,40")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    args = ap.parse_args()
    numba.set_num_threads(1)
    t_all = time.perf_counter()
    rows = []
    for n in (int(x) for x in args.sizes.split(",")):
        p = registry.get("pancake", n=n)
        solvers.solve(p, p.goal, method="ida*", heuristic="gap")  # compile
        for seed in range(args.seeds):
            start = p.random_states(1, np.random.default_rng(seed))[0]
            runs = [
                solvers.solve(p, start, method="ida*", heuristic="gap", limits=solvers.Limits(time=args.time_limit))
                for _ in range(args.repeats)
            ]
            r = runs[0]
            gap = int(p.heuristics()["gap"]()(start)[0])
            rows.append((n, seed, r.status.value, r.length, gap, r.nodes, r.extra.get("generated"),
                         statistics.median(x.seconds for x in runs)))  # fmt: skip
            print(rows[-1], flush=True)
    page = [
        "# Benchmark: pancakes by IDA* with the gap heuristic",
        "",
        f"Command: `python benchmarks/pancake.py --sizes {args.sizes} --seeds {args.seeds} --repeats "
        f"{args.repeats} --time-limit {args.time_limit:.0f}`  ",
        f"Machine: {machine()}, one thread  ",
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
    (ROOT / "docs/benchmarks/pancake.md").write_text("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
