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
from learned.adam import export_adam  # noqa: E402
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
    for flag, value in (("--init-from", a.init_from), ("--init-optimizer", a.init_optimizer), ("--lr", a.lr),
                        ("--lr-decay", a.lr_decay)):  # fmt: skip
        argv += [] if value is None else [flag, str(value)]  # unset: the trainer's own default
    train.main(argv)
    return argv


def _chain(run: Path) -> dict:
    """Leave in ``run`` what the next run trains on from, each file under the 16 MiB a lent
    machine returns: the network and Adam's moments (the 4x larger checkpoint goes)."""
    export_adam(run / "checkpoint.safetensors", run)
    for extra in ("checkpoint.safetensors", ".lock"):
        (run / extra).unlink(missing_ok=True)
    sizes = {f.name: f.stat().st_size for f in sorted(run.iterdir())}
    if max(sizes.values()) >= 16 * 2**20:
        raise RuntimeError(f"a file of the chain is 16 MiB or more and would not come back: {sizes}")
    return sizes


def _solve(puzzle, nets: dict, ball, rows, width: int, stop: float, fh, a) -> None:
    """DeepCubeA's cubes ``first..first+count-1`` in order at ``width`` until ``stop``, each
    searched by every network of ``nets`` (label -> heuristic) in turn, one JSON line a search:
    a network compared with another is compared on the same cubes even where time runs out."""
    for i in range(a.first, min(a.first + a.count, len(rows))):
        facelets, optimal = rows[i]
        for label, heur in nets.items():
            if time.perf_counter() > stop:
                return
            t = time.perf_counter()
            r = beam_search(puzzle, puzzle.parse_state(facelets), heur, width=width, max_steps=60, ball=ball,
                            device=a.device, inverse=a.inverse, symmetries=a.symmetries,
                            time_limit=max(1.0, stop - time.perf_counter()))  # fmt: skip
            row = {"i": i, "status": r.status.value, "length": r.length, "seconds": time.perf_counter() - t,
                   "nodes": r.nodes, "optimal": optimal, "width": width, "extra": r.extra,
                   "moves": " ".join(r.moves), "network": label, "inverse": a.inverse,
                   "symmetries": a.symmetries}  # fmt: skip
            fh.write(json.dumps(row) + "\n")
            fh.flush()


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train-seconds", type=float, default=0, help="0: no training, search --model")
    ap.add_argument("--model", type=Path, default=None, help="search this network (default: OUT/run's)")
    ap.add_argument("--against", type=Path, default=None, help="also search this network, cube by cube")
    ap.add_argument("--batch", type=int, default=32768)
    ap.add_argument("--init-from", type=Path, default=None, help="train on from this network")
    ap.add_argument("--init-optimizer", type=Path, default=None, help="its Adam moments (else a fresh Adam)")
    ap.add_argument("--lr", type=float, default=None, help="Adam's learning rate at the first step")
    ap.add_argument("--lr-decay", type=float, default=None, help="factor on the learning rate per step")
    ap.add_argument("--widths", default="262144", help="comma-separated beam widths, searched in turn")
    ap.add_argument("--seconds", default="100", help="comma-separated seconds, one per width: all its cubes together")
    ap.add_argument("--first", type=int, default=0, help="the first cube (0-based) of each width")
    ap.add_argument("--count", type=int, default=1000, help="cubes at most, from --first")
    ap.add_argument("--deadline", type=float, default=None, help="seconds from the start: searching stops then")
    ap.add_argument("--ball", type=int, default=6)
    ap.add_argument("--inverse", action="store_true", help="also a beam from the inverse (the shorter wins)")
    ap.add_argument("--symmetries", type=int, default=0, help="also beams from this many conjugates")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--data", type=Path, default=Path("instances/data/cube/deepcubea_cube3_qtm_1000.tsv"))
    return ap


def _heuristic(path: Path, device: str, report: dict, label: str) -> NetHeuristic:
    net, card = load_model(path, device)
    report.setdefault("cards", {})[label] = {"path": str(path), **card}
    return NetHeuristic(registry.get("cube3"), net, device, chunk=2**21,
                        precision="bf16" if device == "cuda" else "fp32")  # fmt: skip


def main() -> None:
    began = time.perf_counter()
    a = _parser().parse_args()
    widths, seconds = [int(w) for w in a.widths.split(",")], [float(x) for x in a.seconds.split(",")]
    a.out.mkdir(parents=True, exist_ok=True)
    run = a.out / "run"
    gpu = torch.cuda.get_device_name(0) if a.device == "cuda" else "cpu"
    report: dict = {"gpu": gpu, "torch": torch.__version__, "argv": sys.argv}
    if a.train_seconds > 0:
        t = time.perf_counter()
        try:
            report["train_command"] = _train(a, run)
            report["chain_files"] = _chain(run)
        except Exception as exc:  # the search of the shipped network still uses the lent time
            traceback.print_exc()
            report["train_error"] = repr(exc)
            a.model = a.model or Path("learned/models/cube3.safetensors")
        report["train_wall_s"] = time.perf_counter() - t
    puzzle = registry.get("cube3")
    nets = {"trained" if a.train_seconds > 0 else "model": _heuristic(a.model or run / "model.safetensors", a.device,
                                                                       report, "model")}  # fmt: skip
    if a.against is not None:
        nets["against"] = _heuristic(a.against, a.device, report, "against")
    t = time.perf_counter()
    ball = goal_ball(puzzle, a.ball)
    report["ball"] = {"depth": a.ball, "states": len(ball.keys), "seconds": time.perf_counter() - t}
    rows = _cubes(a.data)
    t = time.perf_counter()
    for heur in nets.values():
        beam_search(puzzle, puzzle.parse_state(rows[0][0]), heur, width=4096, max_steps=60, ball=ball, device=a.device)
    report["warmup_s"] = time.perf_counter() - t  # CUDA context and kernels, not counted below
    (a.out / "gpu.json").write_text(json.dumps(report, indent=1))
    deadline = float("inf") if a.deadline is None else began + a.deadline
    with (a.out / "solve.jsonl").open("a") as fh:
        for width, secs in zip(widths, seconds, strict=True):
            stop = min(deadline, time.perf_counter() + secs)
            _solve(puzzle, nets, ball, rows, width, stop, fh, a)
    report["wall_s"] = time.perf_counter() - began
    (a.out / "gpu.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    np.seterr(over="ignore")
    main()
