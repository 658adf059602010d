"""One logger hierarchy for the library, ``puzzleopt.*``, silent until someone configures it.

Library modules log through :func:`get_logger` (``puzzleopt.exact.pdb.store`` for
``exact.pdb.store``) and never print; a notebook or a service routes or silences them as any
Python logging (``logging.getLogger("puzzleopt").setLevel(logging.ERROR)``). The commands call
:func:`configure` (through their shared ``-v``/``-q`` options): messages go to stderr, written
so that a tqdm progress bar there is not torn.
"""

from __future__ import annotations

import logging
import sys

__all__ = ["ROOT", "configure", "configured", "get_logger"]

ROOT = "puzzleopt"
"""The hierarchy's root logger name."""

logging.getLogger(ROOT).addHandler(logging.NullHandler())  # a library configures nothing itself

_VERBOSITY: int | None = None  # what configure() was last given in this process


def get_logger(module: str) -> logging.Logger:
    """The logger of ``module`` (pass ``__name__``) under the ``puzzleopt`` hierarchy."""
    return logging.getLogger(f"{ROOT}.{module}")


class _TqdmStderr(logging.Handler):
    """Write each record to stderr through ``tqdm.write``, which moves a live bar out of the way."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            from tqdm import tqdm

            tqdm.write(self.format(record), file=sys.stderr)
        except Exception:  # noqa: BLE001 - logging must not raise (logging.Handler.handleError's contract)
            self.handleError(record)


def configure(verbosity: int = 0) -> logging.Logger:
    """Show the library's messages on stderr at the level a command's ``-v``/``-q`` ask for.

    Args:
        verbosity: ``-v`` count minus ``-q`` count. 0: notices and warnings (INFO), 1 or more:
            DEBUG, -1: warnings, -2 or less: errors only.

    Returns:
        The ``puzzleopt`` logger. Calling again replaces the handler this function added (a
        command run twice in one process logs each message once).
    """
    global _VERBOSITY
    _VERBOSITY = verbosity
    root = logging.getLogger(ROOT)
    for handler in [h for h in root.handlers if isinstance(h, _TqdmStderr)]:
        root.removeHandler(handler)
    handler = _TqdmStderr()
    handler.setFormatter(logging.Formatter("%(message)s"))
    root.addHandler(handler)
    root.setLevel(
        {1: logging.DEBUG, 0: logging.INFO, -1: logging.WARNING}.get(max(-2, min(1, verbosity)), logging.ERROR)
    )
    return root


def configured() -> int | None:
    """The verbosity :func:`configure` set in this process (None where no command did): worker
    processes take it from their caller, so their messages show as the caller's do."""
    return _VERBOSITY
