"""Benchmark of the learned Sokoban solver (DAVI cost-to-go, BWAS) on Boxoban levels.

Writes docs/benchmarks/sokoban_learned.md. Usage:

    python benchmarks/sokoban_learned.py --model runs/sokoban/model.safetensors --levels 100
    python benchmarks/sokoban_learned.py --model M --weight 0.8 --batch 100 --time-limit 60

Each level is solved by BWAS (``f = lambda * g + h``, ``N`` nodes a step; DeepCubeA's Sokoban
setting is lambda = 0.8, N = 1) with a time limit, and by the exact A*
(:func:`exact.sokoban.solve_sokoban`), whose proven optimum says how far the learned solution is
from the best. No Sokoban model is shipped (see the page for why); train one with

    python -m learned.train --puzzle sokoban --preset small --steps 3500 --batch 1000 \
        --max-scramble 30 --check-every 100 --out runs/sokoban
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

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
from exact import registry, solvers  # noqa: E402
from exact.puzzles.sokoban import parse_levels  # noqa: E402
from learned.bwas import bwas  # noqa: E402
from learned.remote import network_blob, worker_heuristic  # noqa: E402
from learned.weights import load_model  # noqa: E402

TEST = "boxoban_unfiltered_test_000.txt"
# What the DeepCubeA paper reports on the same 1,000 levels (Agostinelli et al. 2019).
PUBLISHED = "DeepCubeA: 1000/1000 solved, mean 32.6 moves (lambda = 0.8, N = 1, GPUs)"


def solve_level(shared: tuple, index: int) -> tuple:
    """Level ``index`` of the test file by BWAS with the network (a blob, loaded once per
    process), and its proven optimum by the exact A*: the BWAS result and the optimal length."""
    blob, weight, batch, time_limit, threads = shared
    puzzle = registry.get("sokoban")
    heuristic = worker_heuristic(puzzle.spec.to_dict(), "sokoban", blob, "cpu", threads)  # once per process
    level = once(("boxoban", TEST), lambda: parse_levels(instances.path("boxoban-test")))[index]
    best = solvers.solve(puzzle, level, method="sokoban")
    r = bwas(puzzle, puzzle.state_of(level), heuristic, weight=weight, batch=batch, time_limit=time_limit)
    return r, best.length


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True, help="a model.safetensors from python -m learned.train")
    ap.add_argument("--levels", type=int, default=100, help="the first N unfiltered test levels (default 100)")
    ap.add_argument("--weight", type=float, default=0.8, help="lambda (default 0.8, DeepCubeA's)")
    ap.add_argument("--batch", type=int, default=100, help="N, nodes expanded per step (default 100)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per level (default 60)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "sokoban_learned.md"))
    ap.add_argument("--threads", type=int, default=1, help="torch threads per search (default 1)")
    add_worker_options(ap)
    args = ap.parse_args()

    t_all = time.perf_counter()
    load = load_meter()
    card = load_model(args.model)[1]
    n_levels = min(args.levels, len(parse_levels(instances.path("boxoban-test"))))
    with open_executor(args, threads=args.threads) as executor:
        shared = (network_blob(executor, args.model), args.weight, args.batch, args.time_limit, args.threads)
        rows = run_instances(executor, solve_level, shared, list(range(n_levels)), desc="levels")
    solved = [(r, opt) for r, opt in rows if r.status.has_solution]
    n = len(rows)
    table = [
        [
            f"{TEST} (first {n})",
            f"{len(solved)} ({100 * len(solved) / n:.1f}%)",
            f"{statistics.mean(r.length for r, _ in solved):.2f}" if solved else "-",
            f"{statistics.mean(opt for _, opt in solved):.2f}" if solved else "-",
            f"{100 * sum(r.length == opt for r, opt in solved) / len(solved):.1f}%" if solved else "-",
            f"{statistics.mean(r.nodes for r, _ in rows):,.0f}",
            f"{statistics.mean(r.seconds for r, _ in rows):.1f} / {statistics.median(r.seconds for r, _ in rows):.1f}",
        ]
    ]
    training = (
        f"{card.get('preset', '?')} network, {card.get('trained_steps', '?')} DAVI steps, "
        f"{card.get('training_seconds', '?')} s on CPU; data: {card.get('data', '?')}"
    )
    cmd = "python benchmarks/sokoban_learned.py " + " ".join(sys.argv[1:])
    text = [
        "# Benchmark: the learned Sokoban solver (DAVI cost-to-go, BWAS) on Boxoban levels",
        "",
        f"Command: `{cmd.strip()}`  ",
        f"Machine: {machine()}; {workers_text(args, 'levels')}; {load()}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s, one run (the search is",
        "deterministic; its seconds are of that run)  ",
        f"Model: `{args.model.name}`: {training}  ",
        f"Search: BWAS, lambda = {args.weight}, N = {args.batch}, {args.time_limit:g} s per level; optimal",
        "lengths from the exact A* (`exact.sokoban.solve_sokoban`, proven).",
        "",
        *markdown_table(
            [
                "levels",
                f"solved in {args.time_limit:g} s",
                "mean moves (solved)",
                "their optimum (mean)",
                "optimal",
                "nodes (mean)",
                "seconds mean / median",
            ],
            table,
        ),
        "",
        f"Published for the same file (all 1,000 levels): {PUBLISHED}. The exact A* solves all 1,000",
        "move-optimally, mean 31.99 moves, in 0.03 s a level (`docs/benchmarks/sokoban.md`).",
        "",
    ]
    write_page(args.out, text)


if __name__ == "__main__":
    main()
