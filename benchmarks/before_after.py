"""Benchmark: the same commands from two checkouts of puzzleopt, interleaved, in one run.

Usage::

    git worktree add /tmp/before 3f8309a
    python benchmarks/before_after.py --before /tmp/before --out docs/benchmarks/before_after.md

Runs the MIP headline in the case study's move set (``python -m exact.mip --size 3 --turns 8
--moves layers --seed S``, seeds 0-9, as ``benchmarks/mip.py --moves layers`` does; named, so
that checkouts from before face turns became ``--size``'s default solve the same cubes) and
Korf's 100 (``python -m exact.ida --puzzle tiles15 --instances
korf100.tsv --json``: the 6-6-3 tables with the mirror lookup) from the ``--before`` checkout
and from this one (``--after``, default the repository this file is in), alternating run by run so
that drift in the machine's load hits both. Each command's wall clock is timed from outside;
answers must agree (status and length for the MIP; every board's length and nodes for IDA*) or
the page says they do not. Writes the page with the median of ``--repeats`` runs of each side and
the ratio after / before.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import add_section_option, machine, write_page  # noqa: E402

KORF = instances.path("korf100")
PATHS: dict[Path, list[Path]] = {}  # each tree's PYTHONPATH: its code, then its entry points


def entry_points_of(tree: Path, folder: Path) -> Path:
    """A distribution record in ``folder`` carrying ``tree``'s own entry points (its
    ``pyproject.toml``): the installed package's are this checkout's, and a plugin group whose
    form changed (``puzzleopt.methods``) would otherwise load the wrong way in the other tree."""
    import tomllib

    project = tomllib.loads((tree / "pyproject.toml").read_text())["project"]
    info = folder / "puzzleopt-0.0.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: puzzleopt\nVersion: 0.0.0\n")
    lines = []
    for group, eps in project.get("entry-points", {}).items():
        lines += [f"[{group}]", *(f"{k} = {v}" for k, v in eps.items()), ""]
    (info / "entry_points.txt").write_text("\n".join(lines))
    return folder


def run(tree: Path, args: list[str], timeout: float = 900) -> tuple[float, str]:
    """Wall-clock seconds and standard output of ``python -m ARGS`` run in ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, PATHS[tree]))}
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", *args], cwd=tree, env=env, capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip
    seconds = time.perf_counter() - t0
    if done.returncode not in (0, 4):
        raise SystemExit(f"{tree}: python -m {' '.join(args)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def mip_answer(out: str) -> tuple:
    d = json.loads(out)
    return d["status"], d["length"], d["lower_bound"]


def korf_answer(out: str) -> tuple:
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    boards = [r for r in rows if "summary" not in r]
    return tuple((r["id"], r["length"], r["nodes"]) for r in boards)


def measure(trees: dict[str, Path], args: list[str], answer, repeats: int) -> dict:
    """Each side ``repeats`` times, alternating; their seconds and whether the answers agree."""
    secs: dict[str, list[float]] = {k: [] for k in trees}
    answers: dict[str, set] = {k: set() for k in trees}
    for r in range(repeats):
        for side in list(trees) if r % 2 == 0 else list(reversed(trees)):
            s, out = run(trees[side], args)
            secs[side].append(s)
            answers[side].add(answer(out))
    agree = len(answers["before"] | answers["after"]) == 1
    return {"secs": secs, "agree": agree, "answer": next(iter(answers["after"]))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, type=Path, help="a checkout of the earlier commit")
    ap.add_argument("--after", type=Path, default=ROOT, help="a checkout of the later commit (default: this one)")
    ap.add_argument("--seeds", type=int, default=10, help="MIP seeds 0..N-1 (default 10)")
    ap.add_argument("--seed-list", help="these MIP seeds instead (e.g. 5,9: a recheck of some rows)")
    ap.add_argument("--no-korf", action="store_true", help="leave Korf's 100 out")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each side (default 3)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "before_after.md")
    add_section_option(ap)
    args = ap.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    meta = Path(tempfile.mkdtemp(prefix="puzzleopt-before-after-"))
    for side, tree in trees.items():
        PATHS[tree] = [tree, entry_points_of(tree, meta / side)]
    commits = {k: subprocess.run(["git", "-C", str(v), "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip() for k, v in trees.items()}  # fmt: skip
    t0, load0 = time.perf_counter(), os.getloadavg()[0]
    rows = []
    seeds = [int(x) for x in args.seed_list.split(",")] if args.seed_list else list(range(args.seeds))
    for seed in seeds:
        cmd = ["exact.mip", "--size", "3", "--turns", "8", "--moves", "layers", "--seed", str(seed), "--json"]
        rows.append(("mip", f"seed {seed}", measure(trees, cmd, mip_answer, args.repeats)))
        print(rows[-1][1], {k: round(statistics.median(v), 2) for k, v in rows[-1][2]["secs"].items()}, flush=True)
    if not args.no_korf:
        cmd = ["exact.ida", "--puzzle", "tiles15", "--instances", str(KORF), "--json", "--no-progress"]
        warm = ["exact.ida", "--puzzle", "tiles15", "--tiles", "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15"]
        run(trees["after"], warm)  # the tables built (or checked) once, before any timed run
        rows.append(("ida", "Korf's 100 (pdb-663+mirror)", measure(trees, cmd, korf_answer, args.repeats)))
    write(args, rows, commits, time.perf_counter() - t0, load0, " ".join(sys.argv[1:] if argv is None else argv))
    return 0


def write(args, rows, commits: dict, total: float, load0: float, given: str) -> None:
    ratios = [statistics.median(m["secs"]["after"]) / statistics.median(m["secs"]["before"]) for _, _, m in rows]
    lines = [
        "# Benchmark: before and after the one-contract redesign (issue 44), in one run",
        "",
        f"Command: `python benchmarks/before_after.py {given}`  ",
        f"Machine: {machine()}  ",
        f"Date: {time.strftime('%Y-%m-%d')}; total {total:.0f} s; load average {load0:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end  ",
        f"Before: commit `{commits['before']}`; after: commit `{commits['after']}`. Each command's wall clock "
        "(start, imports, tables or model, search), timed from outside; the two sides alternate run by run; "
        f"median of {args.repeats} runs each.",
        "",
        f"Summary: ratio after / before, median over the rows {statistics.median(ratios):.3f} (range "
        f"{min(ratios):.3f}-{max(ratios):.3f}); every answer the same on both sides: "
        f"{'yes' if all(m['agree'] for _, _, m in rows) else 'NO'}.",
        "",
        "| command | case | answer | before s (median) | before s (runs) | after s (median) | after s (runs) "
        "| after / before | same answers |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (kind, case, m), ratio in zip(rows, ratios):
        answer = f"{m['answer'][0]}, {m['answer'][1]} moves" if kind == "mip" else f"{len(m['answer'])} boards"
        mip_cmd = "python -m exact.mip --size 3 --turns 8 --moves layers"
        cmd = mip_cmd if kind == "mip" else "python -m exact.ida --puzzle tiles15"
        b, a = m["secs"]["before"], m["secs"]["after"]
        lines.append(
            f"| `{cmd}` | {case} | {answer} | {statistics.median(b):.2f} | {', '.join(f'{x:.2f}' for x in b)} | "
            f"{statistics.median(a):.2f} | {', '.join(f'{x:.2f}' for x in a)} | {ratio:.3f} | "
            f"{'yes' if m['agree'] else 'NO'} |"
        )
    title = "Benchmark: before and after the one-contract redesign (issue 44), in one run"
    write_page(args.out, lines, section=args.section, title=title)


if __name__ == "__main__":
    sys.exit(main())
