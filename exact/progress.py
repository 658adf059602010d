"""Progress of one long search: the current bound (or step), the count and the rate.

Two kinds of search report here. A search that counts nodes (IDA*, A*, the optimal 3x3 solver,
BWAS, beam) drives :class:`SearchProgress`; a time-indexed model (the MIP's split, CP-SAT's
horizons) sends stage events to :class:`ModelProgress`. Both draw on stderr where that is a
terminal or a Jupyter kernel and otherwise log one line per stage.

A single IDA* solve of a hard 24-puzzle or of a deep 3x3x3 runs for minutes; without a sign of
life it looks hung. :class:`SearchProgress` shows a tqdm bar on stderr where that is a terminal
(or a notebook), and otherwise logs a line (``puzzleopt.exact.progress``, INFO: the commands show
it, ``-q`` hides it) per stage done (an IDA* threshold exhausted, a beam step) and every
:data:`EVERY` seconds within a long one. Searches call :meth:`SearchProgress.update` between
their budgets of nodes; an update costs next to nothing, and a bar is redrawn at most five
times a second.
"""

from __future__ import annotations

import functools
import sys
import time
from typing import Any

from exact.logs import get_logger

__all__ = ["EVERY", "RATE_AFTER", "ModelProgress", "SearchProgress", "bar", "bars_wanted"]

logger = get_logger(__name__)

EVERY = 30.0
"""Seconds between two log lines within one stage (where there is no terminal for a bar)."""


def bars_wanted() -> bool:
    """Whether a tqdm bar can be seen: stderr is a terminal, or this is a Jupyter kernel (whose
    stderr is no terminal but shows tqdm's widget)."""
    if sys.stderr.isatty():
        return True
    shell = sys.modules.get("IPython")
    get = getattr(shell, "get_ipython", None)
    kernel = get() if get is not None else None
    return kernel is not None and "IPKernelApp" in getattr(kernel, "config", {})


RATE_AFTER = 1.0
"""Seconds of counted progress a bar measures before it shows a rate and an ETA."""


def bar(enabled: bool = True, **kwargs: Any) -> Any:
    """A tqdm progress bar on stderr, the one every long run of the project shows.

    Drawn only where it can be seen (:func:`bars_wanted`: a terminal or a notebook), never as
    ``\r``-torn lines in a log file or a pipe; elsewhere it is disabled (and costs nothing).
    Its rate, and so its ETA, is measured from its first counted step, not from its creation:
    the set-up before that step (numba compiling, a table loading) made the first ETAs read
    thousands of hours. Until :data:`RATE_AFTER` seconds of counted progress it shows ``?``.

    Args:
        enabled: Whether the caller wants progress at all (its ``progress`` option).
        kwargs: tqdm's own arguments (``total``, ``desc``, ``unit``, ``initial``, ...).
    """
    from tqdm.auto import tqdm

    kwargs.setdefault("file", sys.stderr)
    wanted = enabled and not kwargs.pop("disable", False) and bars_wanted()
    return _measured(tqdm)(disable=not wanted, **kwargs)


@functools.cache
def _measured(base: type) -> type:
    class Measured(base):  # type: ignore[misc, valid-type]
        """tqdm whose rate starts at its first counted step (see :func:`bar`)."""

        _first: tuple[float, float] | None = None

        @property
        def format_dict(self) -> dict[str, Any]:
            d = super().format_dict
            n, elapsed = d["n"], d["elapsed"]
            if self._first is None and n > (d.get("initial") or 0):
                self._first = (elapsed, n)
            first = self._first
            ran = 0.0 if first is None else elapsed - first[0]
            # rate 0 is tqdm's "unknown": '?' for the rate and the remaining time
            d["rate"] = (n - first[1]) / ran if first is not None and ran >= RATE_AFTER and n > first[1] else 0
            return d

    Measured.__name__ = f"Measured{base.__name__}"
    return Measured


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
        if (self._bar is not None or bars_wanted()) and now - self._drawn >= 0.2:
            self._drawn = now
            bar = self._bar_for()
            bar.n = count
            shown = ([f"{self.stage} {at}"] if self.stage is not None else []) + [f"{k} {v}" for k, v in fields.items()]
            bar.set_postfix_str(", ".join(shown), refresh=False)
            bar.refresh()

    def close(self, outcome: str = "", count: int | None = None) -> None:
        """The search ended (``outcome``: how, for the last line; ``count``: the final count,
        the result's, where the search counted more after its last update)."""
        if not self.enabled:
            return
        if count is not None:
            self.count = count
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
            self._bar = bar(desc=self.what, unit=f" {self.unit}", unit_scale=True, leave=False)
        return self._bar

    def _line(self, text: str) -> None:
        self._said = now = time.perf_counter()
        logger.info("%s: %s (%.1f s, %s)", self.what, text, now - self.t0, _rate(self.count, now - self.t0))


class ModelProgress:
    """Progress of a time-indexed model's solve, from the stage events its solver sends.

    Pass it as ``progress`` to :func:`exact.mip.solve_mip` or :func:`exact.cpsat.solve_cpsat`
    (the registry's ``mip`` and ``cp-sat`` methods do so under ``progress=True``). Events are
    dicts with a ``"stage"``: ``"model"`` (a horizon's model is built: its size), ``"incumbent"``
    (a solution of that length is known), ``"pieces"`` (the split has refuted ``refuted`` of
    ``total`` pieces; ``bound`` is the proven lower bound) and ``"horizon"`` (CP-SAT decided
    horizon ``T``). Pieces show as a tqdm bar where one can be seen and otherwise as a line every
    ten pieces; the other stages as one line each (logger ``puzzleopt.exact.progress``, INFO).

    Args:
        what: the solve's name at the start of each line (``mip cube3``); empty: none.
        enabled: whether to show anything.
    """

    def __init__(self, what: str = "", enabled: bool = True) -> None:
        self.prefix = f"{what}: " if what else ""
        self.enabled = enabled
        self.incumbent: int | None = None
        self._bar: Any = None

    def __call__(self, event: dict[str, Any]) -> None:
        if not self.enabled:
            return
        stage = event["stage"]
        if stage == "horizon":
            self._line(f"T = {event['T']}: {event['status']} ({event['seconds']:.2f} s)")
        elif stage == "incumbent":
            self.incumbent = event["length"]
            self._line(f"incumbent: {event['length']} moves from {event['source']}: {event['moves']}")
        elif stage == "model":
            self._end_bar()
            size, h = event["size"], event["horizon"]
            self._line(
                f"model of horizon {h}: {size['variables']} variables ({size['integer_variables']} integer), "
                f"{size['constraints']} constraints, built in {event['build_seconds']:.2f} s; "
                f"refuting 'at most {h} moves' piece by piece"
            )
        elif stage == "pieces":
            self._pieces(event)

    def _pieces(self, event: dict[str, Any]) -> None:
        text = f"bound {event['bound']}" + (f", incumbent {self.incumbent}" if self.incumbent else "")
        if self._bar is None and bars_wanted():
            self._bar = bar(desc=f"{self.prefix}pieces refuted", unit="piece", leave=False)
        if self._bar is not None:
            self._bar.total, self._bar.n = event["total"], event["refuted"]
            self._bar.set_postfix_str(text)
        # the bar shows every piece; the last count is also logged, since the bar is not kept
        if event["refuted"] == event["total"] or (self._bar is None and event["refuted"] % 10 == 0):
            self._line(f"pieces refuted {event['refuted']}/{event['total']}, {text}")

    def close(self) -> None:
        """The solve ended: the bar goes (its last counts were logged)."""
        self._end_bar()
        self.enabled = False

    def __enter__(self) -> ModelProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _end_bar(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def _line(self, text: str) -> None:
        logger.info("%s%s", self.prefix, text)
