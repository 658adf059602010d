"""``python -m learned.freecell``: solve, evolve and benchmark GA-FreeCell.

Examples::

    python -m learned.freecell solve --deal 617                       # the shipped evolved weights
    python -m learned.freecell solve --deal 617 --weights hsdh --json # Heineman's heuristic alone
    python -m learned.freecell solve --board board.txt --freecells 3 --time-limit 30
    python -m learned.freecell evolve --generations 20 --population 30 --seed 9 --out ga.json
    python -m learned.freecell evolve --out ga.json --resume          # go on from ga.checkpoint.json
    python -m learned.freecell bench --deals 1-1000 --workers 2       # HSDH and the shipped weights
    python -m learned.freecell bench --deals test --ray ADDRESS       # the deals as tasks on a Ray cluster
    python -m learned.freecell bench --deals test --weights ga.json --fc-solve

``--weights`` takes a weights file, ``ga`` (the shipped ones, the default) or ``hsdh`` (the
baseline, run with the stage depth and table size of the shipped weights).

Exit codes: 0 solved (or done), 2 bad input, 4 limit reached.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from exact import cli
from exact.cli.options import add_executor_options, executor_from
from exact.kernels import notice_first_compile
from exact.puzzles.freecell import MAX_FREECELLS, format_board, ms_deal
from exact.puzzles.freecell.text import read_board_file
from learned.freecell import bench as benchmod
from learned.freecell.deals import parse_deals
from learned.freecell.ga import GASettings, default_checkpoint, evolve
from learned.freecell.hsd import solve_hsd
from learned.freecell.weights import Weights, hsdh, resolve, save, shipped

_PER_LINE = 10


def _weights(spec: str | None) -> Weights:
    if spec is not None and spec.lower() == "hsdh":
        base = shipped()
        return hsdh(base.k, base.tt_limit)
    return resolve(spec)


def _parser():
    p = cli.parser("python -m learned.freecell", "GA-FreeCell: staged deepening with evolved heuristics.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("solve", help="solve one deal or board")
    src = s.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=int, help="Microsoft deal number, 1..2147483647")
    src.add_argument("--board", help="a board file in fc-solve's format ('-' reads standard input)")
    s.add_argument("--weights", help="weights file, 'ga' (shipped, default) or 'hsdh'")
    s.add_argument("--freecells", type=int, default=4, help=f"free cells, 0..{MAX_FREECELLS} (default 4)")
    s.add_argument("--time-limit", type=cli.seconds, default=10.0, help="seconds before giving up (default 10)")
    s.add_argument("--node-limit", type=cli.count(1), help="nodes before giving up (default: none)")
    s.add_argument("--k", type=int, help="stage depth (default: the weights file's)")
    s.add_argument("--tt-limit", type=int, help="transposition-table size (default: the weights file's)")
    s.add_argument("--json", action="store_true", help="print one JSON object instead of the human report")

    e = sub.add_parser("evolve", help="evolve weights with the coevolutionary GA")
    d = GASettings()
    e.add_argument("--generations", type=int, default=d.generations, help=f"default {d.generations}")
    e.add_argument("--population", type=int, default=d.population, help=f"solvers (default {d.population})")
    e.add_argument("--deal-population", type=int, default=d.deal_population, help=f"default {d.deal_population}")
    e.add_argument(
        "--node-limit", type=cli.count(1), default=d.node_limit, help=f"nodes per deal (default {d.node_limit:,})"
    )
    e.add_argument("--k", type=int, default=d.k, help=f"stage depth (default {d.k})")
    e.add_argument("--tt-limit", type=int, default=d.tt_limit, help=f"default {d.tt_limit:,}")
    e.add_argument("--validation", type=int, default=d.validation, help=f"validation deals (default {d.validation})")
    e.add_argument("--seed", type=cli.count(0), default=0, help="seed of the run (default 0)")
    e.add_argument("--out", default="ga.json", help="weights file to write (default ga.json)")
    e.add_argument("--checkpoint", help="checkpoint file (default: beside --out, <name>.checkpoint.json)")
    e.add_argument("--resume", action="store_true", help="continue from the checkpoint")
    add_executor_options(e, "the searches (the weights do not depend on where they run)", older="--jobs")
    e.add_argument("--no-progress", action="store_true", help="no progress bars")

    b = sub.add_parser("bench", help="solve many deals and print a summary table")
    b.add_argument("--deals", default="1-1000", help="'1-1000', '1,617,11982', 'test' or 'train' (default 1-1000)")
    b.add_argument("--weights", action="append", help="repeatable: files, 'ga', 'hsdh' (default: hsdh and ga)")
    b.add_argument("--time-limit", type=cli.seconds, default=10.0, help="seconds per deal (default 10)")
    b.add_argument(
        "--repeats", type=cli.count(1), default=1, help="runs per deal; seconds are their median (default 1)"
    )
    add_executor_options(b, "the deals", older="--jobs")
    b.add_argument("--fc-solve", action="store_true", help="also run fc-solve -l lg on the same deals")
    b.add_argument("--json", action="store_true", help="print the rows of every deal as JSON")
    b.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


def _solve(args) -> int:
    weights = _weights(args.weights)
    if args.deal is not None:
        board, what = ms_deal(args.deal, args.freecells), f"Microsoft deal {args.deal}"
    else:
        board, what = read_board_file(args.board, args.freecells), f"board {args.board}"
    res = solve_hsd(
        board,
        weights.vector,
        k=weights.k if args.k is None else args.k,
        tt_limit=weights.tt_limit if args.tt_limit is None else args.tt_limit,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        extra={} if args.deal is None else {"deal": args.deal},
    )
    if args.json:
        print(res.to_json(board=format_board(board), freecells=args.freecells))
        return res.exit_code
    print(f"{what}, {args.freecells} free cells:")
    print(format_board(board), end="")
    if res.length is not None:
        how = f"{res.status.value}, {res.length} moves, {res.nodes:,} nodes"
        print(f"{res.solver} ({res.settings['heuristic']}, k={res.settings['k']}): {how}")
        for i in range(0, len(res.moves), _PER_LINE):
            print(" ".join(res.moves[i : i + _PER_LINE]))
    else:
        print(f"{res.solver}: {res.status.value}, stopped by {res.extra['stopped_by']} ({res.nodes:,} nodes)")
    print(f"{res.seconds:.3f} s")
    return res.exit_code


def _evolve(args, argv: Sequence[str]) -> int:
    settings = GASettings(
        population=args.population,
        deal_population=args.deal_population,
        generations=args.generations,
        node_limit=args.node_limit,
        k=args.k,
        tt_limit=args.tt_limit,
        validation=args.validation,
    )
    out = Path(args.out)
    checkpoint = Path(args.checkpoint) if args.checkpoint else default_checkpoint(out)
    with executor_from(args) as executor:
        res = evolve(
            settings,
            seed=args.seed,
            checkpoint=checkpoint,
            resume=args.resume,
            executor=executor,
            progress=not args.no_progress,
            log=lambda line: print(line, flush=True),
        )
    res.weights.training["command"] = " ".join(["python -m learned.freecell", *argv])
    save(out, res.weights)
    v = res.weights.training["validation"]
    print(f"wrote {out}: weights {[round(float(x), 4) for x in res.weights.vector]}")
    print(
        f"validation ({len(res.weights.training['validation_deals'])} training deals, {settings.node_limit:,} nodes "
        f"each): solved {v['chosen']['solved']}, mean nodes {v['chosen']['mean_nodes']:,.0f} "
        f"(HSDH: {v['hsdh']['solved']}, {v['hsdh']['mean_nodes']:,.0f}); {res.weights.training['seconds']:.0f} s"
    )
    return cli.EXIT_OK


def _bench(args) -> int:
    deals = parse_deals(args.deals)
    specs = args.weights or ["hsdh", "ga"]
    progress = not args.no_progress and not args.json
    tables, everything = [], {}
    with executor_from(args) as executor:
        for spec in specs:
            w = _weights(spec)
            rows = benchmod.run_solver(deals, w, time_limit=args.time_limit, repeats=args.repeats, executor=executor,
                                       progress=progress, desc=spec)  # fmt: skip
            name = f"HSD + {spec} (k={w.k}, N={w.tt_limit:,})"
            tables.append(benchmod.summary(name, rows))
            everything[spec] = rows
        if args.fc_solve:
            rows = benchmod.run_fc_solve(deals, time_limit=args.time_limit, repeats=args.repeats, executor=executor,
                                         progress=progress)  # fmt: skip
            tables.append(benchmod.summary(f"fc-solve -l {benchmod.FC_SOLVE_PRESET}", rows))
            everything["fc-solve"] = rows
    if args.json:
        print(json.dumps({"deals": len(deals), "time_limit": args.time_limit, "rows": everything}))
    else:
        print(benchmod.format_table(benchmod.SUMMARY_HEADER, tables))
    return cli.EXIT_OK


def _kernels() -> None:
    from exact.puzzles.freecell import kernels
    from learned.freecell import heuristics, search

    notice_first_compile(kernels, heuristics, search)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(argv)
    _kernels()
    if args.command == "evolve":
        return _evolve(args, argv)
    return {"solve": _solve, "bench": _bench}[args.command](args)


if __name__ == "__main__":
    sys.exit(cli.run(main))
