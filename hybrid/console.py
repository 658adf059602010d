"""``puzzleopt``: one command over the project's command lines.

Subcommands (each takes the options of the module it runs; ``puzzleopt SUB --help``)::

    puzzleopt solve     python -m exact.solve      any puzzle, any method
    puzzleopt mip       python -m exact.mip        the cube MIP (here --turns auto works)
    puzzleopt cpsat     python -m exact.cpsat      the cube CP-SAT model (here --turns auto works)
    puzzleopt table     python -m exact.moves      show, apply and export a cube move table
    puzzleopt pdb       python -m exact.pdb        list, build, verify pattern databases
    puzzleopt train     python -m learned.train    train a cost-to-go network (DAVI)
    puzzleopt evaluate  python -m learned.evaluate evaluate a network with BWAS
    puzzleopt verify    python -m hybrid.verify    certify learned solutions

It lives in ``hybrid`` (which may import every layer) so that ``--turns auto`` can hand the
learned horizon to the exact models without ``exact`` importing ``learned``. Exit codes: those
of the subcommand; 2 for an unknown subcommand.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

from exact import cli

SUBCOMMANDS = {
    "solve": ("exact.solve", "any registered puzzle by any registered method"),
    "mip": ("exact.mip.__main__", "the cube as a time-indexed MIP (HiGHS)"),
    "cpsat": ("exact.cpsat.__main__", "the cube as a CP-SAT model"),
    "table": ("exact.moves", "show, apply and export a cube move table"),
    "pdb": ("exact.pdb.__main__", "list, build and verify pattern databases"),
    "train": ("learned.train", "train a cost-to-go network by DAVI"),
    "evaluate": ("learned.evaluate", "evaluate a network with BWAS"),
    "verify": ("hybrid.verify", "certify learned solutions"),
}


def _models(name: str) -> Callable[[Sequence[str] | None], int]:
    from exact.cpsat.solve import solve_cpsat
    from exact.mip.solve import solve_mip
    from exact.modelcli import main_for

    mip = name == "mip"
    return main_for(
        f"puzzleopt {name}",
        SUBCOMMANDS[name][1][0].upper() + SUBCOMMANDS[name][1][1:] + ".",
        mip=mip,
        solve=solve_mip if mip else solve_cpsat,
        horizon_default="bwas",
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print("usage: puzzleopt SUBCOMMAND [options]\n\nsubcommands:")
        for name, (module, what) in SUBCOMMANDS.items():
            print(f"  {name:<9} {what} (python -m {module.removesuffix('.__main__')})")
        return cli.EXIT_OK if args else cli.EXIT_BAD_INPUT
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"puzzleopt: unknown subcommand {name!r}; use one of {', '.join(SUBCOMMANDS)}", file=sys.stderr)
        return cli.EXIT_BAD_INPUT
    if name in ("mip", "cpsat"):
        return cli.run(_models(name), rest)
    module = importlib.import_module(SUBCOMMANDS[name][0])
    return cli.run(module.main, rest)


def entry() -> None:
    """The console script."""
    sys.exit(main())
