"""Benchmark of the headline command: ``python -m exact.mip --size 3 --turns 8`` beside CP-SAT.

Writes one section of docs/benchmarks/mip.md per configuration (``--section``). Usage:

    python benchmarks/mip.py                                   # seeds 0..9, 3 runs each: main
    python benchmarks/mip.py --moves layers --section layers   # the seed MIP case study's move set
    python benchmarks/mip.py --set facelets --seeds 0-4 --moves layers --section facelets
    python benchmarks/mip.py --metric qtm,htm --seeds 0-2 --section faces
    python benchmarks/mip.py --set deep --seeds 0-2 --turns 9 --moves layers --section t9

Each run is the command a user types, timed from the outside (wall clock, Python's start and
imports included), with ``--json`` to read what it proved: ``python -m exact.mip`` at its
defaults (the split proof on every core) and, in the same run, ``python -m exact.cpsat
--threads 2`` on the same start; the ratio is MIP seconds over CP-SAT seconds. ``--moves`` and
``--metric`` default to the commands' own defaults (face turns, QTM); ``--metric`` may list
both. Sets:

* ``scramble``: ``--seed s`` (the MIP's incumbent is the scramble's inverse);
* ``facelets``: the same starts given as ``--facelets`` (no scramble known: the incumbent comes
  from the bidirectional BFS);
* ``faces``: the name of ``--moves faces --metric qtm,htm`` before face turns became the default;
* ``deep``: longer scrambles (``--turns``), with ``--time-limit``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import add_section_option, load_meter, machine, markdown_table, write_page  # noqa: E402
from exact.cli.options import add_ray_option  # noqa: E402
from exact.puzzles.cube import scramble, to_facelets  # noqa: E402

TITLE = "Benchmark: `python -m exact.mip` beside CP-SAT"


def seeds(text: str) -> list[int]:
    if "-" in text:
        a, b = text.split("-")
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(",")]


def timed(argv: list[str]) -> tuple[float, dict]:
    t0 = time.perf_counter()
    out = subprocess.run([sys.executable, *argv, "--json"], capture_output=True, text=True, cwd=ROOT, check=False)
    wall = time.perf_counter() - t0
    if out.returncode not in (0, 3, 4):
        raise SystemExit(f"{' '.join(argv)} failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return wall, json.loads(out.stdout)


def case_argv(kind: str, seed: int, turns: int, moves: str, metric: str) -> list[str]:
    base = ["--size", "3", "--turns", str(turns), "--moves", moves, "--metric", metric]
    if kind == "facelets":
        start, _ = scramble(3, turns, np.random.default_rng(seed), moves, metric)
        return [*base, "--facelets", to_facelets(start)]
    return [*base, "--seed", str(seed)]


def run_case(kind, seed, turns, moves, metric, repeats, time_limit, mip_args=()) -> list[str]:
    """One start's row; ``mip_args``: more arguments for ``exact.mip`` alone (``--ray``, ``--threads``)."""
    argv = case_argv(kind, seed, turns, moves, metric)
    limit = ["--time-limit", str(time_limit)] if time_limit else []
    on_ray = list(mip_args)
    mip, cp = [], []
    for _ in range(repeats):
        mip.append(timed(["-m", "exact.mip", *argv, *limit, *on_ray]))
        cp.append(timed(["-m", "exact.cpsat", *argv, *limit, "--threads", "2"]))
    m_wall = statistics.median(w for w, _ in mip)
    c_wall = statistics.median(w for w, _ in cp)
    last = mip[-1][1]
    proof = last["extra"].get("proof", {})
    statuses = sorted({r["status"] for _, r in mip})
    lengths = sorted({r["length"] for _, r in mip if r["length"] is not None})
    cp_lengths = sorted({r["length"] for _, r in cp if r["length"] is not None})
    pieces = statistics.median(r["extra"]["proof"]["pieces"] for _, r in mip)
    row = [
        f"{moves} {metric}",
        str(seed),
        "/".join(statuses),
        ",".join(map(str, lengths)) or "-",
        ",".join(str(r["lower_bound"]) for _, r in mip),
        f"{m_wall:.1f} s",
        ", ".join(f"{w:.1f}" for w, _ in mip),
        f"{pieces:g}",
        str(proof.get("incumbent_source")),
        ",".join(map(str, cp_lengths)) or "-",
        f"{c_wall:.1f} s",
        f"{m_wall / c_wall:.2f}",
    ]
    print(" | ".join(row), flush=True)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="scramble", choices=["scramble", "facelets", "faces", "deep"])
    ap.add_argument("--seeds", default="0-9", help="e.g. 0-9 or 0,3,5")
    ap.add_argument("--turns", type=int, default=8)
    ap.add_argument("--moves", choices=["faces", "layers", "wide"], default="faces", help="default faces")
    ap.add_argument("--metric", default="qtm", help="qtm, htm or qtm,htm (default qtm)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=None, help="--time-limit of both commands")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "mip.md"))
    add_section_option(ap)
    add_ray_option(ap, "the MIP's split pieces (passed on to python -m exact.mip; CP-SAT stays here)")
    ap.add_argument("--mip-threads", type=int, help="--threads of exact.mip: worker processes (default: none)")
    args = ap.parse_args(argv)
    mip_args = (["--ray", args.ray] if args.ray else []) + ([] if args.mip_threads is None else
                                                            ["--threads", str(args.mip_threads)])  # fmt: skip
    meter = load_meter()
    t0 = time.perf_counter()
    metrics = args.metric.split(",")
    if not set(metrics) <= {"qtm", "htm"}:
        ap.error(f"--metric {args.metric!r}: give qtm, htm or qtm,htm")
    kind, moves = args.set, args.moves
    if args.set == "faces":
        kind, moves, metrics = "scramble", "faces", ["qtm", "htm"]
    kinds = [("facelets" if kind == "facelets" else "scramble", moves, metric) for metric in metrics]
    rows = [
        run_case(kind, s, args.turns, moves, metric, args.repeats, args.time_limit, mip_args)
        for kind, moves, metric in kinds
        for s in seeds(args.seeds)
    ]
    mip_med = statistics.median(float(r[5].split()[0]) for r in rows)
    worst = max(float(r[5].split()[0]) for r in rows)
    all_opt = all(r[2] == "optimal" for r in rows)
    same = all(r[3] == r[9] for r in rows)
    cmd = "python benchmarks/mip.py " + " ".join(argv if argv is not None else sys.argv[1:])
    example = " ".join(
        ["python -m exact.mip", *case_argv(kinds[0][0], seeds(args.seeds)[0], args.turns, kinds[0][1], kinds[0][2])]
    )
    lines = [
        f"# Benchmark: `python -m exact.mip` at T = {args.turns} ({args.set}) beside CP-SAT",
        "",
        f"Command: `{cmd}`  ",
        f"Machine: {machine()}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t0:.0f} s; {meter()}  ",
        f"Each row: {args.repeats} run(s) of each command, one after the other, nothing else running; seconds are "
        "wall clock of the whole command (start, imports, build, proof), median of the runs. For example: "
        f"`{example}`"
        + (f" `{' '.join(mip_args)}`" if mip_args else "")
        + "; CP-SAT: the same arguments to `python -m exact.cpsat` with `--threads 2`."
        + (f" Both with `--time-limit {args.time_limit:g}`." if args.time_limit else ""),
        "",
        f"Summary: MIP median {mip_med:.1f} s, slowest {worst:.1f} s; every MIP run optimal: "
        f"{'yes' if all_opt else 'no'}; MIP lengths equal CP-SAT's: {'yes' if same else 'no'}.",
        "",
        *markdown_table(
            [
                "moves",
                "seed",
                "MIP status",
                "MIP length",
                "MIP bound (each run)",
                "MIP s (median)",
                "MIP s (runs)",
                "pieces",
                "incumbent from",
                "CP-SAT length",
                "CP-SAT s (median)",
                "MIP / CP-SAT",
            ],
            rows,
        ),
    ]
    write_page(args.out, lines, section=args.section, title=TITLE)
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
