"""The first compile of numba kernels: one notice, so that a first run silent for seconds says why.

numba compiles a kernel on its first call and caches the machine code on disk (``cache=True``);
later runs load it in milliseconds. A first Sokoban or FreeCell search compiles for seconds
(4.5 s and 11 s in the audit of issue 25), with nothing on screen. :func:`notice_first_compile` looks
for the cache index of each kernel of the given modules and, when one is missing, prints
``compiling kernels (first run only) ...`` once per process on stderr.
"""

from __future__ import annotations

import dataclasses
import os
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from exact.contract import Setup

from exact.logs import get_logger

logger = get_logger(__name__)

_shown = False


COMPILING = "compiling its numba kernels (first run only)"


def _kernels(module: ModuleType) -> dict[str, str]:
    """The module's own numba kernels that cache on disk: name -> the path of their cache index."""
    from numba.core.registry import CPUDispatcher

    out = {}
    for name, obj in vars(module).items():
        if not isinstance(obj, CPUDispatcher) or getattr(obj, "__module__", None) != module.__name__:
            continue
        index = getattr(getattr(getattr(obj, "_cache", None), "_cache_file", None), "_index_path", None)
        if index is not None:
            out[name] = index
    return out


def _uncached(module: ModuleType) -> list[str]:
    """Names of the module's cached numba kernels whose on-disk cache index is missing."""
    return [name for name, index in _kernels(module).items() if not os.path.exists(index)]


def compile_seconds(*modules: ModuleType, seconds: float) -> float:
    """About how long numba's first compile of ``modules``' kernels takes now: ``seconds`` (the
    whole compile, measured per method with the cache removed) while one of them is not cached,
    0 once every one is. A method names its own modules, not the small shared ones
    (:mod:`exact.ranking`), so that a kernel cached by another method does not hide its compile."""
    return seconds if any(_uncached(m) for m in modules) else 0.0


def compile_setup(*modules: ModuleType, seconds: float) -> list[Setup]:
    """A method's set-up where a kernel of ``modules`` has no compiled cache yet: numba compiles
    them on the first call, for about ``seconds`` (measured per method), which its time limit must
    cover like a table's build; ``[]`` once they are cached."""
    return with_compile([], *modules, seconds=seconds)


def with_compile(ways: list[Setup], *modules: ModuleType, seconds: float) -> list[Setup]:
    """``ways`` (a method's table set-ups, best first) with numba's first compile of ``modules``
    added to each (:func:`compile_seconds`); where there are no tables, the compile alone.
    Unchanged once the kernels are cached."""
    from exact.contract import Setup

    extra = compile_seconds(*modules, seconds=seconds)
    if extra <= 0:
        return ways
    if not ways:
        return [Setup({}, 0, True, extra, what=COMPILING)]
    return [dataclasses.replace(w, seconds=w.seconds + extra, what=w.what or COMPILING) for w in ways]


def notice_first_compile(*modules: ModuleType, stream: TextIO | None = None) -> bool:
    """Say once, on ``stream`` or else in the ``puzzleopt`` log (INFO), that kernels compile now,
    if a kernel of ``modules`` has no compiled cache yet.

    Returns:
        Whether the notice was printed (at most once per process).
    """
    global _shown
    if _shown or not any(_uncached(m) for m in modules):
        return False
    _shown = True
    message = "compiling kernels (first run only; numba caches them) ..."
    if stream is None:
        logger.info(message)
    else:
        stream.write(message + "\n")
        stream.flush()
    return True
