"""Benchmark of the paper's EA and RL search on the cubical sliding puzzle, beside our exact optimum.

Writes docs/benchmarks/hypercube.md. Usage:

    python benchmarks/hypercube.py --runs 5
    python benchmarks/hypercube.py --runs 150 --instances d5        # the paper's run count
    python benchmarks/hypercube.py --runs 150 --runs-d3d4 50 --workers 2   # cells in 2 processes

For every shipped instance and every k from 1 to d-1: the exact optimum (bidirectional BFS:
length or unsolvable, seconds), then EA and RL (their default settings, the paper's where it gives
them) over ``--runs`` seeded runs (``--runs-d3d4`` for the d3/d4 rows): min/median/max length, success rate and CPU time
(``time.process_time``). The paper's Table 2 (A*), Table 4 (EA, d=5) and Table 5 (RL, d=5) stand
beside them, read from instances/data/hypercube/seed002_instances.json. The script asserts that no
EA or RL length is below the exact optimum. The page is rewritten after every row, so a run
stopped midway keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import (  # noqa: E402
    add_worker_options,
    machine,
    markdown_table,
    open_executor,
    run_instances,
    workers_text,
    write_page,
)
from exact import solvers  # noqa: E402
from exact.puzzles.hypercube import HypercubePuzzle, shipped_instances  # noqa: E402
from learned.hypercube import EASettings, RLSettings, run_many  # noqa: E402

PAPER = instances.path("hypercube-paper")


def paper_results() -> dict:
    """The paper's reported numbers (empty if the shared file is absent)."""
    if not PAPER.is_file():
        return {}
    return json.loads(PAPER.read_text()).get("paper_results", {})


def fmt_triple(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    return " / ".join("-" if v is None else f"{v:g}" for v in x)


def paper_astar(paper: dict, name: str, k: int) -> str:
    """Table 2 for the d=3 levels (matched by level); d=4 rows cannot be matched (see the page)."""
    t2 = paper.get("table2_astar_min_moves", {})
    if name.startswith("d3-level"):
        level = int(name[-1])
        row = t2.get("d3", {}).get(f"k{k}", [])
        return str(row[level]) if level < len(row) else "- (not in Table 2)"
    if name.startswith("d4"):
        return "see below"
    if name == "d5":
        return str(t2.get("d5", "-"))
    return "-"


def summary_cell(s) -> tuple[str, str, str]:
    lengths = f"{s.min} / {s.median:g} / {s.max}" if s.solved else "none"
    return lengths, f"{s.solved}/{s.runs}", f"{s.cpu_seconds:.1f} ({s.cpu_seconds / s.runs:.2f})"


def write_results(args, t_all: float, rows: list[list[str]], paper: dict, partial: str = "") -> None:
    header = [
        "instance",
        "k",
        "exact optimum (s)",
        "paper A* (Table 2)",
        "EA min / med / max",
        "EA solved",
        "EA CPU s (per run)",
        "paper EA (Table 4)",
        "RL min / med / max",
        "RL solved",
        "RL CPU s (per run)",
        "paper RL (Table 5)",
    ]
    t2 = paper.get("table2_astar_min_moves", {}).get("d4_by_level_0_to_4", {})
    d4 = [[f"k={k[1:]}", *("-" if v is None else str(v) for v in vals)] for k, vals in sorted(t2.items())]
    ea, rl = EASettings(), RLSettings()
    text = [
        "# Benchmark: the paper's EA and RL search on the cubical sliding puzzle",
        "",
        f"Command: `python benchmarks/hypercube.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {machine()}, one core per cell; {workers_text(args, 'cells (instance, k, method)')}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        f"Runs per method and row: **{args.runs}** for the d5 rows, **{args.runs_d3d4}** for the d3 and d4 rows",
        f"(the paper: 150 on d5), seeds spawned from `--seed {args.seed}`.",
        f"EA settings (the paper's): population {ea.population}, generations {ea.generations}, Zipf c = {ea.c},",
        f"selection force alpha = {ea.alpha}, elitism {ea.elitism:.0%}; ours: at most {ea.max_length} slides per",
        "agent.",
        f"RL settings: alpha = {rl.alpha}, gamma = {rl.gamma} (the paper's); ours: P = {rl.P:,} configurations",
        f"labelled by the BFS from the target, {rl.episodes} episodes, {rl.max_steps} steps per episode before a",
        "solution.",
        "The readings of what the paper leaves open are in the docstrings of `learned/hypercube/ea.py` and `rl.py`.",
        "",
        "Exact optimum: `exact.hypercube.solve.solve_bibfs` (proven). Every EA and RL length is at least it",
        "(the script asserts it). min / med / max are over the successful runs; CPU time is",
        "`time.process_time()` for all runs (per run in brackets). The paper's columns are its reported",
        "numbers (min / median / max for Tables 4 and 5, the A* length for Table 2), on its machine.",
        "",
        "The d4 rows are three of the paper's five d=4 puzzles, not labelled by level, so the paper's A*",
        "d=4 column (by level 0..4, below) cannot be matched row by row. The d3 rows are the levels 0..3",
        "in order; Table 2 lists levels 0..2.",
        "",
        *markdown_table(header, rows),
        "",
        partial,
        "",
        "Paper Table 2 (A*), d=4, by difficulty level 0..4 (`-`: A* failed):",
        "",
        *markdown_table(["k", "level 0", "level 1", "level 2", "level 3", "level 4"], d4),
        "",
    ]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    write_page(args.out, text)


def cell(seed: int, item: tuple):
    """One cell ``(method, instance name, k, runs)`` (a task: its CPU time is its own). The exact
    optimum (bidirectional BFS) gives ``(length, status, seconds)``; ``ea`` and ``rl`` the
    :func:`run_many` summary of ``runs`` seeded runs."""
    method, name, k, runs = item
    inst = shipped_instances()[name]
    if method == "exact":
        t = time.perf_counter()
        exact = solvers.solve(HypercubePuzzle.from_instance(inst, k), inst.state("start"), method="hypercube")
        return exact.length, exact.status.value, time.perf_counter() - t
    return run_many(method, inst, k, runs=runs, seed=seed)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=150, help="runs per method and row (paper: 150)")
    ap.add_argument("--runs-d3d4", type=int, default=None, help="runs for the d3 and d4 rows (default: --runs)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--instances", default=None, help="comma-separated names (default: every shipped instance)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "hypercube.md"))
    add_worker_options(ap, older="--jobs")
    args = ap.parse_args()

    if args.runs_d3d4 is None:
        args.runs_d3d4 = args.runs
    if min(args.runs, args.runs_d3d4) < 1:
        ap.error("--runs and --runs-d3d4 must be at least 1")
    paper = paper_results()
    t4 = paper.get("table4_ea_min_median_max_d5", {})
    t5 = paper.get("table5_rl_min_median_max_d5", {})
    shipped = shipped_instances()
    names = args.instances.split(",") if args.instances else list(shipped)
    unknown = [n for n in names if n not in shipped]
    if unknown:
        ap.error(f"unknown instance(s) {', '.join(unknown)}; shipped: {', '.join(shipped)}")
    t_all = time.perf_counter()
    cells = [(name, k) for name in names for k in range(1, shipped[name].d)]
    # the biggest puzzles first, so that the workers' last cells are short ones
    order = sorted(cells, key=lambda c: -shipped[c[0]].d)
    items = [
        (m, name, k, args.runs if shipped[name].d >= 5 else args.runs_d3d4)
        for name, k in order
        for m in ("exact", "ea", "rl")
    ]
    done: dict[tuple, object] = {}
    rows: list[list[str]] = []

    def take(i: int, value) -> None:
        done[items[i][:3]] = value
        rows[:] = []
        for name, k in cells:  # page order; the page is rewritten as each cell arrives
            if not all((m, name, k) in done for m in ("exact", "ea", "rl")):
                continue
            (opt, status, secs), ea, rl = (done[m, name, k] for m in ("exact", "ea", "rl"))
            for s in (ea, rl):
                assert opt is not None or s.solved == 0, (name, k, s.method, "solved an unsolvable instance")
                assert opt is None or all(x >= opt for x in s.lengths), (name, k, s.method, s.lengths, opt)
            rows.append(
                [
                    name,
                    str(k),
                    f"{opt if opt is not None else status} ({secs:.2f})",
                    paper_astar(paper, name, k),
                    *summary_cell(ea),
                    fmt_triple(t4.get(f"k{k}")) if name == "d5" else "-",
                    *summary_cell(rl),
                    fmt_triple(t5.get(f"k{k}")) if name == "d5" else "-",
                ]
            )
        if len(done) % 3 == 0:
            print(f"{len(done)} of {len(items)} cells", flush=True)
        write_results(args, t_all, rows, paper, f"(run not finished: {len(rows)} rows so far)")

    with open_executor(args) as ex:
        run_instances(ex, cell, args.seed, items, desc="cells", on_result=take)
    write_results(args, t_all, rows, paper)


if __name__ == "__main__":
    main()
