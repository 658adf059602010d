"""The loop every batch command shares: instances out to an executor, results back in any order,
each written as it arrives, progress over the whole set, Ctrl-C and ``--resume``.

:func:`run_batch` hands the instances not yet in the output (:class:`~exact.resultlog.ResultLog`)
to an :class:`~exact.executor.Executor`, appends each result to the log the moment it arrives,
counts done/total on a progress bar (across a cluster too: the count is the driver's), and on
Ctrl-C cancels the tasks still out and keeps what was written. The caller then reports, and
rewrites the log in instance order (:meth:`BatchRun.finish`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from exact import __version__
from exact.errors import PuzzleoptError, ReplayError, first_line
from exact.executor import Executor, InProcess
from exact.logs import get_logger
from exact.progress import bar as progress_bar
from exact.resultlog import ResultLog, digest, order
from exact.userfiles import output_folder

logger = get_logger(__name__)

RESULT_FORMAT = "puzzleopt-result/3"
"""The record format of a results log of solves (:mod:`exact.resultlog`; /3: each record sealed
with the user's key over itself and its run header's digest; /2 sealed records alone)."""


@dataclass
class BatchRun:
    """What :func:`run_batch` returns: the results by instance id and how the run ended."""

    ids: list[str]
    results: dict[str, Any] = field(default_factory=dict)
    interrupted: bool = False
    resumed: int = 0  # how many results came from the output of an earlier run
    log: ResultLog | None = None
    to_record: Callable[[str, Any], dict] | None = None
    inputs: dict[str, str] = field(default_factory=dict)  # id -> digest of the instance's input

    def in_order(self) -> list[Any]:
        """The results there are, in instance order."""
        return [self.results[i] for i in self.ids if i in self.results]

    def record(self, ident: str, value: Any) -> dict:
        """The log record of one result: the caller's, with the digest of its input."""
        rec = self.to_record(ident, value) if self.to_record else dict(value)
        return {**rec, "input": self.inputs[ident]} if ident in self.inputs else rec

    def finish(self) -> None:
        """Rewrite the output in instance order (atomically)."""
        if self.log is not None:
            self.log.rewrite(order((self.record(i, r) for i, r in self.results.items()), self.ids))


def open_log(
    out: Path | str | None, name: str, format: str, resume: bool, run: Mapping[str, Any] | None = None
) -> ResultLog | None:
    """The results file ``out/name`` of the run ``run`` (its header: what the answers depend on;
    :mod:`exact.resultlog`), checked: ``--out`` is a folder, ``--resume`` needs it, and without
    ``--resume`` an output that already holds results is refused (nothing is overwritten)."""
    if out is None:
        if resume:
            raise PuzzleoptError("--resume continues the results in --out; give --out DIR")
        return None
    folder = output_folder(out, "--out")
    log = ResultLog(folder / name, format, run={**dict(run or {}), "format": format, "puzzleopt": __version__})
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
    from_record: Callable[[dict, Any], Any] | None = None,
    inputs: Sequence[str] | None = None,
    on_result: Callable[[str, Any], None] | None = None,
    progress: bool = True,
    desc: str = "instances",
    first_here: bool = True,
) -> BatchRun:
    """Run ``fn(shared, item)`` for each item whose id is not yet in ``log`` (see the module
    docstring). ``to_record(id, result)`` turns a result into the log's dict (which must hold
    ``"id"``); ``from_record(record, item)`` turns a record read back into a result, re-checked
    against its item (it raises where the record does not hold: a replay that fails, a status
    or bound that is not one, another start). ``inputs`` are digests of the items
    (:func:`exact.resultlog.digest`), kept with each record: a record whose item changed is run
    again. ``on_result(id, result)`` is called for each result kept from the log, then as each
    new one arrives (JSON Lines on stdout, say). With
    ``first_here`` and an executor of other processes, the first instance runs in this process
    before the rest are handed out, so that the tables it needs are built (or loaded and checked)
    once, not by every worker at the same time.

    KeyboardInterrupt is caught: the run ends with ``interrupted`` set and the results so far.

    Raises:
        PuzzleoptError: ids repeat, or a kept record of ``log`` fails its re-check (naming the
            log and the instance).
    """
    ids = [str(i) for i in ids]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise PuzzleoptError(f"instance ids repeat ({', '.join(dup)}); each instance needs its own id")
    run = BatchRun(ids, log=log, to_record=to_record, inputs=dict(zip(ids, inputs)) if inputs is not None else {})
    if log is not None:
        run.resumed = _resume(run, log, items, from_record)
        if on_result is not None:  # what was kept is reported as a fresh result would be
            for ident in ids:
                if ident in run.results:
                    on_result(ident, run.results[ident])
    todo = [k for k, i in enumerate(ids) if i not in run.results]
    bar = progress_bar(progress, total=len(ids), initial=run.resumed, desc=desc, unit="instance")

    def take(ident: str, value: Any) -> None:
        run.results[ident] = value
        if log is not None:
            log.append(run.record(ident, value))
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


def _resume(run: BatchRun, log: ResultLog, items: Sequence[Any], from_record) -> int:
    """Keep the records of ``log`` that belong to this run's instances, as they are now, each
    re-checked; start the log over with them. Returns how many were kept."""
    where = {i: k for k, i in enumerate(run.ids)}
    kept, stale = [], 0
    for rec in log.read():
        ident = str(rec.get("id"))
        if ident not in where:
            continue
        if run.inputs and rec.get("input") != run.inputs[ident]:
            stale += 1  # its instance changed since (another file, another solution): run it again
            continue
        try:
            of_this_run(rec, log.run)
            run.results[ident] = from_record(rec, items[where[ident]]) if from_record else rec
        except (PuzzleoptError, ReplayError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PuzzleoptError(
                f"--resume: {log.path}: the record of instance {ident} does not hold ({first_line(exc)}); "
                "remove the file, or that line, to run it again"
            ) from None
        kept.append(rec)
    if stale:
        logger.warning("%s: %d records were of instances that changed since; they run again", log.path, stale)
    log.start(kept)
    return len(kept)


def of_this_run(record: Mapping[str, Any], header: Mapping[str, Any] | None) -> None:
    """Raise unless ``record`` was made under the settings of the run ``header``: the same method
    and goal where both name one (a record with no method, such as a certificate of no solution,
    aside), and the horizon the run's options fix (a record's own settings,
    or its certificate's result's). The seal already binds a record to its header; this holds
    even where the key has leaked.

    Raises:
        PuzzleoptError: naming the first setting that differs.
    """
    if header is None:
        return
    for key in ("method", "goal"):  # a certificate of no solution or an invalid one names no method
        if key in record and key in header and record[key] != header[key] and (key, record[key]) != ("method", None):
            raise PuzzleoptError(f"its {key} is {record[key]!r}, this run's is {header[key]!r}")
    horizon = (header.get("options") or {}).get("horizon")
    result = record.get("result") if isinstance(record.get("result"), dict) else record
    settings = result.get("settings") if isinstance(result, dict) else None
    if horizon is not None and isinstance(settings, dict) and settings.get("horizon", horizon) != horizon:
        raise PuzzleoptError(f"its horizon is {settings['horizon']!r}, this run's is {horizon!r}")


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
    """A :class:`~exact.result.SolveResult` as a results-log record (``more``: the run's method
    and goal, say, which :func:`of_this_run` checks on resume)."""
    return {"id": ident, **result.to_dict(), **more}


def result_from_record(puzzle) -> Callable[[dict, Any], Any]:
    """Records back to results, each re-checked as a fresh one: replayed on ``puzzle`` from its
    start, which must be the instance's ``start`` (:meth:`SolveResult.from_dict`)."""
    from exact.result import SolveResult

    def back(d: dict, start) -> SolveResult:
        res = SolveResult.from_dict(d, puzzle)
        if not np.array_equal(np.asarray(res.start), np.asarray(start).astype(np.int64)):
            raise PuzzleoptError("its start is not this instance's")
        return res

    return back


def start_digests(starts: Sequence[Any]) -> list[str]:
    """The input digest of each start (:func:`exact.resultlog.digest`)."""
    return [digest(np.asarray(s).tolist()) for s in starts]


def solve_run(shared: SolveShared) -> dict[str, Any]:
    """What a file's answers depend on (a result log's header): the puzzle, the goal, the method,
    its options and the limits (not where tables are kept, nor progress bars)."""
    options = {k: v for k, v in shared.options.items() if k not in ("progress", "pdb_dir")}
    limits = {k: getattr(shared.limits, k) for k in ("time", "nodes", "stored")}
    return {"command": "solve", "puzzle": shared.spec, "goal": shared.goal, "method": shared.method,
            "options": options, "limits": limits}  # fmt: skip


def solve_file(
    puzzle, method: str, limits, options: dict, starts: Sequence[tuple], *, executor, out: Path | None = None,
    resume: bool = False, on_result: Callable[[str, Any], None] | None = None, progress: bool = True,
    desc: str = "instances",
) -> BatchRun:  # fmt: skip
    """A file's starts ``(id, state, known optimal length or None)`` solved on ``executor``
    (:mod:`exact.executor`), each result kept in ``out``/results.jsonl as it arrives (``resume``
    skips those already there), the file then rewritten in instance order: what
    ``exact.solve --instances`` and ``exact.ida --instances`` share."""
    known = {ident: k for ident, _, k in starts}
    shared = solve_shared(puzzle, method, limits, options)
    log = open_log(out, "results.jsonl", RESULT_FORMAT, resume, solve_run(shared))
    states = [s for _, s, _ in starts]
    with executor:
        run = run_batch(
            executor, solve_task, states, [i for i, _, _ in starts], shared, log=log,
            to_record=lambda i, r: result_record(i, r, known_optimal=known[i], method=method, goal=shared.goal),
            from_record=result_from_record(puzzle),
            inputs=start_digests(states), on_result=on_result, progress=progress, desc=desc,
        )  # fmt: skip
    run.finish()
    return run
