"""Benchmark of the exact Sokoban solver on Boxoban levels: move-optimal and push-optimal runs.

Writes docs/benchmarks/sokoban.md. Usage:

    python benchmarks/sokoban.py                        # 1,000 unfiltered test levels, 200 medium, 200 hard
    python benchmarks/sokoban.py --workers 2 --time-limit 60
    python benchmarks/sokoban.py --limit 50             # the first 50 levels of each file

Every level is solved twice, once move-optimal and once push-optimal, each with ``--time-limit``
seconds (the target: 60 s a level on one core). Seconds are ``SolveResult.seconds``: the level's
analysis, the search and turning the pushes into LURD (not the replay check that
``SolveResult.build`` makes afterwards). Levels run on the executor ``--workers``/``--ray`` name
(default: in this process); each process solves one level untimed first, so numba's compilation
(or loading its cache) is not charged to a level. The page is rewritten
after every file, so a run stopped midway keeps what it measured.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances.sets  # noqa: E402
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
from exact import registry, solvers  # noqa: E402
from exact.puzzles.sokoban import parse_levels  # noqa: E402

FILES = (
    ("boxoban_unfiltered_test_000.txt", 1000),
    ("boxoban_medium_valid_000.txt", 200),
    ("boxoban_hard_000.txt", 200),
)
# Mean solution lengths on the 1,000 unfiltered Boxoban test levels that the DeepCubeA paper reports
# (Agostinelli et al. 2019) for itself and the solvers it compares with; none is proven optimal.
PUBLISHED = (("DeepCubeA", 32.6), ("LevinTS", 39.8), ("LAMA", 51.6))


@cache
def _levels(name: str) -> list:
    return parse_levels(instances.sets.file_path(f"sokoban/{name}"))


def solve_sokoban(level, optimize: str = "moves", time_limit: float | None = None):
    """The registered ``sokoban`` method (A* over macro pushes) on one level."""
    puzzle = registry.get("sokoban", height=level.height, width=level.width)
    return solvers.solve(puzzle, level, method="sokoban", optimize=optimize, limits=solvers.Limits(time=time_limit))


def _warm() -> None:
    level = _levels(FILES[0][0])[0]
    solve_sokoban(level)
    solve_sokoban(level, optimize="pushes")


def solve_one(shared: tuple, item: tuple) -> dict:
    """One level ``(file name, index, metric)`` solved ``repeats`` times (``shared``: the time
    limit and the repeats), after this process's untimed warm-up: what the page needs (median
    seconds)."""
    time_limit, repeats = shared
    name, index, optimize = item
    once("sokoban", _warm)
    runs = [solve_sokoban(_levels(name)[index], optimize=optimize, time_limit=time_limit) for _ in range(repeats)]
    r = runs[0]
    return {
        "index": index,
        "status": r.status.value,
        "moves": r.extra.get("moves"),
        "pushes": r.extra.get("pushes"),
        "nodes": r.nodes,
        "seconds": statistics.median(x.seconds for x in runs),
        "bound": r.lower_bound,
    }


def stats(xs: list[float], fmt: str) -> str:
    if not xs:
        return "-"
    return " / ".join(format(v, fmt) for v in (statistics.mean(xs), statistics.median(xs), max(xs)))


def row(name: str, rows: list[dict], metric: str, time_limit: float) -> list[str]:
    solved = [r for r in rows if r["status"] in ("optimal", "feasible") and r["seconds"] <= time_limit]
    lengths = [r[metric] for r in solved]
    other = "pushes" if metric == "moves" else "moves"
    return [
        name,
        str(len(rows)),
        f"{len(solved)} ({100 * len(solved) / len(rows):.1f}%)",
        f"{statistics.mean(lengths):.2f} / {statistics.median(lengths):g}" if lengths else "-",
        f"{statistics.mean(r[other] for r in solved):.2f}" if solved else "-",
        stats([r["nodes"] for r in rows], ",.0f"),
        stats([r["seconds"] for r in rows], ".3f"),
        ", ".join(f"{r['index']}: {r['status']}" for r in rows if r not in solved) or "none",
    ]


def write_results(
    out: Path,
    argv: list[str],
    tables: dict,
    t_all: float,
    load: str,
    time_limit: float,
    repeats: int,
    note: str,
    where: str = "",
) -> None:
    tail = ["nodes mean / median / max", "seconds mean / median / max", "not solved"]
    head = {
        "moves": [
            "file",
            "levels",
            f"solved in {time_limit:g} s",
            "optimal moves mean / median",
            "their pushes (mean)",
        ],
        "pushes": [
            "file",
            "levels",
            f"solved in {time_limit:g} s",
            "optimal pushes mean / median",
            "their moves (mean)",
        ],
    }
    head = {key: value + tail for key, value in head.items()}
    compare = []
    unf = next((r for r in tables.get("moves", []) if r[0].startswith("boxoban_unfiltered")), None)
    if unf is not None:
        compare = [
            "Mean solution length on the unfiltered test levels beside the numbers the DeepCubeA paper reports",
            "for the same 1,000 levels (Agostinelli et al. 2019; theirs are not proven optimal, ours are):",
            "",
            *markdown_table(
                ["solver", "mean moves", "optimal"],
                [[f"this A* ({unf[1]} levels)", unf[3].split(" / ")[0], "yes (proven)"]]
                + [[who, f"{v}", "no"] for who, v in PUBLISHED],
            ),
            "",
        ]
    text = [
        "# Benchmark: exact Sokoban (A* over macro pushes) on Boxoban levels",
        "",
        f"Command: `{' '.join(['python benchmarks/sokoban.py', *argv])}`  ",
        f"Machine: {machine()}, one core per level; {where}; {load}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        "Data: `instances/data/sokoban/` (Boxoban, 10x10, 4 boxes): the unfiltered test file, and the first",
        "levels of the medium (valid) and hard files. Solver: `exact.sokoban.solve_sokoban` (A* with the",
        "minimum-cost matching of boxes to goals on push distances, plus the player's walk to the next push",
        "in moves mode; dead squares, freeze and 2x2 deadlocks pruned; every solution replayed).",
        f"A level counts as solved when its proven optimum came within {time_limit:g} s. Nodes are expanded nodes;",
        f"seconds are `SolveResult.seconds` (analysis, search and solution string, one core), the median of {repeats}",
        "solves of each level (the search is deterministic: nodes and lengths do not change). In moves mode",
        "the solution has the fewest pushes among the move-optimal ones; in pushes mode moves are not minimised.",
        "Optimality is cross-checked in `tests/test_sokoban.py`: against a plain breadth-first search over every",
        "(boxes, player) state on generated levels and on the first 20 unfiltered test levels.",
        "",
        "## Move-optimal",
        "",
        *markdown_table(head["moves"], tables.get("moves", [])),
        "",
        "## Push-optimal (a separate run)",
        "",
        *markdown_table(head["pushes"], tables.get("pushes", [])),
        "",
        *compare,
        note,
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    write_page(out, text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="levels per file (default: 1000 unfiltered, 200 medium, 200 hard)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per level and metric (default 60)")
    ap.add_argument("--repeats", type=int, default=3, help="solves per level; seconds are their median (default 3)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "sokoban.md"))
    add_worker_options(ap, older="--jobs")
    args = ap.parse_args()

    t_all = time.perf_counter()
    load = load_meter()

    out = Path(args.out)
    tables: dict[str, list[list[str]]] = {"moves": [], "pushes": []}
    where = workers_text(args, "levels")
    with open_executor(args) as ex:
        for name, default_n in FILES:
            n = min(default_n if args.limit is None else args.limit, len(_levels(name)))
            for metric in ("moves", "pushes"):
                t = time.perf_counter()
                items = [(name, i, metric) for i in range(n)]
                rows = run_instances(ex, solve_one, (args.time_limit, args.repeats), items, desc=f"{name} {metric}")
                tables[metric].append(row(name, rows, metric, args.time_limit))
                print(
                    f"{name} {metric}: {time.perf_counter() - t:.1f} s | " + " | ".join(tables[metric][-1]), flush=True
                )
                write_results(
                    out, sys.argv[1:], tables, t_all, load(), args.time_limit, args.repeats, "(run not finished)", where
                )
    write_results(out, sys.argv[1:], tables, t_all, load(), args.time_limit, args.repeats, "", where)


if __name__ == "__main__":
    main()
