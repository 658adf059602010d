"""Benchmark of the exact Lights Out methods on DeepCubeA's 500 7x7 states.

Writes docs/benchmarks/lightsout.md. Usage:

    python benchmarks/lightsout.py                      # gf2 and cpsat on all 500, mip on the first 50
    python benchmarks/lightsout.py --mip-first 500 --repeats 5

Every state is solved ``--repeats`` times per method; its seconds are the median of those runs
(``SolveResult.seconds``: reading the board, building the model and solving; not the replay
check that ``SolveResult.build`` makes afterwards). Each method runs
once untimed first, so one-off costs (imports, the reduced press matrix, which is cached per board
shape) are not charged to the first state. Every optimum is compared with the file's
``optimal_presses``; the page says whether all are equal and puts the means side by side.
``gf2 (batch)`` is one call of :func:`exact.lightsout.min_presses` on all 500 boards at once.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import (  # noqa: E402
    add_worker_options,
    load_meter,
    machine,
    markdown_table,
    once,
    open_executor,
    run_instances,
    workers_text,
    write_page,
)
from exact.lightsout import METHODS, min_presses, solve_lightsout  # noqa: E402
from exact.puzzles.lightsout import LightsOutPuzzle  # noqa: E402
from exact.result import Status  # noqa: E402

DATA = instances.path("deepcubea-lightsout7")
HEADER = [
    "method",
    "solver",
    "states",
    "optimal",
    "mean per state",
    "total",
    "mean optimum",
    "file's mean",
    "all equal",
]


def seconds_text(x: float) -> str:
    """Seconds in the unit that keeps three significant digits readable (``"44.1 us"``, ``"2.01 s"``)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if x >= scale or unit == "us":
            return f"{x / scale:.3g} {unit}"
    raise AssertionError("unreachable")


def read_states() -> tuple[list[str], np.ndarray]:
    """The lights strings and the file's optimal press counts, in file order."""
    with DATA.open(newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [r["lights_rowmajor_7x7"] for r in rows], np.array([int(r["optimal_presses"]) for r in rows])


def solve_board(shared: tuple, board: str) -> tuple:
    """One board by method ``name`` (``shared``: name, board side, repeats), after this process's
    untimed first solve (imports and cached setup): solver, whether proven optimal, presses (-1:
    none) and the median seconds."""
    name, side, repeats = shared
    puzzle = once(("lightsout", side), lambda: LightsOutPuzzle(side))
    once(("lightsout", side, name), lambda: solve_lightsout(puzzle, "0" * side * side, method=name))
    runs = [solve_lightsout(puzzle, board, method=name) for _ in range(repeats)]
    r = runs[0]
    length = r.length if r.length is not None else -1
    return (
        f"{r.solver} {r.solver_version}",
        r.status is Status.OPTIMAL,
        length,
        statistics.median(x.seconds for x in runs),
    )


def run_method(executor, name: str, lights: list[str], known: np.ndarray, repeats: int) -> list[str]:
    """One table row: every state solved ``repeats`` times by method ``name`` (tasks on ``executor``)."""

    outs = run_instances(executor, solve_board, (name, 7, repeats), lights, desc=name)
    solver = outs[-1][0]
    optimal = sum(o[1] for o in outs)
    lengths = [o[2] for o in outs]
    seconds = [o[3] for o in outs]
    lengths_a = np.array(lengths)
    return [
        name,
        solver,
        str(len(lights)),
        f"{optimal}/{len(lights)}",
        seconds_text(statistics.mean(seconds)),
        seconds_text(sum(seconds)),
        f"{lengths_a.mean():.2f}",
        f"{known[: len(lights)].mean():.2f}",
        "yes" if np.array_equal(lengths_a, known[: len(lights)]) else "no",
    ]


def run_batch(lights: list[str], known: np.ndarray, repeats: int) -> list[str]:
    """One table row: all boards in one vectorised call."""
    boards = np.array([[c == "1" for c in s] for s in lights])
    min_presses(7, 7, boards[:1])  # untimed: the reduced press matrix
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        presses, ok = min_presses(7, 7, boards)
        times.append(time.perf_counter() - t0)
    lengths = np.where(ok, presses.sum(axis=1), -1)
    total = statistics.median(times)
    return [
        "gf2 (batch)",
        f"numpy {np.__version__}",
        str(len(lights)),
        f"{int(ok.sum())}/{len(lights)}",
        seconds_text(total / len(lights)),
        seconds_text(total),
        f"{lengths.mean():.2f}",
        f"{known.mean():.2f}",
        "yes" if np.array_equal(lengths, known) else "no",
    ]


def write_results(
    out: Path, argv: list[str], rows: list[list[str]], repeats: int, t_all: float, load: str, note: str = ""
) -> None:
    text = [
        "# Benchmark: exact Lights Out solvers on DeepCubeA's 500 7x7 states",
        "",
        f"Command: `{' '.join(['python benchmarks/lightsout.py', *argv])}`  ",
        f"Machine: {machine()}, one thread per solver; {load}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        f"Data: `instances/data/lightsout/deepcubea_lightsout7_500.tsv` (its optimal presses average "
        "24.26 over the 500). Per state: the median of "
        f"{repeats} runs of the solve (`SolveResult.seconds`: reading the board, building the model and "
        "solving); the table gives the mean of those medians over the states and their sum.",
        "A method that ran on the first states only is compared with the file's mean over the same states.",
        "7x7 is a nonsingular board (nullity 0), so gf2 is one matrix-vector product over GF(2) per board;",
        "the MIP (HiGHS) meets the parity constraints by branch and bound over the integer slacks.",
        "",
        *markdown_table(HEADER, rows),
        "",
        note,
    ]
    write_page(out, text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated (default: all)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per state; seconds are the median (default 3)")
    ap.add_argument("--mip-first", type=int, default=50, help="MIP on the first N states only (default 50)")
    ap.add_argument("--cpsat-first", type=int, default=500, help="CP-SAT on the first N states only (default 500)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "lightsout.md"))
    add_worker_options(ap)
    args = ap.parse_args()
    if args.repeats < 3:
        ap.error("--repeats must be at least 3 (the page reports medians)")
    if not DATA.exists():
        sys.exit(f"{DATA} is not present: the shipped sets are in instances/data")
    t_all = time.perf_counter()
    load = load_meter()

    lights, known = read_states()
    first = {"mip": args.mip_first, "cpsat": args.cpsat_first}
    rows: list[list[str]] = []
    out = Path(args.out)
    where = workers_text(args, "states")
    with open_executor(args) as executor:
        for name in args.methods.split(","):
            n = first.get(name, len(lights))
            rows.append(run_method(executor, name, lights[:n], known, args.repeats))
            print(" | ".join(rows[-1]), flush=True)
            if name == "gf2":
                rows.append(run_batch(lights, known, args.repeats))  # one call in this process
                print(" | ".join(rows[-1]), flush=True)
            # the page so far, so that a long run stopped midway keeps its results
            write_results(out, sys.argv[1:], rows, args.repeats, t_all, f"{where}; {load()}", "(run not finished)")
    write_results(out, sys.argv[1:], rows, args.repeats, t_all, f"{where}; {load()}")


if __name__ == "__main__":
    main()
