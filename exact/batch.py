"""The loop every batch command shares: instances out to an executor, results back in any order,
each written as it arrives, progress over the whole set, Ctrl-C and ``--resume``.

:func:`run_batch` hands the instances not yet in the output (:class:`~exact.resultlog.ResultLog`)
to an :class:`~exact.executor.Executor`, appends each result to the log the moment it arrives,
counts done/total on a progress bar (across a cluster too: the count is the driver's), and on
Ctrl-C cancels the tasks still out and keeps what was written. The caller then reports, and
rewrites the log in instance order (:meth:`BatchRun.finish`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from exact.errors import PuzzleoptError
from exact.executor import Executor, InProcess
from exact.resultlog import ResultLog, order


def add_resume_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue the run whose results are in --out: skip the instances already there",
    )


@dataclass
class BatchRun:
    """What :func:`run_batch` returns: the results by instance id and how the run ended."""

    ids: list[str]
    results: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    resumed: int = 0  # how many results came from the output of an earlier run
    log: ResultLog | None = None
    to_record: Callable[[str, Any], dict] | None = None

    def in_order(self) -> list[Any]:
        """The results there are, in instance order."""
        return [self.results[i] for i in self.ids if i in self.results]

    def finish(self) -> None:
        """Rewrite the output in instance order (atomically)."""
        if self.log is not None and self.to_record is not None:
            self.log.rewrite(order((self.to_record(i, r) for i, r in self.results.items()), self.ids))


def open_log(out: Path | None, name: str, format: str, resume: bool) -> ResultLog | None:
    """The results file ``out/name``, checked: ``--resume`` needs ``--out``, and without it an
    output that already holds results is refused (nothing is overwritten)."""
    if out is None:
        if resume:
            raise PuzzleoptError("--resume continues the results in --out; give --out DIR")
        return None
    log = ResultLog(Path(out) / name, format)
    if not resume and log.path.exists() and log.path.stat().st_size:
        raise PuzzleoptError(
            f"{log.path} already holds results; add --resume to continue that run, or name another --out"
        )
    return log


def run_batch(
    executor: Executor,
    fn: Callable[[Any, Any], Any],
    items: Sequence[Any],
    ids: Sequence[str],
    shared: Any = None,
    *,
    log: ResultLog | None = None,
    to_record: Callable[[str, Any], dict] | None = None,
    from_record: Callable[[dict], Any] | None = None,
    on_result: Callable[[str, Any], None] | None = None,
    progress: bool = True,
    desc: str = "instances",
    first_here: bool = True,
) -> BatchRun:
    """Run ``fn(shared, item)`` for each item whose id is not yet in ``log`` (see the module
    docstring). ``to_record(id, result)``/``from_record`` turn a result into the log's dict
    (which must hold ``"id"``) and back; ``on_result(id, result)`` is called as each arrives (JSON Lines
    on stdout, say). With ``first_here`` and an executor of other processes, the first instance
    runs in this process before the rest are handed out, so that the tables it needs are built
    (or loaded and checked) once, not by every worker at the same time.

    KeyboardInterrupt is caught: the run ends with ``interrupted`` set and the results so far.
    """
    ids = [str(i) for i in ids]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise PuzzleoptError(f"instance ids repeat ({', '.join(dup)}); each instance needs its own id")
    run = BatchRun(ids, log=log, to_record=to_record)
    if log is not None:
        wanted = set(ids)
        kept = [r for r in log.read() if str(r.get("id")) in wanted]
        for rec in kept:
            run.results[str(rec["id"])] = from_record(rec) if from_record else rec
        run.resumed = len(run.results)
        log.start(kept)
    todo = [k for k, i in enumerate(ids) if i not in run.results]
    bar = tqdm(total=len(ids), initial=run.resumed, disable=not progress, desc=desc, unit="instance", file=sys.stderr)

    def take(ident: str, value: Any) -> None:
        run.results[ident] = value
        if log is not None:
            log.append(to_record(ident, value) if to_record else value)
        if on_result is not None:
            on_result(ident, value)
        bar.update(1)

    try:
        if first_here and todo and not isinstance(executor, InProcess):
            take(ids[todo[0]], fn(shared, items[todo[0]]))
            todo = todo[1:]
        for k, value in executor.map(fn, [items[k] for k in todo], shared):
            take(ids[todo[k]], value)
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        bar.close()
        if log is not None:
            log.close()
    return run


# ----------------------------------------------------------------------------- solving a file
@dataclass(frozen=True)
class SolveShared:
    """What every task of :func:`solve_task` reads: the puzzle (its registry spec, and a partial
    goal's text), the method, the limits and the method's options."""

    spec: dict
    goal: str | None
    method: str
    limits: Any
    options: dict


def rebuilt(spec: dict, goal: str | None = None):
    """The registry puzzle of ``spec`` (with the partial goal ``goal``), built once per process:
    how a worker gets the puzzle it was sent by name."""
    return _rebuilt(json.dumps(spec, sort_keys=True), goal)


@lru_cache(maxsize=4)
def _rebuilt(spec_json: str, goal: str | None):
    from exact import registry

    puzzle = registry.rebuild(json.loads(spec_json))
    if goal is not None:
        from exact.goals import with_goal

        puzzle = with_goal(puzzle, goal)
    return puzzle


def solve_shared(puzzle, method: str, limits, options: dict) -> SolveShared:
    """The :class:`SolveShared` of a registry puzzle (or one with a partial goal given as text)."""
    spec = getattr(puzzle, "spec", None)
    if spec is None:
        raise PuzzleoptError(f"{puzzle.name}: only a registry puzzle can be solved by workers (it is rebuilt there)")
    label = getattr(puzzle, "goal_label", None) if getattr(puzzle, "partial_goal", None) is not None else None
    return SolveShared(spec.to_dict(), label, method, limits, dict(options))


def solve_task(shared: SolveShared, start) -> Any:
    """One start solved by the registered method (:func:`exact.solvers.solve`)."""
    from exact import solvers

    puzzle = rebuilt(shared.spec, shared.goal)
    return solvers.solve(puzzle, start, method=shared.method, limits=shared.limits, **shared.options)


def result_record(ident: str, result, **more) -> dict:
    """A :class:`~exact.result.SolveResult` as a results-log record."""
    return {"id": ident, **result.to_dict(), **more}


def result_from_record(puzzle) -> Callable[[dict], Any]:
    """Records back to results, each replayed on ``puzzle`` (:meth:`SolveResult.from_dict`)."""
    from exact.result import SolveResult

    return lambda d: SolveResult.from_dict(d, puzzle)


def check_file_flags(args: argparse.Namespace) -> None:
    """``--out``, ``--resume``, ``--workers`` and ``--ray`` go with ``--instances``."""
    flags = {"--out": args.out is not None, "--resume": args.resume, "--workers": args.workers is not None}
    given = [f for f, on in (flags | {"--ray": args.ray is not None}).items() if on]
    if given:
        raise PuzzleoptError(f"{given[0]} goes with --instances (a file of starts)")


def solve_file(
    args: argparse.Namespace, puzzle, method: str, limits, options: dict, starts: Sequence[tuple], *,
    on_result: Callable[[str, Any], None] | None = None, progress: bool = True, desc: str = "instances",
) -> BatchRun:  # fmt: skip
    """A file's starts ``(id, state, known optimal length or None)`` solved on the executor
    ``--workers``/``--ray`` name, each result kept in ``--out``/results.jsonl as it arrives
    (``--resume`` skips those there), the file then rewritten in instance order: what
    ``exact.solve --instances`` and ``exact.ida --instances`` share."""
    from exact.executor import executor_from

    known = {ident: k for ident, _, k in starts}
    log = open_log(args.out, "results.jsonl", "puzzleopt-result/1", args.resume)
    with executor_from(args) as executor:
        run = run_batch(
            executor, solve_task, [s for _, s, _ in starts], [i for i, _, _ in starts],
            solve_shared(puzzle, method, limits, options), log=log,
            to_record=lambda i, r: result_record(i, r, known_optimal=known[i]), from_record=result_from_record(puzzle),
            on_result=on_result, progress=progress, desc=desc,
        )  # fmt: skip
    run.finish()
    return run
