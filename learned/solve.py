"""``python -m learned.solve --puzzle tiles8 --tiles "..."``: BWAS or beam search with a learned cost-to-go.

``--method bwas`` (default) or ``--method beam`` (``--width``, ``--ball``, ``--inverse``,
``--symmetries``): the registered methods of :mod:`learned.methods`, the same ones
``python -m exact.solve --method beam`` runs.

The start is ``--state`` (the puzzle's text form; ``--tiles`` and ``--facelets`` are the same
thing by their usual names), ``--scramble`` (moves from the goal) or ``--instances FILE`` (see
:mod:`instances.files`; a progress bar and a summary table). The network is the shipped one
(:func:`learned.models.load`) unless ``--model`` names a ``model.safetensors`` from
``python -m learned.train``. Reports the length, nodes, seconds and nodes per second; a learned
solution is ``feasible``, never claimed optimal.

Exit codes: 0 solved, 2 bad input, 4 limit reached without a solution.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Sequence

from exact import cli, solvers
from exact.cli.flags import MethodFlags
from exact.cli.options import add_first_option, puzzle_from
from exact.errors import PuzzleoptError
from instances.sets import INSTANCES_HELP
from learned.cli import heuristic_from_args, parser_with_search, search_settings
from learned.evaluate import main as evaluate_main
from learned.loading import load_heuristic
from learned.methods import beam_settings, heuristic_for
from learned.runtime import configure

__all__ = ["heuristic_from_args", "load_heuristic", "main", "parser_with_search", "search_settings"]


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = parser_with_search("python -m learned.solve", __doc__.splitlines()[0], ("bwas", "beam"))
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--state", help="the start in the puzzle's text form")
    src.add_argument("--tiles", dest="state", help="a tile board, e.g. '1 2 0 3 ...' (same as --state)")
    src.add_argument("--facelets", dest="state", help="cube facelets, URFDLB order (same as --state)")
    src.add_argument("--scramble", help="moves applied to the goal")
    src.add_argument("--instances", metavar="FILE|SET", help=INSTANCES_HELP + "; BWAS")
    add_first_option(p)
    p.add_argument(
        "--method",
        choices=("bwas", "beam"),
        help="the search (default: the one the model's card measured best, else bwas)",
    )
    args = p.parse_args(argv)
    flags.values(args)
    if args.instances is not None:
        if args.method not in (None, "bwas"):
            raise PuzzleoptError("--instances runs BWAS (learned.evaluate); solve one start at a time with beam")
        return evaluate_main(argv)
    if args.first is not None or args.ids is not None:
        flag = "--first" if args.first is not None else "--ids"
        raise PuzzleoptError(f"{flag} goes with --instances (a file of starts)")
    t0 = time.perf_counter()  # the limit covers what comes before the search too (the network's load)
    puzzle = puzzle_from(args)
    device = configure(args.device, args.threads)
    if args.scramble is not None:
        start = puzzle.table.apply(puzzle.goal, puzzle.table.parse(args.scramble, start=puzzle.goal))
    else:
        start = puzzle.parse_state(args.state)
    card = heuristic_for(puzzle, args.model, device).card
    if args.method is None:
        search = card.get("search") if isinstance(card.get("search"), dict) else {}
        args.method = search.get("method", "bwas") if search.get("method") in ("bwas", "beam") else "bwas"
    settings, options = _settings(args, card, flags)
    if args.precision is not None:
        options["precision"] = args.precision
    left = None if args.time_limit is None else max(1e-3, args.time_limit - (time.perf_counter() - t0))
    limits = solvers.Limits(time=left, nodes=args.node_limit)
    res = solvers.solve(puzzle, start, method=args.method, limits=limits, model=args.model, device=device,
                        progress=not args.no_progress, **options)  # fmt: skip
    res = dataclasses.replace(res, seconds=time.perf_counter() - t0)
    used = res.settings.get("ball", 0) if res.settings.get("width") is not None else None  # None: no beam ran
    if args.method == "beam" and used is not None and used != options.get("ball"):
        settings = settings.replace(f"ball {options.get('ball')}", f"ball {used} (lowered to fit the limit)")
    rate = (res.nodes or 0) / res.seconds if res.seconds > 0 else 0.0
    if args.json:
        print(res.to_json(nodes_per_second=round(rate)))
    else:
        moves = " ".join(res.moves) if res.moves else "-"
        if res.extra.get("unsolvable"):
            print(f"{puzzle.table.description}: unsolvable: {res.extra['unsolvable']}")
            return res.exit_code
        expanded = "no node expanded" if res.nodes is None else f"{res.nodes:,} nodes expanded{_generated(res)}"
        why = res.extra.get("limit") if isinstance(res.extra.get("limit"), str) else None
        print(
            f"{puzzle.table.description}: {res.status.value}: {res.length if res.length is not None else '-'} "
            f"moves: {moves}\n" + (f"{why}\n" if why else "") + f"{expanded} in {res.seconds:.2f} s, "
            f"{rate:,.0f} nodes/s; {settings}"
        )
    return res.exit_code


def _generated(res) -> str:
    return f" ({res.extra['generated']:,} generated)" if "generated" in res.extra else ""


def _settings(args, card: dict, flags: MethodFlags) -> tuple[str, dict]:
    """The search's settings as shown, and the method options the flags ask for (the search's
    own defaults from the model's card and ``--quality``)."""
    given = flags.given_for(args, args.method, "--method", shared=("model", "quality", "precision"))
    if args.method == "beam":
        options = {**beam_settings(card, args.quality), **given}
        shown = f"width {options['width']}, ball {options['ball']}" + (
            ", and from the inverse" if options["inverse"] else ""
        )
        shown += f", and {options['symmetries']} symmetries" if options["symmetries"] else ""
        return shown, options
    s = search_settings(args, card)
    return f"lambda {s['weight']}, batch {s['batch']}", {"weight": s["weight"], "batch": s["batch"]}


if __name__ == "__main__":
    sys.exit(cli.run(main))
