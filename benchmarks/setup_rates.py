"""How long set-ups take: one table of each family built from an empty folder, then read back.

    python benchmarks/setup_rates.py            # writes docs/benchmarks/setup_rates.md

Each family's ``seconds_per_entry`` (:attr:`exact.pdb.store.TableSpec.seconds_per_entry`) is what
a solve states before it builds a table of that family and what its time limit is checked
against (``exact.solvers``: a method whose set-up does not fit the time left is not started).
The page sets each measured rate beside the constant the code holds, as a ratio: above 1.3 or
below 0.5, the constant is stale. Every table is built ``--repeats`` times into a fresh folder
(the median counts), numba's compilation excluded by a first build that is not counted; then the
largest is loaded back (sha256 and audit) as often, for :data:`exact.pdb.store.LOAD_SECONDS_PER_BYTE`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact import registry  # noqa: E402
from exact.pdb import store  # noqa: E402


def families() -> dict:
    """Family -> a function making one representative spec of it (the smallest that builds in
    seconds; the 1.67 GB cube table's rate is the README's measured minutes, not rebuilt here)."""
    from exact.cube import prune
    from exact.cube.catalog import cube_spec
    from exact.cube.pdb import korf_patterns
    from exact.pdb import projection
    from exact.tablewalk import table_spec
    from exact.tiles.catalog import PARTITIONS, tile_spec
    from exact.tiles.pattern import check_partition

    cube = registry.get("cube3")
    pyraminx = registry.get("pyraminx")
    return {
        "cube3 flip-slice x twist (slice)": lambda: prune.spec(cube.table, "qtm", "slice"),
        "cube3 Korf pattern (6 edges)": lambda: cube_spec(korf_patterns("qtm")[1]),
        "tiles pattern (15-puzzle, 5 tiles)": lambda: tile_spec(check_partition(4, 4, PARTITIONS[4, 4]["555"])[0]),
        "projection (Pyraminx default)": lambda: projection.spec(pyraminx, projection.default_patterns(pyraminx)[0]),
        "projection (3x3 f2l pair)": lambda: projection.spec(*_f2l_pair()),
        "complete table (2x2x2)": lambda: table_spec(registry.get("cube2")),
    }


def _f2l_pair():
    """The renamed 3x3 and the first pattern of its f2l goal's tables (``exact.goals``)."""
    from exact.goals import with_goal

    renamed, pats = with_goal(registry.get("cube3", moves="faces", metric="htm"), "f2l").search_patterns()
    return renamed, pats[0]


def _build_once(spec) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        store.load(spec, tmp, progress=False)
        return time.perf_counter() - t


def measure(name: str, make, repeats: int) -> tuple[list[str], object, float]:
    spec = make()
    _build_once(spec)  # numba compiles here, once: not a set-up a second solve pays
    runs = [_build_once(spec) for _ in range(repeats)]
    rate = statistics.median(runs) / spec.entries
    ratio = rate / spec.seconds_per_entry if spec.seconds_per_entry else float("nan")
    row = [name, spec.name, f"{spec.entries:,}", f"{spec.nbytes / 1e6:,.1f}", ", ".join(f"{x:.2f}" for x in runs),
           f"{rate:.3g}", f"{spec.seconds_per_entry:.3g}", f"{ratio:.2f}"]  # fmt: skip
    return row, spec, statistics.median(runs)


def load_rate(spec, repeats: int) -> tuple[float, list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        store.load(spec, tmp, progress=False)
        runs = []
        for _ in range(repeats):
            t = time.perf_counter()
            table = store.load(spec, tmp, progress=False)
            runs.append(time.perf_counter() - t)
            del table
    return statistics.median(runs) / spec.nbytes, runs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "setup_rates.md"))
    args = ap.parse_args(argv)
    meter, t0 = load_meter(), time.perf_counter()
    rows, largest = [], None
    for name, make in families().items():
        row, spec, _ = measure(name, make, args.repeats)
        rows.append(row)
        largest = spec if largest is None or spec.nbytes > largest.nbytes else largest
    per_byte, runs = load_rate(largest, args.repeats)
    cmd = "python benchmarks/setup_rates.py " + " ".join(argv if argv is not None else sys.argv[1:])
    header = ["family", "table", "entries", "MB", "build s (runs)", "s per entry (median)", "in the code", "ratio"]
    lines = [
        "# Benchmark: how long set-ups take", "",
        f"Command: `{cmd}`  ", f"Machine: {machine()}  ",
        f"Date: {date.today().isoformat()}; total {time.perf_counter() - t0:.0f} s; {meter()}  ",
        f"Each table built {args.repeats} times into an empty folder after one uncounted build (numba's "
        "compilation); seconds are wall clock of `exact.pdb.store.load` (build, write, sha256, read back, audit). "
        "'in the code': the family's `seconds_per_entry`, what a solve states and checks its limit against; the "
        "ratio is measured over it.", "",
        *markdown_table(header, rows), "",
        f"Loading `{largest.name}` back ({largest.nbytes / 1e6:,.1f} MB; sha256 and audit): "
        f"{', '.join(f'{x:.2f}' for x in runs)} s, {per_byte:.3g} s a byte (median); in the code "
        f"{store.LOAD_SECONDS_PER_BYTE:.3g} (ratio {per_byte / store.LOAD_SECONDS_PER_BYTE:.2f}).", "",
        "The 3x3's 1.67 GB table (`slicesorted`) is not rebuilt here: its rate is the README's measured 121-236 s "
        "on 2 threads for 3.3e9 entries (`exact.cube.prune`).",
    ]  # fmt: skip
    write_page(args.out, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
