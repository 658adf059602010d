"""Before/after benchmark of a change to the IDA* kernels: Korf's 100 (6-6-3 and 5-5-5) and
3x3x3 14-move QTM scrambles, the old tree and the new one in one run, interleaved.

Writes docs/benchmarks/layout.md. Usage::

    git worktree add /tmp/before <commit>
    python benchmarks/layout.py --before /tmp/before --before-label <commit> --first 20 --repeats 3

Each side runs in its own process with its own tree on ``sys.path`` (tables come from the shared
user cache: same names and contents). Repeats alternate before/after, so drift hits both. Per
instance the median of the repeats; the page gives the sum over the instances and the ratio.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import machine, write_page  # noqa: E402

# One snippet per side and task: the old tree calls its kernels directly; this tree goes through
# the one solver contract (exact.solvers.solve picks the registered kernel), as users do.
IMPORTS = {
    "before": {
        "tiles": (
            "from exact.ida import ida_tiles\nfrom exact.pdb import tile_heuristic\n"
            "def prepare(p, name): return tile_heuristic(name, 4, 4, progress=False)\n"
            "def one(p, s, h): return ida_tiles(p, s, h)\n"
        ),
        "cube": (
            "from exact.ida import ida_cube\nfrom exact.ida.solve import cube_tables\n"
            "def prepare(p): return cube_tables('qtm', progress=False)\n"
            "def one(p, s, t): return ida_cube(p, s, tables=t)\n"
        ),
    },
    "after": {
        "tiles": (
            "from exact.solvers import solve\n"
            "def prepare(p, name): return name\n"
            "def one(p, s, name): return solve(p, s, method='ida*', heuristic=name)\n"
        ),
        "cube": (
            "from exact.solvers import solve\n"
            "def prepare(p): return None\n"
            "def one(p, s, _): return solve(p, s, method='ida*-cube')\n"
        ),
    },
}

TILES = """
import json, sys, time
import numba
numba.set_num_threads(1)
from exact import registry
{imports}
p = registry.get("tiles15")
h = prepare(p, {name!r})
rows = [l.split("\\t") for l in open({korf!r}).read().splitlines()[1:{last}]]
head = open({korf!r}).read().splitlines()[0].split("\\t")
col = head.index("tiles")
one(p, p.parse_state(rows[0][col]), h)  # compile, and load the tables
out = []
for r in rows:
    s = p.parse_state(r[col])
    t = time.perf_counter()
    res = one(p, s, h)
    out.append((time.perf_counter() - t, res.length))
print(json.dumps(out))
"""

CUBE = """
import json, time
import numba
import numpy as np
numba.set_num_threads(1)
from exact import registry
from exact.puzzles.cube import scramble
{imports}
p = registry.get("cube3", moves="faces", metric="qtm")
tables = prepare(p)
out = []
for seed in range({seeds}):
    s, _ = scramble(3, 14, np.random.default_rng(seed), "faces", "qtm")
    if seed == 0:
        one(p, s, tables)  # compile, and load the tables
    t = time.perf_counter()
    res = one(p, s, tables)
    out.append((time.perf_counter() - t, res.length))
print(json.dumps(out))
"""


def run(root: str, code: str) -> list:
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True, help="a checkout of the old tree")
    ap.add_argument("--before-label", default="before")
    ap.add_argument("--first", type=int, default=20, help="Korf's instances 1..N")
    ap.add_argument("--seeds", type=int, default=3, help="cube scrambles (seeds 0..N-1)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    korf = str(instances.path("korf100"))
    roots = {"before": str(Path(args.before).resolve()), "after": str(ROOT)}
    tasks = {
        f"Korf's 100, instances 1-{args.first}, pdb-{name}+mirror": (
            "tiles",
            TILES,
            dict(name=f"pdb-{name}", korf=korf, last=args.first + 1),
        )
        for name in ("663", "555")
    }
    tasks[f"3x3x3, 14-move QTM scrambles, seeds 0-{args.seeds - 1}, Korf's tables"] = (
        "cube",
        CUBE,
        dict(seeds=args.seeds),
    )
    t_all = time.perf_counter()
    rows = []
    for title, (kind, template, fmt) in tasks.items():
        times: dict[str, list[list[float]]] = {"before": [], "after": []}
        lengths: dict[str, list] = {}
        for _ in range(args.repeats):
            for side in ("before", "after"):
                out = run(roots[side], template.format(imports=IMPORTS[side][kind], **fmt))
                times[side].append([t for t, _ in out])
                lengths[side] = [n for _, n in out]
        assert lengths["before"] == lengths["after"], (title, lengths)
        total = {s: sum(statistics.median(x) for x in zip(*times[s])) for s in times}
        rows.append((title, len(lengths["after"]), total["before"], total["after"]))
        print(title, total, flush=True)
    page = [
        "# Benchmark: IDA* kernels before and after the layout change (issue 26)",
        "",
        f"Command: `python benchmarks/layout.py --before <checkout of {args.before_label}> --before-label "
        f"{args.before_label} --first {args.first} --seeds {args.seeds} --repeats {args.repeats}`  ",
        f"Machine: {machine()}, one numba thread per side  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t_all:.0f} s",
        "",
        "Before: the tree at " + args.before_label + ", its kernels called directly; after: this tree",
        "through `exact.solvers.solve` (the registry picks the same kernels, which also count expanded",
        "nodes, and replays each solution). Each side in its own process, repeats alternating; per",
        "instance the median of the repeats, summed. Lengths were equal on both sides (checked).",
        "",
        "| set | instances | before (s) | after (s) | after / before |",
        "|---|---|---|---|---|",
    ]
    page += [f"| {t} | {n} | {b:.2f} | {a:.2f} | {a / b:.3f} |" for t, n, b, a in rows]
    write_page(ROOT / "docs/benchmarks/layout.md", page)


if __name__ == "__main__":
    main()
