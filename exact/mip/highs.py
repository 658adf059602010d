"""HiGHS objects made quiet and run on a fresh scheduler: what the split's worker processes need,
in a module that imports neither Pyomo nor numba (a worker started by a forkserver that did not
preload them imports only this, numpy and highspy)."""

from __future__ import annotations

import os
import sys


def fresh_scheduler() -> None:
    """Let the next HiGHS run in this process size its own thread scheduler. Safe: no two HiGHS
    runs share a process here (the split's pieces run one after another in each worker)."""
    import highspy

    highspy.Highs.resetGlobalScheduler(True)


def run_highs(h) -> None:
    """``h.run()`` on a fresh scheduler.

    Raises:
        RuntimeError: HiGHS refused to run (an error status: a bug, never a limit).
    """
    import highspy

    fresh_scheduler()
    if h.run() == highspy.HighsStatus.kError:
        raise RuntimeError(f"HiGHS refused to run (status kError, model status {h.getModelStatus()})")


_BANNER_SHOWN = False


def quiet_highs():
    """A ``highspy.Highs`` with its output off. HiGHS prints its banner on the first instance of a
    process, before any option can be set; that line would land in the middle of a report (and
    of every worker's), so standard output is pointed at /dev/null while the first is made."""
    import highspy

    global _BANNER_SHOWN
    if _BANNER_SHOWN:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        saved, devnull = os.dup(1), os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(devnull)
        _BANNER_SHOWN = True
    h.setOptionValue("output_flag", False)
    return h
