"""Measure a "cube-and-conquer" split of the tight MIP: fix the first moves, solve each piece.

Writes docs/benchmarks/mip_split.md. Usage:

    python benchmarks/mip_split.py            # the suite of the page (about 10 minutes)

For a 3x3 scramble (seeded, as ``benchmarks/mip.py`` makes them) the tight model of horizon h is
built once with ``sum y = h`` (exactly h moves, the deepening form), written as MPS, and handed
to HiGHS once per prefix: the prefix's moves ``y[m, t] = 1`` for ``t < depth`` (prefixes that the
move rules forbid are left out). Each piece runs single-threaded with interior point for its
LPs, the root heuristics RINS, RENS, reduced-cost and feasibility jump off (they spent 50 of
60 s in one measured piece), and a time limit. This is a measurement of an idea, not a solver:
an infeasibility claim of HiGHS with presolve is not confirmed here (``solve_mip`` confirms
every one, see ``docs/mip.md``); the rows with presolve off say what confirming costs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import highspy
import numpy as np
import pyomo.environ as pyo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import (  # noqa: E402
    add_worker_options,
    machine,
    markdown_table,
    once,
    open_executor,
    run_instances,
    workers_text,
    write_page,
)
from exact import registry  # noqa: E402
from exact.executor import InProcess  # noqa: E402
from exact.mip.build import build_mip  # noqa: E402
from exact.puzzles.cube import scramble  # noqa: E402
from exact.timeindexed import move_rules, prepare  # noqa: E402

# (move set, metric, scramble length, seed, horizon h, prefix depth, presolve, limit s, sample, stop at feasible)
SUITE = [
    ("layers", "qtm", 8, 0, 6, 0, "on", 120, None, False),
    ("layers", "qtm", 8, 0, 6, 1, "on", 120, None, False),
    ("layers", "qtm", 8, 0, 7, 1, "on", 60, 2, False),
    ("layers", "qtm", 8, 0, 7, 2, "on", 60, None, False),
    ("layers", "qtm", 8, 0, 7, 2, "off", 60, 10, False),
    ("layers", "qtm", 8, 0, 8, 2, "on", 60, 3, False),
    ("faces", "qtm", 8, 0, 6, 1, "on", 60, None, False),
    ("faces", "qtm", 8, 0, 8, 2, "on", 60, None, True),
]

OPTIONS = {
    "mip_lp_solver": "ipm",
    "threads": 1,
    "mip_heuristic_run_rins": False,
    "mip_heuristic_run_rens": False,
    "mip_heuristic_run_root_reduced_cost": False,
    "mip_heuristic_run_feasibility_jump": False,
}


def _read(blob) -> tuple:
    """The model of ``blob`` (MPS bytes) as a HiGHS LP and its column index by name, once per process."""

    def read():
        with tempfile.TemporaryDirectory() as tmp:
            path = f"{tmp}/model.mps"
            Path(path).write_bytes(blob.get())
            base = highspy.Highs()
            base.setOptionValue("output_flag", False)
            base.readModel(path)
        lp = base.getLp()
        return lp, {name: i for i, name in enumerate(lp.col_names_)}

    return once(("mip_split", blob.key), read)


def solve_piece(shared: tuple, prefix: tuple) -> tuple[str, float]:
    """One piece: the model with the prefix's moves fixed, solved by HiGHS with :data:`OPTIONS`;
    its status and seconds."""
    blob, presolve, limit = shared
    lp, col = _read(blob)
    h_ = highspy.Highs()
    h_.setOptionValue("output_flag", False)
    h_.passModel(lp)
    for key, value in {**OPTIONS, "presolve": presolve, "time_limit": float(limit)}.items():
        h_.setOptionValue(key, value)
    for t, m in enumerate(prefix):
        h_.changeColBounds(col[f"y({m}_{t})"], 1.0, 1.0)
    t1 = time.perf_counter()
    h_.run()
    seconds = time.perf_counter() - t1
    status = {
        highspy.HighsModelStatus.kOptimal: "feasible",
        highspy.HighsModelStatus.kInfeasible: "infeasible",
        highspy.HighsModelStatus.kTimeLimit: "limit",
    }.get(h_.getModelStatus(), str(h_.getModelStatus()))
    return status, seconds


def run(executor, moves, metric, length, seed, h, depth, presolve, limit, sample, stop) -> dict:

    puzzle = registry.get("cube3", moves=moves, metric=metric)
    start, _ = scramble(3, length, np.random.default_rng(seed), moves, metric)
    problem = prepare(puzzle, start, True)
    table = problem.table
    t0 = time.perf_counter()
    model = build_mip(table, problem.start, problem.goal, h, "tight", problem.num_labels)
    model.exact = pyo.Constraint(expr=sum(model.y[k, t] for k in range(table.num_moves) for t in range(h)) == h)
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/model.mps"
        model.write(path, io_options={"symbolic_solver_labels": True})
        mps = Path(path).read_bytes()
    build = time.perf_counter() - t0
    rules = set(move_rules(table).pairs)
    prefixes = [()]
    for _ in range(depth):
        prefixes = [p + (m,) for p in prefixes for m in range(table.num_moves) if not p or (p[-1], m) not in rules]
    total = len(prefixes)
    if sample is not None:
        pick = np.random.default_rng(1).choice(total, size=sample, replace=False)
        prefixes = [prefixes[i] for i in sorted(pick)]
    # a row that stops at its first feasible piece runs its pieces in order, here
    where = InProcess() if stop else executor
    shared = (where.blob(mps), presolve, limit)
    seconds, statuses = [], []

    def take(k: int, value) -> None:
        print(prefixes[k], value[0], f"{value[1]:.2f}", flush=True)

    if stop:
        for prefix in prefixes:
            status, secs = solve_piece(shared, prefix)
            take(len(statuses), (status, secs))
            statuses.append(status)
            seconds.append(secs)
            if status == "feasible":
                break
    else:
        done = run_instances(where, solve_piece, shared, prefixes, desc="pieces", on_result=take, progress=False)
        statuses = [x[0] for x in done]
        seconds = [x[1] for x in done]
    counts = {s: statuses.count(s) for s in sorted(set(statuses))}
    return {
        "case": f"{moves} {metric}, {length}-move scramble, seed {seed}",
        "h": h,
        "depth": depth,
        "presolve": presolve,
        "pieces": f"{len(seconds)} of {total}"
        + (" (sample)" if sample is not None else "")
        + (" (stopped at the first feasible)" if stop and "feasible" in counts else ""),
        "statuses": ", ".join(f"{n} {s}" for s, n in counts.items()),
        "median": statistics.median(seconds),
        "max": max(seconds),
        "total": sum(seconds),
        "build": build,
        "limit": limit,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "mip_split.md"))
    ap.add_argument("--cases", help="only these rows of the suite, e.g. 0,1 (default: all)")
    add_worker_options(ap)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows = []
    suite = [SUITE[int(i)] for i in args.cases.split(",")] if args.cases else SUITE
    with open_executor(args) as executor:
        rows = [run_row(executor, case) for case in suite]
    write_results(args, argv, rows, t0)
    return 0


def run_row(executor, case) -> list[str]:
    r = run(executor, *case)
    row = [
        r["case"],
        str(r["h"]),
        str(r["depth"]),
        r["presolve"],
        f"{r['limit']} s",
        r["pieces"],
        r["statuses"],
        f"{r['median']:.2f} s",
        f"{r['max']:.2f} s",
        f"{r['total']:.1f} s",
        f"{r['build']:.1f} s",
    ]
    print(row, flush=True)
    return row


def write_results(args, argv, rows, t0) -> None:
    argv = sys.argv[1:] if argv is None else argv
    cmd = "python benchmarks/mip_split.py" + (" " + " ".join(argv) if argv else "")
    lines = [
        "# Benchmark: splitting the tight MIP on its first moves (cube-and-conquer)",
        "",
        f"Command: `{cmd}`  ",
        f"Machine: {machine()}; {workers_text(args, 'pieces')} (a row that stops at its first feasible piece: in "
        "this process, in order)  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t0:.0f} s; one run of each row",
        "",
        "Each row: the tight model with exactly h moves, one HiGHS run per prefix of `depth` fixed",
        "moves (see the script's docstring for the settings). `limit`: the time limit of each piece.",
        'What it shows and what it means for the solver is in `docs/mip.md` (section "Splitting on',
        'the first moves").',
        "",
        *markdown_table(
            ["case", "h", "depth", "presolve", "limit", "pieces run", "statuses", "median", "max", "sum", "build"],
            rows,
        ),
    ]
    write_page(args.out, lines)
    print("wrote", args.out)


if __name__ == "__main__":
    sys.exit(main())
