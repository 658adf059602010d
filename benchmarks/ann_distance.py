"""ANN-distance against the 7-8 pattern databases as A*'s heuristic on the 15-puzzle.

Writes docs/benchmarks/ann_distance.md. Usage:

    python benchmarks/ann_distance.py --train 20000 --epochs 30 --per-group 10 --time-limit 120 \
        --work runs/ann-distance

1. Training states (seed 1): half uniform among solvable boards, half random walks of 10 to 150
   moves from the goal; labelled with their optimal lengths by IDA* with the 7-8 tables. The
   labelled set is saved in ``--work`` and reused by later runs.
2. The ANN-distance network (preset ``ann-distance``) is fitted to them (``learned.supervised``)
   and saved in ``--work``, with the same reuse.
3. Test states (seed 2, none of them in training) are labelled the same way and grouped by
   optimal length like the paper's Table 1 (its groups are not defined by length; these are):
   easy <= 44, medium 45-50, hard 51-56, extreme >= 57 moves.
4. Each test state is solved by A* (``exact.astar.best_first``, w = 1, one node per step) with
   each heuristic: the 7-8 tables with the mirror lookup (admissible: optimal and proven), and the
   network (not admissible: the first goal taken is returned). Expanded nodes are the paper's
   measure. Both searches run in the same pure-Python A*, so their seconds compare; neither is
   fast (use IDA* for speed).

The labelling (IDA*) and the A* runs are tasks on the executor ``--workers``/``--ray`` name
(default: one after the other in this process); the network goes to the workers as a blob.
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
from exact import registry, solvers  # noqa: E402
from exact.astar import best_first  # noqa: E402
from exact.batch import solve_shared, solve_task  # noqa: E402
from exact.result import Status  # noqa: E402
from exact.tiles import tile_heuristic  # noqa: E402
from learned.remote import blob_file, network_blob  # noqa: E402
from learned.runtime import configure  # noqa: E402
from learned.supervised import FitConfig, fit_distances, load_dataset, save_dataset  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from learned.weights import load_model, save_model  # noqa: E402

GROUPS = (("easy", 0, 44), ("medium", 45, 50), ("hard", 51, 56), ("extreme", 57, 200))
PAPER = {  # their Table 1, expanded nodes: ANN-distance, 7-8 PDB
    "easy": (2517, 4791),
    "medium": (6392, 15645),
    "hard": (15756, 45135),
    "extreme": (384139, 3367519),
}


def sample_states(p, n: int, rng: np.random.Generator) -> np.ndarray:
    """Half uniform boards, half random walks of 10..150 moves (shorter distances)."""
    walks = p.random_walk(n - n // 2, rng.integers(10, 151, size=n - n // 2), rng)
    return np.concatenate([p.random_states(n // 2, rng), walks])


def labelled(p, path: Path, n: int, seed: int, executor, pdb_dir) -> tuple[np.ndarray, np.ndarray, float]:
    """The labelled set at ``path``, made (and timed) if missing: each state's optimal length by
    IDA* with the 7-8 tables (mirror lookups), as tasks on ``executor``."""
    if path.exists():
        s, d = load_dataset(path, p)
        return s, d, float("nan")
    t0 = time.perf_counter()
    states = sample_states(p, n, np.random.default_rng(seed))
    shared = solve_shared(p, "ida*", solvers.Limits(), {"heuristic": "pdb-78", "pdb_dir": pdb_dir})
    results = run_instances(executor, solve_task, shared, list(states), desc="labels")
    assert all(r.status is Status.OPTIMAL for r in results)
    dist = np.array([r.length for r in results], dtype=np.int16)
    secs = time.perf_counter() - t0
    save_dataset(path, p, states, dist, f"benchmarks/ann_distance.py: {n} states, seed {seed}, IDA* pdb-78 labels")
    return states, dist, secs


def astar_task(shared: tuple, item: tuple):
    """A* on one test state with the 7-8 tables (``"pdb"``, admissible) or the network
    (``"ann"``, a blob), each loaded once per process."""
    pdb_dir, time_limit, blob, threads = shared
    state, key = item
    p = registry.get("tiles15")
    if key == "pdb":
        h = once(("pdb-78", pdb_dir), lambda: tile_heuristic("pdb-78", 4, 4, pdb_dir=pdb_dir, progress=False))
    else:
        h = once(("ann", blob.key), lambda: NetHeuristic(p, load_model(blob_file(blob))[0], configure("cpu", threads)))
    return best_first(p, state, h, admissible=key == "pdb", time_limit=time_limit)


def cell(rs: list, optimal: np.ndarray, what: str) -> str:
    """One summary cell over the runs ``rs`` of a group whose optimal lengths are ``optimal``."""
    done = [r for r in rs if r.length is not None]
    if what in ("nodes", "seconds"):
        if not done:
            return "-"
        mean = statistics.mean(getattr(r, what) for r in done)
        return f"{mean:,.0f}" if what == "nodes" else f"{mean:.2f}"
    opt = sum(r.length == d for r, d in zip(rs, optimal, strict=True))
    return f"{len(done)}/{len(rs)} solved, {100 * opt / max(len(rs), 1):.0f}% optimal"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=20000)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--per-group", type=int, default=10)
    ap.add_argument("--candidates", type=int, default=600, help="test states labelled before grouping")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per A* run")
    ap.add_argument("--pdb-dir", default=None)
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "ann-distance")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "ann_distance.md"))
    ap.add_argument("--threads", type=int, default=1, help="torch intra-op threads, set here (default 1)")
    add_worker_options(ap)
    args = ap.parse_args()
    with open_executor(args) as executor:
        run(args, executor)


def run(args, executor) -> None:
    import torch

    torch.set_num_threads(args.threads)  # explicitly: the default (every core) suffers under load
    t_all = time.perf_counter()
    args.work.mkdir(parents=True, exist_ok=True)
    p = registry.get("tiles15")
    train_path = args.work / f"train-{args.train}.safetensors"
    states, dist, label_secs = labelled(p, train_path, args.train, 1, executor, args.pdb_dir)
    model_path = args.work / f"ann-{args.train}-{args.epochs}.safetensors"
    if model_path.exists():
        net, card = load_model(model_path)
    else:
        config = FitConfig(epochs=args.epochs, seed=0)
        net, history = fit_distances(p, states, dist, config)
        card = {"history": history, "train_states": int(len(dist)), "epochs": args.epochs}
        save_model(model_path, net, card)
    last = card["history"][-1]

    test_path = args.work / f"test-{args.candidates}.safetensors"
    test, test_dist, _ = labelled(p, test_path, args.candidates, 2, executor, args.pdb_dir)
    picks = {g: np.flatnonzero((test_dist >= lo) & (test_dist <= hi))[: args.per_group] for g, lo, hi in GROUPS}
    runs = [(g, int(i), key) for g, _, _ in GROUPS for i in picks[g] for key in ("pdb", "ann")]
    shared = (args.pdb_dir, args.time_limit, network_blob(executor, model_path), args.threads)
    done = run_instances(executor, astar_task, shared, [(test[i], key) for _, i, key in runs], desc="A*")
    out = dict(zip(runs, done))
    rows = []
    detail = []
    for group, lo, hi in GROUPS:
        picked = picks[group]
        stats = {"pdb": [], "ann": []}
        for i in picked:
            for key in ("pdb", "ann"):
                r = out[group, int(i), key]
                stats[key].append(r)
                detail.append(
                    f"| {group} | {i} | {test_dist[i]} | {key} | {r.status.value} | "
                    f"{r.length if r.length is not None else '-'} | {r.nodes:,} | {r.seconds:.1f} |"
                )
                print(detail[-1], flush=True)

        ann_paper, pdb_paper = PAPER[group]
        rows.append(
            [
                f"{group} ({lo}-{hi})" if hi < 200 else f"{group} (>= {lo})",
                str(len(picked)),
                cell(stats["ann"], test_dist[picked], "nodes"),
                cell(stats["pdb"], test_dist[picked], "nodes"),
                f"{ann_paper:,} / {pdb_paper:,}",
                cell(stats["ann"], test_dist[picked], "optimal"),
                cell(stats["pdb"], test_dist[picked], "optimal"),
                cell(stats["ann"], test_dist[picked], "seconds"),
                cell(stats["pdb"], test_dist[picked], "seconds"),
            ]
        )
    lines = [
        "# Benchmark: ANN-distance vs the 7-8 pattern databases in A* (15-puzzle)",
        "",
        f"Command: `python benchmarks/ann_distance.py {' '.join(sys.argv[1:])}`  ",
        f"Machine: {machine()}; torch threads {args.threads} (set by the script); {workers_text(args, 'searches')}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        f"Training: {len(dist):,} states (half uniform, half random walks of 10-150 moves), labelled by IDA* "
        f"with the 7-8 tables"
        + (f" in {label_secs:.0f} s" if label_secs == label_secs else " (labels reused from an earlier run)")
        + f"; preset `ann-distance`, {card.get('epochs')} epochs; last epoch: validation MSE "
        f"{last.get('val_mse', float('nan')):.2f}, {100 * last.get('val_exact', float('nan')):.1f}% exact after "
        f"rounding, {100 * last.get('val_over', float('nan')):.1f}% overestimated by more than half a move; "
        f"fit {last['seconds']:.0f} s.",
        "",
        "Groups are by optimal length (the paper's groups are not defined that way; see the script). Nodes "
        "are A*'s expanded nodes, means over the solved runs; seconds likewise. A run that hits the time "
        f"limit ({args.time_limit:.0f} s) counts as not solved. Paper: their Table 1, ANN / PDB.",
        "",
        *markdown_table(
            [
                "group (moves)",
                "states",
                "ANN nodes",
                "7-8 PDB nodes",
                "paper ANN / PDB nodes",
                "ANN",
                "7-8 PDB",
                "ANN s",
                "PDB s",
            ],
            rows,
        ),
        "",
        "## Every run",
        "",
        "| group | test state | optimal | heuristic | status | length | expanded | seconds |",
        "|---|---|---|---|---|---|---|---|",
        *detail,
        "",
    ]
    write_page(args.out, lines)
    print("\n".join(lines[:20]))


if __name__ == "__main__":
    main()
