"""What a solve may use of this machine: its cores, and the bounds every entry point keeps to.

Library code reads these here; the command-line layer (:mod:`exact.cli`) shows them in its help
and re-exports them, so that no library module imports the command-line layer.
"""

from __future__ import annotations

import os

__all__ = ["MAX_SCRAMBLE", "MAX_THREADS", "cores"]

MAX_SCRAMBLE = 100_000
"""The longest random scramble an entry point applies: enough for any use (a 7x7x7 is scrambled in
a few hundred moves), and short enough to apply quickly."""

MAX_THREADS = 256
"""The most threads (or worker processes, for the MIP's split proof) a solve takes. CP-SAT itself
refuses more than 10,000 workers (MODEL_INVALID); far fewer already only slow a machine down."""


def cores() -> int:
    """The cores this process may run on (the default of the worker counts)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
