"""Shared pieces of every puzzleopt command line: exit codes, ``--json``, error handling.

Exit codes (the same for every solver CLI in the project):

==== =========================================================================
0    a solution was found (or, for non-solver commands, the command succeeded)
2    bad input (one line on stderr names the input, what is wrong and the fix)
3    proven that no solution exists (unsolvable, or none within the horizon)
4    a limit was reached without an answer
==== =========================================================================
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_NO_SOLUTION = 3
EXIT_LIMIT = 4

EPILOG = (
    "exit codes: 0 solved, 2 bad input, 3 proven no solution (within the horizon), 4 limit reached, "
    "130 interrupted (Ctrl-C)"
)


def cores() -> int:
    """The cores this process may run on (the default of the commands' worker counts)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line on stderr and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


def parser(prog: str, description: str) -> argparse.ArgumentParser:
    """An ``ArgumentParser`` with the shared ``--json`` flag and the exit codes in its help."""
    p = OneLineParser(prog=prog, description=description, epilog=EPILOG)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the human report")
    return p


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Call ``main(argv)``; bad input (any ``ValueError``) becomes one line on stderr and exit 2."""
    try:
        return main(argv)
    except ValueError as exc:
        prog = getattr(main, "__module__", "puzzleopt").replace("__main__", "puzzleopt")
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
