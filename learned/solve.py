"""``python -m learned.solve --puzzle tiles8 --tiles "..."``: BWAS with a learned cost-to-go.

The start is ``--state`` (the puzzle's text form; ``--tiles`` and ``--facelets`` are the same
thing by their usual names), ``--scramble`` (moves from the goal) or ``--instances FILE`` (see
:mod:`instances.files`; a progress bar and a summary table). The network is the shipped one
(:func:`learned.models.load`) unless ``--model`` names a ``model.safetensors`` from
``python -m learned.train``. Reports the length, nodes, seconds and nodes per second; a learned
solution is ``feasible``, never claimed optimal.

Exit codes: 0 solved, 2 bad input, 4 limit reached without a solution.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from exact import cli, registry
from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from learned.bwas import DEFAULT_BATCH, DEFAULT_WEIGHT, bwas
from learned.models import load
from learned.values import NetHeuristic
from learned.weights import load_model


def parser_with_search(prog: str, description: str) -> argparse.ArgumentParser:
    """The options shared by ``learned.solve`` and ``learned.evaluate``."""
    p = cli.parser(prog, description)
    p.add_argument("--puzzle", required=True, help=f"registry name: {', '.join(registry.names())}")
    p.add_argument("--model", type=Path, help="a model.safetensors (default: the shipped model)")
    p.add_argument(
        "--weight", type=float, default=DEFAULT_WEIGHT, help=f"lambda in f = lambda*g + h ({DEFAULT_WEIGHT})"
    )
    p.add_argument("--batch", type=int, default=DEFAULT_BATCH, help=f"nodes expanded per iteration ({DEFAULT_BATCH})")
    p.add_argument("--max-nodes", type=int, help="expanded nodes per instance before giving up")
    p.add_argument("--time-limit", type=float, help="seconds per instance")
    p.add_argument("--device", default="cpu", help="cpu or cuda")
    p.add_argument("--no-progress", action="store_true")
    return p


def search_settings(args) -> dict:
    """The BWAS keyword arguments the options ask for."""
    return {"weight": args.weight, "batch": args.batch, "max_nodes": args.max_nodes, "time_limit": args.time_limit}


def load_heuristic(puzzle: Puzzle, model: str | Path | None = None, device: str = "cpu") -> NetHeuristic:
    """The network heuristic for ``puzzle``: the shipped model of its name, or ``model``.

    Raises:
        PuzzleoptError: No model is shipped for the puzzle, or ``model`` was trained on another
            puzzle or takes inputs of another size.
    """
    if model is not None:
        net, card = load_model(Path(model), device)
        if card.get("puzzle") not in (None, puzzle.name):
            raise PuzzleoptError(f"--model {model} was trained on {card.get('puzzle')!r}, not {puzzle.name!r}")
    else:
        net, card = load(puzzle.name, device)
    if net.config.inputs != puzzle.num_positions * puzzle.num_labels:
        raise PuzzleoptError(f"the model takes {net.config.inputs} inputs; {puzzle.name} encodes to a different size")
    return NetHeuristic(puzzle, net, device)


def heuristic_from_args(args) -> tuple:
    """The puzzle and the network heuristic the options ask for."""
    puzzle = registry.get(args.puzzle)
    return puzzle, load_heuristic(puzzle, args.model, args.device)


def main(argv: Sequence[str] | None = None) -> int:
    p = parser_with_search("python -m learned.solve", __doc__.splitlines()[0])
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--state", help="the start in the puzzle's text form")
    src.add_argument("--tiles", dest="state", help="a tile board, e.g. '1 2 0 3 ...' (same as --state)")
    src.add_argument("--facelets", dest="state", help="cube facelets, URFDLB order (same as --state)")
    src.add_argument("--scramble", help="moves applied to the goal")
    src.add_argument("--instances", help="a file of starts (one per line, or a TSV)")
    args = p.parse_args(argv)
    if args.instances is not None:
        from learned.evaluate import main as evaluate_main  # here: evaluate imports this module

        return evaluate_main(argv)
    puzzle, heuristic = heuristic_from_args(args)
    if args.scramble is not None:
        start = puzzle.table.apply(puzzle.goal, puzzle.table.parse(args.scramble, start=puzzle.goal))
    else:
        start = puzzle.parse_state(args.state)
    res = bwas(puzzle, start, heuristic, **search_settings(args))
    rate = (res.nodes or 0) / res.seconds if res.seconds > 0 else 0.0
    if args.json:
        print(res.to_json(nodes_per_second=round(rate)))
    else:
        moves = " ".join(res.moves) if res.moves else "-"
        print(
            f"{res.status.value}: {res.length if res.length is not None else '-'} moves: {moves}\n"
            f"{res.nodes:,} nodes expanded ({res.extra.get('generated', 0):,} generated) in {res.seconds:.2f} s, "
            f"{rate:,.0f} nodes/s; lambda {args.weight}, batch {args.batch}"
        )
    return res.exit_code


if __name__ == "__main__":
    sys.exit(cli.run(main))
