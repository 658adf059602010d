"""``python -m exact.freecell --deal 11982``: solve a FreeCell deal or prove it unsolvable.

Examples::

    python -m exact.freecell --deal 1                       # a solution in standard notation
    python -m exact.freecell --deal 11982                   # exit 3: proven unsolvable
    python -m exact.freecell --deal 617 --freecells 3 --time-limit 60 --json
    python -m exact.freecell --board board.txt              # fc-solve's board format; - reads stdin

Exit codes: 0 solved, 2 bad input, 3 proven unsolvable, 4 limit reached.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from exact import cli, solvers
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.puzzles.freecell import MAX_FREECELLS, FreeCellPuzzle, format_board, ms_deal
from exact.puzzles.freecell.svg import board_svg
from exact.puzzles.freecell.text import parse_board, read_board_file

_PER_LINE = 10  # moves per line of the human report


def _parser():
    p = cli.parser("python -m exact.freecell", "Solve a FreeCell deal, or prove it unsolvable, by exhaustive search.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--deal", type=int, help="Microsoft deal number, 1..2147483647")
    src.add_argument("--board", help="a board file in fc-solve's format ('-' reads standard input)")
    src.add_argument("--state", help="the board itself in fc-solve's format (one line per column, as --board's file)")
    p.add_argument("--freecells", type=int, default=4, help=f"free cells, 0..{MAX_FREECELLS} (default 4)")
    cli.add_svg(p, "the board")
    return p, add_solve_flags(p, PRESET)


PRESET = Preset(method="freecell", per="board", older={"stored": "--max-states"})
"""``exact.freecell``: the one solve command with the method fixed (its limits: time, stored)."""


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = _parser()
    args = p.parse_args(argv)
    _, limits, options = solve_settings(args, PRESET, flags)
    svg_path = cli.svg_target(args)
    if args.deal is not None:
        board, what = ms_deal(args.deal, args.freecells), f"Microsoft deal {args.deal}"
    elif args.state is not None:
        board, what = parse_board(args.state, args.freecells), "the board given"
    else:
        board, what = read_board_file(args.board, args.freecells), f"board {args.board}"
    cli.write_svg(svg_path, board_svg(board))
    puzzle = FreeCellPuzzle(args.freecells)
    start = board if args.deal is None else args.deal  # a deal number: the result records it
    res = solvers.solve(puzzle, start, method="freecell", limits=limits, **options)
    if args.json:
        print(res.to_json(board=format_board(board), freecells=args.freecells))
        return res.exit_code
    print(f"{what}, {args.freecells} free cells:")
    print(format_board(board), end="")
    states = f"{res.extra['states']} distinct positions"
    if res.length is not None:
        print(f"{res.solver}: {res.status.value}, {res.length} moves ({states} searched)")
        for i in range(0, len(res.moves), _PER_LINE):
            print(" ".join(res.moves[i : i + _PER_LINE]))
    elif "proof" in res.extra:
        print(f"{res.solver}: {res.status.value}: {res.extra['proof']} ({states}; {res.extra['moves_searched']})")
    else:
        print(f"{res.solver}: {res.status.value}, stopped by {res.extra['stopped_by']} ({states})")
    print(f"{res.seconds:.3f} s")
    return res.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
