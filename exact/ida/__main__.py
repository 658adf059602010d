"""``python -m exact.ida``: optimal solutions by IDA* with pattern databases (tiles, the 3x3x3).

Examples::

    python -m exact.ida --puzzle tiles15 --tiles "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    python -m exact.ida --puzzle tiles15 --instances korf100.tsv --heuristic pdb-663 --json
    python -m exact.ida --puzzle cube3 --scramble "R U F' L2 D B'" --metric htm
    python -m exact.ida --puzzle cube2 --scramble "R U F' L2 D B'" --metric qtm   # a table walk

``--instances`` reads one board per line (the tiles as numbers; a TSV with a ``tiles`` column and
an optional ``optimal_length`` column, checked when present), shows a progress bar and ends with
a summary table; with ``--json`` it prints JSON Lines: one object per board (the result, its
``id`` and ``known_optimal``), then one ``{"summary": {...}}`` record. Ctrl-C reports the boards
solved so far (the table, or the summary record) and exits 130. Exit codes: 0 every board
solved, 2 bad input, 3 a board is unsolvable, 4 a limit was reached (or a known optimal length
was not matched: never expected, and loud), 130 interrupted.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from collections.abc import Sequence

from tqdm import tqdm

from exact import cli, registry
from exact.errors import PuzzleoptError
from exact.ida.solve import ida_cube, ida_tiles
from exact.ida.walk import solve_cube2
from exact.pdb.catalog import default_tile_heuristic, tile_heuristic
from exact.result import Status
from exact.userfiles import output_folder
from instances.files import parse_states, read_instances


def _parser():
    p = cli.parser("python -m exact.ida", "Optimal solutions by IDA* with pattern databases: sliding tiles, the cube.")
    p._option_string_actions["--json"].help = (
        "print JSON: one object for a board; JSON Lines for --instances (one per board, then a summary record)"
    )
    p.add_argument("--puzzle", required=True, help="tiles8, tiles15, ... (Korf's goal: blank first) or cube3")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--tiles", help='the board, row-major, blank = 0, e.g. "1 0 2 3 4 5 6 7 8"')
    src.add_argument("--scramble", help="cube2/cube3: start from the solved cube turned by these face moves")
    src.add_argument("--facelets", help="cube2/cube3: the start as facelets (kociemba's URFDLB), centres home")
    p.add_argument("--metric", default="htm", choices=["htm", "qtm"], help="cube2/cube3: the metric (default htm)")
    src.add_argument("--instances", metavar="FILE", help="a file of boards: one per line, or a TSV with a tiles column")
    p.add_argument(
        "--heuristic",
        help="manhattan, manhattan-lc or pdb-<partition> (default: pdb-44 / pdb-663 / pdb-6666 by board)",
    )
    p.add_argument("--no-mirror", action="store_true", help="pattern databases without the reflected lookup")
    p.add_argument("--pdb-dir", help="where pattern databases are kept (default: the user cache)")
    p.add_argument("--time-limit", type=cli.seconds, help="seconds per board (default: none)")
    p.add_argument("--node-limit", type=cli.count(1), help="generated nodes per board (default: none)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    return p


def _cube(args) -> int:
    if args.tiles is not None or args.instances is not None:
        raise PuzzleoptError(f"--puzzle {args.puzzle} takes --scramble or --facelets, not --tiles or --instances")
    puzzle = registry.get(args.puzzle, moves="faces", metric=args.metric)
    if args.scramble is not None:
        start = puzzle.table.apply(puzzle.goal, args.scramble)
    else:
        start = puzzle.parse_state(args.facelets)
    if args.puzzle == "cube2":  # a walk of at most 14 steps: no limit can bind
        res = solve_cube2(puzzle, start, pdb_dir=args.pdb_dir, progress=not args.no_progress)
    else:
        res = ida_cube(
            puzzle,
            start,
            pdb_dir=args.pdb_dir,
            time_limit=args.time_limit,
            node_limit=args.node_limit,
            progress=not args.no_progress,
        )
    if args.json:
        print(res.to_json(scramble=args.scramble, facelets=puzzle.format_state(start)))
    else:
        how = "its complete distance table" if args.puzzle == "cube2" else "Korf's tables"
        print(
            f"{puzzle.table.description} with {how}: {res.status.value}, "
            + (f"{res.length} moves" if res.length is not None else f"proven lower bound {res.lower_bound}")
        )
        print(" ".join(res.moves))
        print(f"nodes {res.nodes:,}, {res.seconds:.3f} s")
    return res.status.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.pdb_dir is not None:
        output_folder(args.pdb_dir, "--pdb-dir")
    if args.puzzle in ("cube2", "cube3"):
        return _cube(args)
    if args.scramble is not None or args.facelets is not None:
        raise PuzzleoptError(f"--scramble and --facelets are for --puzzle cube3, not {args.puzzle}")
    puzzle = registry.get(args.puzzle)
    if not hasattr(puzzle, "goal_kind"):
        raise PuzzleoptError(
            f"--puzzle {args.puzzle}: exact.ida solves tile puzzles (tiles8, tiles15, ...), cube2 and cube3"
        )
    rows, cols = puzzle.rows, puzzle.cols
    name = args.heuristic or default_tile_heuristic(rows, cols)
    # Read every board before loading (or building) any table, so bad input fails at once.
    boards = [("1", puzzle.parse_state(args.tiles), None)] if args.tiles is not None else None
    if boards is None:
        items = read_instances(args.instances)
        states = parse_states(puzzle, items, args.instances)
        boards = [(x.id, s, x.optimal) for x, s in zip(items, states)]
    h = tile_heuristic(name, rows, cols, pdb_dir=args.pdb_dir, mirror=not args.no_mirror, progress=not args.no_progress)
    if args.tiles is not None:
        res = ida_tiles(puzzle, boards[0][1], h, time_limit=args.time_limit, node_limit=args.node_limit)
        if args.json:
            print(res.to_json())
        else:
            if res.length is None:
                why = res.extra.get("proof", f"proven lower bound {res.lower_bound}")
                print(f"{puzzle.name} with {h.name}: {res.status.value} ({why})")
            else:
                print(f"{puzzle.name} with {h.name}: {res.status.value}, {res.length} moves")
                print(" ".join(res.moves))
            print(f"nodes {res.nodes:,}, {res.seconds:.3f} s")
        return res.status.exit_code
    results, worst, interrupted = [], cli.EXIT_OK, False
    try:
        for ident, board, known in tqdm(
            boards, disable=args.no_progress, desc=f"{puzzle.name} {h.name}", file=sys.stderr
        ):
            res = ida_tiles(puzzle, board, h, time_limit=args.time_limit, node_limit=args.node_limit)
            mismatch = known is not None and res.status is Status.OPTIMAL and res.length != known
            results.append((ident, res, known, mismatch))
            code = cli.EXIT_LIMIT if mismatch else res.status.exit_code
            worst = max(worst, code)
            if args.json:
                print(res.to_json(id=ident, known_optimal=known), flush=True)
    except KeyboardInterrupt:  # report what was solved; the exit code says it was cut short
        interrupted, worst = True, cli.EXIT_INTERRUPTED
        print(f"interrupted after {len(results)} of {len(boards)} boards", file=sys.stderr)
    summary = _summary(results, len(boards), interrupted)
    if args.json:
        print(json.dumps({"summary": summary}))
        return worst
    print(f"{'id':>6} {'length':>6} {'known':>6} {'status':>9} {'nodes':>14} {'seconds':>9}")
    for ident, res, known, mismatch in results:
        flag = "  MISMATCH" if mismatch else ""
        print(
            f"{ident:>6} {res.length if res.length is not None else '-':>6} {known if known else '-':>6} "
            f"{res.status.value:>9} {res.nodes:>14,} {res.seconds:>9.3f}{flag}"
        )
    secs = summary["seconds"]
    print(
        f"{summary['optimal']}/{summary['boards']} optimal{' (interrupted)' if interrupted else ''}; "
        f"{secs:.2f} s in all (median {summary['median_seconds'] or 0:.3f} s), {summary['nodes']:,} nodes, "
        f"{summary['nodes'] / max(secs, 1e-9) / 1e6:.2f} M nodes/s"
    )
    return worst


def _summary(results: list, planned: int, interrupted: bool) -> dict:
    """The summary record of an ``--instances`` run."""
    secs = [r.seconds for _, r, _, _ in results]
    return {
        "boards": len(results),
        "planned": planned,
        "interrupted": interrupted,
        "optimal": sum(r.status is Status.OPTIMAL for _, r, _, _ in results),
        "statuses": dict(Counter(r.status.value for _, r, _, _ in results)),
        "mismatches": [ident for ident, _, _, mismatch in results if mismatch],
        "seconds": sum(secs),
        "median_seconds": statistics.median(secs) if secs else None,
        "nodes": sum(r.nodes or 0 for _, r, _, _ in results),
    }


if __name__ == "__main__":
    sys.exit(cli.run(main))
