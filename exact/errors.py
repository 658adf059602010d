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


class ReplayError(RuntimeError):
    """A solver produced moves that do not reach the goal: always a bug, never bad input."""


def first_line(exc: BaseException, limit: int = 300) -> str:
    """An error's message, its first line, at most ``limit`` characters: a 4 MB bad input is
    not echoed back whole."""
    text = str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
