"""``puzzleopt``: one command over the project's command lines.

Subcommands (each takes the options of the module it runs; ``puzzleopt SUB --help``)::

    puzzleopt solve      python -m exact.solve         any puzzle, any method
    puzzleopt mip        python -m exact.mip           the cube MIP (here --turns auto works)
    puzzleopt cpsat      python -m exact.cpsat         the cube CP-SAT model (here --turns auto works)
    puzzleopt ida        python -m exact.ida           IDA* with pattern databases (tiles, the 3x3)
    puzzleopt lightsout  python -m exact.lightsout     Lights Out, fewest presses
    puzzleopt sokoban    python -m exact.sokoban       Sokoban by A*
    puzzleopt freecell   python -m exact.freecell      a FreeCell deal, solved or proven unsolvable
    puzzleopt hypercube  python -m exact.hypercube     the cubical sliding puzzle
    puzzleopt table      python -m exact.moves         show, apply and export a cube move table
    puzzleopt pdb        python -m exact.pdb           list, build, verify pattern databases
    puzzleopt train      python -m learned.train       train a cost-to-go network
    puzzleopt learned    python -m learned.solve       solve with a network (beam, BWAS)
    puzzleopt evaluate   python -m learned.evaluate    evaluate a network on a test set
    puzzleopt verify     python -m hybrid.verify       certify learned solutions
    puzzleopt santa      python -m exact.santa         Kaggle Santa 2023: score, solve, prove
    puzzleopt santa      python -m exact.santa         Kaggle Santa 2023: score, solve, prove

``puzzleopt --version`` prints the version. Usage lines and errors name the command as typed
(``puzzleopt solve``). It lives in the top layer (``puzzleopt``, which may import every layer) so
that ``--turns auto`` can hand the learned horizon to the exact models without ``exact``
importing ``learned``; it imports a subcommand's module only when that subcommand runs.
Exit codes: those of the subcommand; 2 for an unknown subcommand.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from exact import __version__, cli
from exact.errors import missing_extra

SUBCOMMANDS = {
    "solve": ("exact.solve", "any registered puzzle by any registered method"),
    "mip": ("exact.mip.__main__", "the cube as a time-indexed MIP (HiGHS)"),
    "cpsat": ("exact.cpsat.__main__", "the cube as a CP-SAT model"),
    "ida": ("exact.ida.__main__", "IDA* with pattern databases: sliding tiles, the 3x3"),
    "lightsout": ("exact.lightsout.__main__", "Lights Out: the fewest presses, proven"),
    "sokoban": ("exact.sokoban.__main__", "Sokoban: move- or push-optimal solutions by A*"),
    "freecell": ("exact.freecell.__main__", "FreeCell: a deal solved or proven unsolvable"),
    "hypercube": ("exact.hypercube.__main__", "the cubical sliding puzzle: solutions and graphs"),
    "table": ("exact.moves", "show, apply and export a cube move table"),
    "growth": ("exact.cli.growth", "count the states at each distance from the goal (BFS)"),
    "pdb": ("exact.pdb.__main__", "list, build and verify pattern databases"),
    "train": ("learned.train", "train a cost-to-go network (DAVI or diffusion distance)"),
    "learned": ("learned.solve", "solve with a network: beam search or BWAS"),
    "evaluate": ("learned.evaluate", "evaluate a network on a test set"),
    "verify": ("hybrid.verify", "certify learned solutions with exact methods"),
    "santa": ("exact.santa.__main__", "Kaggle Santa 2023: score a submission, solve and prove puzzles"),
}


def _models(name: str) -> Callable[[Sequence[str] | None], int]:
    from exact.cli.models import CPSAT, MIP, main_for

    command: Callable[[Sequence[str] | None], int] = main_for(
        f"puzzleopt {name}",
        SUBCOMMANDS[name][1][0].upper() + SUBCOMMANDS[name][1][1:] + ".",
        MIP if name == "mip" else CPSAT,
        horizon_default="bwas",
    )
    return command


def _router() -> argparse.ArgumentParser:
    """The parser of the first word: a subcommand, ``--help`` or ``--version``."""
    p = cli.OneLineParser(prog="puzzleopt", description="Exact and learned solvers for combinatorial puzzles.",
                          epilog="puzzleopt SUBCOMMAND --help: that subcommand's options")  # fmt: skip
    p.add_argument("--version", action="version", version=f"puzzleopt {__version__}")
    sub = p.add_subparsers(dest="command", metavar="SUBCOMMAND", required=True)
    for name, (module, what) in SUBCOMMANDS.items():
        sub.add_parser(name, help=f"{what} (python -m {module.removesuffix('.__main__')})", add_help=False)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        name = _router().parse_args(args[:1]).command  # only the first word: the rest is the subcommand's
    except SystemExit as exc:  # --help, --version, an unknown or missing subcommand
        return exc.code if isinstance(exc.code, int) else cli.EXIT_OK
    prog, rest = f"puzzleopt {name}", args[1:]
    if name in ("mip", "cpsat"):
        return cli.run(_models(name), rest, prog=prog)
    try:
        module = importlib.import_module(SUBCOMMANDS[name][0])
    except ImportError as exc:  # the subcommand's extra (torch) is not installed: one line, not a traceback
        if (missing := missing_extra(exc, prog)) is None:
            raise
        print(f"{prog}: error: {missing}", file=sys.stderr)
        return cli.EXIT_BAD_INPUT
    return cli.run(module.main, rest, prog=prog)


def entry() -> None:
    """The console script."""
    sys.exit(main())
