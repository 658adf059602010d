"""``python -m learned.evaluate --puzzle tiles15 --instances FILE``: BWAS over a set, with a report.

For each instance: solved or not, length, nodes, seconds; against the optimal lengths the file
gives (``optimal_length``, ``optimal_qtm``, ...): the share solved optimally and the gaps. Prints a
Markdown table and, with ``--out DIR``, writes ``results.jsonl`` (one :class:`SolveResult` per
line, each as it arrives, then in instance order), ``summary.md`` and ``lengths.png`` (a
histogram of the gaps, or of the lengths without known optima); ``--resume`` continues such a
run. The instances run here (default), in ``--workers N`` processes or on Ray (``--ray``;
:mod:`exact.executor`); the network goes to each worker once (:mod:`learned.remote`).

A solution shorter than the optimal length the file gives contradicts the file (a wrong file,
or a bug in the replay): such instances are listed on stderr and in ``summary.md``, their gap
is left out of the mean, and the exit code is 1.

Exit codes: 0 done, 2 bad input, 6 a solution contradicts the file's optimal length (the file or
a solver is wrong; the summary lists it), 130 interrupted; 1 only for a bug.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from exact import cli
from exact.atomic import write_chunks
from exact.batch import (
    RESULT_FORMAT,
    open_log,
    result_from_record,
    result_record,
    run_batch,
    start_digests,
)
from exact.cli.options import add_executor_options, add_resume_option, executor_from, puzzle_from
from exact.executor import Blob
from exact.plots import histogram_png
from exact.rates import LengthRow, Rate, by_length, length_table
from exact.result import SolveResult
from exact.resultlog import file_digest
from exact.userfiles import output_folder
from instances.files import parse_states, read_instances
from instances.sets import INSTANCES_HELP
from learned.bwas import bwas
from learned.cli import parser_with_search, search_settings
from learned.loading import load_heuristic
from learned.remote import network_blob, worker_heuristic
from learned.runtime import configure

EXIT_CONTRADICTION = cli.EXIT_CONTRADICTION


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


def main(argv: Sequence[str] | None = None) -> int:
    p = parser_with_search("python -m learned.evaluate", __doc__.splitlines()[0])
    p.add_argument("--instances", metavar="FILE|SET", required=True, help=INSTANCES_HELP)
    p.add_argument("--first", type=cli.count(1), help="only the first N instances")
    p.add_argument("--out", type=cli.path, help="folder for results.jsonl, summary.md and lengths.png")
    add_executor_options(p)
    add_resume_option(p)
    args = p.parse_args(argv)
    puzzle = puzzle_from(args)
    if args.out is not None:
        output_folder(args.out, "--out")
    items = read_instances(args.instances)[: args.first]
    states = parse_states(puzzle, items, args.instances)  # bad input fails before the model loads
    heuristic = load_heuristic(puzzle, args.model, configure(args.device, args.threads), key=args.puzzle)
    settings = search_settings(args, heuristic.card)
    # the task goes to other processes by reference: from the module by its name, not __main__

    model = "shipped" if args.model is None else file_digest(args.model)
    what = {"command": "evaluate", "puzzle": puzzle.spec.to_dict(), "model": model, "settings": settings}
    log = open_log(args.out, *RESULTS, args.resume, what)
    with executor_from(args, threads=args.threads) as executor:
        blob = network_blob(executor, args.model)
        shared = EvalShared(puzzle.spec.to_dict(), args.puzzle, blob, args.device, args.threads, settings)
        run = run_batch(
            executor, bwas_task, states, [x.id for x in items], shared, log=log, to_record=result_record,
            from_record=result_from_record(puzzle), inputs=start_digests(states), progress=not args.no_progress,
            desc="BWAS",
        )  # fmt: skip
    run.finish()
    done = [x for x in items if x.id in run.results]
    ev = Evaluation(run.in_order(), [x.optimal for x in done], [x.id for x in done], run.interrupted)
    if args.out is not None:
        command = "python -m learned.evaluate " + " ".join(sys.argv[1:] if argv is None else argv)
        write_report(ev, args.out, f"BWAS on {args.instances} ({args.puzzle})", command)
    table = length_table(rows, "optimal length") if (rows := ev.by_length()) else ""
    print(json.dumps(ev.summary()) if args.json else "\n\n".join(filter(None, [ev.markdown(), table])))
    for why in ev.contradictions:
        print(f"contradiction: {why}", file=sys.stderr)
    if ev.interrupted:
        print(f"interrupted after {len(ev.results)} of {len(items)} instances", file=sys.stderr)
        return cli.EXIT_INTERRUPTED
    return EXIT_CONTRADICTION if ev.contradictions else cli.EXIT_OK


if __name__ == "__main__":
    sys.exit(cli.run(main))
