"""Benchmark of the learned solver: BWAS with a trained cost-to-go against known optimal lengths.

Writes docs/benchmarks/learned.md. Usage:

    python benchmarks/learned.py --sets cube2:1000,tiles8:1000 --weight 0.6 --batch 100
    python benchmarks/learned.py --sets deepcubea15 --model runs/tiles15/model.safetensors

Sets: ``cube2:N`` and ``tiles8:N`` are N random states (seed 0; the 2x2 from random walks of 100
moves, the 8-puzzle uniform among solvable boards) whose optimal lengths come from complete
distance tables (the 2x2 table walk, BFS on the 8-puzzle); ``deepcubea15`` is DeepCubeA's 500
15-puzzle states and ``deepcubea3`` its 1,000 3x3 cubes (quarter-turn metric), with the optimal
lengths of the files (``deepcubea15:N``, ``deepcubea3:N``: the first N); ``cube3-walkK:N`` are N
random walks of K quarter turns (seed 0; K in 8, 10, ..., 16) whose optimal lengths our IDA*
with Korf's tables proves (built in the user cache on first use). Models
are the shipped ones unless ``--model`` names one (for every set of the run). Each set is run
``--repeats`` times (the search is deterministic; the seconds are the median). The states are
``learned.evaluate``'s tasks on the executor ``--workers``/``--ray`` name (default: this process).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances.sets  # noqa: E402
from benchmarks.common import (  # noqa: E402
    add_worker_options,
    machine,
    markdown_table,
    open_executor,
    run_instances,
    workers_text,
    write_page,
)
from exact import registry, solvers  # noqa: E402
from exact.bfs import distance_table  # noqa: E402
from exact.puzzles.tiles import TilesSpace  # noqa: E402
from exact.result import Status  # noqa: E402
from instances.files import Instance, read_instances  # noqa: E402
from learned.evaluation import EvalShared, Evaluation, bwas_task  # noqa: E402
from learned.models import load  # noqa: E402
from learned.remote import network_blob  # noqa: E402
from learned.weights import load_model  # noqa: E402

PUBLISHED = {
    "deepcubea15": "DeepCubeA: 100% solved, 99.4% optimal (their Table 1)",
    "deepcubea3": "DeepCubeA: 100% solved, 60.3% optimal, mean length 21.50 (their Table 1)",
}


def cube2_optimum(p, state: np.ndarray) -> int:
    """The optimal length, read off the 2x2's complete distance table."""
    return solvers.solve(p, state, method="table-walk").length


def tiles8_set(n: int) -> tuple[str, list[Instance]]:
    p = registry.get("tiles8")
    space = TilesSpace(3, 3)
    dist = distance_table(space, p.table, p.goal)
    states = p.random_states(n, np.random.default_rng(0))
    return "tiles8", [
        Instance(str(i), p.format_state(s), int(dist[space.rank(s[None])[0]])) for i, s in enumerate(states)
    ]


def deepcubea(puzzle_name: str, file: str):
    """A set of DeepCubeA's test states, with the optimal lengths of its file; ``:N``, the first N."""

    def make(n: int) -> tuple[str, list[Instance]]:
        items = read_instances(instances.sets.file_path(file))
        return puzzle_name, items[:n] if n else items

    return make


def cube3_optimum(p, state: np.ndarray) -> int | None:
    """The optimal QTM length by IDA* with Korf's tables (user cache; built on first use), or None
    when 300 s do not prove it."""
    r = solvers.solve(p, state, method="ida*-cube", limits=solvers.Limits(time=300))
    return r.length if r.status is Status.OPTIMAL else None


def walks(puzzle_name: str, k: int, optimum=None):
    """N random walks of ``k`` moves (seed 0; a walk may undo its own moves), labelled by
    ``optimum(puzzle, state)`` (``None``: unlabelled)."""

    def make(n: int) -> tuple[str, list[Instance]]:
        p = registry.get(puzzle_name)
        states = p.random_walk(n, k, np.random.default_rng(0))
        return puzzle_name, [
            Instance(str(i), p.format_state(s), None if optimum is None else optimum(p, s))
            for i, s in enumerate(states)
        ]

    return make


SETS = {
    "cube2": walks("cube2", 100, cube2_optimum),  # 100 moves: as good as uniform on the 2x2
    "tiles8": tiles8_set,
    "deepcubea15": deepcubea("tiles15", "tiles/deepcubea_puzzle15_500.tsv"),
    "deepcubea3": deepcubea("cube3", "cube/deepcubea_cube3_qtm_1000.tsv"),
    **{f"cube3-walk{k}": walks("cube3", k, cube3_optimum) for k in (8, 10, 12, 14, 16)},
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sets", default="cube2:1000,tiles8:1000")
    ap.add_argument("--model", type=Path, help="model file for every set (default: the shipped ones)")
    ap.add_argument("--weight", type=float, default=0.6)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time-limit", type=float, help="seconds per search; a search that hits it is not solved")
    ap.add_argument("--node-limit", "--max-nodes", dest="max_nodes", type=int,
                    help="expanded nodes per search; likewise (--max-nodes: its older name)")  # fmt: skip
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "learned.md"))
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads, set here (default 1)")
    add_worker_options(ap)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)  # explicitly: the default (every core) suffers under load
    rows = []
    t_all = time.perf_counter()
    with open_executor(args) as executor:
        for item in args.sets.split(","):
            rows.append(run_set(args, executor, item))
            print(rows[-1], flush=True)
    write_results(args, rows, t_all)


def run_set(args, executor, item: str) -> list[str]:
    """One set (``name:N``) on ``executor``, ``--repeats`` times: its row of the page."""
    name, _, n = item.partition(":")
    puzzle_name, instances = SETS[name](int(n or 0))
    p = registry.get(puzzle_name)
    card = (load_model(args.model) if args.model else load(puzzle_name))[1]
    settings = {"weight": args.weight, "batch": args.batch, "max_nodes": args.max_nodes,
                "time_limit": args.time_limit}  # fmt: skip
    shared = EvalShared(p.spec.to_dict(), puzzle_name, network_blob(executor, args.model), "cpu", args.threads,
                        settings)  # fmt: skip
    states = [p.parse_state(x.text) for x in instances]
    ids = [x.id for x in instances]
    runs = [
        Evaluation(
            run_instances(executor, bwas_task, shared, states, ids, desc=name, progress=False),
            [x.optimal for x in instances],
            ids,
        )  # fmt: skip
        for _ in range(args.repeats)
    ]
    s = runs[0].summary()
    secs = statistics.median(sum(r.seconds for r in ev.results) for ev in runs)
    return [
        f"{name} ({len(instances)})",
        f"{card.get('preset', '?')}, {card.get('trained_steps', '?')} steps, {card.get('training_seconds', '?')} s",
        f"{100 * s['solved_share']:.1f}%",
        f"{100 * s['optimal_share']:.1f}%" if s["optimal_share"] is not None else "-",
        f"{s['mean_length']:.2f}" if s["mean_length"] is not None else "-",
        f"{s['mean_gap']:.3f}" if s["mean_gap"] is not None else "-",
        f"{s['mean_nodes']:,.0f}",
        f"{secs:.1f} s ({secs / len(instances):.3f} s each)",
        PUBLISHED.get(name, "-"),
    ]


def write_results(args, rows: list[list[str]], t_all: float) -> None:
    cmd = "python benchmarks/learned.py " + " ".join(sys.argv[1:])
    lines = [
        "# Benchmark: the learned solver (DAVI-trained cost-to-go, BWAS)",
        "",
        f"Command: `{cmd.strip()}`  ",
        f"Machine: {machine()}; torch threads {args.threads} (set by the script); {workers_text(args, 'states')}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s  ",
        f"Settings: BWAS lambda = {args.weight}, N = {args.batch}; limits per search: "
        f"{args.time_limit or 'none'} s, {args.max_nodes or 'no'} node cap; "
        f"seconds are the median of {args.repeats} runs.",
        "",
        "The optimal share is of the solved states with a known optimum (solutions whose length equals",
        "it); the mean gap likewise. Mean nodes are over all states, solved or not. A learned solution is",
        "never claimed optimal by the solver itself.",
        "",
        *markdown_table(
            ["set", "model", "solved", "optimal", "mean length", "mean gap", "mean nodes", "time", "published"], rows
        ),
        "",
    ]
    write_page(args.out, lines)


if __name__ == "__main__":
    main()
