"""A/B runs of the H48 solver (:mod:`exact.cube.h48solve`) on Tronto's scrambles: two variants
taking turns in one process, so that the machine's drift (about 10% between runs here) falls on
both alike.

Writes section ``ab`` of docs/benchmarks/h48.md from its data file
(docs/benchmarks/data/h48_ab.jsonl: one line per comparison). Usage:

    python benchmarks/h48_ab.py --threads-ab 1,2 --length 17 --count 25 --rounds 3
    python benchmarks/h48_ab.py --files exact/cube/h48solve.py /tmp/variant.py --threads 2 --stop-at

* ``--threads-ab A,B``: the solver as it is, on two thread counts (how well the two slots share
  the work);
* ``--files A B``: two copies of ``h48solve.py`` (a change measured before it is kept), each
  loaded as its own module; the row keeps each file's SHA-256, since a variant not kept is not
  in the repository.

Each round runs the first ``--count`` cubes of one length with each variant, the variants in
alternating order; a variant's seconds are the median over the rounds of its round's sum. Both
must generate the same nodes where they search alike (``--files`` variants that change the
search order may not: the nodes are reported, not asserted). ``--stop-at`` ends each solve once
every length below the cubes' is refuted (the full iterations only, without the last one's
luck). The table is the stored ``cube3-h48-h6-b9-htm`` (``--h``), loaded once, in huge pages.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import shutil
import statistics
import sys
import tempfile
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact.provenance import stamp  # noqa: E402

SCRAMBLES = ROOT.parent / "shared" / "data" / "cube" / "h48_scrambles"
DATA = ROOT / "docs" / "benchmarks" / "data" / "h48_ab.jsonl"
PAGE = ROOT / "docs" / "benchmarks" / "h48.md"


def _module(path: Path, what: str = "exact/cube/h48solve.py"):
    """The file loaded as a module of its own, from a copy named by its hash in the temporary
    folder: numba caches its kernels beside the copy, under a module name it can import again,
    so a variant neither recompiles on every run nor writes into the real module's cache.
    ``what``: the file it should be a copy of (for the one-line refusal)."""
    sha = _sha(path)
    name = f"h48_ab_{sha}"
    copy = Path(tempfile.gettempdir()) / "puzzleopt_h48_ab" / f"{name}.py"
    copy.parent.mkdir(parents=True, exist_ok=True)
    if not copy.exists():
        shutil.copyfile(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    if spec is None or spec.loader is None:
        raise ValueError(f"--files: {path} is not a Python file; give a copy of {what}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def variants(files: list[str] | None, threads_ab: str | None, threads: int) -> list[tuple[str, object, int]]:
    """``(label, module, threads)`` of the two variants."""
    from exact.cube import h48solve

    if files:
        paths = [Path(f) for f in files]
        for p in paths:
            if not p.is_file():
                raise ValueError(f"--files: {p} does not exist; give two copies of exact/cube/h48solve.py")
        return [(f"{p.name} ({_sha(p)})", _module(p), threads) for p in paths]
    try:
        a, b = (int(x) for x in str(threads_ab).split(","))
    except ValueError:
        raise ValueError(f"--threads-ab {threads_ab!r}: give two thread counts, as in --threads-ab 1,2") from None
    return [(f"{a} thread{'s' * (a != 1)}", h48solve, a), (f"{b} thread{'s' * (b != 1)}", h48solve, b)]


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()[:12]


def measure(vs, starts, p, table, rounds: int, stop_at: int | None) -> list[dict]:
    """Each variant's round sums (seconds) and nodes per round, the variants alternated."""
    for _, mod, th in vs:  # compile and warm up off the clock
        mod.h48_cube(p, p.table.apply(p.goal, "R U F D L B"), table=table, threads=th)
    out = [{"label": label, "rounds": [], "nodes": 0} for label, _, _ in vs]
    for r in range(rounds):
        for k in (0, 1) if r % 2 == 0 else (1, 0):
            _, mod, th = vs[k]
            total, nodes = 0.0, 0
            for s in starts:
                res = mod.h48_cube(p, s, table=table, threads=th, stop_at=stop_at)
                total += res.seconds
                nodes += res.nodes
            out[k]["rounds"].append(round(total, 3))
            out[k]["nodes"] = nodes
    for o in out:
        o["median"] = statistics.median(o["rounds"])
    return out


def ratio(a: dict, b: dict) -> float:
    """B's time over A's: the median over the rounds of each round's ratio (the two ran side by
    side in a round, so the machine's drift between rounds cancels; a ratio of the two medians
    would mix rounds run at different speeds)."""
    return statistics.median(y / x for x, y in zip(a["rounds"], b["rounds"], strict=True))


def cell(v: dict) -> str:
    """A variant's median seconds, then each round's."""
    return f"{v['median']:.2f} ({', '.join(f'{x:.2f}' for x in v['rounds'])})"


def render(rows: list[dict]) -> list[str]:
    out = [
        "# A/B runs of the solver (benchmarks/h48_ab.py)",
        "",
        "Two variants taking turns in one process on the same cubes (Tronto's scrambles of one length, "
        "`cube3-h48-h6-b9-htm`), so that the machine's drift falls on both; each cell the median over the "
        "rounds of a round's seconds (the sum over the cubes), and B / A the median of each round's ratio. "
        "`stop at` ends each solve once every shorter length is refuted. A variant named by file and "
        "SHA-256 is a copy of `h48solve.py` measured and not kept, unless the text says so.",
        "",
    ]
    table = []
    for r in rows:
        a, b = r["variants"]
        table.append([
            r["date"], r["commit"][:7], f"{r['count']} of {r['length']} moves" + (", stop at" if r["stop_at"] else ""),
            a["label"], cell(a), b["label"], cell(b),
            f"{ratio(a, b):.3f}", f"{a['nodes']:,} / {b['nodes']:,}", f"`{r['command']}`", r["load"],
        ])  # fmt: skip
    out += markdown_table(
        ["date", "commit", "cubes", "A", "A: s a round (rounds)", "B", "B: s a round (rounds)",
         "B / A (median of rounds)", "nodes a round (A / B)", "command", "load"],
        table,
    )  # fmt: skip
    out += ["", f"Machine: {rows[-1]['machine'] if rows else machine()}."]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group()
    which.add_argument("--files", nargs=2, metavar=("A", "B"), help="two copies of exact/cube/h48solve.py")
    which.add_argument("--threads-ab", help="two thread counts, as in 1,2: the solver as it is on each")
    ap.add_argument("--threads", type=int, default=2, help="threads for both --files variants (default 2)")
    ap.add_argument("--length", type=int, default=17, choices=range(1, 21), metavar="N",
                    help="the scrambles' optimal length (default 17)")  # fmt: skip
    ap.add_argument("--count", type=int, default=25, help="cubes of that length, the first ones (default 25)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, the variants alternated (default 3)")
    ap.add_argument("--stop-at", action="store_true", help="stop each solve once every shorter length is refuted")
    ap.add_argument("--h", type=int, default=6, help="the stored half-turn table's h (default 6)")
    ap.add_argument("--render-only", action="store_true", help="write the section from the data file")
    args = ap.parse_args(argv)
    if not args.render_only and not (args.files or args.threads_ab):
        ap.error("give --files A B or --threads-ab A,B (or --render-only)")

    def row(command: str) -> dict:
        return run(args.files, args.threads_ab, args.threads, args.length, args.count, args.rounds, args.stop_at,
                   args.h, command)  # fmt: skip

    return log_and_render("h48_ab", argv, None if args.render_only else row, DATA, (PAGE, "ab", render))


def log_and_render(script: str, argv: list[str] | None, row, data: Path, page: tuple) -> int:
    """An A/B script's end: ``row(command)`` (``None``: none, render only) appended to ``data``, one
    JSON line, then ``page`` (path, section, render function) written from all of them. A
    ``ValueError`` from ``row`` is bad input: one line, exit 2."""
    if row is not None:
        command = " ".join([f"python benchmarks/{script}.py", *(argv if argv is not None else sys.argv[1:])])
        try:
            new = row(command)
        except ValueError as e:
            print(f"{script}: {e}", file=sys.stderr)
            return 2
        data.parent.mkdir(parents=True, exist_ok=True)
        with data.open("a") as fh:
            fh.write(json.dumps(new) + "\n")
    rows = [json.loads(x) for x in data.read_text().splitlines() if x.strip()] if data.exists() else []
    path, section, render_rows = page
    write_page(path, render_rows(rows), section=section)
    return 0


def run(files, threads_ab, threads: int, length: int, count: int, rounds: int, stop_at: bool, h: int,
        command: str) -> dict:  # fmt: skip
    """One comparison's row."""
    from exact import registry
    from exact.cube.h48table import catalog_spec, split
    from exact.memory import huge_pages
    from exact.pdb.store import load

    if count < 1 or rounds < 1:
        raise ValueError(f"--count {count} / --rounds {rounds}: give at least 1 of each")
    meter = load_meter()
    path = SCRAMBLES / f"scrambles-{length}.txt"
    if not path.exists():
        raise ValueError(f"{path}: no such scrambles file; see ../shared/data/README.md")
    lines = [x for x in path.read_text().splitlines() if x.strip()][:count]
    p = registry.get("cube3", moves="faces", metric="htm")
    t = split(load(catalog_spec("htm", h), None, progress=False))
    table = type(t)(t.h, t.base, huge_pages(t.data), t.lines)
    starts = [p.table.apply(p.goal, p.table.parse(s, start=p.goal)) for s in lines]
    vs = variants(files, threads_ab, threads)
    out = measure(vs, starts, p, table, rounds, length if stop_at else None)
    return {"date": date.today().isoformat(), "machine": machine(), "commit": stamp().get("commit", "?"),
            "command": command, "length": length, "count": len(starts), "stop_at": stop_at, "variants": out,
            "load": meter()}  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
