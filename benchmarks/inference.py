"""Benchmark: the shipped 3x3 network's inference on the CPU, torch's autocast against the fused and int8 networks.

Writes docs/benchmarks/inference.md. Usage:

    python benchmarks/inference.py --repeats 5

Each cell scores the same ``--states`` cube states (random walks of 10 to 30 moves from the goal)
with ``learned/models/cube3.safetensors`` (the 4M ``resmlp-gpu`` network), each of ``--chunks`` states a
call, on ``--threads`` threads; the median over ``--repeats`` runs, the ways taking turns within
each run, on an idle machine and with every core busy (one spinning process a core). The ways:

* float32: the network as trained, in eval mode;
* bf16 autocast: ``torch.autocast`` on the CPU, what :class:`learned.values.NetHeuristic` did
  before the fused network (chunks of 20,000 in the commands, 2^16 in the 3x3 page);
* fused, torch ops: :func:`learned.inference.fuse` with oneDNN's fused linear ops turned off;
* fused, oneDNN ops: :func:`learned.inference.fuse` as :class:`learned.values.NetHeuristic` runs
  it for ``--precision bf16`` on the CPU;
* int8, oneDNN ops: :func:`learned.int8.quantize`, calibrated as :class:`learned.values.NetHeuristic`
  does it for ``--precision int8`` (seeded random walks of up to the card's longest training walk).

The ratio column divides by autocast's best states/s over the chunks tried, under the same load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from benchmarks.threads import busy  # noqa: E402
from exact import registry  # noqa: E402
from exact.cli import cores  # noqa: E402
from learned.inference import fuse  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from learned.weights import load_model  # noqa: E402

MODEL = ROOT / "learned" / "models" / "cube3.safetensors"


def ways(net, card: dict) -> dict:
    """name -> a function of a chunk of states giving float32 values."""
    fused, plain = fuse(net, torch.bfloat16), fuse(net, torch.bfloat16)
    plain.mkldnn = False
    int8 = NetHeuristic(registry.get("cube3"), net, "cpu", precision="int8")
    int8.card = card

    def autocast(c: torch.Tensor) -> torch.Tensor:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return net(c).float()

    return {"float32": net, "bf16 autocast": autocast, "fused, torch ops": plain, "fused, oneDNN ops": fused,
            "int8, oneDNN ops": int8.fused_net()}  # fmt: skip


def timed(f, x: torch.Tensor, chunk: int) -> tuple[float, torch.Tensor]:
    """Seconds to score ``x`` ``chunk`` states a call, and the values."""
    t = time.perf_counter()
    with torch.inference_mode():
        out = torch.cat([f(c).float() for c in torch.split(x, chunk)])
    return time.perf_counter() - t, out


def measure(fns: dict, x: torch.Tensor, chunks: dict[str, list[int]], repeats: int) -> dict[tuple[str, int], float]:
    """Median states/s of each (way, chunk), the ways taking turns within each repeat."""
    seconds: dict[tuple[str, int], list[float]] = {}
    for _ in range(repeats):
        for name, sizes in chunks.items():
            for c in sizes:
                seconds.setdefault((name, c), []).append(timed(fns[name], x, c)[0])
    return {k: x.shape[0] / statistics.median(v) for k, v in seconds.items()}


def errors(fns: dict, x: torch.Tensor) -> dict[str, tuple[float, float]]:
    """Each way's largest and mean absolute difference from float32's values."""
    want = timed(fns["float32"], x, 20000)[1]
    out = {}
    for name, f in fns.items():
        d = (timed(f, x, 4096)[1] - want).abs()
        out[name] = (float(d.max()), float(d.mean()))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--chunks", default="1024,2048,4096,8192,20000,65536")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "inference.md")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    meter = load_meter()
    puzzle = registry.get("cube3")
    net, card = load_model(MODEL)
    net.eval()
    fns = ways(net, card)
    rng = np.random.default_rng(0)
    x = torch.from_numpy(np.concatenate([puzzle.random_walk(args.states // 21 + 1, d, rng) for d in range(10, 31)]))
    x = x[: args.states]
    sizes = [int(c) for c in args.chunks.split(",")]
    chunks = {"float32": [20000], **{way: sizes for way in fns if way != "float32"}}
    diff = errors(fns, x)
    rows = []
    loads = (("idle", 0), (f"{cores()} cores busy", cores()))
    for load, spinning in loads:
        with busy(spinning):
            rate = measure(fns, x, chunks, args.repeats)
        peer = max(v for (name, _), v in rate.items() if name == "bf16 autocast")
        for (name, c), v in rate.items():
            off = f"{diff[name][0]:.3f} / {diff[name][1]:.4f}"
            rows.append([load, name, f"{c:,}", f"{v:,.0f}", f"{v / peer:.2f}", off])
        print(*rows[-len(rate) :], sep="\n", flush=True)
    command = "python benchmarks/inference.py " + " ".join(sys.argv[1:] if argv is None else argv)
    header = ["load", "way", "chunk", "states/s (median)", "/ autocast's best", "max / mean abs diff from float32"]
    lines = [
        "# The 3x3 network's inference on the CPU: torch autocast, the fused network and int8", "",
        f"Command: `{command}`  ",
        f"Machine: {machine()}; torch {torch.__version__} on {args.threads} threads; {meter()}  ",
        f"Date: {date.today()}. {x.shape[0]:,} cube states (random walks of 10-30 moves) scored by "
        f"`learned/models/cube3.safetensors` (resmlp-gpu, 4M parameters); each cell the median of "
        f"{args.repeats} runs, the ways taking turns in each run. The ratio divides by bf16 autocast's best "
        "chunk under the same load. The differences are in moves (the network's values run 0 to about 26).", "",
        *markdown_table(header, rows), "",
    ]  # fmt: skip
    write_page(args.out, lines)


if __name__ == "__main__":
    main()
