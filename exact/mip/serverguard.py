"""Imported by the split's forkserver when it starts: the server dies with its caller.

The split's workers are forked by the forkserver, so their parent-death signal
(``exact.mip.split``) fires when the server dies, not when the caller does. A caller killed
by SIGTERM or SIGKILL runs no ``finally`` and cannot stop its pool, and the server and its
workers used to solve on, both cores busy. Importing this module sets the same signal in the
server, so the kernel ends the chain: caller, server, workers. It is preloaded only by
:func:`exact.mip.split._context` and must not be imported anywhere else: it acts on import
because a preload is all a forkserver runs before it serves. Linux only; elsewhere it does
nothing.
"""

from __future__ import annotations

import os

from exact.mip.split import _die_with_parent

_caller = os.getppid()
_die_with_parent()
if os.getppid() != _caller:  # pragma: no cover - the caller died before the signal was set
    os._exit(0)
