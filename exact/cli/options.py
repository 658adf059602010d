"""The options every command shares, declared once: the puzzle and its options, the start, the
partial goal, the method's options, the executor, ``--resume``, and the readers that turn each
group into the plain arguments the library takes (:func:`puzzle_from`, :func:`start_from`,
:func:`executor_from`, ...). Only commands import this module; the library never sees an
``argparse.Namespace``.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

import numpy as np

from exact import cli, registry
from exact.errors import PuzzleoptError
from exact.executor import Executor, executor_for

if TYPE_CHECKING:
    from instances.files import Instance


def add_puzzle_options(
    p: argparse.ArgumentParser, *, required: bool = True, group=None, what: str = "a registered puzzle"
) -> None:
    """``--puzzle NAME`` (a registry key; in ``group`` where it excludes other choices, as the
    model commands' ``--size``) and ``--option KEY=VALUE`` (its options, JSON values)."""
    (group if group is not None else p).add_argument(
        "--puzzle", required=required and group is None, help=f"{what}: " + ", ".join(registry.names())
    )
    _add_key_values(p, "--option", "a puzzle option", "n=12, burnt=true, tips=false")


def options_from(args: argparse.Namespace) -> dict:
    """The puzzle options ``--option KEY=VALUE`` name (JSON values, else text)."""
    return _key_values(args.option, "--option", "n=12")


def add_method_options(p: argparse.ArgumentParser) -> None:
    """``--method-option KEY=VALUE``: options of the method (see ``--list-methods``)."""
    _add_key_values(p, "--method-option", "an option of the method", "edge=slice, threads=2")


def method_options_from(args: argparse.Namespace) -> dict:
    """The method options ``--method-option KEY=VALUE`` name (JSON values, else text)."""
    return _key_values(args.method_option, "--method-option", "threads=2")


def _add_key_values(p: argparse.ArgumentParser, flag: str, what: str, examples: str) -> None:
    """A repeatable ``FLAG KEY=VALUE`` option (read back by :func:`_key_values`)."""
    p.add_argument(
        flag,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"{what}, repeatable; VALUE is JSON or plain text, e.g. {examples}",
    )


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


def add_start_options(p: argparse.ArgumentParser, group=None, *, length_default: str = "") -> None:
    """``--state`` (with the puzzle-specific spellings ``--tiles``, ``--facelets``, ``--lights`` as
    aliases), ``--scramble``, ``--scramble-length`` (with ``--seed``); ``length_default`` says what
    a command does without any of them."""
    g = group if group is not None else p.add_mutually_exclusive_group(required=True)
    g.add_argument("--state", help='the start in the puzzle\'s own text (e.g. a pancake stack "3 1 2")')
    aliases = (("--tiles", "a tile board"), ("--facelets", "cube facelets (kociemba's URFDLB)"),
               ("--lights", "a Lights Out board"))  # fmt: skip
    for alias, what in aliases:
        g.add_argument(alias, dest="state", help=f"{what}: the same as --state")
    g.add_argument("--scramble", help="start from the goal moved by these moves, in the puzzle's notation")
    g.add_argument(
        "--scramble-length",
        type=cli.count(0, cli.MAX_SCRAMBLE),
        help="start from a seeded random walk of this length" + (f" ({length_default})" if length_default else ""),
    )
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


def add_ray_option(p: argparse.ArgumentParser, what: str = "the tasks") -> None:
    """``--ray [ADDRESS]``: 'auto' (the value when none is given) or a cluster's address."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help=f"run {what} on Ray: 'auto' (the default value) starts a local Ray or joins the one this machine "
        "runs, an address joins a cluster (needs puzzleopt[scale]; docs/scale.md)",
    )


def add_executor_options(p: argparse.ArgumentParser, what: str = "the tasks", older: str | None = None) -> None:
    """``--workers N`` and ``--ray [ADDRESS]`` for ``what``; ``older``: an earlier name of
    ``--workers`` that is still accepted (``"--jobs"``)."""
    p.add_argument(
        "--workers",
        type=cli.count(1),
        help=f"local worker processes for {what}, each running one task at a time (default: in this process); "
        "with --ray: the CPUs of a new local Ray",
    )
    if older is not None:
        p.add_argument(older, type=cli.count(1), dest="workers", help="the same as --workers (its older name)")
    add_ray_option(p, what)


def parallel_asked(args: argparse.Namespace) -> bool:
    """Whether ``--workers`` or ``--ray`` was given."""
    return getattr(args, "workers", None) is not None or getattr(args, "ray", None) is not None


def executor_from(args: argparse.Namespace, threads: int = 1) -> Executor:
    """The executor ``--workers`` / ``--ray`` name (:func:`exact.executor.executor_for`)."""
    return executor_for(getattr(args, "workers", None), getattr(args, "ray", None), threads)


def add_first_option(p: argparse.ArgumentParser) -> None:
    """``--first N`` (also spelt ``--count N``) and ``--ids IDS``: which instances of ``--instances``
    run (:func:`instances_from`)."""
    p.add_argument("--first", "--count", dest="first", metavar="N", type=cli.count(1),
                   help="only the first N instances of --instances (--count N: the same)")  # fmt: skip
    p.add_argument("--ids", metavar="IDS", help="only the instances of --instances with these ids, e.g. 613-999,1003 "
                   "(the file's id column; line numbers from 1 where it has none), in the file's order; "
                   "--first then keeps the first N of them")  # fmt: skip


def instances_from(args: argparse.Namespace) -> list[Instance]:
    """The instances ``--instances`` names that ``--ids`` and ``--first`` keep
    (:func:`instances.files.choose`)."""
    from instances.files import choose, read_instances

    every = read_instances(args.instances)
    return [every[i] for i in choose(every, args.ids, args.first, f"--instances {args.instances}")]


def add_resume_option(p: argparse.ArgumentParser) -> None:
    """``--resume``: continue the run whose results are in ``--out``."""
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run whose results are in --out: skip the instances already there",
    )


def check_file_flags(args: argparse.Namespace) -> None:
    """``--first``, ``--ids``, ``--out``, ``--resume``, ``--workers`` and ``--ray`` go with ``--instances``."""
    flags = {"--first": getattr(args, "first", None) is not None, "--ids": getattr(args, "ids", None) is not None,
             "--out": args.out is not None, "--resume": args.resume, "--workers": args.workers is not None}  # fmt: skip
    given = [f for f, on in (flags | {"--ray": args.ray is not None}).items() if on]
    if given:
        raise PuzzleoptError(f"{given[0]} goes with --instances (a file of starts)")
