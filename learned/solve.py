"""``python -m learned.solve --puzzle tiles8 --tiles "..."``: BWAS with a learned cost-to-go.

The start is ``--state`` (the puzzle's text form; ``--tiles`` and ``--facelets`` are the same
thing by their usual names), ``--scramble`` (moves from the goal) or ``--instances FILE`` (see
:mod:`instances.files`; a progress bar and a summary table). The network is the shipped one
(:func:`learned.models.load`) unless ``--model`` names a ``model.safetensors`` from
``python -m learned.train``. Reports the length, nodes, seconds and nodes per second; a learned
solution is ``feasible``, never claimed optimal.

Exit codes: 0 solved, 2 bad input, 4 limit reached without a solution.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from exact import cli
from learned.bwas import bwas
from learned.evaluate import main as evaluate_main
from learned.loading import heuristic_from_args, load_heuristic, parser_with_search, search_settings

__all__ = ["heuristic_from_args", "load_heuristic", "main", "parser_with_search", "search_settings"]


def main(argv: Sequence[str] | None = None) -> int:
    p = parser_with_search("python -m learned.solve", __doc__.splitlines()[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--state", help="the start in the puzzle's text form")
    src.add_argument("--tiles", dest="state", help="a tile board, e.g. '1 2 0 3 ...' (same as --state)")
    src.add_argument("--facelets", dest="state", help="cube facelets, URFDLB order (same as --state)")
    src.add_argument("--scramble", help="moves applied to the goal")
    src.add_argument("--instances", help="a file of starts (one per line, or a TSV)")
    args = p.parse_args(argv)
    if args.instances is not None:
        return evaluate_main(argv)
    puzzle, heuristic = heuristic_from_args(args)
    if args.scramble is not None:
        start = puzzle.table.apply(puzzle.goal, puzzle.table.parse(args.scramble, start=puzzle.goal))
    else:
        start = puzzle.parse_state(args.state)
    settings = search_settings(args, heuristic.card)
    res = bwas(puzzle, start, heuristic, **settings)
    rate = (res.nodes or 0) / res.seconds if res.seconds > 0 else 0.0
    if args.json:
        print(res.to_json(nodes_per_second=round(rate)))
    else:
        moves = " ".join(res.moves) if res.moves else "-"
        if res.extra.get("unsolvable"):
            print(f"{puzzle.table.description}: unsolvable: {res.extra['unsolvable']}")
            return res.exit_code
        print(
            f"{puzzle.table.description}: {res.status.value}: {res.length if res.length is not None else '-'} "
            f"moves: {moves}\n"
            f"{res.nodes:,} nodes expanded ({res.extra.get('generated', 0):,} generated) in {res.seconds:.2f} s, "
            f"{rate:,.0f} nodes/s; lambda {settings['weight']}, batch {settings['batch']}"
        )
    return res.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
