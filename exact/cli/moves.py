"""``python -m exact.moves``: show a cube move table, apply a scramble, export the table (the
command of :mod:`exact.moves`, kept in the CLI layer so that the library module imports none of it).

Exit codes: 0 done, 2 bad input.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from exact import cli
from exact.puzzles.cube.moves import cube_moves
from exact.userfiles import output_file


def main(argv: Sequence[str] | None = None) -> int:
    """Show a cube move table, apply a scramble, export the table (see the module docstring)."""
    from exact.cube.export import to_json, to_lm_csv, write_atomic
    from exact.puzzles.cube import net, scramble, solved_state, to_facelets

    p = cli.parser("python -m exact.moves", "Show, apply and export an NxNxN cube move table.")
    p.add_argument("--size", type=int, default=3, help="cube size n (default 3)")
    p.add_argument("--moves", default="faces", choices=["faces", "layers", "wide"], help="move set (default faces)")
    p.add_argument("--metric", default="qtm", choices=["qtm", "htm"], help="metric (default qtm)")
    p.add_argument("--scramble", help="a move sequence to apply, e.g. \"R U R' U'\"")
    p.add_argument(
        "--scramble-length",
        type=cli.count(0, cli.MAX_SCRAMBLE),
        default=0,
        help="apply a random scramble of this length",
    )
    p.add_argument("--seed", type=cli.count(0), default=0, help="seed of the random scramble (default 0)")
    p.add_argument("--export-json", metavar="FILE", help="write the move table as JSON")
    p.add_argument("--export-csv", metavar="FILE", help="write the case study's lm(m,f_i,r_i,c_i,f_j,r_j,c_j) CSV")
    p.add_argument("--include-fixed", action="store_true", help="CSV: list facelets a move leaves in place too")
    p.add_argument("--color", action="store_true", help="draw the net with ANSI colours")
    cli.add_svg(p, "the net")
    args = p.parse_args(argv)
    svg_path = cli.svg_target(args)

    table = cube_moves(args.size, args.moves, args.metric)
    start = solved_state(args.size)
    if args.scramble is not None:
        seq = table.parse(args.scramble)
        text = table.format(seq)
        state = table.apply(start, seq)
    else:
        state, text = scramble(
            args.size, args.scramble_length, np.random.default_rng(args.seed), args.moves, args.metric
        )
    written: list[str] = []
    if args.export_json is not None:
        written.append(str(write_atomic(output_file(args.export_json, "--export-json"), to_json(table))))
    if args.export_csv is not None:
        path = output_file(args.export_csv, "--export-csv")
        written.append(str(write_atomic(path, to_lm_csv(table, args.include_fixed))))
    if svg_path is not None:
        from exact.puzzles.cube.svg import net_svg

        cli.write_svg(svg_path, net_svg(state, args.size))
        written.append(str(svg_path))
    if args.json:
        print(
            json.dumps(
                {
                    "table": table.description,
                    "moves": list(table.names),
                    "scramble": text,
                    "facelets": to_facelets(state),
                    "written": written,
                }
            )
        )
        return cli.EXIT_OK
    print(f"{table.description}: {table.num_moves} moves over {table.num_positions} facelets")
    print("moves:", " ".join(table.names))
    print(f"scramble ({len(text.split())} moves): {text or '(none)'}")
    print(net(state, args.size, color=args.color))
    print("facelets:", to_facelets(state))
    for name in written:
        print("wrote", name)
    return cli.EXIT_OK


__all__ = ["main"]
