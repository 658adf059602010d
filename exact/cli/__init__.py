"""Shared pieces of every puzzleopt command line: exit codes, ``--json``, error handling.

Exit codes (the same for every solver CLI in the project):

==== =========================================================================
0    a solution was found (or, for non-solver commands, the command succeeded)
2    bad input (one line on stderr names the input, what is wrong and the fix)
3    proven that no solution exists (unsolvable, or none within the horizon)
4    a limit was reached without an answer
1    a bug: an unexpected exception, shown with its traceback
130  interrupted (Ctrl-C)
141  the output pipe was closed (e.g. ``--json | head``)
==== =========================================================================

Bad input is a :class:`~exact.errors.PuzzleoptError` (or an ``OSError`` on a path the user
gave); any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import contextvars
import errno
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from exact.errors import MissingExtra, PuzzleoptError, missing_extra
from exact.resources import MAX_SCRAMBLE as MAX_SCRAMBLE  # re-exported: the commands show them
from exact.resources import MAX_THREADS as MAX_THREADS
from exact.resources import cores as cores

EXIT_OK = 0
EXIT_BAD_INPUT = 2
EXIT_NO_SOLUTION = 3
EXIT_LIMIT = 4
EXIT_FINDINGS = 5  # done, with findings: invalid solutions, a bad table
EXIT_CONTRADICTION = 6  # a proof contradicts a length the input file gives: the file or a solver is wrong
EXIT_INTERRUPTED = 130
EXIT_PIPE_CLOSED = 141

EPILOG = (
    "exit codes: 0 solved, 2 bad input, 3 proven no solution (within the horizon), 4 limit reached, "
    "130 interrupted (Ctrl-C)"
)


class HelpWithDefaults(argparse.HelpFormatter):
    """Help that shows each option's default (where it has one) and no reST markup."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = (action.help or "").replace("``", "`")
        flag = isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction))  # its default is its absence
        shown = action.default not in (None, False, argparse.SUPPRESS) and action.option_strings and not flag
        if shown and "%(default)" not in text and "default" not in text:
            text += " (default: %(default)s)"
        return text

    def _format_text(self, text: str) -> str:
        return super()._format_text(text.replace("``", "`"))


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line on stderr and exit code 2, and whose
    help shows the defaults (:class:`HelpWithDefaults`, also in its subcommands)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpWithDefaults)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        self._argv = list(sys.argv[1:] if args is None else args)  # for error(): was --json asked for?
        parsed, rest = super().parse_known_args(args, namespace)
        if hasattr(parsed, "quiet"):  # a command's parser (:func:`parser`): its -v/-q set the log level
            from exact.logs import configure

            configure(getattr(parsed, "verbose", 0) - parsed.quiet)
        return parsed, rest

    def error(self, message: str):  # type: ignore[override]
        line = f"{self.prog}: error: {message} (see --help)"
        if "--json" in getattr(self, "_argv", ()):
            print(json.dumps({"error": line, "exit_code": EXIT_BAD_INPUT}))
        self.exit(EXIT_BAD_INPUT, line + "\n")


def count(lowest: int = 1, highest: int | None = None) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number in ``lowest..highest`` (counts, limits, seeds)."""

    def read(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < lowest:
            raise argparse.ArgumentTypeError(f"{text} must be at least {lowest}")
        if highest is not None and value > highest:
            raise argparse.ArgumentTypeError(f"{text} is above the most this command takes, {highest:,}")
        return value

    read.__name__ = f"whole number >= {lowest}"
    return read


def path(text: str) -> Path:
    """An argparse ``type`` for a file or folder name: not empty (``Path("")`` would silently be
    the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a path")
    return Path(text)


def seconds(text: str) -> float:
    """An argparse ``type`` for a time limit: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text} must be a finite number of seconds above 0")
    return value


_TYPED: contextvars.ContextVar[str | None] = contextvars.ContextVar("typed_command", default=None)


def typed(prog: str) -> str:
    """``prog``, or the command as the user typed it where :func:`run` was told (``puzzleopt
    solve`` runs ``python -m exact.solve``'s main): usage lines and errors name what was typed."""
    return _TYPED.get() or prog


def parser(prog: str, description: str, verbose: str | None = None) -> argparse.ArgumentParser:
    """An ``ArgumentParser`` with the shared ``--json``, ``-v``/``--verbose`` and ``-q``/``--quiet``
    options and the exit codes in its help. Parsing sets the ``puzzleopt`` log's level
    (:func:`exact.logs.configure`): messages on stderr, beside the progress bars.

    Args:
        verbose: what ``-v`` shows besides the library's debug messages (a command's own use).
    """
    p = OneLineParser(prog=typed(prog), description=description, epilog=EPILOG)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the human report")
    add_verbosity(p, verbose)
    return p


def add_verbosity(p: argparse.ArgumentParser, verbose: str | None = None) -> None:
    """``-v``/``--verbose`` and ``-q``/``--quiet`` (counts): the log level of the command."""
    more = f"; {verbose}" if verbose else ""
    p.add_argument("-v", "--verbose", action="count", default=0, help=f"more messages on stderr (debug){more}")
    p.add_argument(
        "-q", "--quiet", action="count", default=0, help="fewer messages on stderr: -q warnings only, -qq errors"
    )


def add_svg(p: argparse.ArgumentParser, what: str = "the start") -> None:
    """The shared ``--svg FILE`` option: also write a picture of ``what``."""
    p.add_argument("--svg", metavar="FILE", help=f"also write a picture of {what} to FILE (SVG)")


def svg_target(args: argparse.Namespace) -> Path | None:
    """The checked ``--svg`` path (before any work, so that a bad path fails at once), or ``None``."""
    from exact.userfiles import output_file

    return None if getattr(args, "svg", None) is None else output_file(args.svg, "--svg")


def write_svg(path: Path | None, picture: str | None) -> None:
    """Write ``picture`` to ``path`` atomically (nothing without a path).

    Raises:
        PuzzleoptError: there is a path but the puzzle draws no picture.
    """
    if path is None:
        return
    if picture is None:
        raise PuzzleoptError(f"--svg {str(path)!r}: this puzzle has no picture")
    from exact.atomic import write_chunks

    write_chunks(path, [picture.encode()])


def _command_name(main: Callable) -> str:
    """The command as the user typed it: ``exact.ida`` for ``python -m exact.ida``."""
    module = getattr(main, "__module__", None) or "puzzleopt"
    if module == "__main__":
        spec = getattr(sys.modules.get("__main__"), "__spec__", None)
        module = spec.name if spec is not None else "puzzleopt"
    return module.removesuffix(".__main__")


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Call ``main(argv)`` and turn the ways a command can end into exit codes.

    ``prog``: the command as typed, where it is not ``python -m`` of ``main``'s module (the
    ``puzzleopt`` subcommands); usage lines and errors then name it (:func:`typed`).

    * bad input (a :class:`~exact.errors.PuzzleoptError`, the project's own error types), a
      file that cannot be read or written (``OSError``: a missing folder, a directory where a file
      was meant, no permission) and a missing optional extra (torch, gymnasium, Ray: the line
      names the extra and its install command): one line on stderr, exit 2;
    * Ctrl-C: ``interrupted``, exit 130;
    * a closed output pipe (``--json | head``): silence, exit 141 (as ``yes | head`` does);
    * anything else is a bug: it is not caught, so Python prints its traceback (exit 1).

    Under ``--json`` an error is also one JSON object on stdout, ``{"error": ..., "exit_code": 2}``,
    so that a program reading stdout always reads JSON.
    """
    token = _TYPED.set(prog) if prog is not None else None
    try:
        return _run(main, argv, prog or _command_name(main))
    finally:
        if token is not None:
            _TYPED.reset(token)


def _run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None, prog: str) -> int:
    wants_json = "--json" in (sys.argv[1:] if argv is None else list(argv))

    def bad_input(message: str) -> int:
        print(f"{prog}: error: {message}", file=sys.stderr)
        if wants_json:
            print(json.dumps({"error": message, "exit_code": EXIT_BAD_INPUT}))
        return EXIT_BAD_INPUT

    try:
        return main(argv)
    except PuzzleoptError as exc:
        return bad_input(str(exc))
    except ImportError as exc:  # an optional extra's module (torch, gymnasium, ray): say which to install
        if (missing := missing_extra(exc, prog)) is None:
            raise
        return bad_input(str(missing))
    except BrokenPipeError:
        # The reader went away: nothing more can be said on stdout, and Python's flush at exit
        # would raise again, so stdout is pointed at /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_PIPE_CLOSED
    except OSError as exc:
        return bad_input(os_error_line(exc))
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit as exc:  # argparse's usage errors and --help: the code, also when called in-process
        return exc.code if isinstance(exc.code, int) else (EXIT_OK if exc.code is None else 1)


def exit_missing_extra(command: str, extra: str) -> NoReturn:
    """End ``python -m command``, which needs ``extra``, with the one line that names it and
    exit code 2 (for a command whose first imports would fail before its ``main`` runs)."""
    print(f"{command}: error: {MissingExtra(f'python -m {command}', extra)}", file=sys.stderr)
    sys.exit(EXIT_BAD_INPUT)


def os_error_line(exc: OSError) -> str:
    """``OSError`` as one line that names the file and says what to do."""
    what = exc.strerror or str(exc)
    if exc.filename is None:
        return f"{what}; check the paths given on the command line"
    name = f"{exc.filename!s}" + (f" -> {exc.filename2!s}" if exc.filename2 is not None else "")
    hint = {
        errno.EISDIR: "it is a folder; give a file name",
        errno.ENOTDIR: "a part of the path is a file, not a folder",
        errno.ENOENT: "check the path (folders are not created for you)",
        errno.EACCES: "no permission; choose a path you may write to",
        errno.EEXIST: "it exists already",
        errno.ENOSPC: "the disk is full",
    }.get(exc.errno, "check the path")
    return f"{name}: {what} ({hint})"
