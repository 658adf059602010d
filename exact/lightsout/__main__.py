"""``python -m exact.lightsout --size 7 --lights 0101...``: the fewest presses that turn every light off.

Examples::

    python -m exact.lightsout --size 7 --lights 1100010001010001111001111100000101101101001011001
    python -m exact.lightsout --rows 3 --cols 4 --lights "1010 0110 1111" --method cpsat --json
    python -m exact.lightsout --size 5 --lights 1000000000000000000000000      # exit 3: unsolvable

The lights are row-major, ``1`` lit (whitespace ignored). Presses are named like chess squares
(``a1`` top-left). Exit codes: 0 solved, 2 bad input, 3 unsolvable, 4 limit reached.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from exact import cli
from exact.cli.flags import MethodFlags
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.lightsout.solve import METHODS, get_method, solve_lightsout
from exact.puzzles.lightsout import LightsOutPuzzle, draw_lights, format_lights
from exact.puzzles.lightsout.svg import board_svg


def _parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.parser("python -m exact.lightsout", "Fewest presses that turn a Lights Out board off, proven.")
    p.add_argument("--size", type=int, default=7, help="side of a square board (default 7, DeepCubeA's)")
    p.add_argument("--rows", type=int, help="board rows (default --size)")
    p.add_argument("--cols", type=int, help="board columns (default --size)")
    p.add_argument("--lights", "--state", dest="lights", required=True,
                   help="the lights, row-major, 1 lit and 0 off, e.g. 110001000 for 3x3 (--state: same)")  # fmt: skip
    p.add_argument(
        "--method",
        default="gf2",
        choices=list(METHODS),
        help="; ".join(f"{k}: {get_method(k).description}" for k in METHODS) + " (default gf2)",
    )
    cli.add_svg(p, "the board")
    return p, add_solve_flags(p, PRESET)


PRESET = Preset(methods=tuple(METHODS.values()), choose=False, limits=("time",), skip=("verbose",))
"""``exact.lightsout``: the one solve command over the three Lights Out methods (its own --method
takes their short names; -v shows the solver's log)."""


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = _parser()
    args = p.parse_args(argv)
    _, _, options = solve_settings(args, PRESET, flags)
    svg_path = cli.svg_target(args)
    rows = args.size if args.rows is None else args.rows
    cols = args.size if args.cols is None else args.cols
    puzzle = LightsOutPuzzle(rows, cols)
    lights = puzzle.lights(args.lights)
    cli.write_svg(svg_path, board_svg(lights))
    flags.given_for(args, args.method, "--method", takes=get_method(args.method).option_names)
    if args.verbose > 0 and args.method != "gf2":
        options["verbose"] = True
    res = solve_lightsout(puzzle, lights, method=args.method, time_limit=args.time_limit, **options)
    if args.json:
        print(res.to_json(lights=format_lights(lights), rows=rows, cols=cols))
        return res.exit_code
    print(f"{puzzle.name}, {int(lights.sum())} of {lights.size} lights on:")
    print(draw_lights(lights))
    if res.length is not None:
        print(f"{args.method}: {res.status.value}, {res.length} presses")
        print(" ".join(res.moves) or "(none: the lights are already off)")
    elif "proof" in res.extra:
        print(f"{args.method}: {res.status.value} ({res.extra['proof']})")
    else:
        bound = "no bound" if res.lower_bound is None else f"proven lower bound {res.lower_bound}"
        print(f"{args.method}: {res.status.value} ({bound})")
    print(f"{res.seconds:.3f} s")
    return res.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
