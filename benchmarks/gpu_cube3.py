"""The device run of the learned 3x3 (issue 46): diffusion training on a GPU, then beam search.

Run on the device machine from the repository root::

    python3 benchmarks/gpu_cube3.py --out $OUT --train-seconds 380 --solve-seconds 100

Trains ``resmlp-gpu`` with the diffusion objective (``python -m learned.train``, bfloat16
autocast, walks made on the GPU) into ``OUT/run`` (checkpointed; run again to resume), then
solves DeepCubeA's cubes in order with the beam (the network on the GPU) until the solve time is
spent, one JSON line per cube in ``OUT/solve.jsonl``: length, optimal length, seconds, nodes.
Everything it did is in ``OUT/gpu.json`` (commands, GPU, states per second).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the package, not benchmarks/learned.py

from exact import registry  # noqa: E402
from learned import train  # noqa: E402
from learned.beam import beam_search, goal_ball  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from learned.weights import load_model  # noqa: E402


def _cubes(path: Path) -> list[tuple[str, int]]:
    """(facelets, optimal QTM length) of each of DeepCubeA's test cubes, in order."""
    with path.open(newline="") as fh:
        return [(r["facelets_URFDLB"], int(r["optimal_qtm"])) for r in csv.DictReader(fh, delimiter="\t")]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train-seconds", type=float, default=380)
    ap.add_argument("--solve-seconds", type=float, default=100)
    ap.add_argument("--batch", type=int, default=32768)
    ap.add_argument("--width", type=int, default=2**18)
    ap.add_argument("--ball", type=int, default=5)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--data", type=Path, default=Path("gpudata/deepcubea_cube3_qtm_1000.tsv"))
    a = ap.parse_args()
    run = a.out / "run"
    argv = [
        "--puzzle",
        "cube3",
        "--objective",
        "diffusion",
        "--preset",
        "resmlp-gpu",
        "--batch",
        str(a.batch),
        "--steps",
        "10000000",
        "--amp",
        "--device",
        a.device,
        "--eval-every",
        "0",
        "--out",
        str(run),
        "--checkpoint-seconds",
        "60",
        "--no-progress",
        "--time-limit",
        str(a.train_seconds),
        "--json",
    ]
    gpu = torch.cuda.get_device_name(0) if a.device == "cuda" else "cpu"
    report = {"gpu": gpu, "torch": torch.__version__, "train_command": argv}
    t = time.perf_counter()
    train.main(argv)
    report["train_wall_s"] = time.perf_counter() - t
    puzzle = registry.get("cube3")
    net, card = load_model(run / "model.safetensors", a.device)
    report["card"] = card
    heur = NetHeuristic(puzzle, net, a.device, chunk=2**20)
    t = time.perf_counter()
    ball = goal_ball(puzzle, a.ball)
    report["ball"] = {"depth": a.ball, "states": len(ball.keys), "seconds": time.perf_counter() - t}
    (a.out / "gpu.json").write_text(json.dumps(report, indent=1))
    stop = time.perf_counter() + a.solve_seconds
    rows = _cubes(a.data)
    with (a.out / "solve.jsonl").open("w") as fh:
        for i, (facelets, optimal) in enumerate(rows):
            if time.perf_counter() > stop:
                break
            start = puzzle.parse_state(facelets)
            t = time.perf_counter()
            r = beam_search(
                puzzle,
                start,
                heur,
                width=a.width,
                max_steps=60,
                ball=ball,
                device=a.device,  # the whole layer on the GPU (learned.beam_torch)
                time_limit=max(1.0, stop - time.perf_counter()),
            )
            row = {"i": i, "status": r.status.value, "length": r.length, "seconds": time.perf_counter() - t,
                   "nodes": r.nodes, "optimal": optimal, "width": a.width}  # fmt: skip
            fh.write(json.dumps(row) + "\n")
            fh.flush()


if __name__ == "__main__":
    np.seterr(over="ignore")
    main()
