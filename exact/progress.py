"""Progress of one long search: the current bound (or step), the count and the rate.

A single IDA* solve of a hard 24-puzzle or of a deep 3x3x3 runs for minutes; without a sign of
life it looks hung. :class:`SearchProgress` shows a tqdm bar on stderr where that is a terminal
(or a notebook), and otherwise logs a line (``puzzleopt.exact.progress``, INFO: the commands show
it, ``-q`` hides it) per stage done (an IDA* threshold exhausted, a beam step) and every
:data:`EVERY` seconds within a long one. Searches call :meth:`SearchProgress.update` between
their budgets of nodes; an update costs next to nothing, and a bar is redrawn at most five
times a second.
"""

from __future__ import annotations

import sys
import time
from typing import Any

from exact.logs import get_logger

__all__ = ["EVERY", "SearchProgress"]

logger = get_logger(__name__)

EVERY = 30.0
"""Seconds between two log lines within one stage (where there is no terminal for a bar)."""


def _rate(count: int, seconds: float) -> str:
    per = count / seconds if seconds > 0 else 0.0
    return f"{per / 1e6:.1f} M/s" if per >= 1e5 else f"{per:,.0f}/s"


class SearchProgress:
    """Progress of one search (``enabled=False``: it does nothing).

    Args:
        what: the search's name in the lines (``ida* tiles24``).
        enabled: whether to show anything.
        unit: what the count counts (``generated nodes``).
        stage: what a stage is called (``bound``, ``step``); None: no stages, time lines only.
    """

    def __init__(self, what: str, enabled: bool = True, unit: str = "nodes", stage: str | None = "bound") -> None:
        self.what, self.enabled, self.unit, self.stage = what, enabled, unit, stage
        self.t0 = self._drawn = self._said = time.perf_counter()
        self.at: int | None = None
        self.count = 0
        self._bar: Any = None

    def update(self, at: int | None, count: int, **fields: Any) -> None:
        """The search is at stage ``at`` (a threshold, a step; None without stages) and has
        counted ``count`` in all; ``fields`` are shown beside them (``width=4096``)."""
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.stage is not None and self.at is not None and at != self.at:
            self._line(f"{self.stage} {self.at} done after {self.count:,} {self.unit}")
        elif now - self._said >= EVERY:
            where = f"at {self.stage} {at}, " if self.stage is not None and at is not None else ""
            self._line(f"{where}{count:,} {self.unit} so far")
        self.at, self.count = at, count
        if (self._bar is not None or sys.stderr.isatty()) and now - self._drawn >= 0.2:
            self._drawn = now
            bar = self._bar_for()
            bar.n = count
            shown = ([f"{self.stage} {at}"] if self.stage is not None else []) + [f"{k} {v}" for k, v in fields.items()]
            bar.set_postfix_str(", ".join(shown), refresh=False)
            bar.refresh()

    def close(self, outcome: str = "") -> None:
        """The search ended (``outcome``: how, for the last line)."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        where = f" at {self.stage} {self.at}" if self.stage is not None and self.at is not None else ""
        self._line(f"{outcome or 'done'}{where}, {self.count:,} {self.unit}")
        self.enabled = False

    def __enter__(self) -> SearchProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close("stopped" if exc[0] is not None else "")

    def _bar_for(self):
        if self._bar is None:
            from tqdm.auto import tqdm

            self._bar = tqdm(desc=self.what, unit=f" {self.unit}", unit_scale=True, file=sys.stderr, leave=False)
        return self._bar

    def _line(self, text: str) -> None:
        self._said = now = time.perf_counter()
        logger.info("%s: %s (%.1f s, %s)", self.what, text, now - self.t0, _rate(self.count, now - self.t0))
