"""A time limit that covers the set-up too: building or loading tables, compiling kernels.

:func:`exact.solvers.solve` opens a :func:`deadline` for the whole solve. Work that can run long
before a search starts (a pattern database or distance table being built, :mod:`exact.pdb.store`)
calls :func:`check` as it goes, which raises :class:`SetupLimit` once the deadline has passed;
the solve then ends as ``limit`` and says that its set-up did not fit, instead of searching past
the limit. The methods give their searches what is :func:`left` of the limit, not all of it.

The deadline is a context variable, so threads and nested solves each see their own.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterator
from contextlib import contextmanager

_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("puzzleopt_deadline", default=None)


class SetupLimit(Exception):  # noqa: N818 - a limit reached, not an error of the user's
    """The set-up of a solve ran past its time limit (not bad input: the solve ends as ``limit``)."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`check` and :func:`left` measure ``seconds`` from now (``None``:
    no limit)."""
    token = _DEADLINE.set(None if seconds is None else time.perf_counter() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check(what: str) -> None:
    """Raise :class:`SetupLimit` (saying ``what`` was under way) once the deadline has passed."""
    at = _DEADLINE.get()
    if at is not None and time.perf_counter() > at:
        raise SetupLimit(what)


def left(seconds: float | None) -> float | None:
    """What is left of a time limit of ``seconds`` under the current deadline (at least a
    millisecond, so a search that starts ends at once); ``seconds`` itself outside one."""
    at = _DEADLINE.get()
    if seconds is None or at is None:
        return seconds
    return max(min(seconds, at - time.perf_counter()), 1e-3)
