"""Imported by the executor's forkserver when it starts: the server dies with its caller.

Worker processes are forked by the forkserver, so their parent-death signal
(:func:`exact.executor.die_with_parent`) fires when the server dies, not when the caller does. A
caller killed by SIGTERM or SIGKILL runs no ``finally`` and cannot stop its workers, which used to
solve on, every core busy. Importing this module sets the same signal in the server, so the
kernel ends the chain: caller, server, workers. Only :func:`exact.executor.process_context`
preloads it, and nothing else may import it: it acts on import, because a preload is all a
forkserver runs before it serves. Linux only; elsewhere it does nothing.
"""

from __future__ import annotations

import os

from exact.executor import die_with_parent

_caller = os.getppid()
die_with_parent()
if os.getppid() != _caller:  # pragma: no cover - the caller died before the signal was set
    os._exit(0)
