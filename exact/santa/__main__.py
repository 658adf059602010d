"""``puzzleopt santa``: Kaggle Santa 2023's puzzles scored and solved.

Examples::

    puzzleopt santa score --submission tests/data/santa2023/winner_submission.csv
    puzzleopt santa solve --ids 0-29,284-303 --prove --time-limit 60 --json
    puzzleopt santa solve --ids 0-397 --out submission.csv

``score`` replays every row of a submission (``id,moves``) from its puzzle's initial state and
accepts a final state with at most ``num_wildcards`` positions unlike the solution; it prints the
total and a table per type (``--json``: ``{"total", "valid", "invalid", "by_type"}``). ``solve``
prints one line per puzzle (``--json``: ``{"id", "type", "status", "length", "moves", "bound",
"method", "seconds"}``); ``--prove`` tries bidirectional BFS first, within ``--time-limit`` seconds
and ``--stored`` states, and says ``optimal`` only with its proof (a proof that stops leaves its
bound, and ``proof_stop`` and ``proof_used`` say why and after how long); ``--out`` writes the
solutions as a submission file.

Exit codes: 0 every puzzle valid (score) or solved (solve); 4 some invalid (their ids on
stderr) or left at a limit; 2 bad input; 130 interrupted.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from exact import cli
from exact.atomic import write_chunks
from exact.puzzles.santa.instances import instances, parse_ids
from exact.puzzles.santa.score import read_submission, score
from exact.santa.prove import MAX_STORED


def main(argv: Sequence[str] | None = None) -> int:
    p = cli.parser("python -m exact.santa", "Score and solve Kaggle Santa 2023's puzzles.")
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    sc = sub.add_parser("score", help="replay a submission and score it")
    sc.add_argument("--submission", type=cli.path, required=True, help="a CSV with the header id,moves")
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    so = sub.add_parser("solve", help="solve puzzles by id")
    so.add_argument("--ids", required=True, help="ids and ranges, e.g. 0-29,284-303")
    so.add_argument("--prove", action="store_true", help="bidirectional BFS first: optimal only with a proof")
    so.add_argument("--time-limit", type=cli.seconds, default=60.0, help="seconds for each proof")
    so.add_argument(
        "--stored",
        type=cli.count(),
        default=MAX_STORED,
        help="states a proof may hold, both sides together (about 22 bytes each plus a byte a label)",
    )
    so.add_argument("--out", type=cli.path, help="write the solutions as a submission CSV (id,moves)")
    so.add_argument("--json", action="store_true", help="one JSON object per puzzle")
    so.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.action == "score":
        return _score(args.submission, as_json=args.json)
    return _solve(parse_ids(args.ids), proof=args.prove, time_limit=args.time_limit, stored=args.stored, out=args.out,
                  as_json=args.json, progress=not args.no_progress)  # fmt: skip


def _score(path, *, as_json: bool) -> int:
    result = score(read_submission(path))
    if as_json:
        print(json.dumps(result.to_dict()))
    else:
        print(f"{'type':16} {'puzzles':>7} {'valid':>6} {'moves':>8}")
        for name, row in result.by_type().items():
            print(f"{name:16} {row['puzzles']:7d} {row['valid']:6d} {row['moves']:8,d}")
        print(f"{'total':16} {len(result.checks):7d} {len(result.checks) - len(result.invalid):6d} {result.total:8,d}")
    if result.invalid:
        shown = ", ".join(str(i) for i in result.invalid[:50]) + (" ..." if len(result.invalid) > 50 else "")
        print(f"invalid: {len(result.invalid)} puzzles: {shown}", file=sys.stderr)
        return cli.EXIT_LIMIT
    return cli.EXIT_OK


def _solve(ids: list[int], *, proof: bool, time_limit: float, stored: int, out, as_json: bool, progress: bool) -> int:
    from exact.progress import bar
    from exact.santa.solve import row, solve

    everything = instances()
    solved: dict[int, str] = {}
    left = []
    for i in bar(progress and not as_json, iterable=ids, desc="santa", unit="puzzle"):
        result = solve(everything[i], proof=proof, time_limit=time_limit, stored=stored)
        line = row(everything[i], result)
        if result.status.has_solution:
            solved[i] = line["moves"]
        else:
            left.append(i)
        if as_json:
            print(json.dumps(line), flush=True)
        else:
            bound = "" if line["bound"] is None else f"  bound {line['bound']}"
            print(f"{i:3d} {line['type']:16} {line['status']:9} {line['length'] or '-':>6}{bound}  {line['method']}")
    if out is not None:
        text = "id,moves\n" + "".join(f"{i},{m}\n" for i, m in sorted(solved.items()))
        write_chunks(out, [text.encode()])
    if left:
        print(f"no solution within the limits: {', '.join(map(str, left))}", file=sys.stderr)
        return cli.EXIT_LIMIT
    return cli.EXIT_OK


__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(cli.run(main))
