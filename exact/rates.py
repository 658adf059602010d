"""Rates over a set of instances, as reports give them: a share with its Wilson interval, and the
same broken down by optimal length.

"84.0% optimal" from 500 instances and from 25 say different things; the Wilson score interval
(Wilson 1927; the interval Agresti & Coull 1998 and Brown, Cai & DasGupta 2001 recommend over the
normal one) says how different. A share of 0 or 1 keeps an honest interval (0% of 20 is
0.0-16.1%).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["LengthRow", "Rate", "by_length", "wilson"]


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion.

    Args:
        successes: how many of the ``n`` trials succeeded (0..n).
        n: trials (0 gives the whole interval, (0, 1)).
        confidence: two-sided level, in (0, 1).

    Returns:
        (low, high), within [0, 1].
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} is not within 0..{n}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence {confidence} is not within (0, 1)")
    if n == 0:
        return 0.0, 1.0
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # at p = 0 or 1 the bound is exactly 0 or 1; clamp the last bit of rounding
    return max(0.0, centre - half) if successes else 0.0, min(1.0, centre + half) if successes < n else 1.0


@dataclass(frozen=True)
class Rate:
    """``successes`` of ``n``, with the 95% Wilson interval.

    Attributes:
        successes: the count.
        n: of how many.
    """

    successes: int
    n: int

    @property
    def share(self) -> float | None:
        return self.successes / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.n)

    def __str__(self) -> str:
        """``84.0% (80.5-87.0%, 420/500)``; ``-`` of nothing."""
        if not self.n:
            return "-"
        low, high = self.interval
        return f"{100 * self.share:.1f}% ({100 * low:.1f}-{100 * high:.1f}%, {self.successes}/{self.n})"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the counts, the share and the interval (:meth:`from_dict` reads the counts)."""
        low, high = self.interval
        return {"successes": self.successes, "n": self.n, "share": self.share, "wilson95": [low, high]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Rate:
        return cls(int(d["successes"]), int(d["n"]))


@dataclass(frozen=True)
class LengthRow:
    """One row of a by-length table.

    Attributes:
        length: the optimal length (or the given length, where the optimum is not known).
        optimal: how many of the instances of that length were solved optimally, of how many.
        mean_gap: the mean gap over those whose gap is known (None if none is).
    """

    length: int
    optimal: Rate
    mean_gap: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"length": self.length, "optimal": self.optimal.to_dict(), "mean_gap": self.mean_gap}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> LengthRow:
        return cls(int(d["length"]), Rate.from_dict(d["optimal"]), d["mean_gap"])


def by_length(rows: Iterable[tuple[int, bool, int | None]]) -> list[LengthRow]:
    """The table by length of ``(length, solved optimally, gap or None)`` rows, shortest first."""
    groups: dict[int, list[tuple[bool, int | None]]] = {}
    for length, optimal, gap in rows:
        groups.setdefault(int(length), []).append((bool(optimal), gap))
    out = []
    for length in sorted(groups):
        got = groups[length]
        gaps = [g for _, g in got if g is not None]
        out.append(LengthRow(length, Rate(sum(o for o, _ in got), len(got)), statistics.mean(gaps) if gaps else None))
    return out


def length_table(rows: list[LengthRow], basis: str) -> str:
    """``rows`` as a Markdown table; ``basis`` names the length column (``optimal length``)."""
    lines = [f"| {basis} | instances | optimal (95% Wilson) | mean gap |", "|---|---|---|---|"]
    for r in rows:
        gap = "-" if r.mean_gap is None else f"{r.mean_gap:.2f}"
        lines.append(f"| {r.length} | {r.optimal.n} | {r.optimal} | {gap} |")
    return "\n".join(lines)
