"""Benchmark of the hybrid layer: learned solutions certified by exact methods, and --turns auto.

Writes one section of docs/benchmarks/hybrid.md per configuration (``--section``). Usage:

    python benchmarks/hybrid.py --sets deepcubea15 --pdb-dir DIR            # section main
    python benchmarks/hybrid.py --sets none --auto cube2:6,8,10 --section auto-cube2

Sets (``--sets``): ``deepcubea15`` is DeepCubeA's 500 15-puzzle states with the file's optimal
lengths (``deepcubea15:N``: the first N); ``cube2:N`` are N random 2x2 states (random walks of
100 moves, seed 0, as ``benchmarks/learned.py`` draws them). For each state BWAS (the shipped
network, lambda 0.6, N 100) finds a solution and ``hybrid.verify_solution`` certifies it with
the method chosen for the puzzle; the page gives the shares of each verdict and, where the file
knows the optimum, whether every ``optimal`` certificate agrees with it (it must).
``cube3-walkK:N`` are N random walks of K quarter turns (seed 0) solved by BWAS (the shipped 3x3
network, or ``--model``) and certified twice: by IDA* with Korf's tables and by CP-SAT
(``--time-limit`` seconds each).

``--auto cube2:6,8,10`` (or ``cube3:...``) compares, on scrambles of those
lengths (3 seeds each), CP-SAT (or ``--auto-solver mip``) with the fixed horizon T = scramble
length, with T = the BWAS length and no incumbent, and ``--turns auto`` (T = the BWAS length, its
solution as the incumbent). Each timing is the median of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TITLE = "Benchmark: certifying learned solutions, and the network's horizon"
sys.path.insert(0, str(ROOT))

from benchmarks.common import add_section_option, machine, markdown_table, write_page  # noqa: E402
from benchmarks.learned import SETS, walks  # noqa: E402
from exact import registry  # noqa: E402
from exact.batch import run_batch  # noqa: E402
from exact.cli.options import add_executor_options, executor_from  # noqa: E402
from exact.cpsat import solve_cpsat  # noqa: E402
from exact.executor import InProcess  # noqa: E402
from exact.horizon import solve_at_method_horizon  # noqa: E402
from exact.mip import MipOptions, solve_mip  # noqa: E402
from exact.puzzles.cube import scramble  # noqa: E402
from exact.solvers import Limits  # noqa: E402
from hybrid.many import Shared, certify_task  # noqa: E402
from instances.files import Instance  # noqa: E402
from learned.bwas import bwas  # noqa: E402
from learned.solve import load_heuristic  # noqa: E402

WEIGHT, BATCH = 0.6, 100


def instances(spec: str) -> tuple[str, list[Instance]]:
    """The states of a set, drawn as ``benchmarks/learned.py`` draws them, but not labelled: the
    certificates are what find the optima here."""
    name, _, count = spec.partition(":")
    n = int(count or 0)
    if name == "deepcubea15":
        return SETS["deepcubea15"](n)
    if name == "cube2":
        return walks("cube2", 100)(n or 1000)
    if name.startswith("cube3-walk"):
        return walks("cube3", int(name[len("cube3-walk") :]))(n or 10)
    raise SystemExit(f"unknown set {spec!r}: use deepcubea15[:N], cube2:N or cube3-walkK:N")


# The methods each puzzle is certified with (the first is the one "auto" picks).
METHODS_OF = {"tiles15": ["auto"], "cube2": ["auto"], "cube3": ["auto", "cp-sat"]}


def certify_set(spec: str, limits: Limits, pdb_dir: str | None, model: str | None, executor=None) -> list[dict]:
    """BWAS on each state here, then the certificates on ``executor`` (:mod:`exact.executor`;
    default in-process): ``hybrid.verify``'s own task, so ``--workers``/``--ray`` run what the
    command runs. ``certify_s`` sums the certificates' own seconds, wherever they ran."""
    puzzle_name, items = instances(spec)
    p = registry.get(puzzle_name)
    h = load_heuristic(p, model if puzzle_name == "cube3" else None)
    starts = [p.parse_state(item.text) for item in items]
    learned = [bwas(p, s, h, weight=WEIGHT, batch=BATCH) for s in starts]
    bwas_s = sum(x.seconds for x in learned)
    out = []
    for method in METHODS_OF[puzzle_name]:
        verdicts, gaps, agree, known, cert_s, methods = [], [], 0, 0, [], set()
        tasks = [(item, start, list(sol.moves)) for item, start, sol in zip(items, starts, learned)
                 if sol.status.has_solution]  # fmt: skip
        verdicts += ["no_solution"] * (len(items) - len(tasks))
        shared = Shared(p.spec.to_dict(), method, limits, pdb_dir)
        run = run_batch(executor or InProcess(), certify_task, tasks, [t[0].id for t in tasks], shared, progress=False)
        for (item, _, _), c in zip(tasks, run.in_order()):
            cert_s.append(c.certify_seconds)
            verdicts.append(c.verdict)
            methods.add(c.method)
            if c.gap_exact:
                gaps.append(c.gap)
            if item.optimal is not None and c.gap_exact:
                known += 1
                agree += c.best_length == item.optimal
        n = len(items)
        out.append(
            {
                "set": spec,
                "instances": n,
                "shares": {v: verdicts.count(v) / n for v in ("optimal", "suboptimal", "unknown", "no_solution")},
                "mean_gap": statistics.mean(gaps) if gaps else None,
                "agreement": f"{agree}/{known}" if known else "-",
                "bwas_s": bwas_s,
                "certify_s": sum(cert_s),
                "certify_median": statistics.median(cert_s) if cert_s else None,
                "methods": ", ".join(sorted(methods)),
            }
        )
    return out


def _solver(name: str, time_limit: float | None):
    """The exact solver of the --auto comparison: CP-SAT, or the MIP (`pairs`, HiGHS)."""
    if name == "cpsat":
        return functools.partial(solve_cpsat, threads=1, time_limit=time_limit)
    return functools.partial(solve_mip, how=MipOptions(formulation="pairs", split=False, threads=1),
                             time_limit=time_limit)  # fmt: skip


def _outcome(r, seconds: float) -> str:
    """The median time, and the status where it is not a proven optimum."""
    return f"{seconds:.2f} s" + ("" if r.status.value == "optimal" else f" ({r.status.value}, bound {r.lower_bound})")


def auto_rows(spec: str, repeats: int, model: str | None, solver: str, limit: float | None) -> list[list[str]]:
    name, _, lengths = spec.partition(":")
    if name not in ("cube2", "cube3"):
        raise SystemExit(f"--auto {spec!r}: use cube2:6,8,10 or cube3:6,8,10")
    n = int(name[-1])
    p = registry.get(name)
    moves, metric = p.table.metadata["moves"], p.table.metadata["metric"]
    bwas_options = {"weight": WEIGHT, "batch": BATCH, **({"model": str(model)} if n == 3 and model else {})}
    rows = []
    for length in [int(x) for x in lengths.split(",")]:
        for seed in range(3):
            start, text = scramble(n, length, np.random.default_rng(seed), moves, metric)
            fixed_t, tight_t, auto_t = [], [], []
            solve = _solver(solver, limit)
            tight = None
            for _ in range(repeats):
                fixed = solve(p, start, length)
                fixed_t.append(fixed.seconds)
                auto = solve_at_method_horizon(p, start, solve, "bwas", {}, method_options=bwas_options)
                auto_t.append(auto.seconds)
                L = auto.extra["horizon_solver"]["length"]
                if L is not None and L != length:
                    # the tighter horizon alone: what the hint adds is auto against this
                    tight = solve(p, start, L)
                    tight_t.append(tight.seconds)
            for other in (auto, tight):
                both = other is not None and fixed.status.value == other.status.value == "optimal"
                assert not both or fixed.length == other.length
            a, b = statistics.median(fixed_t), statistics.median(auto_t)
            fixed_text, auto_text = _outcome(fixed, a), _outcome(auto, b)
            tight_text = "= fixed T" if tight is None else _outcome(tight, statistics.median(tight_t))
            rows.append(
                [
                    name,
                    solver,
                    str(length),
                    str(seed),
                    text,
                    "-" if fixed.length is None else str(fixed.length),
                    str(auto.extra["horizon_solver"]["length"]),
                    fixed_text,
                    tight_text,
                    f"{auto_text} (BWAS {auto.extra['learned']['seconds']:.2f} s)",
                    f"{b / a:.3g}",
                ]
            )
            print(rows[-1], flush=True)
    return rows


def _row(r: dict, med: dict) -> list[str]:
    s = r["shares"]
    return [
        r["set"],
        str(r["instances"]),
        f"{100 * s['optimal']:.1f}%",
        f"{100 * s['suboptimal']:.1f}%",
        f"{100 * s['unknown']:.1f}%",
        f"{100 * s['no_solution']:.1f}%",
        "-" if r["mean_gap"] is None else f"{r['mean_gap']:.3f}",
        r["agreement"],
        f"{med['bwas_s']:.1f} s",
        f"{med['certify_s']:.1f} s",
        "-" if r["certify_median"] is None else f"{r['certify_median']:.3f} s",
        r["methods"],
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="deepcubea15,cube2:1000", help="comma-separated sets, or none")
    ap.add_argument("--auto", help="e.g. cube2:6,8,10: --turns auto against a fixed T")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--auto-solver", default="cpsat", choices=["cpsat", "mip"], help="--auto: CP-SAT or the MIP")
    ap.add_argument("--auto-time-limit", type=float, help="--auto: seconds for each solve (default: none)")
    ap.add_argument("--model", help="the cube3 network (default: the shipped one), e.g. runs/cube3/model.safetensors")
    ap.add_argument("--time-limit", type=float, help="seconds to certify each instance (default: none)")
    ap.add_argument("--pdb-dir", help="pattern databases and distance tables (default: the user cache)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "hybrid.md"))
    add_section_option(ap)
    add_executor_options(ap)
    args = ap.parse_args(argv)
    limits = Limits(time=args.time_limit)
    t0 = time.perf_counter()
    cert_rows = []
    for spec in [] if args.sets == "none" else args.sets.split(","):
        with executor_from(args) as executor:
            runs = [certify_set(spec, limits, args.pdb_dir, args.model, executor) for _ in range(args.repeats)]
        for i, r in enumerate(runs[0]):
            same = [run[i] for run in runs]
            if args.time_limit is None:  # BWAS and the proofs are deterministic without a time limit
                assert all(x["shares"] == r["shares"] for x in same)
            med = {k: statistics.median(x[k] for x in same) for k in ("bwas_s", "certify_s")}
            cert_rows.append(_row(r, med))
            print(cert_rows[-1], flush=True)
    auto = auto_rows(args.auto, args.repeats, args.model, args.auto_solver, args.auto_time_limit) if args.auto else []
    cmd = "python benchmarks/hybrid.py" + (" " + " ".join(argv if argv is not None else sys.argv[1:]))
    lines = [
        "# Benchmark: certifying learned solutions, and the network's horizon",
        "",
        f"Command: `{cmd.strip()}`  ",
        f"Machine: {machine()}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t0:.0f} s; times are medians of "
        f"{args.repeats} runs, one core",
        "",
    ]
    if cert_rows:
        lines += [
            f"BWAS (the shipped network, or `--model` for the 3x3; lambda {WEIGHT}, N {BATCH}) solves each state;",
            "`hybrid.verify_solution` certifies the solution. *agreement*: of the instances whose",
            "optimum we proved and the file knows, how many lengths match (must be all).",
            "",
            *markdown_table(
                [
                    "set",
                    "instances",
                    "optimal",
                    "suboptimal",
                    "unknown",
                    "no learned solution",
                    "mean gap",
                    "agreement",
                    "BWAS (total)",
                    "certify (total)",
                    "certify (median)",
                    "method",
                ],
                cert_rows,
            ),
            "",
        ]
    if auto:
        lines += [
            "The exact solver (CP-SAT, or the MIP with the `pairs` formulation) with T = the scramble length",
            "(*fixed T*), with T = BWAS's length and no incumbent (*T = L, no hint*: what the tighter horizon",
            "alone buys; the same solve as *fixed T* where L is the scramble length), and `--turns auto`",
            "(T = L and BWAS's solution as the incumbent; its time includes BWAS). Where they are optimal",
            "they prove the same length.",
            "",
            *markdown_table(
                [
                    "cube",
                    "solver",
                    "scramble length",
                    "seed",
                    "scramble",
                    "optimum",
                    "BWAS length",
                    "fixed T",
                    "T = L, no hint",
                    "auto",
                    "auto / fixed",
                ],
                auto,
            ),
            "",
        ]
    write_page(args.out, lines, section=args.section, title=TITLE)
    print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
