"""The device run of the learned 3x3 (issue 46): diffusion training on a GPU, then beam search.

Run on the device machine from the repository root::

    python3 benchmarks/gpu_cube3.py --out $OUT --train-seconds 380 --solve-seconds 100

Trains ``resmlp-gpu`` with the diffusion objective (``python -m learned.train``, bfloat16
autocast, walks made on the GPU) into ``OUT/run`` (checkpointed; run again to resume), then
solves DeepCubeA's cubes in order with the beam (the network on the GPU) until the solve time is
spent, one JSON line per cube in ``OUT/solve.jsonl``: length, optimal length, seconds, nodes.
Everything it did is in ``OUT/gpu.json`` (commands, GPU, states per second). ``--init-from`` trains
on from a network (fresh Adam, ``--lr`` decaying by ``--lr-decay`` a step); ``--model`` with no
training searches a given network. Each run's rows go to ``docs/benchmarks/data/gpu_cube3_*.jsonl``
(with its command, GPU, torch and, for a network other than the shipped one, ``network``), from
which ``benchmarks/learned_cube3.py --gpu-only`` writes the page's GPU section.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
import traceback
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


def _train(a, run: Path) -> list[str]:
    """Train ``resmlp-gpu`` into ``run`` for ``a.train_seconds`` (resuming); the command's argv."""
    argv = ["--puzzle", "cube3", "--objective", "diffusion", "--preset", "resmlp-gpu", "--batch", str(a.batch),
            "--steps", "10000000", "--amp", "--device", a.device, "--eval-every", "0", "--out", str(run),
            "--checkpoint-seconds", "60", "--no-progress", "--time-limit", str(a.train_seconds), "--json"]  # fmt: skip
    for flag, value in (("--init-from", a.init_from), ("--lr", a.lr), ("--lr-decay", a.lr_decay)):
        argv += [] if value is None else [flag, str(value)]  # unset: the trainer's own default
    train.main(argv)
    return argv


def _solve(puzzle, heur, ball, rows, width: int, seconds: float, fh, device: str, first: int = 0) -> None:
    """DeepCubeA's cubes in order from ``first`` at ``width`` until ``seconds`` are spent, one JSON
    line each."""
    stop = time.perf_counter() + seconds
    for i, (facelets, optimal) in enumerate(rows):
        if i < first:
            continue
        if time.perf_counter() > stop:
            break
        start = puzzle.parse_state(facelets)
        t = time.perf_counter()
        r = beam_search(puzzle, start, heur, width=width, max_steps=60, ball=ball, device=device,
                        time_limit=max(1.0, stop - time.perf_counter()))  # fmt: skip
        row = {"i": i, "status": r.status.value, "length": r.length, "seconds": time.perf_counter() - t,
               "nodes": r.nodes, "optimal": optimal, "width": width, "extra": r.extra,
               "moves": " ".join(r.moves)}  # fmt: skip
        fh.write(json.dumps(row) + "\n")
        fh.flush()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train-seconds", type=float, default=0, help="0: no training, search --model")
    ap.add_argument("--model", type=Path, default=None, help="search this network (default: OUT/run's)")
    ap.add_argument("--batch", type=int, default=32768)
    ap.add_argument("--init-from", type=Path, default=None, help="train on from this network (fresh Adam)")
    ap.add_argument("--lr", type=float, default=None, help="Adam's learning rate at the first step")
    ap.add_argument("--lr-decay", type=float, default=None, help="factor on the learning rate per step")
    ap.add_argument("--widths", default="262144", help="comma-separated beam widths, searched in turn")
    ap.add_argument("--seconds", default="100", help="comma-separated seconds, one per width")
    ap.add_argument("--first", type=int, default=0, help="the first cube (0-based) of each width")
    ap.add_argument("--ball", type=int, default=6)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--data", type=Path, default=Path("gpudata/deepcubea_cube3_qtm_1000.tsv"))
    a = ap.parse_args()
    widths, seconds = [int(w) for w in a.widths.split(",")], [float(x) for x in a.seconds.split(",")]
    a.out.mkdir(parents=True, exist_ok=True)
    run = a.out / "run"
    gpu = torch.cuda.get_device_name(0) if a.device == "cuda" else "cpu"
    report: dict = {"gpu": gpu, "torch": torch.__version__, "argv": sys.argv}
    if a.train_seconds > 0:
        t = time.perf_counter()
        try:
            report["train_command"] = _train(a, run)
        except Exception as exc:  # the search of the shipped network still uses the lent time
            traceback.print_exc()
            report["train_error"] = repr(exc)
            a.model = a.model or Path("learned/models/cube3.safetensors")
        report["train_wall_s"] = time.perf_counter() - t
    puzzle = registry.get("cube3")
    net, card = load_model(a.model or run / "model.safetensors", a.device)
    report["card"] = card
    heur = NetHeuristic(puzzle, net, a.device, chunk=2**21, precision="bf16" if a.device == "cuda" else "fp32")
    t = time.perf_counter()
    ball = goal_ball(puzzle, a.ball)
    report["ball"] = {"depth": a.ball, "states": len(ball.keys), "seconds": time.perf_counter() - t}
    rows = _cubes(a.data)
    t = time.perf_counter()
    beam_search(puzzle, puzzle.parse_state(rows[0][0]), heur, width=4096, max_steps=60, ball=ball, device=a.device)
    report["warmup_s"] = time.perf_counter() - t  # CUDA context and kernels, not counted below
    (a.out / "gpu.json").write_text(json.dumps(report, indent=1))
    with (a.out / "solve.jsonl").open("a") as fh:
        for width, secs in zip(widths, seconds, strict=True):
            _solve(puzzle, heur, ball, rows, width, secs, fh, a.device, a.first)


if __name__ == "__main__":
    np.seterr(over="ignore")
    main()
