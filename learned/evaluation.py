"""BWAS over a set of instances, summed up: :class:`Evaluation` (rates, gaps, contradictions with
the file's optimal lengths), its report (:func:`write_report`) and the task each worker runs
(:func:`bwas_task`). ``python -m learned.evaluate`` (:mod:`learned.evaluate`) parses and prints."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from exact.atomic import write_chunks
from exact.batch import RESULT_FORMAT
from exact.executor import Blob
from exact.plots import histogram_png
from exact.rates import LengthRow, Rate, by_length, length_table
from exact.result import SolveResult
from learned.bwas import bwas
from learned.remote import worker_heuristic


@dataclass(frozen=True)
class Evaluation:
    """BWAS results over a set of instances and what they add up to."""

    results: list[SolveResult]
    optimal: list[int | None]
    ids: list[str] | None = None
    interrupted: bool = False

    @property
    def solved(self) -> list[tuple[SolveResult, int | None]]:
        return [(r, o) for r, o in zip(self.results, self.optimal) if r.length is not None]

    @property
    def contradictions(self) -> list[str]:
        """Why each solution shorter than the file's optimal length contradicts it."""
        ids = self.ids or [str(i + 1) for i in range(len(self.results))]
        return [
            f"instance {ids[i]}: a {r.length}-move solution ({' '.join(r.moves)}) beats the file's optimum {o}"
            for i, (r, o) in enumerate(zip(self.results, self.optimal))
            if r.length is not None and o is not None and r.length < o
        ]

    def summary(self) -> dict:
        solved = self.solved
        known = [(r.length, o) for r, o in solved if o is not None and r.length >= o]
        nodes = [r.nodes or 0 for r in self.results]
        secs = [r.seconds for r in self.results]
        rows = self._known()
        return {
            "instances": len(self.results),
            "solved_rate": Rate(len(solved), len(self.results)).to_dict(),
            "optimal": Rate(sum(o for _, o, _ in rows), len(rows)).to_dict(),
            "by_optimal_length": [x.to_dict() for x in self.by_length()],
            "solved": len(solved),
            "solved_share": len(solved) / len(self.results) if self.results else 0.0,
            "mean_length": statistics.mean(r.length for r, _ in solved) if solved else None,
            "with_known_optimum": len(known),
            "optimal_share": sum(a == b for a, b in known) / len(known) if known else None,
            "mean_gap": statistics.mean(a - b for a, b in known) if known else None,
            "mean_nodes": statistics.mean(nodes) if nodes else None,
            "mean_seconds": statistics.mean(secs) if secs else None,
            "nodes_per_second": sum(nodes) / sum(secs) if sum(secs) > 0 else None,
            "contradictions": self.contradictions,
            "interrupted": self.interrupted,
        }

    def _known(self) -> list[tuple[int, bool, int | None]]:
        """``(optimal length, solved optimally, gap)`` of each instance whose optimum the file gives."""
        return [(o, r.length == o, r.length - o if r.length is not None and r.length >= o else None)
                for r, o in zip(self.results, self.optimal) if o is not None]  # fmt: skip

    def by_length(self) -> list[LengthRow]:
        """The optimal share by the file's optimal length (none where the file gives none)."""
        return by_length(self._known())

    def markdown(self) -> str:
        s = self.summary()

        def pct(x):
            return "-" if x is None else f"{100 * x:.1f}%"

        def num(x, f=".2f"):
            return "-" if x is None else format(x, f)

        return "\n".join(
            [
                "| instances | solved | mean length | optimal (of known, 95% Wilson) | mean gap | mean nodes | mean s "
                "| nodes/s |",
                "|---|---|---|---|---|---|---|---|",
                f"| {s['instances']} | {Rate(s['solved'], s['instances'])} | {num(s['mean_length'])} | "
                f"{Rate(s['optimal']['successes'], s['optimal']['n'])} | {num(s['mean_gap'])} | "
                f"{num(s['mean_nodes'], ',.0f')} | {num(s['mean_seconds'], '.3f')} | "
                f"{num(s['nodes_per_second'], ',.0f')} |",
            ]
        )


RESULTS = ("results.jsonl", RESULT_FORMAT)
"""The results file of ``--out`` and its record format (:mod:`exact.resultlog`)."""


def write_report(ev: Evaluation, out: Path, title: str, command: str) -> None:
    """``summary.md`` and ``lengths.png`` in ``out``, each written atomically (``results.jsonl`` is
    the run's log, :func:`exact.batch.run_batch`)."""
    out.mkdir(parents=True, exist_ok=True)
    md = f"# {title}\n\nCommand: `{command}`\n\n{ev.markdown()}\n"
    if rows := ev.by_length():
        md += f"\n{length_table(rows, 'optimal length')}\n"
    if ev.interrupted:
        md += f"\nInterrupted (Ctrl-C) after {len(ev.results)} instances.\n"
    if ev.contradictions:
        md += "\n**Contradictions with the file's optimal lengths:**\n\n" + "".join(
            f"- {why}\n" for why in ev.contradictions
        )
    write_chunks(out / "summary.md", [md.encode()])
    known = [r.length - o for r, o in ev.solved if o is not None and r.length >= o]
    values = known or [r.length for r, _ in ev.solved]
    xlabel = "length - optimal length" if known else "solution length"
    write_chunks(out / "lengths.png", [histogram_png(values, xlabel, title)])


@dataclass(frozen=True)
class EvalShared:
    """What every BWAS task reads (sent once per worker; the network as a blob)."""

    spec: dict
    key: str
    blob: Blob | None
    device: str
    threads: int
    settings: dict


def bwas_task(shared: EvalShared, start) -> SolveResult:
    """BWAS on one start, with the network loaded once per process."""
    h = worker_heuristic(shared.spec, shared.key, shared.blob, shared.device, shared.threads)
    return bwas(h.puzzle, start, h, **shared.settings)
