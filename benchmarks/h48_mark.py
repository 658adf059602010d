"""A/B runs of the H48 table build's marking (:func:`exact.cube.h48table.mark_starts`): two copies
of ``h48table.py`` taking turns in one process on the same starts, so that the machine's drift
falls on both alike, and each variant's table checked byte for byte against the other's.

Writes section ``mark`` of docs/benchmarks/h48.md from its data file
(docs/benchmarks/data/h48_mark.jsonl: one line per comparison). Usage:

    python benchmarks/h48_mark.py --files /tmp/h48table_before.py exact/cube/h48table.py --h 8
    python benchmarks/h48_mark.py --files OLD.py NEW.py --h 8 --depth 8 --levels 4 --starts 500

Each round marks, into a fresh table of ``hk`` (``--h``) in huge pages, every sequence of
``--levels`` half turns from the first ``--starts`` cosets at distance ``--depth``, with each
variant, in alternating order; B / A is the median of the rounds' ratios. The defaults (radius 7,
three moves) walk like the build from a smaller breadth-first radius, whose map is built in a
second; ``--depth 8 --levels 4`` is the ``h8`` build's own walk from a part of its starts (each
variant builds the radius-8 map, about a minute, from its own :func:`short_cubes`). The table's size
is the one ``h`` gives (h8: 7.1 GiB), so its cache and TLB misses are the build's. Each
variant's table is hashed (SHA-256 of the entries and the line minima); variants that mark
different tables are a bug in one of them, and the run stops with exit 1 (no row). A copy from
before ``mark_starts`` (2026-11-30) is called through its ``_mark_all`` with the arguments it
took then. Bad input is one line and exit 2.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import statistics
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table  # noqa: E402
from benchmarks.h48_ab import _module, _sha, cell, log_and_render, ratio  # noqa: E402
from exact.provenance import stamp  # noqa: E402

DATA = ROOT / "docs" / "benchmarks" / "data" / "h48_mark.jsonl"
PAGE = ROOT / "docs" / "benchmarks" / "h48.md"
WHAT = "exact/cube/h48table.py"


class TablesDiffer(RuntimeError):
    """Two variants marked different tables (a bug: exit 1)."""


def _mark(mod, kit, short, starts, depth: int, levels: int, h: int, base: int, threads: int) -> tuple[float, str]:
    """Seconds to mark ``starts`` into a fresh table with module ``mod``, and the table's hash."""
    from exact.memory import huge_full

    n = mod.entries(h)
    lines, data = huge_full((n + mod.LINE - 1) // mod.LINE, base + 3), huge_full((n + 3) // 4, 0xFF)
    t = time.perf_counter()
    if hasattr(mod, "mark_starts"):
        mod.mark_starts(kit, short, starts, depth, levels, h, base, data, lines, threads)
    else:  # a copy from before mark_starts: its kernel's own arguments
        mod._mark_all(starts, depth, levels, h, base, data, lines, short.keys, kit.forbid, *mod._coord_args(kit),
                      kit.cto, kit.ctw, kit.eto, kit.eflip, threads)  # fmt: skip
    seconds = time.perf_counter() - t
    digest = hashlib.sha256(data).hexdigest()[:16] + hashlib.sha256(lines).hexdigest()[:16]
    del data, lines
    gc.collect()  # a 7 GB table at a time
    return seconds, digest


def measure(mods: list, count: int, depth: int, levels: int, h: int, rounds: int, threads: int) -> list[dict]:
    """Each variant's seconds per round, the variants alternated; raises :class:`TablesDiffer`.
    Each variant walks from its own short map (its own :func:`short_cubes`, which a variant may
    change: how the map is stored is part of the walk's cost)."""
    from exact.puzzles.cube.moves import cube_moves

    table = cube_moves(3, "faces", "htm")
    kits = [mod.cube_kit(table) for mod in mods]
    shorts = [mod.short_cubes(kit, depth) for mod, kit in zip(mods, kits, strict=True)]
    starts = [short.layers[-1][:count] for short in shorts]
    base = mods[0].BASES[h]
    for k, mod in enumerate(mods):  # compile off the clock
        _mark(mod, kits[k], shorts[k], starts[k][:2], depth, levels, h, base, threads)
    out = [{"rounds": [], "digest": None} for _ in mods]
    for r in range(rounds):
        for k in (0, 1) if r % 2 == 0 else (1, 0):
            seconds, digest = _mark(mods[k], kits[k], shorts[k], starts[k], depth, levels, h, base, threads)
            out[k]["rounds"].append(round(seconds, 3))
            out[k]["digest"] = digest
        if out[0]["digest"] != out[1]["digest"]:
            raise TablesDiffer(f"the variants marked different tables ({out[0]['digest']} against {out[1]['digest']})")
    for o in out:
        o["median"] = statistics.median(o["rounds"])
    return out


def render(rows: list[dict]) -> list[str]:
    out = [
        "# A/B runs of the table build's marking (benchmarks/h48_mark.py)",
        "",
        "Two copies of `h48table.py` taking turns in one process, each marking the same walk into a fresh "
        "table of the size `h` gives (in huge pages); each cell the median over the rounds of a round's "
        "seconds, and B / A the median of each round's ratio. Both variants' tables were byte for byte "
        "the same (SHA-256) in every row: the script stops without a row where they differ.",
        "",
    ]
    table = []
    for r in rows:
        a, b = r["variants"]
        table.append([
            r["date"], r["commit"][:7], f"h{r['h']}", f"{r['starts']:,} at {r['depth']}, {r['levels']} moves",
            str(r["threads"]), a["label"], cell(a), b["label"], cell(b),
            f"{ratio(a, b):.3f}", f"`{r['command']}`", r["load"],
        ])  # fmt: skip
    out += markdown_table(
        ["date", "commit", "table", "walk (starts at distance, moves)", "threads", "A", "A: s (rounds)", "B",
         "B: s (rounds)", "B / A (median of rounds)", "command", "load"],
        table,
    )  # fmt: skip
    out += ["", f"Machine: {rows[-1]['machine'] if rows else machine()}."]
    return out


def run(files: list[str], h: int, count: int, depth: int, levels: int, rounds: int, threads: int,
        command: str) -> dict:  # fmt: skip
    """One comparison's row."""
    if not 0 <= h <= 11 or count < 1 or rounds < 1 or threads < 1 or not 1 <= depth <= 8 or levels < 1:
        raise ValueError(
            f"--h {h} / --starts {count} / --rounds {rounds} / --threads {threads} / --depth {depth} / "
            f"--levels {levels}: give h in 0..11, depth in 1..8 and at least 1 of the others"
        )
    paths = [Path(f) for f in files]
    for p in paths:
        if not p.is_file():
            raise ValueError(f"--files: {p} does not exist; give two copies of {WHAT}")
    meter = load_meter()
    mods = [_module(p, WHAT) for p in paths]
    out = measure(mods, count, depth, levels, h, rounds, threads)
    for p, o in zip(paths, out, strict=True):
        o["label"] = f"{p.name} ({_sha(p)})"
    return {"date": date.today().isoformat(), "machine": machine(), "commit": stamp().get("commit", "?"),
            "command": command, "h": h, "starts": count, "depth": depth, "levels": levels, "threads": threads,
            "variants": out, "load": meter()}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", nargs=2, metavar=("A", "B"), help=f"two copies of {WHAT}")
    ap.add_argument("--h", type=int, default=8, help="the table's h, which sets its size (default 8: 7.1 GiB)")
    ap.add_argument("--starts", type=int, default=6000, help="cosets to walk from (default 6000)")
    ap.add_argument("--depth", type=int, default=7, help="their distance: the breadth-first radius (default 7)")
    ap.add_argument("--levels", type=int, default=3, help="moves walked from each (default 3)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, the variants alternated (default 3)")
    ap.add_argument("--threads", type=int, default=2, help="numba threads (default 2)")
    ap.add_argument("--render-only", action="store_true", help="write the section from the data file")
    args = ap.parse_args(argv)
    if not args.render_only and not args.files:
        ap.error("give --files A B (or --render-only)")

    def row(command: str) -> dict:
        return run(args.files, args.h, args.starts, args.depth, args.levels, args.rounds, args.threads, command)

    return log_and_render("h48_mark", argv, None if args.render_only else row, DATA, (PAGE, "mark", render))


if __name__ == "__main__":
    sys.exit(main())
