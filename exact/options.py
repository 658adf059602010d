"""Method options, declared once where each method registers (:class:`Option`), and their
values as users write them (strict yes/no flags)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError
from exact.resources import MAX_THREADS

TRUE = ("true", "1", "yes", "on")
FALSE = ("false", "0", "no", "off")


def flag(value: Any, what: str) -> bool:
    """``value`` as a bool: ``True``/``False``, the numbers 1/0, or one of the words
    true/false, 1/0, yes/no, on/off (any case). Anything else is refused: ``"maybe"`` or
    ``"Flase"`` must not read as true.

    Args:
        value: The value given.
        what: How the option is named in the error, e.g. ``"pancake option burnt"``.

    Raises:
        PuzzleoptError: naming the option, the value and the words it takes.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise PuzzleoptError(f"{what} is a yes/no flag, got {value!r}; write true or false (or yes/no, 1/0)")


KINDS = ("count", "positive", "real", "seconds", "flag", "text", "object")
"""What an option's value is: ``count`` (a whole number >= 0), ``positive`` (>= 1), ``real`` (a
finite number >= 0), ``seconds`` (a finite number > 0), ``flag`` (yes/no, read strictly:
:func:`flag`), ``text``, or ``object`` (a Python value the method checks itself: ``patterns``,
``solver_options``, ``hint``)."""


@dataclass(frozen=True)
class Option:
    """One option of a method, declared once, where the method registers (as Fast Downward's
    plugins declare theirs): its name, kind, default and help. The method's function takes it
    as a keyword with the same default (tests/test_method_registry.py checks), and every entry
    point reads it through :meth:`read`.

    Attributes:
        name: The keyword (``width``); ``--method-option width=64`` on the command line.
        kind: One of :data:`KINDS`.
        default: The value when it is not given (``None``: the method decides, as its help says).
        help: One line for ``--list-methods`` and the docs.
        choices: For ``text``: the values it takes (empty: any).
        most: For ``count``/``positive``: the largest value it takes (``None``: no bound).
    """

    name: str
    kind: str
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] = ()
    most: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option {self.name!r}: kind {self.kind!r} is not one of {KINDS}")

    def with_default(self, default: Any, help: str | None = None) -> Option:
        """The same option with another method's default (and help, where the shared one's
        speaks of its default)."""
        return replace(self, default=default, help=self.help if help is None else help)

    def read(self, value: Any, owner: str) -> Any:
        """``value`` checked as this option's kind (text from a command line read as the kind
        asks); ``None`` passes (the default applies).

        Raises:
            PuzzleoptError: naming ``owner``'s option, the value and what it takes.
        """
        read, problem = self.check(value)
        if problem is not None:
            what = f"{owner} option {self.name}"
            if problem.startswith("use one of"):
                raise PuzzleoptError(f"{what} is {value!r}: {problem}")
            raise PuzzleoptError(f"{what} {problem}, got {value!r}")
        return read

    def read_flag(self, text: str, flag: str) -> Any:
        """``text`` given as ``flag`` on a command line, read as :meth:`read` does.

        Raises:
            PuzzleoptError: ``"--threads 0 must be a whole number >= 1"``: the flag, the text and
                what it takes.
        """
        read, problem = self.check(text)
        if problem is not None:
            raise PuzzleoptError(f"{flag} {text}{':' if problem.startswith('use one of') else ''} {problem}")
        return read

    def check(self, value: Any) -> tuple[Any, str | None]:
        """``(value read as the kind, None)``, or ``(None, what it must be)``."""
        if value is None or self.kind == "object":
            return value, None
        if self.kind == "flag":
            text = str(value).strip().lower()
            ok = isinstance(value, (bool, np.bool_)) or text in TRUE + FALSE or (
                isinstance(value, (int, np.integer)) and int(value) in (0, 1))  # fmt: skip
            return (flag(value, self.name), None) if ok else (None, "is a yes/no flag: write true or false")
        if self.kind == "text":
            if not isinstance(value, (str, os.PathLike)):
                return None, "takes text"
            if self.choices and str(value) not in self.choices:
                return None, f"use one of {', '.join(self.choices)}"
            return value, None
        if self.kind in ("real", "seconds"):
            number = _number(value)
            if number is None or not math.isfinite(number) or number < 0 or (self.kind == "seconds" and number == 0):
                return None, "must be a finite number " + (">= 0" if self.kind == "real" else "of seconds above 0")
            return number, None
        return self._whole(value)

    def _whole(self, value: Any) -> tuple[Any, str | None]:
        least = 1 if self.kind == "positive" else 0
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
            return None, f"must be a whole number >= {least}"
        if self.most is not None and value > self.most:
            return None, f"must be in {least}..{self.most}"
        return int(value), None


def id_ranges(text: str, flag: str = "--ids", highest: int | None = None) -> list[int]:
    """``"0-29,284"`` (ids and ranges ``a-b`` of whole numbers, comma-separated) as sorted distinct
    ids, each at most ``highest`` where that is given.

    Raises:
        PuzzleoptError: a bad token, a range whose first id is above its last, or an id above
            ``highest``; the message names ``flag`` and quotes the token.
    """
    out: set[int] = set()
    for token in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", token)
        if m is None:
            raise PuzzleoptError(f"{flag}: bad token {token!r} in {text!r}; give ids and ranges like 0-29,284")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if lo > hi:
            raise PuzzleoptError(f"{flag}: {token.strip()!r} is not a range: {lo} is above {hi}; give the lower first")
        if highest is not None and hi > highest:
            raise PuzzleoptError(f"{flag}: {token.strip()!r} is not a range within 0-{highest}")
        out.update(range(lo, hi + 1))
    return sorted(out)


def _number(value: Any) -> float | None:
    """``value`` as a float where it is a number or the text of one (never a bool)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


# Options many methods take, declared once; a method whose default differs takes
# ``THREADS.with_default(1)``.
STOP_AT = Option("stop_at", "count", None, "a known solution length: prove it optimal or find a shorter one, then stop")
PDB_DIR = Option("pdb_dir", "text", None, "where tables are kept (default: the user cache)")
PROGRESS = Option("progress", "flag", False, "show progress on stderr (a bar on a terminal, else log lines)")
COMMON = (STOP_AT, PDB_DIR, PROGRESS)
"""The options every method takes."""
THREADS = Option("threads", "positive", None, "threads or worker processes (unset: every core)", most=MAX_THREADS)
VERBOSE = Option("verbose", "flag", False, "show the solver's own log")
SEED = Option("seed", "count", 0, "the solver's random seed")
HORIZON = Option("horizon", "count", None, "the most moves a model allows (default: from a known solution)")
HINT = Option("hint", "object", None, "a known solution (move rows): the incumbent")
