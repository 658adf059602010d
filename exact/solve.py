"""``python -m exact.solve``: any registered puzzle by any registered method (:mod:`exact.solvers`).

Examples::

    python -m exact.solve --puzzle pancake --option n=12 --state "3 1 2 5 4 6 7 8 9 10 12 11"
    python -m exact.solve --puzzle pyraminx --scramble "U L' R b" --method cp-sat --horizon 6
    python -m exact.solve --puzzle tiles15 --instances korf100.tsv --time-limit 60 --json
    python -m exact.solve --list-methods

The start is ``--state`` (the puzzle's own text), ``--scramble`` (moves applied to the goal) or
``--scramble-length`` (a seeded random walk). ``--instances`` reads a file of states (one per
line, or a TSV with a state column and an optional ``optimal_length``, checked when present).
``--json`` prints one result object per start (JSON Lines). A file's starts run here (default), in
``--workers N`` processes or on Ray (``--ray``; :mod:`exact.executor`); ``--out DIR`` keeps each
result in ``DIR/results.jsonl`` as it arrives and ``--resume`` continues such a run. Exit codes: 0 every start solved, 2
bad input, 3 a start is proven without a solution (within the horizon), 4 a limit was reached
(or a known optimal length was not matched), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import numpy as np

from exact import cli, registry, solvers
from exact.batch import add_resume_option, check_file_flags, solve_file
from exact.errors import PuzzleoptError
from exact.executor import add_executor_options
from exact.result import Status


def add_puzzle_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``--puzzle NAME`` (a registry key) and ``--option KEY=VALUE`` (its options, JSON values)."""
    p.add_argument("--puzzle", required=required, help="a registered puzzle: " + ", ".join(registry.names()))
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a puzzle option, repeatable; VALUE is JSON or plain text, e.g. n=12, burnt=true, tips=false",
    )


def options_from(args: argparse.Namespace) -> dict:
    """The puzzle options ``--option KEY=VALUE`` name (JSON values, else text)."""
    return _key_values(args.option, "--option", "n=12")


def add_method_options(p: argparse.ArgumentParser) -> None:
    """``--method-option KEY=VALUE``: options of the method (see ``--list-methods``)."""
    p.add_argument(
        "--method-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the method, repeatable; VALUE is JSON or plain text, e.g. edge=slice, threads=2",
    )


def method_options_from(args: argparse.Namespace) -> dict:
    """The method options ``--method-option KEY=VALUE`` name (JSON values, else text)."""
    return _key_values(args.method_option, "--method-option", "threads=2")


def _key_values(items: list[str], flag: str, example: str) -> dict:
    options = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.isidentifier():
            raise PuzzleoptError(f"{flag} {item!r}: write KEY=VALUE, e.g. {example}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def puzzle_from(args: argparse.Namespace):
    """The puzzle ``--puzzle`` and ``--option`` name (through :func:`exact.registry.get`)."""
    try:
        return registry.get(args.puzzle, **options_from(args))
    except PuzzleoptError as exc:
        if not args.option:
            raise
        raise PuzzleoptError(f"--puzzle {args.puzzle} with --option {' '.join(args.option)}: {exc}") from None


def add_goal_option(p: argparse.ArgumentParser) -> None:
    """``--goal TEXT``: a partial goal (:mod:`exact.goals`)."""
    p.add_argument(
        "--goal",
        help="a partial goal instead of the solved state: on a cube cross, f2l, pair-FR, layer-D (joined by +, "
        "e.g. cross+pair-FR) or a facelet mask with '.' for any colour",
    )


def goal_from(puzzle, args: argparse.Namespace):
    """The puzzle with the ``--goal`` it is given, else itself."""
    if getattr(args, "goal", None) is None:
        return puzzle
    from exact.goals import with_goal

    return with_goal(puzzle, args.goal)


def add_start_options(p: argparse.ArgumentParser, group=None) -> None:
    """``--state`` (with the puzzle-specific spellings ``--tiles``, ``--facelets``, ``--lights`` as
    aliases), ``--scramble``, ``--scramble-length`` (with ``--seed``)."""
    g = group if group is not None else p.add_mutually_exclusive_group(required=True)
    g.add_argument("--state", help='the start in the puzzle\'s own text (e.g. a pancake stack "3 1 2")')
    aliases = (("--tiles", "a tile board"), ("--facelets", "cube facelets"), ("--lights", "a Lights Out board"))
    for alias, what in aliases:
        g.add_argument(alias, dest="state", help=f"{what}: the same as --state")
    g.add_argument("--scramble", help="start from the goal moved by these moves, in the puzzle's notation")
    g.add_argument("--scramble-length", type=cli.count(0, cli.MAX_SCRAMBLE), help="start from a random walk")
    p.add_argument("--seed", type=cli.count(0), default=0, help="seed of the random walk (default 0)")


def start_from(puzzle, args: argparse.Namespace) -> tuple[np.ndarray, str | None]:
    """The start the options name, and the scramble text when there is one."""
    if args.state is not None:
        return puzzle.parse_state(args.state), None
    table = puzzle.table
    if args.scramble is not None:
        rows = table.parse(args.scramble, puzzle.goal)
        return table.apply(puzzle.goal, rows), table.format(rows)
    return puzzle.random_walk(1, args.scramble_length, np.random.default_rng(args.seed))[0], None


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("python -m exact.solve", "Solve any registered puzzle with any registered method.")
    add_puzzle_options(p, required=False)
    src = p.add_mutually_exclusive_group()
    add_start_options(p, src)
    src.add_argument("--instances", metavar="FILE", help="a file of starts: one state per line, or a TSV")
    p.add_argument("--method", default="auto", help="a registered method, or auto (see --list-methods)")
    add_goal_option(p)
    add_method_options(p)
    p.add_argument("--list-methods", action="store_true", help="list the methods (for --puzzle: those that apply)")
    p.add_argument("--time-limit", type=cli.seconds, help="seconds per start (default: none)")
    p.add_argument("--node-limit", type=cli.count(1), help="expanded nodes per start (default: none)")
    p.add_argument("--stored-limit", type=cli.count(1), help="states held at once (default: the method's)")
    p.add_argument("--horizon", "--turns", type=cli.count(0), help="cp-sat, mip: the most moves (--turns: the same)")
    p.add_argument("--heuristic", help="ida*: a declared heuristic (e.g. gap), pdb or zero")
    p.add_argument("--pdb-dir", type=cli.path, help="where pattern databases are kept (default: the user cache)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--out", type=cli.path, help="--instances: keep each result in DIR/results.jsonl as it arrives")
    add_executor_options(p)
    add_resume_option(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.list_methods:
        puzzle = puzzle_from(args) if args.puzzle else None
        for m in solvers.methods(puzzle):
            print(f"{m.name}: {'proves optimality' if m.proves else 'finds a solution'}. {m.description}")
        return cli.EXIT_OK
    if args.puzzle is None:
        raise PuzzleoptError("give --puzzle (one of " + ", ".join(registry.names()) + ")")
    if args.state is None and args.scramble is None and args.scramble_length is None and args.instances is None:
        raise PuzzleoptError("give a start: --state, --scramble, --scramble-length or --instances")
    puzzle = goal_from(puzzle_from(args), args)
    options = {"progress": not args.no_progress}
    for key in ("horizon", "heuristic", "pdb_dir"):
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    options.update(method_options_from(args))
    limits = solvers.Limits(time=args.time_limit, nodes=args.node_limit, stored=args.stored_limit)
    method = solvers.choose(puzzle, args.method, options)
    if args.instances is not None:
        from instances.files import parse_states, read_instances

        items = read_instances(args.instances)
        # a file's optimal lengths are to the solved state, not to a --goal
        known = (lambda x: None) if args.goal is not None else (lambda x: x.optimal)
        starts = [(x.id, s, known(x)) for x, s in zip(items, parse_states(puzzle, items, args.instances))]
    else:
        start, _ = start_from(puzzle, args)
        starts = [("1", start, None)]
    if args.instances is None:
        check_file_flags(args)
    known = {ident: k for ident, _, k in starts}
    texts = {ident: puzzle.format_state(start) for ident, start, _ in starts}

    def shown(ident, res):
        mismatch = known[ident] is not None and res.status is Status.OPTIMAL and res.length != known[ident]
        if args.json:
            print(res.to_json(id=ident, state=texts[ident], known_optimal=known[ident]), flush=True)
        else:
            head = f"{ident}: " if len(starts) > 1 else ""
            what = f"{res.length} moves" if res.length is not None else f"lower bound {res.lower_bound}"
            if res.extra.get("unsolvable") or isinstance(res.extra.get("limit"), str):
                what = res.extra.get("unsolvable") or res.extra["limit"]
            print(f"{head}{puzzle.name} by {method.name}: {res.status.value}, {what}; {res.seconds:.3f} s", flush=True)
            if res.moves:
                print(" ".join(res.moves), flush=True)
        if mismatch:
            print(f"{ident}: length {res.length} but the file says {known[ident]}", file=sys.stderr)

    run = solve_file(args, puzzle, method.name, limits, options, starts, on_result=shown, progress=False)
    code = cli.EXIT_INTERRUPTED if run.interrupted else cli.EXIT_OK
    for ident, res in run.results.items():
        mismatch = known[ident] is not None and res.status is Status.OPTIMAL and res.length != known[ident]
        code = max(code, cli.EXIT_LIMIT if mismatch else res.exit_code)
    return code


if __name__ == "__main__":
    sys.exit(cli.run(main))
