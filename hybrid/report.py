"""Certificates of a set of instances: what they add up to, and the files that record them.

One certificate per instance (:class:`hybrid.certify.Certificate`); :func:`summarise` gives the shares of each
verdict, the mean gap and the times, and checks every certificate against the optimal length the
instance file knows (a contradiction is a bug, reported loudly); :func:`write_report` writes
``summary.md`` and ``gaps.png`` atomically (``hybrid.verify`` streams ``certificates.jsonl``).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from exact.atomic import write_chunks
from exact.plots import histogram_png
from exact.provenance import stamp
from exact.rates import LengthRow, Rate, by_length, length_table
from hybrid.certify import INVALID, NO_SOLUTION, Certificate


def summarise(certs: Sequence[Certificate]) -> dict[str, Any]:
    """Shares of each verdict, mean gap over the decided ones, times and contradictions."""
    n = len(certs)

    def share(verdict: str) -> float:
        return sum(c.verdict == verdict for c in certs) / n if n else 0.0

    gaps = [c.gap for c in certs if c.gap is not None and c.gap_exact]
    secs = [c.certify_seconds for c in certs]
    learned = [c.learned_seconds for c in certs if c.learned_seconds is not None]
    return {
        "instances": n,
        "optimal": Rate(sum(c.verdict == "optimal" for c in certs), n).to_dict(),
        **_by_length(certs),
        "optimal_share": share("optimal"),
        "suboptimal_share": share("suboptimal"),
        "unknown_share": share("unknown"),
        "no_solution_share": share(NO_SOLUTION),
        "invalid": sum(c.verdict == INVALID for c in certs),
        "invalid_share": share(INVALID),
        "mean_gap": statistics.mean(gaps) if gaps else None,
        "decided": len(gaps),
        "mean_certify_seconds": statistics.mean(secs) if secs else None,
        "total_certify_seconds": sum(secs),
        "total_learned_seconds": sum(learned) if learned else None,
        "methods": sorted({c.method for c in certs if c.method}),
        "contradictions": [why for c in certs if (why := c.contradiction())],
    }


def _optimum(c: Certificate) -> int | None:
    """The instance's optimal length where known: the file's, or the certificate's proof."""
    if c.known_optimal is not None:
        return c.known_optimal
    return c.best_length if c.gap_exact else None


def _by_length(certs: Sequence[Certificate]) -> dict[str, list[dict[str, Any]]]:
    """The shares of optimal verdicts by optimal length, and by given length where the optimum is
    unknown (an instance with neither, one with no solution and no known optimum, is left out)."""
    known = [
        (o, c.verdict == "optimal", c.gap if c.gap_exact else None) for c in certs if (o := _optimum(c)) is not None
    ]
    given = [(c.given_length, False, None) for c in certs if _optimum(c) is None and c.given_length is not None]
    return {
        "by_optimal_length": [r.to_dict() for r in by_length(known)],
        "by_given_length": [r.to_dict() for r in by_length(given)],
    }


def length_tables(summary: Mapping[str, Any]) -> str:
    """The by-length tables of :func:`summarise` in Markdown (empty where there are none)."""
    out = []
    for key, basis in (("by_optimal_length", "optimal length"), ("by_given_length", "given length (optimum unknown)")):
        rows = [LengthRow.from_dict(d) for d in summary.get(key, [])]
        if rows:
            out.append(length_table(rows, basis))
    return "\n\n".join(out)


def markdown(summary: Mapping[str, Any]) -> str:
    """The summary as a one-row Markdown table (the optimal share with its 95% Wilson interval)."""

    def pct(x: float) -> str:
        return f"{100 * x:.1f}%"

    gap = "-" if summary["mean_gap"] is None else f"{summary['mean_gap']:.2f} ({summary['decided']})"
    mean = "-" if summary["mean_certify_seconds"] is None else f"{summary['mean_certify_seconds']:.3f}"
    learned = "-" if summary["total_learned_seconds"] is None else f"{summary['total_learned_seconds']:.1f}"
    return "\n".join(
        [
            "| instances | optimal | suboptimal | unknown | no learned solution | invalid | mean gap (decided) "
            "| certify s (mean) | certify s (total) | learned s (total) | methods |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            f"| {summary['instances']} | {Rate(summary['optimal']['successes'], summary['instances'])} | "
            f"{pct(summary['suboptimal_share'])} | "
            f"{pct(summary['unknown_share'])} | {pct(summary['no_solution_share'])} | "
            f"{pct(summary['invalid_share'])} ({summary['invalid']}) | {gap} | {mean} | "
            f"{summary['total_certify_seconds']:.1f} | {learned} | {', '.join(summary['methods']) or '-'} |",
        ]
    )


def write_report(certs: Sequence[Certificate], out: Path, title: str, command: str) -> None:
    """``summary.md`` and ``gaps.png`` (a histogram of exact gaps) in ``out`` (the certificates
    themselves are streamed to ``certificates.jsonl`` by :mod:`exact.resultlog`)."""
    out.mkdir(parents=True, exist_ok=True)
    summary = summarise(certs)
    made = stamp()
    by = f"puzzleopt {made['puzzleopt']}" + (f", commit {made['commit']}" if "commit" in made else "")
    md = f"# {title}\n\nCommand: `{command}` ({by})\n\n{markdown(summary)}\n"
    if tables := length_tables(summary):
        md += f"\n{tables}\n"
    invalid = [c for c in certs if c.verdict == INVALID]
    if invalid:
        md += (
            "\n**Invalid solutions (they do not solve their start):**\n\n"
            + "\n".join(f"- instance {c.id}: {c.reason}" for c in invalid)
            + "\n"
        )
    if summary["contradictions"]:
        md += "\n**Contradictions with the file's optimal lengths:**\n\n" + "\n".join(
            f"- {why}" for why in summary["contradictions"]
        )
    write_chunks(out / "summary.md", [md.encode()])
    gaps = [c.gap for c in certs if c.gap is not None and c.gap_exact]
    write_chunks(out / "gaps.png", [histogram_png(gaps, "learned length - optimal length", title)])


__all__ = ["INVALID", "NO_SOLUTION", "Certificate", "length_tables", "markdown", "summarise", "write_report"]
