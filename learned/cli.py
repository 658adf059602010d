"""The learned commands' shared options (``learned.solve``, ``learned.evaluate``) and their
readers; the library functions they call take plain arguments (:mod:`learned.loading`)."""

from __future__ import annotations

import argparse

from exact import cli
from exact.cli.options import add_puzzle_options, puzzle_from
from learned.bwas import QUALITIES
from learned.runtime import DEVICES, SEARCH_THREADS, configure


def parser_with_search(prog: str, description: str) -> argparse.ArgumentParser:
    """The options shared by ``learned.solve`` and ``learned.evaluate``."""
    p = cli.parser(prog, description)
    add_puzzle_options(p)
    p.add_argument("--model", type=cli.path, help="a model.safetensors (default: the shipped model)")
    p.add_argument(
        "--quality",
        choices=QUALITIES,
        help="the model's measured search settings: fast, or best (more nodes, more optimal solutions); "
        "default: the one its card names (see docs/learned.md)",
    )
    p.add_argument("--weight", type=float, help="lambda in f = lambda*g + h (default: from --quality)")
    p.add_argument("--batch", type=cli.count(1), help="nodes expanded per iteration (default: from --quality)")
    p.add_argument("--node-limit", "--max-nodes", dest="max_nodes", type=cli.count(1),
                   help="expanded nodes per instance before giving up (--max-nodes: the old name)")  # fmt: skip
    p.add_argument("--time-limit", type=cli.seconds, help="seconds per instance")
    add_options(p, SEARCH_THREADS)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def search_settings(args: argparse.Namespace, card: dict | None = None) -> dict:
    """BWAS's keyword arguments the options ask for (:func:`learned.loading.bwas_settings`)."""
    from learned.loading import bwas_settings  # torch: this module is imported by commands without it

    return bwas_settings(card, getattr(args, "quality", None), weight=args.weight, batch=args.batch,
                         max_nodes=args.max_nodes, time_limit=args.time_limit)  # fmt: skip


def heuristic_from_args(args) -> tuple:
    """The puzzle and the network heuristic the options ask for (torch's device and threads set)."""
    puzzle = puzzle_from(args)
    device = configure(args.device, args.threads)
    from learned.loading import load_heuristic

    return puzzle, load_heuristic(puzzle, args.model, device, key=args.puzzle)


def add_options(p: argparse.ArgumentParser, threads: int | None, prefix: str = "") -> None:
    """Add ``--device`` (default ``auto``) and ``--threads`` (default ``threads``; ``None``: every
    core) to ``p``."""
    threads = cli.cores() if threads is None else threads
    p.add_argument(
        "--device",
        default="auto",
        choices=DEVICES,
        help=f"{prefix}torch device: auto is cuda where torch sees a GPU, else cpu",
    )
    p.add_argument(
        "--threads",
        type=cli.count(1, cli.MAX_THREADS),
        default=threads,
        help=f"{prefix}torch intra-op threads on the CPU (this machine has {cli.cores()} cores; one is "
        "fastest for search under load, docs/benchmarks/threads.md)",
    )
