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
import sys
from collections.abc import Sequence

from exact import cli
from exact.batch import (
    open_log,
    result_from_record,
    result_record,
    run_batch,
    start_digests,
)
from exact.cli.options import (
    add_executor_options,
    add_first_option,
    add_resume_option,
    executor_from,
    instances_from,
    puzzle_from,
)
from exact.rates import length_table
from exact.resultlog import file_digest
from exact.userfiles import output_folder
from instances.files import parse_states
from instances.sets import INSTANCES_HELP
from learned.cli import parser_with_search, search_settings
from learned.evaluation import RESULTS, EvalShared, Evaluation, bwas_task, write_report
from learned.loading import load_heuristic
from learned.remote import network_blob
from learned.runtime import configure

EXIT_CONTRADICTION = cli.EXIT_CONTRADICTION


def main(argv: Sequence[str] | None = None) -> int:
    # BWAS's options but its precision: the evaluation runs BWAS at fp32, as its reports say
    p, flags = parser_with_search("python -m learned.evaluate", __doc__.splitlines()[0], skip=("precision",))
    p.add_argument("--instances", metavar="FILE|SET", required=True, help=INSTANCES_HELP)
    add_first_option(p)
    p.add_argument("--out", type=cli.path, help="folder for results.jsonl, summary.md and lengths.png")
    add_executor_options(p)
    add_resume_option(p)
    args = p.parse_args(argv)
    flags.values(args)
    puzzle = puzzle_from(args)
    if args.out is not None:
        output_folder(args.out, "--out")
    items = instances_from(args)
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
