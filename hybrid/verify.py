"""``python -m hybrid.verify --puzzle P --instances FILE``: certify learned solutions of a set.

For each instance of ``FILE`` (see :mod:`instances.files`) the learned solution is the line of
``--solutions`` with the same index (moves in the puzzle's notation; an empty line: none), or,
without ``--solutions``, the one the learned method finds (``--learned-method bwas``, the default,
or ``beam``: the registered methods of :mod:`learned.methods`) with the shipped network (or
``--model``; this needs the ``learned`` extra, torch). Each solution is replayed and certified within the per-instance
budget (``--time-limit``, ``--node-limit``) by the exact method chosen for the puzzle
(:mod:`hybrid.certify`): ``optimal``, ``suboptimal`` (with the gap) or ``unknown`` (with the
proven lower bound); ``no_solution`` where BWAS found none; ``invalid`` where the given moves do
not solve their start (a wrong answer: counted, listed with the reason, and the run goes on).
Prints the summary table; with ``--out DIR`` writes ``certificates.jsonl`` (each certificate as it
arrives, then in instance order), ``summary.md`` and ``gaps.png`` (also after Ctrl-C, for the
instances done); ``--resume`` continues such a run, skipping the instances already certified.

The instances run in this process (default), in ``--workers N`` local processes, or on Ray
(``--ray auto`` or ``--ray ADDRESS``; :mod:`exact.executor`, ``docs/scale.md``); the first runs
here so that its tables are built once before the workers read them.

Exit codes: 0 done, every solution valid; 2 bad input; 5 done, but some solutions are invalid
(the summary counts them); 6 a certificate contradicts an optimal length the file gives (the file
or a solver is wrong; the summary lists it); 130 interrupted; 1 only for a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from exact import cli, solvers
from exact.batch import open_log, run_batch
from exact.cli.flags import MethodFlags
from exact.cli.options import (
    add_executor_options,
    add_first_option,
    add_method_options,
    add_puzzle_options,
    add_resume_option,
    executor_from,
    method_options_from,
    puzzle_from,
)
from exact.cli.solve import add_limit_flags
from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from exact.resultlog import digest, file_digest
from exact.solvers import Method
from exact.userfiles import output_folder, read_text
from hybrid.certify import (
    CERTIFICATE_FORMAT,
    INVALID,
    Certificate,
    certificate_from_record,
    certify_options,
    certifying_methods,
    choose_method,
)
from hybrid.many import LearnedSettings, Shared, certify_task, learned_solver
from hybrid.report import length_tables, markdown, summarise, write_report
from instances.files import choose, parse_states, read_instances
from instances.sets import INSTANCES_HELP
from learned.cli import add_learned_flags, add_options
from learned.runtime import SEARCH_THREADS

EXIT_CONTRADICTION = cli.EXIT_CONTRADICTION
EXIT_INVALID = 5


def read_solutions(path: str | Path, count: int, chosen: list[int] | None = None) -> list[str | None]:
    """The solutions of the ``chosen`` instances (positions in the file; ``None``: all), from one
    line per instance (an empty line where there is none): a line for each of the file's
    ``count`` instances, or one for each chosen one, in order (``--ids``, ``--first``); empty
    lines at the end aside. Each at most :data:`exact.cli.MAX_SCRAMBLE` moves."""
    chosen = list(range(count)) if chosen is None else chosen
    lines = read_text(path, "--solutions").splitlines()
    while len(lines) > min(count, len(chosen)) and not lines[-1].strip():
        lines.pop()
    if len(lines) not in (count, len(chosen)):
        also = f" (or {len(chosen)}, one for each instance --ids or --first chose)" if len(chosen) < count else ""
        raise PuzzleoptError(
            f"--solutions {str(path)!r} has {len(lines)} lines for {count} instances{also}; give one line per "
            "instance, in the same order (an empty line where there is no solution)"
        )
    for n, ln in enumerate(lines, 1):
        if len(ln.split()) > cli.MAX_SCRAMBLE:
            raise PuzzleoptError(
                f"--solutions {str(path)!r}: line {n} has {len(ln.split()):,} moves, more than the "
                f"{cli.MAX_SCRAMBLE:,} this command replays; is it the right file?"
            )
    lines = [lines[i] for i in chosen] if len(lines) == count else lines
    return [ln.strip() or None for ln in lines]


def _parser() -> tuple[argparse.ArgumentParser, MethodFlags]:
    p = cli.parser("python -m hybrid.verify", __doc__.splitlines()[0])
    p.epilog = (
        "exit codes: 0 done, 2 bad input, 5 some solutions are invalid (they do not solve their start), "
        "6 a certificate contradicts the file's optimal length, 130 interrupted; 1 only for a bug"
    )
    add_puzzle_options(p)
    p.add_argument("--instances", metavar="FILE|SET", required=True, help=INSTANCES_HELP)
    p.add_argument("--solutions", help="learned solutions, one line per instance (default: run BWAS)")
    add_first_option(p)
    p.add_argument(
        "--method",
        default="auto",
        help=f"auto or one of {', '.join(m.name for m in certifying_methods())} (default auto)",
    )
    add_method_options(p)
    add_limit_flags(p, ("time", "node"), per="instance certified")
    p.add_argument("--pdb-dir", type=cli.path, help="pattern databases and distance tables (default: the user cache)")
    p.add_argument("--out", type=cli.path, help="folder for certificates.jsonl, summary.md and gaps.png")
    p.add_argument(
        "--learned-method",
        choices=("bwas", "beam"),
        default="bwas",
        help="the learned method that finds the solutions where --solutions gives none (default bwas)",
    )
    p.add_argument("--bwas-node-limit", "--max-nodes", dest="max_nodes", type=cli.count(1),
                   help="BWAS: expanded nodes per instance before giving up")  # fmt: skip
    p.add_argument("--bwas-time-limit", type=cli.seconds, help="BWAS: seconds per instance")
    add_options(p, SEARCH_THREADS, prefix="BWAS: ")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_executor_options(p)
    add_resume_option(p)
    # the learned methods' flags as they declare them (--precision: each method's own default unless given)
    return p, add_learned_flags(p, ("bwas", "beam"), title="--learned-method options")


def _run(
    args: argparse.Namespace,
    puzzle: Puzzle,
    chosen: Method,
    limits: solvers.Limits,
    options: dict[str, Any],
    learned_options: tuple[tuple[str, Any], ...],
) -> dict[str, Any]:
    """What the certificates depend on (the log's header): the puzzle, the method, its options and
    limits, and where the solutions come from (a file, given per instance; or BWAS with a model
    and its settings)."""
    learned = None
    if args.solutions is None:
        model = "shipped" if args.model is None else file_digest(args.model)
        learned = {"model": model, "method": args.learned_method, "options": dict(learned_options),
                   "max_nodes": args.max_nodes, "time_limit": args.bwas_time_limit}  # fmt: skip
    return {"command": "verify", "puzzle": puzzle.spec.to_dict(), "method": chosen.name,
            "limits": {"time": limits.time, "nodes": limits.nodes}, "options": dict(options),
            "learned": learned}  # fmt: skip


def _learned_options(args: argparse.Namespace, flags: MethodFlags) -> tuple[tuple[str, Any], ...]:
    """The learned method's options the flags give, as ``(name, value)`` pairs (its model aside)."""
    return tuple(flags.given_for(args, args.learned_method, "--learned-method", shared=("model",)).items())


def _record(ident: str, c: Certificate) -> dict[str, Any]:
    return c.to_dict()


def main(argv: Sequence[str] | None = None) -> int:
    p, flags = _parser()
    args = p.parse_args(argv)
    flags.values(args)
    puzzle = puzzle_from(args)
    for folder, what in ((args.out, "--out"), (args.pdb_dir, "--pdb-dir")):
        if folder is not None:
            output_folder(folder, what)
    if args.solutions is not None:
        sets_bwas = (*flags.options, "max_nodes", "bwas_time_limit")  # what sets the learned run
        given_bwas = [f"--{k.replace('_', '-')}" for k in sets_bwas if getattr(args, k) is not None]
        if given_bwas:
            raise PuzzleoptError(f"{given_bwas[0]} sets BWAS, which --solutions replaces; drop one of the two")
    learned_options = _learned_options(args, flags)
    every = read_instances(args.instances)
    picked = choose(every, args.ids, args.first, f"--instances {args.instances}")
    items = [every[i] for i in picked]
    starts = parse_states(puzzle, items, args.instances)  # bad input fails before any search
    chosen = choose_method(puzzle, args.method)
    options = method_options_from(args)
    options = certify_options(chosen, options)
    pdb_dir = None if args.pdb_dir is None else str(args.pdb_dir)
    limits = solvers.Limits(time=args.time_limit, nodes=args.node_limit)
    given: list[str | None] = [None] * len(items)
    if args.solutions is not None:
        given = read_solutions(args.solutions, len(every), picked)

    log = open_log(
        args.out,
        "certificates.jsonl",
        CERTIFICATE_FORMAT,
        args.resume,
        _run(args, puzzle, chosen, limits, options, learned_options),
    )
    executor = executor_from(args)
    learned = None
    if args.solutions is None:
        from learned.remote import network_blob

        learned = LearnedSettings(
            network_blob(executor, args.model), args.puzzle, args.device, args.threads, args.learned_method,
            learned_options, args.max_nodes, args.bwas_time_limit,
        )  # fmt: skip
        learned_solver(json.dumps(puzzle.spec.to_dict(), sort_keys=True), learned)  # bad settings fail at once
    shared = Shared(puzzle.spec.to_dict(), args.method, limits, pdb_dir, not args.no_progress, options, learned)
    command = "python -m hybrid.verify " + " ".join(sys.argv[1:] if argv is None else argv)
    tasks = list(zip(items, starts, given))
    inputs = [digest(np.asarray(start).tolist(), moves) for _, start, moves in tasks]
    with executor:
        run = run_batch(
            executor, certify_task, tasks, [x.id for x in items], shared, log=log, to_record=_record,
            from_record=certificate_from_record(puzzle), inputs=inputs, progress=not args.no_progress, desc="certify",
        )  # fmt: skip
    certs = run.in_order()
    run.finish()  # the certificates in instance order, whatever order they came in
    if args.out is not None and certs:  # also after Ctrl-C: the instances done
        write_report(certs, args.out, f"Certified solutions of {args.instances} ({args.puzzle})", command)
    if run.interrupted:
        print(f"interrupted: {len(certs)} of {len(items)} instances certified; --resume continues", file=sys.stderr)
    summary = summarise(certs)
    print(json.dumps(summary) if args.json else "\n\n".join(filter(None, [markdown(summary), length_tables(summary)])))
    for why in summary["contradictions"]:
        print(f"contradiction: {why}", file=sys.stderr)
    for c in certs:
        if c.verdict == INVALID:
            print(f"invalid: instance {c.id}: {c.reason}", file=sys.stderr)
    if summary["contradictions"]:
        return EXIT_CONTRADICTION
    if run.interrupted:
        return cli.EXIT_INTERRUPTED
    return EXIT_INVALID if summary["invalid"] else cli.EXIT_OK


if __name__ == "__main__":
    sys.exit(cli.run(main))
