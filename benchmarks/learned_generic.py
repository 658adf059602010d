"""The learned solvers beyond the 3x3, certified: the 15-puzzle and pancakes beside the cube.

Writes ``docs/benchmarks/learned_generic.md``::

    python benchmarks/learned_generic.py --tiles15 500 --pancakes 20,30,40,55 --stacks 25 \\
        --stacks-for 55=5 --pancake-width 256 --pancake-models runs --cube3 runs/cert/w18

Each set goes through ``python -m hybrid.verify`` (:func:`hybrid.verify.main`, the one contract):
the learned method (``--learned-method``, the network's card settings) finds a solution of each
instance and the puzzle's exact method certifies it, so 'optimal' is a proof and the gap is exact
where the exact method finished (``--time-limit`` each). The 15-puzzle: DeepCubeA's 500 test
boards (``instances/data/tiles/deepcubea_puzzle15_500.tsv``; the file's optimal lengths are
checked against the proofs) with the shipped network. Pancakes: the stacks
``PancakePuzzle(n).random_states(1, numpy.random.default_rng(seed))`` for seeds ``0..stacks-1``
(those of ``benchmarks/pancake.py``), with the network ``MODELS/pancake-n<n>/model.safetensors``
(``learned.train --objective diffusion``; its card gives the command and the training states).
``--cube3 DIR`` adds the rows of a ``hybrid.verify --out DIR`` run on the 3x3 (certificates
read back, each checked by ``hybrid.verify``'s own loader).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact import registry  # noqa: E402
from exact.resultlog import ResultLog  # noqa: E402
from hybrid import verify  # noqa: E402
from hybrid.certify import CERTIFICATE_FORMAT, certificate_from_record  # noqa: E402
from instances.files import parse_states, read_instances  # noqa: E402
from learned.weights import load_model  # noqa: E402

CUBE3 = instances.path("deepcubea-cube3")
TILES15 = instances.path("deepcubea-tiles15")
HEADER = ["set", "learned", "instances", "solved", "mean length", "mean optimal", "optimal", "mean exact gap",
          "learned s (median)", "certify s (median)"]  # fmt: skip


def pancake_file(n: int, stacks: int, folder: Path) -> Path:
    """The instance file of the first ``stacks`` seeded random stacks of ``n`` pancakes."""
    p = registry.get("pancake", n=n)
    lines = [p.format_state(p.random_states(1, np.random.default_rng(seed))[0]) for seed in range(stacks)]
    path = folder / f"pancake-n{n}-{stacks}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def certify(puzzle, argv: list[str], instances: Path, out: Path) -> list:
    """Run ``hybrid.verify`` with ``argv`` into ``out``; its certificates, read back."""
    resume = ["--resume"] if (out / "certificates.jsonl").exists() else []  # a rerun continues a stopped one
    code = verify.main([*argv, "--instances", str(instances), "--out", str(out), "--no-progress", "--json", *resume])
    if code != 0:
        raise SystemExit(f"hybrid.verify {' '.join(argv)} exited {code}")
    return read_certificates(puzzle, instances, out)


def read_certificates(puzzle, instances: Path, out: Path) -> list:
    """The certificates of a ``hybrid.verify --out`` folder, in instance order, each re-checked
    by ``hybrid.verify``'s own loader (the log's MAC, the solutions replayed, the verdicts and
    gaps consistent with them)."""
    log = ResultLog(out / "certificates.jsonl", CERTIFICATE_FORMAT)
    records = {str(r["id"]): r for r in log.read()}
    items = [i for i in read_instances(instances) if i.id in records]
    back = certificate_from_record(puzzle)
    starts = parse_states(puzzle, items, instances)
    return [back(records[i.id], (i, s, None)) for i, s in zip(items, starts)]


def row(label: str, learned: str, certs: list) -> list[str]:
    """One set's line: solved, lengths, proven optimal, exact gap, seconds."""
    n = len(certs)
    solved = [c for c in certs if c.given_length is not None]
    decided = [c for c in solved if c.gap_exact]
    gaps = [c.gap for c in decided]
    opt = sum(c.verdict == "optimal" for c in certs)
    lsec = [c.learned_seconds for c in certs if c.learned_seconds is not None]

    def mean(xs, fmt=".2f"):
        return format(statistics.mean(xs), fmt) if xs else "-"

    return [
        label, learned, str(n), f"{len(solved) / n:.1%}", mean([c.given_length for c in solved]),
        mean([c.best_length for c in decided]), f"{opt / n:.1%}",
        mean(gaps, ".3f") + (f" ({len(decided)} decided)" if len(decided) < len(solved) else ""),
        f"{statistics.median(lsec):.2f}" if lsec else "given",
        f"{statistics.median(c.certify_seconds for c in certs):.2f}",
    ]  # fmt: skip


def describe(model: Path | None, puzzle: str) -> str:
    """The network and its training, from its card."""
    from learned.models import load

    card = load_model(model)[1] if model is not None else load(puzzle)[1]
    states = card.get("states_seen") or card.get("trained_steps", 0) * card.get("davi", {}).get("batch", 0)
    return f"{card.get('preset')}, {card.get('objective', 'davi')}, {states / 1e6:,.1f}M states"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiles15", type=int, default=500, help="DeepCubeA's first N boards (0: none)")
    ap.add_argument("--pancakes", default="20,30,40,55", help="stack sizes ('' for none)")
    ap.add_argument("--stacks", type=int, default=100)
    ap.add_argument("--stacks-for", action="append", default=[], metavar="N=K", help="K stacks of N pancakes")
    ap.add_argument("--pancake-models", type=Path, default=ROOT / "runs", help="folder of pancake-n<n>/")
    ap.add_argument("--tiles15-method", default="bwas", choices=("beam", "bwas"), help="its card's: BWAS")
    ap.add_argument("--pancake-method", default="beam", choices=("beam", "bwas"))
    ap.add_argument("--pancake-width", type=int, default=256, help="the beam's W for pancakes (their cards have none)")
    ap.add_argument("--time-limit", type=float, default=60, help="certification seconds per instance")
    ap.add_argument("--cube3", type=Path, action="append", default=[],
                    help="a hybrid.verify --out folder of the 3x3 on DeepCubeA's cubes")  # fmt: skip
    ap.add_argument("--work", type=Path, default=ROOT / "runs" / "learned_generic")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "learned_generic.md")
    args = ap.parse_args(argv)
    meter, t0 = load_meter(), time.perf_counter()
    args.work.mkdir(parents=True, exist_ok=True)
    common = ["--time-limit", str(args.time_limit), "--threads", "2"]
    rows = []
    if args.tiles15:
        t15 = registry.get("tiles15")
        certs = certify(
            t15, ["--puzzle", "tiles15", "--first", str(args.tiles15), *common], TILES15, args.work / "tiles15"
        )
        rows.append(
            row(
                "15-puzzle, DeepCubeA's test boards",
                f"{args.tiles15_method}, shipped ({describe(None, 'tiles15')})",
                certs,
            )
        )
    for n in [int(x) for x in args.pancakes.split(",") if x]:
        model = args.pancake_models / f"pancake-n{n}" / "model.safetensors"
        own = dict(x.split("=") for x in args.stacks_for)
        inst = pancake_file(n, int(own.get(str(n), args.stacks)), args.work)
        argv_n = ["--puzzle", "pancake", "--option", f"n={n}", "--model", str(model),
                  "--learned-method", args.pancake_method, *common]  # fmt: skip
        if args.pancake_method == "beam":
            argv_n += ["--width", str(args.pancake_width)]
        certs = certify(registry.get("pancake", n=n), argv_n, inst, args.work / f"pancake-n{n}")
        rows.append(
            row(
                f"pancakes, n = {n}, random stacks",
                f"{args.pancake_method}, W = {args.pancake_width}, " + describe(model, "pancake"),
                certs,
            )
        )
    for folder in args.cube3:
        certs = read_certificates(registry.get("cube3"), CUBE3, folder)
        label = "3x3 (QTM), DeepCubeA's test cubes, certified by its own hybrid.verify run (the folder's command)"
        rows.append(row(label, "given: the GPU beam's at W = 2^18 (learned_cube3.md)", certs))
    command = "python benchmarks/learned_generic.py " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = [
        "# The learned solvers, certified: 15-puzzle and pancakes beside the 3x3", "",
        f"Command: `{command}`  ", f"Machine: {machine()}; {meter()}  ",
        f"Date: {date.today()}; total {time.perf_counter() - t0:.0f} s", "",
        "Each set's certificates are kept in `--work` (`runs/learned_generic/<set>/certificates.jsonl`) and a "
        "rerun resumes them, so this run's total and load cover only what it ran; the seconds in the table are "
        "those of the runs that made each row, on a machine shared with other jobs (2 cores).", "",
        __doc__.split("\n\n", 2)[2].strip(), "",
        f"Learned methods: `{args.tiles15_method}` (15-puzzle), `{args.pancake_method}` (pancakes), at each "
        "network's card settings (a card without them: the method's defaults); certification: the puzzle's "
        f"first exact method, {args.time_limit:g} s each. 'optimal' counts learned solutions proven optimal; "
        "the mean exact gap is over the instances whose optimum was proven.", "",
        *markdown_table(HEADER, rows), "",
    ]  # fmt: skip
    write_page(args.out, lines)


if __name__ == "__main__":
    main()
