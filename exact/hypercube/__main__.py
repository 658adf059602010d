"""``python -m exact.hypercube solve|analyse``: optimal solutions and configuration graphs.

Exit codes (:mod:`exact.cli`): 0 solved (or analysed), 2 bad input, 3 proven unsolvable, 4 limit.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict

from exact import cli, solvers
from exact.cli.flags import MethodFlags
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.hypercube.analyse import MAX_PLACEMENTS, analyse
from exact.hypercube.solve import DEFAULT_MAX_STATES
from exact.puzzles.hypercube import HypercubePuzzle, instance_names, load_instance

PRESET = Preset(method="hypercube", limits=("time",))
"""``exact.hypercube solve``: the one solve command with the method fixed (``--stored-limit``
spelt here with its older name ``--max-states``)."""


def parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.OneLineParser(
        prog=cli.typed("python -m exact.hypercube"),
        description="The cubical sliding puzzle (d, k, l): optimal solutions and configuration graphs.",
        epilog=cli.EPILOG,
    )
    cli.add_verbosity(p)
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="a shortest solution by bidirectional BFS, or a proof of unsolvability")
    shipped = ", ".join(instance_names())
    s.add_argument("--instance", required=True, help=f"a shipped instance ({shipped}) or a JSON file of one")
    s.add_argument("--k", type=int, required=True, help="dimension of the faces rings slide in (1..d)")
    s.add_argument("--state", help="the start in the puzzle's text (default: the instance's start)")
    s.add_argument(
        "--stored-limit",
        "--max-states",
        dest="stored_limit",
        type=cli.count(1),
        help=f"most configurations kept (memory; default {DEFAULT_MAX_STATES:,}; --max-states: its older name)",
    )
    s.add_argument("--json", action="store_true", help="print one JSON object instead of the human report")
    flags = add_solve_flags(s, PRESET)
    a = sub.add_parser("analyse", help="components and diameters of the configuration graph (networkx)")
    a.add_argument("--d", type=int, required=True, help="dimension of the cube")
    a.add_argument("--k", type=int, required=True, help="dimension of the faces rings slide in")
    a.add_argument("--l", type=int, required=True, help="number of empty vertices (2^d - l rings)")
    a.add_argument(
        "--max-placements",
        "--max-nodes",
        dest="max_placements",
        type=cli.count(1),
        default=MAX_PLACEMENTS,
        help="refuse graphs of more placements (the graph's nodes; --max-nodes: its older name)",
    )
    a.add_argument("--json", action="store_true", help="print one JSON object instead of the human report")
    return p, flags


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = parser()
    args = p.parse_args(argv)
    if args.command == "analyse":
        report = analyse(args.d, args.k, args.l, args.max_placements)
        if args.json:
            print(json.dumps(asdict(report)))
            return cli.EXIT_OK
        sizes = report.component_sizes
        print(
            f"(d={report.d}, k={report.k}, l={report.l}): {report.rings} rings, {report.nodes:,} placements, "
            f"{report.edges:,} slides"
        )
        print(f"components: {len(sizes):,} (largest {sizes[0]:,}; {report.isolated:,} placements with no slide)")
        shown = sorted({(s, dm) for s, dm in zip(sizes, report.diameters) if s > 1}, reverse=True)[:10]
        for size, diameter in shown:
            print(f"  size {size:,}: diameter {diameter} ({sizes.count(size):,} such)")
        print(f"God's number (largest diameter): {report.gods_number}")
        return cli.EXIT_OK
    instance = load_instance(args.instance)
    puzzle = HypercubePuzzle.from_instance(instance, args.k)
    start = instance.state("start") if args.state is None else puzzle.parse_state(args.state)
    _, limits, options = solve_settings(args, PRESET, flags)
    result = solvers.solve(puzzle, start, method="hypercube", limits=limits, **options)
    if args.json:
        print(result.to_json(instance=instance.name, d=instance.d, l=instance.l, colours=instance.colours))
        return result.exit_code
    print(f"{instance.name}: d={instance.d}, k={args.k}, l={instance.l}, {puzzle.num_rings} rings")
    print(f"start:  {puzzle.format_state(start)}")
    print(f"target: {puzzle.format_state(puzzle.goal)}")
    if result.status.has_solution:
        print(f"solution ({result.length} slides, {result.status.value}): {' '.join(result.moves)}")
    elif result.status.value == "unsolvable":
        side, other = ("start", "target") if result.extra["exhausted"] == "start" else ("target", "start")
        print(
            f"unsolvable: the {side}'s component holds {result.extra['component_size']:,} placements and the "
            f"{other} is not among them"
        )
    else:
        print(f"limit reached: no solution of fewer than {result.lower_bound} slides")
    print(f"{result.nodes:,} configurations expanded, {result.extra['states_seen']:,} seen, {result.seconds:.2f} s")
    return result.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
