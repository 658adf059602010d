"""Benchmark: one step of the 3x3 beam on the CPU, part by part, and the step's own work before and after.

Writes docs/benchmarks/beam_step.md. Usage:

    python benchmarks/beam_step.py --repeats 5

One layer of :func:`learned.beam.beam_search` at width ``--width``: the beam is ``W`` distinct
cube states 14 moves from the goal (random walks, a seeded generator), each arriving by a random
last move. Each part is timed as the beam runs it, the median over ``--repeats`` runs, the parts
taking turns within a run, on an idle machine and with every core busy (one spinning process a
core). The peers are the parts as they were in commit e2641ed: the children gathered with a
``(B, A, P)`` index (``take_along_axis``), the hash as one whole-row product over a ``(B, P)``
uint64 copy, and the goal-ball lookup given the states (it hashed them again, that way); it is
now given the hashes the beam has (sorted, as the dedup leaves them). The network scores the children as the beam does
(:class:`learned.values.NetHeuristic`, ``--precision``) and is not changed here: its row gives
the share of the step it takes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
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
from learned.beam import cached_goal_ball, state_hashes  # noqa: E402
from learned.beam_parts import HASH_SEED  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from learned.weights import load_model  # noqa: E402

MODEL = ROOT / "learned" / "models" / "cube3.safetensors"


def expand_before(puzzle, states: np.ndarray) -> np.ndarray:
    """The children as :meth:`exact.puzzle.Puzzle.expand` gathered them before: one index a child."""
    rows = puzzle.choose_rows(states)
    perm = puzzle._perms_ext[np.where(rows >= 0, rows, puzzle.table.num_moves)]
    return np.take_along_axis(states[:, None, :], perm, axis=2)


def hash_before(states: np.ndarray) -> np.ndarray:
    """:func:`learned.beam.state_hashes` as it was: the whole-row product."""
    weights = np.random.default_rng(HASH_SEED).integers(1, 2**63, size=states.shape[1], dtype=np.uint64) | 1
    with np.errstate(over="ignore"):
        return (states.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)


def layer(puzzle, width: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``width`` distinct states 14 moves out, in hash order, and a last move for each."""
    rng = np.random.default_rng(seed)
    states = np.unique(puzzle.random_walk(width + width // 8, 14, rng), axis=0)[:width]
    states = states[np.argsort(state_hashes(states))]
    return states, rng.integers(0, puzzle.table.num_moves, size=len(states))


def parts(puzzle, heuristic, balls: dict, beam: np.ndarray, last: np.ndarray) -> dict[str, Callable[[], object]]:
    """name -> the part of a beam step, as :class:`learned.beam._Beam` runs it on ``beam``."""
    inverse = np.asarray(puzzle.table.inverse, dtype=np.int64)
    children, rows = puzzle.expand(beam)
    ok = rows != inverse[last][:, None]
    parent, action = np.nonzero(ok)
    kids = children[parent, action]
    keys = state_hashes(kids)
    recent = np.unique(keys[: len(keys) // 4])  # stands for the layers before: a quarter seen

    def dedup():
        _, first = np.unique(keys, return_index=True)
        return first[~np.isin(keys[first], recent)]

    left = dedup()
    scores = np.asarray(heuristic(kids[left]), dtype=np.float64)
    out = {
        "children (expand), before": lambda: expand_before(puzzle, beam),
        "children (expand), now": lambda: puzzle.expand(beam),
        "hashes, before": lambda: hash_before(kids),
        "hashes, now": lambda: state_hashes(kids),
        "drop the inverse move, gather": lambda: children[np.nonzero(rows != inverse[last][:, None])],
        "dedup (unique, isin)": dedup,
        **{
            f"goal ball lookup, radius {d}, {when}": fn
            for d, b in balls.items()
            for when, fn in (
                ("before", lambda b=b: b.lookup_keys(hash_before(kids[left]))),
                ("now", lambda b=b: b.lookup_keys(keys[left])),
            )
        },
        "network scores (the children left)": lambda: heuristic(kids[dedup()]),
        "keep the best W": lambda: np.argpartition(scores, len(beam) - 1)[: len(beam)],
    }
    return out


def measure(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """name -> median seconds over ``repeats`` runs, the parts taking turns."""
    for f in fns.values():  # warm: oneDNN's kernels, the balls' pages in memory
        f()
    took: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for name, f in fns.items():
            t = time.perf_counter()
            f()
            took[name].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in took.items()}


def table(times: dict[str, float], load: str) -> list[list[str]]:
    """The rows of one load: ms, the ratio to the part before, the share of a step now."""
    step = sum(v for k, v in times.items() if not k.endswith(", before") and "radius 7" not in k)
    rows = []
    for name, v in times.items():
        ratio = ""
        if name.endswith(", now"):
            ratio = f"{v / times[name.replace(', now', ', before')]:.2f}"
        share = "" if name.endswith(", before") or "radius 7" in name else f"{100 * v / step:.1f}%"
        rows.append([load, name, f"{1000 * v:,.1f}", ratio, share])
    rows.append([load, "the step now (radius 6)", f"{1000 * step:,.1f}", "", "100%"])
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=32768)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", default="bf16", help="the network's: fp32 or bf16 (fused)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "beam_step.md")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    meter = load_meter()
    puzzle = registry.get("cube3")
    net, _ = load_model(MODEL)
    heuristic = NetHeuristic(puzzle, net, "cpu", precision=args.precision)
    balls = {d: cached_goal_ball(puzzle, d) for d in (6, 7)}
    beam, last = layer(puzzle, args.width, args.seed)
    fns = parts(puzzle, heuristic, balls, beam, last)
    rows = []
    for load, spinning in (("idle", 0), (f"{cores()} cores busy", cores())):
        with busy(spinning):
            rows += table(measure(fns, args.repeats), load)
        print(*rows, sep="\n", flush=True)
    command = "python benchmarks/beam_step.py " + " ".join(sys.argv[1:] if argv is None else argv)
    header = ["load", "part", "ms (median)", "now / before", "share of the step"]
    lines = [
        "# One step of the 3x3 beam on the CPU, part by part", "",
        f"Command: `{command}`  ",
        f"Machine: {machine()}; torch {torch.__version__} on {args.threads} threads, network in "
        f"{heuristic.precision}; {meter()}  ",
        f"Date: {date.today()}. One layer of the beam at W = {len(beam):,}: cube states 14 moves from the goal, "
        f"{len(beam) * (puzzle.table.num_moves - 1):,} children once each state's inverse move is dropped; "
        f"`learned/models/cube3.safetensors` scores those left after the dedup. Each part the median of "
        f"{args.repeats} runs, the parts taking turns in each run. 'before' is the part as it was in commit "
        "e2641ed (the children by a `(B, A, P)` index, the hash by a whole-row product, the ball lookup hashing the "
        "states again); the ratio divides by it. "
        "The share counts the parts the beam runs now with the ball of radius 6 (the radius-7 lookup replaces "
        "it where the ball of radius 7 is used).", "",
        *markdown_table(header, rows), "",
    ]  # fmt: skip
    write_page(args.out, lines)


if __name__ == "__main__":
    main()
