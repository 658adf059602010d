"""The learned commands' shared options (``learned.solve``, ``learned.evaluate``) and their
readers; the library functions they call take plain arguments (:mod:`learned.loading`)."""

from __future__ import annotations

import argparse

from exact import cli
from exact.cli.flags import MethodFlags, add_method_flags
from exact.cli.options import add_puzzle_options, puzzle_from
from exact.cli.solve import add_limit_flags
from learned.runtime import DEVICES, SEARCH_THREADS, configure


def parser_with_search(
    prog: str, description: str, methods: tuple[str, ...] = ("bwas",), skip: tuple[str, ...] = ()
) -> tuple[argparse.ArgumentParser, MethodFlags]:
    """The options shared by ``learned.solve`` and ``learned.evaluate``: the puzzle, the limits,
    ``--device``/``--threads``, and the flags of ``methods`` generated from their declarations
    (:mod:`exact.cli.flags`: ``--model``, ``--quality``, ``--weight``, ...) less ``skip``."""
    p = cli.parser(prog, description)
    add_puzzle_options(p)
    add_limit_flags(p, ("time", "node"), per="instance", older={"node": "--max-nodes"})
    add_options(p, SEARCH_THREADS)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p, add_learned_flags(p, methods, skip)


def add_learned_flags(
    p: argparse.ArgumentParser, methods: tuple[str, ...], skip: tuple[str, ...] = (), title: str = "search options"
) -> MethodFlags:
    """The flags of the learned ``methods`` (``bwas``, ``beam``), generated from the options they
    declare where they register (:mod:`learned.methods`); a flag the parser already has (the
    commands' ``--device``, default ``auto``) keeps its meaning."""
    from exact import solvers

    declared = [(m.name, o) for m in map(solvers.get_method, methods) for o in m.options]
    return add_method_flags(p, declared, skip=skip, title=f"{title} ({', '.join(methods)})")


def search_settings(args: argparse.Namespace, card: dict | None = None) -> dict:
    """BWAS's keyword arguments the options ask for (:func:`learned.loading.bwas_settings`)."""
    from learned.loading import bwas_settings  # torch: this module is imported by commands without it

    return bwas_settings(card, getattr(args, "quality", None), weight=args.weight, batch=args.batch,
                         max_nodes=args.node_limit, time_limit=args.time_limit)  # fmt: skip


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
