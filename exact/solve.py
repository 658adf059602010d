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
import sys
from collections.abc import Sequence

from exact import cli, registry, solvers
from exact.batch import solve_file
from exact.cli.flags import MethodFlags
from exact.cli.options import (
    add_executor_options,
    add_first_option,
    add_goal_option,
    add_puzzle_options,
    add_resume_option,
    add_start_options,
    check_file_flags,
    executor_from,
    goal_from,
    instances_from,
    puzzle_from,
    start_from,
)
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.errors import PuzzleoptError
from exact.horizon import from_scramble
from exact.result import Status
from instances.sets import INSTANCES_HELP

PRESET = Preset(defaults={"progress": True}, aliases={"horizon": ("--turns",)})
"""``exact.solve``: the one solve command with nothing fixed (progress shown by default)."""


def _parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.parser("python -m exact.solve", "Solve any registered puzzle with any registered method.")
    add_puzzle_options(p, required=False)
    src = p.add_mutually_exclusive_group()
    add_start_options(p, src)
    src.add_argument("--instances", metavar="FILE|SET", help=INSTANCES_HELP)
    add_first_option(p)
    add_goal_option(p)
    p.add_argument("--list-methods", action="store_true", help="list the methods (for --puzzle: those that apply)")
    p.add_argument("--out", type=cli.path, help="--instances: keep each result in DIR/results.jsonl as it arrives")
    add_executor_options(p)
    add_resume_option(p)
    return p, add_solve_flags(p, PRESET)


def main(argv: Sequence[str] | None = None) -> int:
    parser, flags = _parser()
    args = parser.parse_args(argv)
    if args.list_methods:
        puzzle = puzzle_from(args) if args.puzzle else None
        for m in solvers.methods(puzzle):
            print(f"{m.name}: {'proves optimality' if m.proves else 'finds a solution'}. {m.description} "
                  f"Limits it keeps to: {', '.join(m.limits)}.")  # fmt: skip
            for o in m.options:  # each as declared where the method registers (--method-option NAME=VALUE)
                default = "" if o.default is None else f"; default {o.default}"
                print(f"    {o.name} ({o.kind}{default}): {o.help}")
        return cli.EXIT_OK
    if args.puzzle is None:
        raise PuzzleoptError("give --puzzle (one of " + ", ".join(registry.names()) + ")")
    if args.state is None and args.scramble is None and args.scramble_length is None and args.instances is None:
        raise PuzzleoptError("give a start: --state, --scramble, --scramble-length or --instances")
    puzzle = goal_from(puzzle_from(args), args)
    name, limits, options = solve_settings(args, PRESET, flags)
    method = solvers.choose(puzzle, name, options)
    if args.verbose > 0 and "verbose" in method.option_names:  # -v: the solver's own log too
        options.setdefault("verbose", True)
    if args.instances is not None:
        from instances.files import parse_states

        items = instances_from(args)
        # a file's optimal lengths are to the solved state, not to a --goal
        known = (lambda x: None) if args.goal is not None else (lambda x: x.optimal)
        starts = [(x.id, s, known(x)) for x, s in zip(items, parse_states(puzzle, items, args.instances))]
    else:  # one start: solved here and now, with no batch machinery
        check_file_flags(args)
        start, text = start_from(puzzle, args)
        starts = [("1", start, None)]
        # a model's horizon and incumbent from the scramble, as the notebook's from a state's path
        options.update(from_scramble(puzzle, method, None if text is None else text.split(), options, "--horizon T"))
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

    if args.instances is None:
        res = solvers.solve(puzzle, starts[0][1], method=method.name, limits=limits, **options)
        shown("1", res)
        return res.exit_code
    run = solve_file(
        puzzle, method.name, limits, options, starts, executor=executor_from(args), out=args.out, resume=args.resume,
        on_result=shown, progress=False,
    )  # fmt: skip
    code = cli.EXIT_INTERRUPTED if run.interrupted else cli.EXIT_OK
    for ident, res in run.results.items():
        mismatch = known[ident] is not None and res.status is Status.OPTIMAL and res.length != known[ident]
        code = max(code, cli.EXIT_LIMIT if mismatch else res.exit_code)
    return code


if __name__ == "__main__":
    sys.exit(cli.run(main))
