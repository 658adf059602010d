"""Benchmark of GA-FreeCell: staged deepening with HSDH alone and with the evolved weights, beside fc-solve.

Writes docs/benchmarks/freecell.md. Usage:

    python benchmarks/freecell.py                      # the 1,000 test deals, 3 runs each, one process
    python benchmarks/freecell.py --workers 2 --repeats 1   # deals on 2 processes (--ray: on Ray)
    python benchmarks/freecell.py --limit 50           # the first 50 test deals
    python benchmarks/freecell.py --all --solvers ga   # also every deal 1..32,000 (one run each)

The deals are the 1,000 test deals of :func:`learned.freecell.deals.test_deals` (a seeded sample
of 1..32,000; the GA never met them). A deal counts as solved when a solution came within
``--time-limit`` seconds (10). Seconds: staged deepening's ``SolveResult.seconds`` (the search, the
shortening and the moves' notation; not the replay check made afterwards); fc-solve's wall clock
around one ``fc-solve -l lg -m -snx -`` process (its start, about 2 ms, included). Each is the
median of ``--repeats`` runs of the deal (a run that hit the limit is not repeated). Every
solution, fc-solve's too, is replayed on the board model. The page is rewritten after every solver.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from tqdm.auto import tqdm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import add_worker_options, machine, markdown_table, open_executor, workers_text, write_page  # noqa: E402
from exact.atomic import write_chunks  # noqa: E402
from learned.freecell import bench  # noqa: E402
from learned.freecell.deals import NUM_DEALS, SPLIT_SEED, test_deals  # noqa: E402
from learned.freecell.heuristics import NAMES  # noqa: E402
from learned.freecell.weights import SHIPPED, Weights, hsdh, load  # noqa: E402

# What the paper reports on Microsoft's 32,000 deals (Elyasaf, Hauptman & Sipper, GECCO 2011).
PAPER = "HSD solves 96% and GA-FreeCell 98% of the 32,000 deals; GA-FreeCell uses 87% fewer nodes, 93% less time "
PAPER += "and 41% shorter solutions than HSD"


def _both(a: list[dict], b: list[dict]) -> tuple[list[dict], list[dict]]:
    """The rows of the deals that both solved, in the same order."""
    ok = {r["deal"] for r in a if r["solved"]} & {r["deal"] for r in b if r["solved"]}
    return [r for r in a if r["deal"] in ok], [r for r in b if r["deal"] in ok]


def _ratio(a: list[dict], b: list[dict], key: str) -> str:
    x, y = _both(a, b)
    if not x:
        return "-"
    sa, sb = sum(r[key] for r in x), sum(r[key] for r in y)
    return f"{sa / sb:.3g}" if sb else "-"


def _less(new: list[dict], old: list[dict], key: str) -> str:
    x, y = _both(new, old)
    if not x:
        return "-"
    sn, so = sum(r[key] for r in x), sum(r[key] for r in y)
    return f"{100 * (1 - sn / so):.0f}%" if so else "-"


def write_results(out: Path, argv: list[str], state: dict, note: str) -> None:
    rows = state["rows"]
    names = state["names"]
    table = [bench.summary(names[k], v) for k, v in rows.items()]
    tl = state["time_limit"]
    w: Weights = state["weights"]
    t = w.training
    s = t.get("settings", {})
    compare = []
    if "hsdh" in rows and "ga" in rows:
        g, h = rows["ga"], rows["hsdh"]
        compare += [
            "GA-FreeCell against HSD (HSDH alone), on the deals both solved (the paper's three measures):",
            "",
            *markdown_table(
                ["deals both solved", "fewer nodes", "less time", "shorter solutions"],
                [[str(len(_both(g, h)[0])), _less(g, h, "nodes"), _less(g, h, "seconds"), _less(g, h, "length")]],
            ),
            "",
            f"The paper: {PAPER}.",
            "",
        ]
    if "fc-solve" in rows:
        f = rows["fc-solve"]
        lines = []
        for key in ("hsdh", "ga"):
            if key in rows:
                r = rows[key]
                lines.append(
                    [
                        names[key],
                        f"{sum(x['solved'] for x in r)} / {sum(x['solved'] for x in f)}",
                        str(len(_both(r, f)[0])),
                        _ratio(r, f, "seconds"),
                        _ratio(r, f, "length"),
                    ]
                )
        compare += [
            "Side by side with fc-solve (ratios of sums over the deals both solved; > 1: ours takes more):",
            "",
            *markdown_table(
                ["solver", "solved (ours / fc-solve)", "deals both solved", "time ratio", "length ratio"], lines
            ),
            "",
        ]
    full = []
    if "ga" in rows:
        mean = statistics.mean(r["seconds"] for r in rows["ga"])
        full = [
            f"All {NUM_DEALS:,} deals with the evolved weights would take about {NUM_DEALS * mean / 3600:.2f} h on "
            f"one core at this mean ({mean:.3f} s a deal; HSDH alone: "
            + (
                f"{NUM_DEALS * statistics.mean(r['seconds'] for r in rows['hsdh']) / 3600:.1f} h"
                if "hsdh" in rows
                else "not run"
            )
            + ").",
            "",
        ]
    if "all" in state:
        fa = state["fc_all"]
        ours = state["all"]
        full += [
            f"### Every deal 1..{NUM_DEALS:,} (one run each, `--all`)",
            "",
            *markdown_table(bench.SUMMARY_HEADER, [bench.summary(state["all_name"], ours)]),
            "",
            f"The evolved weights on all {NUM_DEALS:,} deals: {sum(r['solved'] for r in ours):,} solved within "
            f"{tl:g} s each, {sum(r['seconds'] for r in ours):.0f} s of solving in all "
            f"({state['meta']['all']['wall_seconds']:.0f} s wall clock, one process). "
            f"fc-solve -l {bench.FC_SOLVE_PRESET} on the same deals in one process "
            f"(`freecell-solver-range-parallel-solve 1 {NUM_DEALS} 1000 -l {bench.FC_SOLVE_PRESET}`): "
            f"{NUM_DEALS - len(fa['unsolved']):,} solved in {fa['seconds']:.1f} s, reported unsolved: "
            f"{', '.join(map(str, fa['unsolved'])) or 'none'}.",
            "",
        ]
    target = []
    if "ga" in rows:
        g = rows["ga"]
        pct = 100 * sum(r["solved"] for r in g) / len(g)
        target = [
            f"The target, at least 99.5% of the test deals solved within {tl:g} s each: GA-FreeCell solves {pct:.1f}% "
            f"({'met' if pct >= 99.5 else 'not met'}). A deal not solved is one whose search reached the time limit.",
            "",
        ]
    runs = ", ".join(f"{state['repeats'][k]} run(s) for {names[k]}" for k in rows)
    weights_line = ", ".join(f"{n} {x:.3f}" for n, x in zip(NAMES, w.vector))
    text = [
        "# Benchmark: GA-FreeCell (staged deepening with evolved heuristics) and fc-solve",
        "",
        f"Command: `{' '.join(['python benchmarks/freecell.py', *argv])}`  ",
        f"Machine: {machine()}; {state['where']}  ",
        f"Date: {max((m['date'] or '') for m in state['meta'].values()) or date.today().isoformat()}",
        "",
        "How each row was measured (the machine is shared with other jobs; the load average says how busy it was):",
        "",
        *markdown_table(
            ["rows", "date", "wall seconds", "load average at the start / end"],
            [
                [k, str(m["date"]), f"{m['wall_seconds']:.0f}", f"{m['load_start']} / {m['load_end']}"]
                for k, m in state["meta"].items()
            ],
        ),
        "",
        f"Deals: the {len(state['deals'])} test deals of `learned.freecell.deals.test_deals()` (a permutation",
        f"of 1..{NUM_DEALS:,} drawn with seed {SPLIT_SEED}; none was used in training). Solved = a replayed solution",
        f"within {tl:g} s. Seconds are the median of {runs} of each deal (a run that hit the",
        "limit is not repeated); staged deepening's are `SolveResult.seconds` (search, shortening, notation),",
        "fc-solve's the wall clock of one `fc-solve -l lg -m -snx -` process, its start included. Nodes: for staged",
        "deepening the children generated (a move and its safe moves home); for fc-solve the states it checked.",
        "Lengths: moves in standard notation, safe moves home and sequence moves one move each.",
        "",
        f"Staged deepening: `learned.freecell.hsd.solve_hsd`, k = {w.k} (stage depth), transposition table",
        f"cleared at N = {w.tt_limit:,} keys, both rows alike; sequence moves and safe moves home. HSDH is",
        "Heineman's heuristic alone; GA is the shipped `learned/freecell/weights/ga.json`:",
        f"{weights_line}.",
        f"It was evolved with seed {t.get('seed')} over {t.get('generations')} generations "
        f"(population {s.get('population')}, {s.get('deal_population')} deal individuals of "
        f"{s.get('deals_per_individual')} deals, {s.get('node_limit', 0):,} nodes per deal) in "
        f"{t.get('seconds', 0):.0f} s on this machine: `{t.get('command', 'python -m learned.freecell evolve')}`.",
        "The GA is deterministic (node limits, not seconds, and one seeded generator): a second run of",
        "that command gave the same weights, bit for bit.",
        "",
        *markdown_table(bench.SUMMARY_HEADER, table),
        "",
        *target,
        *compare,
        *full,
        note,
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    write_page(out, text)


CHUNK = 50  # deals between appends to the cache


def cached(cache: Path, name: str, header: dict, deals: list[int], run, resume: bool) -> tuple[list[dict], dict]:
    """The rows of ``deals`` for one solver, and how they were measured.

    Rows are read from ``cache/<name>.jsonl`` where ``--resume`` finds them (made with the same
    header); the rest run ``CHUNK`` deals at a time and are appended, so a run stopped midway
    (Ctrl-C included) loses at most one chunk. ``cache/<name>.meta.json`` keeps the date, the
    wall-clock seconds and the load average of the runs that made the rows.
    """
    path = cache / f"{name}.jsonl"
    meta_path = cache / f"{name}.meta.json"
    done: dict[int, dict] = {}
    meta = {"date": None, "wall_seconds": 0.0, "rows_run": 0, "load_start": None, "load_end": None}
    if resume and path.exists():
        lines = path.read_text().splitlines()
        if not lines or json.loads(lines[0]) != header:
            sys.exit(f"{path} was made with other settings; delete it or run without --resume")
        for line in lines[1:]:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line cut by an interrupt: run that deal again
                continue
            done[row["deal"]] = row
        if meta_path.exists():
            meta = json.loads(meta_path.read_text())
    else:
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(header) + "\n")
        meta_path.unlink(missing_ok=True)
    todo = [d for d in deals if d not in done]
    if todo:
        t = time.perf_counter()
        meta["load_start"] = meta["load_start"] if meta["rows_run"] else round(os.getloadavg()[0], 2)
        bar = tqdm(total=len(deals), initial=len(deals) - len(todo), desc=name)
        with path.open("a") as fh:
            for k in range(0, len(todo), CHUNK):
                for row in run(todo[k : k + CHUNK]):
                    done[row["deal"]] = row
                    fh.write(json.dumps(row) + "\n")
                fh.flush()
                bar.update(len(todo[k : k + CHUNK]))
                meta.update(
                    date=date.today().isoformat(),
                    wall_seconds=round(meta["wall_seconds"] + time.perf_counter() - t, 1),
                    rows_run=meta["rows_run"] + len(todo[k : k + CHUNK]),
                    load_end=round(os.getloadavg()[0], 2),
                )
                t = time.perf_counter()
                write_chunks(meta_path, [json.dumps(meta).encode()])
        bar.close()
    return [done[d] for d in deals], meta


def fc_solve_all() -> dict:
    """fc-solve -l lg on every deal 1..32,000 in one process (its range solver): seconds and the unsolved deals."""
    t = time.perf_counter()
    out = subprocess.run(
        ["freecell-solver-range-parallel-solve", "1", str(NUM_DEALS), "1000", "-l", bench.FC_SOLVE_PRESET],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    seconds = time.perf_counter() - t
    unsolved = [int(m) for m in re.findall(r"(?:Unsolved|Intractable) Board No\. (\d+)", out)]
    return {"seconds": seconds, "unsolved": unsolved}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="only the first LIMIT test deals")
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per deal (default 10)")
    ap.add_argument("--repeats", type=int, default=3, help="runs per deal; seconds are their median (default 3)")
    ap.add_argument("--hsdh-repeats", type=int, default=1, help="runs per deal for HSDH alone (default 1: it is slow)")
    ap.add_argument("--solvers", default="hsdh,ga,fc-solve", help="comma-separated: hsdh, ga, fc-solve")
    ap.add_argument("--weights", default=str(SHIPPED), help="the evolved weights (default: the shipped ones)")
    ap.add_argument("--all", action="store_true", help="also run the evolved weights on every deal 1..32,000, once")
    ap.add_argument("--cache", default=str(ROOT / "runs" / "freecell_bench"), help="per-deal rows, for --resume")
    ap.add_argument("--resume", action="store_true", help="reuse the rows in --cache made with the same settings")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "freecell.md"))
    add_worker_options(ap, older="--jobs")
    args = ap.parse_args()
    with open_executor(args) as executor:
        run(args, executor)


def run(args, executor) -> None:
    deals = list(test_deals())[: args.limit]
    weights = load(args.weights)
    state = {
        "deals": deals,
        "time_limit": args.time_limit,
        "repeats": {"hsdh": args.hsdh_repeats, "ga": args.repeats, "fc-solve": args.repeats},
        "where": workers_text(args, "deals"),
        "weights": weights,
        "rows": {},
        "meta": {},
        "names": {},
    }
    out = Path(args.out)
    cache = Path(args.cache)
    base = hsdh(weights.k, weights.tt_limit)
    quiet = {"executor": executor, "progress": False}
    for solver in args.solvers.split(","):
        t = time.perf_counter()
        if solver == "fc-solve":
            header = {"solver": solver, "time_limit": args.time_limit, "repeats": args.repeats}
            rows, meta = cached(cache, solver, header, deals, lambda ds: bench.run_fc_solve(
                ds, time_limit=args.time_limit, repeats=args.repeats, **quiet), args.resume)  # fmt: skip
            state["names"][solver] = f"fc-solve -l {bench.FC_SOLVE_PRESET}"
        elif solver in ("hsdh", "ga"):
            w = base if solver == "hsdh" else weights
            repeats = args.hsdh_repeats if solver == "hsdh" else args.repeats
            header = {"solver": solver, "weights": list(w.vector), "k": w.k, "tt_limit": w.tt_limit,
                      "time_limit": args.time_limit, "repeats": repeats}  # fmt: skip
            rows, meta = cached(cache, solver, header, deals, lambda ds, w=w, repeats=repeats: bench.run_solver(
                ds, w, time_limit=args.time_limit, repeats=repeats, **quiet), args.resume)  # fmt: skip
            state["names"][solver] = "HSD, HSDH alone" if solver == "hsdh" else "HSD, GA-FreeCell weights"
        else:
            sys.exit(f"unknown solver {solver!r}: give hsdh, ga or fc-solve")
        state["rows"][solver] = rows
        state["meta"][solver] = meta
        line = bench.summary(state["names"][solver], rows)
        print(f"{solver}: {time.perf_counter() - t:.1f} s | " + " | ".join(line), flush=True)
        write_results(out, sys.argv[1:], state, "(run not finished)")
    if args.all:
        state["fc_all"] = fc_solve_all()
        every = list(range(1, NUM_DEALS + 1))
        header = {"solver": "all", "weights": list(weights.vector), "k": weights.k, "tt_limit": weights.tt_limit,
                  "time_limit": args.time_limit, "repeats": 1}  # fmt: skip
        state["all"], state["meta"]["all"] = cached(cache, "all", header, every, lambda ds: bench.run_solver(
            ds, weights, time_limit=args.time_limit, repeats=1, **quiet), args.resume)  # fmt: skip
        state["all_name"] = "HSD, GA-FreeCell weights"
    write_results(out, sys.argv[1:], state, "")


if __name__ == "__main__":
    main()
