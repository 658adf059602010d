"""Certify DeepCubeA's 1,000 QTM test cubes with the H48 solver (method ``cube3-h48``, issue 67).

Each cube of ``deepcubea-cube3`` (``instances/data/cube/deepcubea_cube3_qtm_1000.tsv``: facelets
and the optimal quarter-turn length DeepCubeA's PDB solver proved) is solved through the method
registry (:func:`exact.solvers.solve`) with a stored ``hk`` table, and its proven optimum, nodes,
seconds and moves go to docs/benchmarks/data/deepcubea_h48.jsonl, one line per cube and table,
appended as each is proven: a stop loses at most the cube in progress, and ``--resume`` goes on
from the cubes the file holds for the table in use. The target is judged on the largest table of
at most 2 GB; a larger one (``--h 8``, the largest that fits 8 GB) stands beside it on the cubes
both proved. The page, docs/benchmarks/deepcubea_h48.md, is written from the file after
every cube (``--render-only``: from the file alone). A long run goes in the background:

    nohup python benchmarks/deepcubea_h48.py --h 6 --threads 2 --resume > /tmp/deepcubea_h48.log 2>&1 &

Every row read back is checked before it counts: its moves, replayed on its cube's facelets, must
solve it, and a row that says ``optimal`` must have the file's optimal length (a row that fails
stops the run with its id: the data file or a solver is wrong). The table is loaded and the
kernels compiled by one solve before the first timed cube; its seconds are on the page.

Exit codes: 0 done; 2 bad input (a data file that exists without ``--resume``, a table not
stored); 6 a proven length differs from the file's; 130 interrupted.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import instances  # noqa: E402
from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from benchmarks.h48 import TARGET_BYTES, built, stored_meta  # noqa: E402
from exact import registry  # noqa: E402
from exact.provenance import stamp  # noqa: E402

DATA = ROOT / "docs" / "benchmarks" / "data" / "deepcubea_h48.jsonl"
PAGE = ROOT / "docs" / "benchmarks" / "deepcubea_h48.md"
TARGET = 8.0
"""Issue 67: the median seconds per DeepCubeA cube in QTM, on 2 cores, with a table of at most 2 GB."""
EXIT_BAD_INPUT, EXIT_CONTRADICTION, EXIT_INTERRUPTED = 2, 6, 130


class Contradiction(ValueError):
    """A proven length that differs from the file's optimum, or a row whose moves do not solve its cube."""


def cubes(first: int) -> list[dict]:
    """DeepCubeA's cubes: ``{"id", "facelets", "optimal", "pdb_seconds"}``, the first ``first``."""
    with instances.path("deepcubea-cube3").open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))[:first]
    return [{"id": r["id"], "facelets": r["facelets_URFDLB"], "optimal": int(r["optimal_qtm"]),
             "pdb_seconds": float(r["pdb_seconds"])} for r in rows]  # fmt: skip


def puzzle():
    return registry.get("cube3", moves="faces", metric="qtm")


def start_of(cube: dict) -> np.ndarray:
    from exact.puzzles.cube.facelets import from_facelets

    return from_facelets(cube["facelets"])


def checked(p, rows: list[dict], known: dict[str, dict], data: Path = DATA) -> list[dict]:
    """``rows`` (the data file's, the last of each cube), each re-checked: its moves solve its cube,
    and an optimal one is as long as the file's optimum.

    Raises:
        Contradiction: a row fails, named by its id.
    """
    for r in rows:
        cube = known.get(r["id"])
        if cube is None:
            raise Contradiction(f"{data}: cube {r['id']!r} is not one of DeepCubeA's")
        moves = r.get("moves") or ""
        end = p.table.apply(start_of(cube), p.table.parse(moves, start=p.goal)) if moves else start_of(cube)
        if r["status"] == "optimal":
            if not p.solved(end) or len(moves.split()) != r["length"]:
                raise Contradiction(f"{data}: cube {r['id']}: its moves do not solve it in {r['length']}")
            if r["length"] != cube["optimal"]:
                raise Contradiction(f"{data}: cube {r['id']}: proven {r['length']} moves, the file says "
                                    f"{cube['optimal']}")  # fmt: skip
    return rows


def read_rows(data: Path = DATA) -> list[dict]:
    """The data file's rows, the last of each cube and table."""
    rows = [json.loads(ln) for ln in data.read_text().splitlines() if ln.strip()] if data.exists() else []
    return list({(r["table"], r["id"]): r for r in rows}.values())


def append(row: dict) -> None:
    DATA.parent.mkdir(parents=True, exist_ok=True)
    with DATA.open("a") as fh:  # one line a cube, flushed: a stop loses at most the cube in progress
        fh.write(json.dumps(row) + "\n")
        fh.flush()


def warm(p, h: int, threads: int) -> float:
    """The set-up's seconds: the table's load and the kernels' compile, by one solve of a six-move
    cube before the first timed one."""
    from exact.solvers import solve

    t0 = time.perf_counter()
    solve(p, p.table.apply(p.goal, "R U F D L B"), method="cube3-h48", h=h, threads=threads)
    return time.perf_counter() - t0


def certify(p, todo: list[dict], h: int, table: str, threads: int, time_limit: float | None, command: str,
            after=None) -> None:  # fmt: skip
    """Solve ``todo`` one after the other (after :func:`warm`), appending a row each and calling
    ``after`` after each."""
    from tqdm import tqdm

    from exact.contract import Limits
    from exact.solvers import solve

    options = {"h": h, "threads": threads}
    for cube in tqdm(todo, desc="deepcubea", unit="cube"):
        r = solve(p, start_of(cube), method="cube3-h48", limits=Limits(time=time_limit), **options)
        if r.status.value == "optimal" and r.length != cube["optimal"]:
            raise Contradiction(f"cube {cube['id']}: proven {r.length} moves, the file says {cube['optimal']}")
        append({"id": cube["id"], "optimal": cube["optimal"], "status": r.status.value, "length": r.length,
                "bound": r.lower_bound, "nodes": r.nodes, "seconds": round(r.seconds, 3), "moves": " ".join(r.moves),
                "table": table, "threads": threads, "date": str(date.today()),
                "machine": machine(), "commit": stamp().get("commit", "?"), "command": command})  # fmt: skip
        if after is not None:
            after()


def stored_table(p, h: int | None) -> tuple[int, str] | None:
    """``(h, name)`` of the QTM ``hk`` table to use: ``h``'s, or the largest stored; ``None`` where
    it is not stored (a build takes hours: the run does not start one)."""
    from exact.cube.h48table import spec
    from exact.pdb.store import stored_entries

    for k in [h] if h is not None else range(11, 0, -1):
        s = spec(p.table, "qtm", k)
        if stored_entries(s.name, None) == s.entries:
            return k, s.name
    return None


def table_bytes(name: str) -> int:
    """The size of the QTM ``hk`` table ``name`` (``cube3-h48-h8-b11-qtm``), from its spec."""
    from exact.cube.h48table import spec

    h, base = (int(part[1:]) for part in name.split("-")[2:4])
    return spec(puzzle().table, "qtm", h, base).nbytes


def render(
    rows: list[dict], known: dict[str, dict], setup: float | None, load: str, builds: dict[str, dict] | None = None
) -> list[str]:
    """The page's lines from the checked rows: the target judged on the tables of at most
    :data:`TARGET_BYTES`, the larger ones beside them on the same cubes; ``builds``: each table's
    ``build_seconds`` (:func:`benchmarks.h48.stored_meta`), where known."""
    title = "# Benchmark: DeepCubeA's 1,000 cubes certified by the H48 solver (QTM)"
    if not rows:
        return [title, "", "No cube certified yet. The run needs the QTM `hk` table (`python -m exact.pdb build "
                "cube3-h48-h6-b11-qtm`, hours, resumable), then: `nohup python benchmarks/deepcubea_h48.py --h 6 "
                "--threads 2 --resume > /tmp/deepcubea_h48.log 2>&1 &`."]  # fmt: skip
    out = [
        title,
        "",
        f"Command(s): {'; '.join(f'`{c}`' for c in sorted({r['command'] for r in rows}))}  ",
        f"Machine: {rows[0]['machine']}; dates {', '.join(sorted({r['date'] for r in rows}))}; commits "
        f"{', '.join(sorted({r['commit'][:7] for r in rows}))}" + (f"; {load}" if load else ""),
        "",
        "Cubes: DeepCubeA's test set (`deepcubea-cube3`, quarter-turn metric), each solved by `cube3-h48` "
        "through the method registry, one after the other on the threads named. Every row is re-checked when "
        "it is read back: its moves replayed on the cube's facelets solve it, and a proven length equals the "
        "file's optimum (DeepCubeA's PDB solver's). Seconds are the solve's, the table loaded and the kernels "
        "compiled before the first cube"
        + (f" (that set-up took {setup:.1f} s in the last run)." if setup is not None else "."),
        "",
    ]
    tables = sorted({r["table"] for r in rows}, key=lambda n: (table_bytes(n), n))
    by_table = {n: [r for r in rows if r["table"] == n] for n in tables}
    out += markdown_table(
        ["cubes", "proven optimal", "equal to the file's", "median s", "mean s", "90th percentile s", "max s",
         "median nodes", "table", "size GB", "threads", "build s (this machine, 2 cores)"],
        [_summary(by_table[n], known, n) + [built((builds or {}).get(n, {}))] for n in tables],
    )  # fmt: skip
    small = [n for n in tables if table_bytes(n) <= TARGET_BYTES]
    judged = by_table[small[-1]] if small else []
    out += ["", _target(judged, known), ""]
    out += _beside(by_table, small[-1] if small else None, [n for n in tables if n not in small])
    proven = [r for r in judged if r["status"] == "optimal"]
    out += [f"## Seconds by optimal length ({small[-1] if small else 'no table of at most 2 GB'})", ""]
    by = {}
    for r in proven:
        by.setdefault(r["length"], []).append(r["seconds"])
    out += markdown_table(["optimal length", "cubes", "median s", "max s"],
                          [[str(k), str(len(v)), f"{statistics.median(v):.2f}", f"{max(v):.2f}"]
                           for k, v in sorted(by.items())])  # fmt: skip
    limited = [r for r in rows if r["status"] != "optimal"]
    if limited:
        out += ["", "## Not proven within the limit", ""]
        out += markdown_table(["id", "table", "file's optimum", "status", "lower bound", "seconds"],
                              [[r["id"], r["table"], str(known[r["id"]]["optimal"]), r["status"], str(r["bound"]),
                                f"{r['seconds']:.1f}"] for r in limited])  # fmt: skip
    out += ["", f"Each cube's row (optimum, nodes, seconds, moves, table): `{DATA.relative_to(ROOT)}`."]
    return out


def _summary(rows: list[dict], known: dict[str, dict], name: str) -> list[str]:
    """One table's line of the summary."""
    proven = [r for r in rows if r["status"] == "optimal"]
    secs = sorted(r["seconds"] for r in proven)
    return [str(len(rows)), str(len(proven)), str(sum(r["length"] == known[r["id"]]["optimal"] for r in proven)),
            f"{statistics.median(secs):.2f}" if secs else "-", f"{statistics.mean(secs):.2f}" if secs else "-",
            f"{secs[int(0.9 * (len(secs) - 1))]:.2f}" if secs else "-", f"{secs[-1]:.2f}" if secs else "-",
            f"{statistics.median(r['nodes'] for r in proven):,.0f}" if proven else "-", name,
            f"{table_bytes(name) / 1e9:.2f}", ", ".join(map(str, sorted({r["threads"] for r in rows})))]  # fmt: skip


def _target(rows: list[dict], known: dict[str, dict]) -> str:
    """The issue's target, judged on ``rows`` (one table's), in words."""
    head = f"Target (issue 67): a median under {TARGET:.0f} s on 2 cores with a table of at most 2 GB: "
    if not rows:
        return head + "not yet run with such a table."
    secs = [r["seconds"] for r in rows if r["status"] == "optimal"]
    every = sorted(r["seconds"] if r["status"] == "optimal" else float("inf") for r in rows)  # a limit: slowest
    whole = statistics.median(every)
    verdict = (
        f"{'met' if whole < TARGET else 'not met'} "
        + ("on all 1,000" if len(rows) == 1000 else f"so far, on {len(rows)} of 1,000 cubes")
        + f" (median {whole:.2f} s"
        + (", a cube stopped by the limit counted as slower than every proven one)" if len(secs) < len(rows) else ")")
    )
    pdb = statistics.median(known[r["id"]]["pdb_seconds"] for r in rows)
    return (head + f"{verdict}. The file's own PDB solver took a median of {pdb:.1f} s on the same cubes "
            "(DeepCubeA's paper, another machine).")  # fmt: skip


def _beside(by_table: dict[str, list[dict]], judged: str | None, larger: list[str]) -> list[str]:
    """Each table larger than 2 GB beside the judged one, on the cubes both solved."""
    if judged is None or not larger:
        return []
    said = []
    mine = {r["id"]: r for r in by_table[judged] if r["status"] == "optimal"}
    for n in larger:
        theirs = [r for r in by_table[n] if r["status"] == "optimal" and r["id"] in mine]
        if not theirs:
            continue
        t_big, t_small = (statistics.median(x) for x in ([r["seconds"] for r in theirs],
                                                          [mine[r["id"]]["seconds"] for r in theirs]))  # fmt: skip
        n_big, n_small = (statistics.median(x) for x in ([r["nodes"] for r in theirs],
                                                          [mine[r["id"]]["nodes"] for r in theirs]))  # fmt: skip
        said.append(f"`{n}` ({table_bytes(n) / 1e9:.2f} GB), on the {len(theirs)} cubes both proved: median "
                    f"{t_big:.2f} s against {t_small:.2f} s ({t_big / t_small:.2f} times), median nodes "
                    f"{n_big:,.0f} against {n_small:,.0f} ({n_big / n_small:.2f} times)")  # fmt: skip
    if not said:
        return []
    return [f"The largest tables that fit 8 GB, beside `{judged}`: " + "; ".join(said) + ".", ""]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--h", type=int, default=None, help="the hk table's flips (default: the largest stored)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--first", type=int, default=1000, help="DeepCubeA's first N cubes")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per cube (default: none)")
    ap.add_argument("--resume", action="store_true", help="go on from the cubes the data file holds")
    ap.add_argument("--retry-limits", action="store_true", help="with --resume: solve again the cubes a limit stopped")
    ap.add_argument("--render-only", action="store_true", help="write the page from the data file")
    args = ap.parse_args(argv)
    known = {c["id"]: c for c in cubes(1000)}
    p = puzzle()
    command = "python benchmarks/deepcubea_h48.py " + " ".join(sys.argv[1:] if argv is None else argv)
    load = load_meter()
    try:
        rows = checked(p, read_rows(), known)
        if args.render_only:
            write_page(PAGE, render(rows, known, None, "", stored_meta(sorted({r["table"] for r in rows}))))
            return 0
        if rows and not args.resume:
            print(f"{DATA} holds {len(rows)} cubes: add --resume to go on from them (or move the file away)",
                  file=sys.stderr)  # fmt: skip
            return EXIT_BAD_INPUT
        table = stored_table(p, args.h)
        if table is None:
            from exact.cube.h48table import spec

            name = spec(p.table, "qtm", 6 if args.h is None else args.h).name
            print(f"no QTM hk table of h={args.h if args.h is not None else '1-11'} is stored: build one first, "
                  f"e.g. python -m exact.pdb build {name} (hours; resumable)", file=sys.stderr)  # fmt: skip
            return EXIT_BAD_INPUT
        done = {r["id"] for r in rows if r["table"] == table[1] and (r["status"] == "optimal" or not args.retry_limits)}
        todo = [c for c in cubes(args.first) if c["id"] not in done]
        setup = warm(p, table[0], args.threads)

        def page() -> None:
            now = checked(p, read_rows(), known)
            write_page(PAGE, render(now, known, setup, load(), stored_meta(sorted({r["table"] for r in now}))))

        certify(p, todo, *table, args.threads, args.time_limit, command, after=page)
        page()
    except Contradiction as exc:
        print(f"contradiction: {exc}", file=sys.stderr)
        return EXIT_CONTRADICTION
    except KeyboardInterrupt:
        print("interrupted: --resume goes on from the cubes the data file holds", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":
    sys.exit(main())
