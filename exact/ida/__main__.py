"""``python -m exact.ida``: optimal solutions by IDA* with pattern databases (tiles, the 3x3x3).

Examples::

    python -m exact.ida --puzzle tiles15 --tiles "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
    python -m exact.ida --puzzle tiles15 --instances korf100.tsv --heuristic pdb-663 --json
    python -m exact.ida --puzzle cube3 --scramble "R U F' L2 D B'" --metric htm --threads 2
    python -m exact.ida --puzzle cube2 --scramble "R U F' L2 D B'" --metric qtm   # a table walk

``--instances`` reads one board per line (the tiles as numbers; a TSV with a ``tiles`` column and
an optional ``optimal_length`` column, checked when present), shows a progress bar and ends with
a summary table; with ``--json`` it prints JSON Lines: one object per board (the result, its
``id`` and ``known_optimal``), then one ``{"summary": {...}}`` record. ``--out DIR`` keeps each
result in ``DIR/results.jsonl`` as it arrives; ``--resume`` continues such a run. The boards run
here (default), in ``--workers N`` processes or on Ray (``--ray``; :mod:`exact.executor`). Ctrl-C
reports the boards solved so far (the table, or the summary record) and exits 130. Exit codes: 0 every board
solved, 2 bad input, 3 a board is unsolvable, 4 a limit was reached (or a known optimal length
was not matched: never expected, and loud), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from collections.abc import Sequence

from exact import cli, registry, solvers
from exact.batch import solve_file
from exact.cli.flags import MethodFlags, flag_name
from exact.cli.options import (
    add_executor_options,
    add_first_option,
    add_goal_option,
    add_resume_option,
    check_file_flags,
    executor_from,
    goal_from,
    instances_from,
    method_options_from,
)
from exact.cli.solve import Preset, add_solve_flags
from exact.errors import PuzzleoptError, first_line
from exact.result import Status
from exact.userfiles import output_folder
from instances.files import parse_states
from instances.sets import INSTANCES_HELP


def _parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.parser("python -m exact.ida", "Optimal solutions by IDA* with pattern databases: sliding tiles, the cube.")
    p._option_string_actions[
        "--json"
    ].help = "print JSON: one object for a board; JSON Lines for --instances (one per board, then a summary record)"
    p.add_argument("--puzzle", required=True, help="tiles8, tiles15, ... (Korf's goal: blank first) or cube3")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--state", help="the start in the puzzle's own text: a board or facelets (as --tiles, --facelets)")
    src.add_argument("--tiles", help='the board, row-major, blank = 0, e.g. "1 0 2 3 4 5 6 7 8"')
    src.add_argument("--scramble", help="cube2/cube3: start from the solved cube turned by these face moves")
    src.add_argument("--facelets", help="cube2/cube3: the start as facelets (kociemba's URFDLB), centres home")
    p.add_argument("--metric", default="qtm", choices=["htm", "qtm"], help="cube2/cube3: the metric (default qtm)")
    add_goal_option(p)
    src.add_argument("--instances", metavar="FILE|SET", help=INSTANCES_HELP)
    add_first_option(p)
    p.add_argument("--pdb-dir", type=cli.path, help="where pattern databases are kept (default: the user cache)")
    p.add_argument(
        "--cube-table",
        choices=sorted(CUBE_TABLES),
        help="cube3: the pruning table by its older name (flipslicesorted: --edge slicesorted, 1.67 GB, built once "
        "in minutes; flipslice: --edge slice, 70 MB, seconds, many times the nodes)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--out", type=cli.path, help="--instances: keep each result in DIR/results.jsonl as it arrives")
    add_executor_options(p)
    add_resume_option(p)
    # the limits and the methods' own flags (--heuristic, --mirror, --edge, --threads), as declared
    return p, add_solve_flags(p, PRESET)


IDA_METHODS = ("cube3-optimal", "ida*", "ida*-goal", "table-walk")
"""The registered methods this command runs, the first that applies (:mod:`exact.solvers`): IDA*
where it applies (the 3x3x3's own, :mod:`exact.cube.optimal`; to a ``--goal``,
:mod:`exact.goals`), else a complete distance table (the 2x2x2, whose colours give IDA* no
projection)."""

PRESET = Preset(methods=IDA_METHODS, choose=False, limits=("time", "node"))
"""``exact.ida``: the one solve command with the method the puzzle's IDA* (or table) decides."""

CUBE_TABLES = {"flipslicesorted": "slicesorted", "flipslice": "slice"}
"""``--cube-table`` -> the ``edge`` option of ``cube3-optimal``."""


def _puzzle(args):
    puzzle = registry.get(args.puzzle)
    if "metric" in puzzle.table.metadata:  # a puzzle with metrics: face moves in the one asked for
        puzzle = registry.get(args.puzzle, moves="faces", metric=args.metric)
    return puzzle


def _method(puzzle) -> str:
    for name in IDA_METHODS:
        if solvers.get_method(name, puzzle).fits(puzzle):
            return name
    if getattr(puzzle, "partial_goal", None) is not None:
        try:
            puzzle.pinned  # noqa: B018 - the pieces the mask fixes; its error says why IDA* cannot search
        except PuzzleoptError as exc:
            raise PuzzleoptError(
                f"--goal {puzzle.goal_label[:80]!r}: IDA* searches to goals that fix whole pieces, and "
                f"{first_line(exc)}; python -m exact.cpsat and exact.mip take any mask"
            ) from None
    raise PuzzleoptError(
        f"--puzzle {puzzle.name}: exact.ida solves the puzzles one of {', '.join(IDA_METHODS)} applies to, "
        "not this one; try python -m exact.solve --list-methods"
    )


def _options(args, flags: MethodFlags, puzzle, method: str) -> dict:
    """The method options the flags given set; a flag the chosen method takes no option for is an error."""
    if args.cube_table is not None:
        if args.edge is not None:
            raise PuzzleoptError("--cube-table is the older name of --edge; give one of the two")
        args.edge = CUBE_TABLES[args.cube_table]
    try:
        takes = solvers.get_method(method, puzzle).option_names
        given = flags.given_for(args, method, f"{puzzle.name}'s method", takes=takes)
    except PuzzleoptError as exc:
        flag = "--cube-table" if args.cube_table is not None and "--edge" in str(exc) else None
        raise PuzzleoptError(str(exc).replace("--edge", flag) if flag else str(exc)) from None
    named = method_options_from(args)  # --method-option NAME=VALUE, as in exact.solve
    if both := sorted(set(given) & set(named)):
        raise PuzzleoptError(f"--method-option {both[0]}= repeats --{flag_name(both[0])}; give one of the two")
    return given | named


def _boards(args, puzzle) -> list[tuple[str, object, int | None]]:
    """Every start, read before any table is loaded (or built), so that bad input fails at once:
    ``(id, state, known optimal length)``."""
    if args.instances is not None:
        items = instances_from(args)
        states = parse_states(puzzle, items, args.instances)
        return [(x.id, s, x.optimal) for x, s in zip(items, states)]
    if args.scramble is not None:
        return [("1", puzzle.table.apply(puzzle.goal, puzzle.table.parse(args.scramble, puzzle.goal)), None)]
    text = next(x for x in (args.state, args.tiles, args.facelets) if x is not None)
    return [("1", puzzle.parse_state(text), None)]


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = _parser()
    args = p.parse_args(argv)
    flags.values(args)
    if args.pdb_dir is not None:
        output_folder(args.pdb_dir, "--pdb-dir")
    puzzle = goal_from(_puzzle(args), args)
    method = _method(puzzle)
    options = {"pdb_dir": args.pdb_dir, "progress": not args.no_progress} | _options(args, flags, puzzle, method)
    limits = solvers.Limits(time=args.time_limit, nodes=args.node_limit)
    boards = _boards(args, puzzle)
    if args.instances is None:
        check_file_flags(args)
        res = solvers.solve(puzzle, boards[0][1], method=method, limits=limits, **options)
        if args.json:
            extra = (
                {"scramble": args.scramble, "facelets": puzzle.format_state(boards[0][1])}
                if args.tiles is None and not puzzle.name.startswith("tiles")
                else {}
            )
            print(res.to_json(**extra))
        else:
            how = res.settings.get("heuristic") or res.extra.get("proof") or method
            if res.length is None:
                why = res.extra.get("unsolvable") or res.extra.get("limit") or res.extra.get("proof")
                why = why or f"proven lower bound {res.lower_bound}"
                print(f"{puzzle.table.description} with {how}: {res.status.value} ({why})")
            else:
                print(f"{puzzle.table.description} with {how}: {res.status.value}, {res.length} moves")
                print(" ".join(res.moves))
            print(f"nodes {res.nodes or 0:,}, {res.seconds:.3f} s")
        return res.status.exit_code
    name = args.heuristic or method
    known = {ident: k for ident, _, k in boards}
    if args.goal is not None:
        known = dict.fromkeys(known)  # the file's optimal lengths are to the solved state

    def printed(ident, res):
        if args.json:
            print(res.to_json(id=ident, known_optimal=known[ident]), flush=True)

    boards = [(i, b, known[i]) for i, b, _ in boards]
    run = solve_file(
        puzzle, method, limits, options, boards, executor=executor_from(args), out=args.out, resume=args.resume,
        on_result=printed, progress=not args.no_progress, desc=f"{puzzle.name} {name}",
    )  # fmt: skip
    interrupted = run.interrupted
    if interrupted:
        print(f"interrupted after {len(run.results)} of {len(boards)} boards", file=sys.stderr)
    results, worst = [], cli.EXIT_INTERRUPTED if interrupted else cli.EXIT_OK
    for ident, _, _ in boards:
        if ident in run.results:
            res, k = run.results[ident], known[ident]
            mismatch = k is not None and res.status is Status.OPTIMAL and res.length != k
            results.append((ident, res, k, mismatch))
            worst = max(worst, cli.EXIT_LIMIT if mismatch else res.status.exit_code)
    summary = _summary(results, len(boards), interrupted)
    if args.json:
        print(json.dumps({"summary": summary}))
        return worst
    print(f"{'id':>6} {'length':>6} {'known':>6} {'status':>10} {'nodes':>14} {'seconds':>9}")
    for ident, res, known, mismatch in results:
        flag = "  MISMATCH" if mismatch else ""
        print(
            f"{ident:>6} {res.length if res.length is not None else '-':>6} {known if known else '-':>6} "
            f"{res.status.value:>10} {_count(res.nodes):>14} {res.seconds:>9.3f}{flag}"
        )
    secs = summary["seconds"]
    wrong = len(summary["mismatches"])
    print(
        f"{summary['optimal']}/{summary['boards']} optimal{f', {wrong} MISMATCH' if wrong else ''}"
        f"{' (interrupted)' if interrupted else ''}; "
        f"{secs:.2f} s in all (median {summary['median_seconds'] or 0:.3f} s), {summary['nodes']:,} nodes, "
        f"{summary['nodes'] / max(secs, 1e-9) / 1e6:.2f} M nodes/s"
    )
    return worst


def _count(n: int | None) -> str:
    """A node count for the table: ``-`` where none was counted (unsolvable before any search,
    a set-up that did not fit)."""
    return "-" if n is None else f"{n:,}"


def _summary(results: list, planned: int, interrupted: bool) -> dict:
    """The summary record of an ``--instances`` run."""
    secs = [r.seconds for _, r, _, _ in results]
    return {
        "boards": len(results),
        "planned": planned,
        "interrupted": interrupted,
        # a length the file contradicts is not counted as optimal: one of the two is wrong
        "optimal": sum(r.status is Status.OPTIMAL and not mismatch for _, r, _, mismatch in results),
        "statuses": dict(Counter(r.status.value for _, r, _, _ in results)),
        "mismatches": [ident for ident, _, _, mismatch in results if mismatch],
        "seconds": sum(secs),
        "median_seconds": statistics.median(secs) if secs else None,
        "nodes": sum(r.nodes or 0 for _, r, _, _ in results),
    }


if __name__ == "__main__":
    sys.exit(cli.run(main))
