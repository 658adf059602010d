"""``python -m exact.executor.reaper PID``: end what a killed caller's local Ray leaves behind.

A local Ray that :class:`exact.executor.Ray` starts runs as the caller's descendants (its GCS
server, raylet, agents and workers). When the caller is killed (SIGKILL runs no ``finally``, so
no ``ray.shutdown()``), the raylet and the workers end, but Ray 2.60's dashboard and runtime-env
agents were seen to live on, reparented to init. This process watches the caller: while it lives,
it notes the caller's descendants once a second; when the caller is gone, it kills the ones it
noted. The executor starts it right after it starts Ray and stops it on ``close()``. Linux only
(it reads ``/proc``).
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path


def descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (read from ``/proc``)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, q in parent.items() if q == p and c not in out]
        out.update(kids)
        todo += kids
    return out


def main(argv: list[str]) -> int:
    caller = int(argv[0])
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the caller's to handle
    known: set[int] = set()
    while os.getppid() == caller:
        known |= descendants(caller) - {os.getpid()}
        time.sleep(1.0)
    for pid in known:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    return 0


if __name__ == "__main__":  # pragma: no cover - runs as its own process
    sys.exit(main(sys.argv[1:]))
