"""Diffusion, DAVI, and diffusion then DAVI, on the 2x2x2 (exact distances known for every state).

Writes ``docs/benchmarks/diffusion_davi.md``::

    python benchmarks/diffusion_davi.py --steps 300 --tune-steps 60 --states 300 --width 64

Three networks of preset ``resmlp-cpu`` on the 2x2x2 (QTM, all faces), trained in this process
with :func:`learned.davi.train`: diffusion for ``--steps`` steps; the same diffusion network
fine-tuned by DAVI for ``--tune-steps`` more steps (``init_from``); and diffusion for as many
more seconds as the fine-tuning took (the same budget). Each is then the heuristic of a beam of
``--width`` on ``--states`` random states (seed 0) and of greedy descent, scored against the
exact distance (the distance table over all 3,674,160 states): % solved, % optimal, mean gap.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact import registry, solvers  # noqa: E402
from exact.result import Status  # noqa: E402
from learned.beam import beam_search  # noqa: E402
from learned.davi import DaviConfig, train  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from learned.weights import load_model  # noqa: E402


def score(puzzle, model: str, states, dist, width: int) -> list[str]:
    net, card = load_model(model)
    h = NetHeuristic(puzzle, net, "cpu", chunk=2**16)
    rows: list[tuple[int | None, int]] = []
    t = time.perf_counter()
    for s, d in zip(states, dist.tolist()):
        r = beam_search(puzzle, s, h, width=width, max_steps=40)
        rows.append((r.length if r.status is Status.FEASIBLE else None, d))
    sec = (time.perf_counter() - t) / len(states)
    solved = [(a, d) for a, d in rows if a is not None]
    return [
        f"{len(solved) / len(rows):.1%}", f"{sum(a == d for a, d in solved) / len(rows):.1%}",
        f"{float(np.mean([a - d for a, d in solved])):.3f}" if solved else "-", f"{sec:.2f}",  # not numpy-int means
        f"{card['training_seconds']:.0f}", f"{card['states_seen'] / 1e6:.1f}M",
    ]  # fmt: skip


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--tune-steps", type=int, default=60)
    ap.add_argument("--batch", type=int, default=10000)
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--width", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "diffusion_davi.md")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    meter = load_meter()
    p = registry.get("cube2")
    rng = np.random.default_rng(0)
    states = p.random_walk(args.states, 40, rng)
    # the exact distances from the complete table (built once into the user cache)
    dist = np.array([solvers.solve(p, s, method="table-walk", progress=False).length for s in states])
    base = {"puzzle": "cube2", "preset": "resmlp-cpu", "batch": args.batch, "eval_every": 0, "seed": 0}
    work = Path(tempfile.mkdtemp(prefix="diffusion-davi-"))
    diff = train(DaviConfig(objective="diffusion", steps=args.steps, **base), work / "d", progress=False)
    diff["model"] = shutil.copy(diff["model"], work / "diffusion.safetensors")  # "d" trains on below
    tuned = train(DaviConfig(objective="davi", steps=args.tune_steps, init_from=diff["model"], lr=2e-4, **base),
                  work / "t", progress=False)  # fmt: skip
    more = DaviConfig(objective="diffusion", steps=10**9, **base)
    longer = train(more, work / "d", progress=False, time_limit=tuned["seconds"])
    header = ["network", "solved", "optimal", "mean gap", "s per state", "training s", "states seen"]
    rows = [
        ["diffusion", *score(p, diff["model"], states, dist, args.width)],
        ["diffusion then DAVI", *score(p, tuned["model"], states, dist, args.width)],
        ["diffusion, the same extra seconds", *score(p, longer["model"], states, dist, args.width)],
    ]
    command = "python benchmarks/diffusion_davi.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = [
        "# Diffusion, then DAVI? (the 2x2x2)", "",
        f"Command: `{command}`  ",
        f"Machine: {machine()}; torch {torch.__version__} on {args.threads} threads; {meter()}  ",
        f"Date: {date.today()}", "",
        f"Preset `resmlp-cpu`, batch {args.batch:,}. Diffusion: {args.steps} steps. Then DAVI for "
        f"{args.tune_steps} steps from that network (lr 2e-4); and, for the same seconds, diffusion went on "
        "instead (the last row; its 'training s' and 'states seen' include the first run's). Scored by a beam "
        f"of width {args.width} on {args.states} random 2x2x2 states (40-move walks, seed 0; mean optimal "
        f"{dist.mean():.2f}) against the exact distance table. The 'training s' of the DAVI row is its own.", "",
        *markdown_table(header, rows), "",
    ]  # fmt: skip
    write_page(args.out, lines)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
