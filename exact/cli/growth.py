"""``puzzleopt growth --puzzle P --depth D``: how many states lie at each distance from the goal
(breadth-first search, :func:`exact.bfs.layer_counts`), for any registered puzzle or definition
file. ``--json`` prints ``{"puzzle", "metric", "counts", "total", "seconds"}``; a space
exhausted before ``D`` ends its list early (God's number is then its last index).

Examples::

    puzzleopt growth --puzzle ../shared/data/definitions/tws/2x2x2.tws --depth 6 --json
    python -m exact.cli.growth --puzzle pyraminx --depth 5

Exit codes: 0 counted, 2 bad input, 130 interrupted.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence

from exact import cli
from exact.bfs import layer_counts
from exact.cli.options import add_puzzle_options, puzzle_from

MAX_DEPTH = 64


def main(argv: Sequence[str] | None = None) -> int:
    p = cli.parser("python -m exact.cli.growth", "Count the states at each distance from a puzzle's goal.")
    add_puzzle_options(p, what="a registered puzzle or a definition file (PATH.tws)")
    p.add_argument("--depth", type=cli.count(0, MAX_DEPTH), required=True, help="the last distance to count")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    puzzle = puzzle_from(args)
    t0 = time.perf_counter()
    counts = layer_counts(puzzle.table, puzzle.goal, args.depth, progress=not args.no_progress and not args.json)
    seconds = time.perf_counter() - t0
    if args.json:
        doc = {"puzzle": puzzle.name, "metric": puzzle.table.description, "counts": counts, "total": sum(counts),
               "seconds": round(seconds, 3)}  # fmt: skip
        print(json.dumps(doc))
        return cli.EXIT_OK
    print(f"{puzzle.table.description}: {puzzle.table.num_moves} moves")
    total = 0
    for d, c in enumerate(counts):
        total += c
        print(f"{d:3d} {c:15,d} {total:17,d}")
    if len(counts) <= args.depth:
        print(f"every state is within {len(counts) - 1} moves ({total:,} states)")
    print(f"{seconds:.2f} s")
    return cli.EXIT_OK


__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(cli.run(main))
