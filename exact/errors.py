"""Exceptions shared by the whole toolkit.

Bad input raises a subclass of :class:`PuzzleoptError`, itself a ``ValueError``, with a
message that names the input, what is wrong with it and how to fix it. CLIs turn these into
one line on stderr and exit code 2 (see :mod:`exact.cli`).

A solver that returns a move sequence which does not replay to the goal has a bug; that raises
:class:`ReplayError`, which is deliberately *not* a ``ValueError``.
"""

from __future__ import annotations


class PuzzleoptError(ValueError):
    """Base class of every bad-input error raised by puzzleopt."""


class NotationError(PuzzleoptError):
    """A move token, or a sequence in notation, that cannot be read or applied."""


class FaceletError(PuzzleoptError):
    """A cube facelet string that does not describe a valid cube."""


class StateError(PuzzleoptError):
    """A puzzle state of the wrong shape, with bad labels, or unreachable from the goal."""


class UnsolvableError(StateError):
    """A state that no sequence of moves brings to the goal (e.g. a tile board of wrong parity)."""


EXTRAS = {
    "learned": "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu "
    "&& pip install 'puzzleopt[learned]'",
    "gym": "pip install 'puzzleopt[gym]'",
    "scale": "pip install 'puzzleopt[scale]'",
}
"""Each optional extra's install command (torch first, from the CPU wheels: a plain ``torch``
requirement pulls several GB of CUDA packages)."""


class MissingExtra(PuzzleoptError, ImportError):
    """What was asked for needs an optional extra that is not installed; the message names the
    extra and its install command. Also an ``ImportError``, so that code probing for an optional
    part keeps working.

    Args:
        what: What needs it (``"method 'bwas'"``, ``"python -m learned.solve"``).
        extra: A key of :data:`EXTRAS`.
    """

    def __init__(self, what: str, extra: str) -> None:
        super().__init__(f"{what} needs the {extra!r} extra, which is not installed: {EXTRAS[extra]}")
        self.extra = extra


MODULE_EXTRAS = {"torch": "learned", "safetensors": "learned", "gymnasium": "gym", "ray": "scale"}
"""The extra that installs each optional top-level module."""


def missing_extra(exc: ImportError, what: str) -> MissingExtra | None:
    """``exc`` as a :class:`MissingExtra` for ``what`` where the missing module is an extra's
    (``torch``: ``learned``); ``None`` where it is not (a broken install, a bug)."""
    if isinstance(exc, MissingExtra):
        return exc
    top = (exc.name or "").split(".")[0]
    return MissingExtra(what, MODULE_EXTRAS[top]) if top in MODULE_EXTRAS else None


class ReplayError(RuntimeError):
    """A solver produced moves that do not reach the goal: always a bug, never bad input."""


def first_line(exc: BaseException, limit: int = 300) -> str:
    """An error's message, its first line, at most ``limit`` characters: a 4 MB bad input is
    not echoed back whole."""
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
