"""``python -m exact.sokoban --level FILE[:N]``: a move-optimal (or push-optimal) Sokoban solution.

Examples::

    python -m exact.sokoban --level boxoban-test:0
    python -m exact.sokoban --level levels.txt:7 --optimize pushes --json
    python -m exact.sokoban --level hard.xsb --time-limit 60

``FILE`` is an XSB/Boxoban text file; ``N`` is the level's ``; N`` header (Boxoban numbers from 0)
or, without headers, its position from 0. The solution is printed in LURD (lower case walks,
upper case pushes). Exit codes (:mod:`exact.cli`): 0 solved, 2 bad input, 3 proven unsolvable,
4 limit reached (the proven lower bound is printed).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from exact import cli, registry, solvers
from exact.cli.flags import MethodFlags
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.kernels import notice_first_compile
from exact.puzzles.sokoban import format_level, load_level, parse_level
from exact.puzzles.sokoban.svg import level_svg
from exact.sokoban import search


def _parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.parser("python -m exact.sokoban", "Move-optimal or push-optimal Sokoban solutions by A*, proven.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--level", help="FILE[:N]: a level file and the level's number (its '; N' header)")
    src.add_argument("--state", help="the level itself in its text (XSB: # walls, @ the player, $ boxes, . goals)")
    cli.add_svg(p, "the level")
    return p, add_solve_flags(p, PRESET)


PRESET = Preset(method="sokoban", defaults={"progress": True})
"""``exact.sokoban``: the one solve command with the method fixed (its limits: time, nodes, stored)."""


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = _parser()
    args = p.parse_args(argv)
    _, limits, options = solve_settings(args, PRESET, flags)
    svg_path = cli.svg_target(args)
    level = load_level(args.level) if args.level is not None else parse_level(args.state, "--state")
    cli.write_svg(svg_path, level_svg(level))
    notice_first_compile(search)
    puzzle = registry.get("sokoban", height=level.height, width=level.width, boxes=len(level.boxes))
    res = solvers.solve(puzzle, puzzle.state_of(level), method="sokoban", limits=limits, **options)
    if args.json:
        print(res.to_json(level=args.level, xsb=format_level(level)))
        return res.exit_code
    print(f"{level.where} ({level.height}x{level.width}, {len(level.boxes)} boxes):")
    print(format_level(level))
    status = res.status.value
    if res.status.has_solution:
        kind = "pushes optimal" if res.extra.get("pushes_optimal") else f"{status}"
        print(f"solution ({kind}): {res.extra['lurd'] or '(none needed: already solved)'}")
        print(f"moves {res.extra['moves']}, pushes {res.extra['pushes']}, status {status}")
    elif "proof" in res.extra:
        print(f"status {status}: {res.extra['proof']}")
    else:
        unit = res.extra.get("bound_in", "moves")
        print(f"status {status} ({res.extra.get('limit', '')}): no solution has fewer than {res.lower_bound} {unit}")
    print(f"nodes {res.nodes:,} expanded ({res.extra.get('generated', 0):,} generated), {res.seconds:.3f} s")
    return res.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
