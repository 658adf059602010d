"""Certify many solutions at once: the task that ``hybrid.verify`` runs per instance, and
:func:`certify_many`, its Python form.

    from exact import registry
    from hybrid import certify_many

    p = registry.get("tiles8")
    certs = certify_many(p, starts, {"a": "L U", "b": "R"}, ids=["a", "b"])  # matched by id

Each certificate is :class:`~hybrid.certify.Certificate` (replayed, verdict first); a start with
no solution gets ``no_solution``, a solution that does not solve its start ``invalid`` (with the
reason): both are findings about the learned solver, not errors.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np

from exact import solvers
from exact.batch import rebuilt, run_batch
from exact.errors import PuzzleoptError
from exact.executor import Executor, InProcess
from exact.puzzle import Puzzle
from hybrid.certify import (
    INVALID,
    NO_SOLUTION,
    Certificate,
    certify_options,
    choose_method,
    given_rows,
    verify_solution,
)
from instances.files import Instance

__all__ = ["LearnedSettings", "Shared", "certify_many", "certify_task", "learned_solver"]


@dataclass(frozen=True)
class LearnedSettings:
    """How a worker runs the learned method (through :mod:`exact.solvers`; the network comes once,
    from ``blob``: the shipped one when ``None``; :mod:`learned.remote`)."""

    blob: Any
    key: str
    device: str
    threads: int
    method: str
    options: tuple[tuple[str, Any], ...]  # (name, value) pairs of the method's options that were given
    max_nodes: int | None
    time_limit: float | None


@dataclass(frozen=True)
class Shared:
    """What every certification task reads (sent once per worker)."""

    spec: dict[str, Any]
    method: str
    limits: solvers.Limits = solvers.Limits()
    pdb_dir: str | None = None
    progress: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    learned: LearnedSettings | None = None


@lru_cache(maxsize=2)
def learned_solver(spec_json: str, ls: LearnedSettings) -> Callable[[np.ndarray], tuple[list[str] | None, float]]:
    """A function ``start -> (moves or None, seconds)`` running the learned method as the settings
    ask, through the registry (set up once per process)."""
    from exact import solvers

    if not any(m.name == ls.method for m in solvers.methods()):
        raise PuzzleoptError(
            f"running {ls.method} needs the learned extra (torch); install puzzleopt[learned] or give --solutions"
        )
    from learned.methods import heuristic_for
    from learned.remote import blob_file
    from learned.runtime import configure

    puzzle = rebuilt(json.loads(spec_json))
    device = configure(ls.device, ls.threads)
    model = None if ls.blob is None else str(blob_file(ls.blob))
    heuristic_for(puzzle, model, device)  # a model of another puzzle fails here, once
    options = solvers.check_options(solvers.get_method(ls.method), dict(ls.options))
    limits = solvers.Limits(time=ls.time_limit, nodes=ls.max_nodes)

    def solve(start: np.ndarray) -> tuple[list[str] | None, float]:
        res = solvers.solve(puzzle, start, method=ls.method, limits=limits, model=model, device=device, **options)
        return (list(res.moves) if res.status.has_solution else None), res.seconds

    return solve


def certify_task(shared: Shared, task: tuple[Instance, np.ndarray, Any]) -> Certificate:
    """One instance: ``task = (Instance, start, given moves or None)``; BWAS finds the moves
    where ``shared.learned`` says so."""
    item, start, moves = task
    puzzle = rebuilt(shared.spec)
    learned_seconds = None
    if shared.learned is not None:
        moves, learned_seconds = learned_solver(json.dumps(shared.spec, sort_keys=True), shared.learned)(start)
    return _certify(puzzle, item, start, moves, learned_seconds, shared)


def _certify(
    puzzle: Puzzle, item: Instance, start: np.ndarray, moves: Any, learned_seconds: float | None, shared: Shared
) -> Certificate:
    spec = None if getattr(puzzle, "spec", None) is None else puzzle.spec.to_dict()
    about: dict[str, Any] = dict(id=item.id, known_optimal=item.optimal, learned_seconds=learned_seconds, spec=spec)
    if moves is None:
        return Certificate(NO_SOLUTION, None, None, None, None, None, **about)
    given = moves if isinstance(moves, str) else " ".join(moves)
    t0 = time.perf_counter()
    try:
        moves = given_rows(puzzle, start, moves)  # replayed here, so a wrong answer is a verdict
    except PuzzleoptError as exc:  # a wrong answer is a finding about the solver, not bad input
        return Certificate(INVALID, given, None, None, None, None, certify_seconds=time.perf_counter() - t0,
                           reason=str(exc), **about)  # fmt: skip
    try:
        c = verify_solution(puzzle, start, moves, method=shared.method, limits=shared.limits, pdb_dir=shared.pdb_dir,
                            progress=shared.progress, **shared.options)  # fmt: skip
    except PuzzleoptError as exc:
        raise PuzzleoptError(f"instance {item.id}: {exc}") from None
    return replace(c, given=given, certify_seconds=time.perf_counter() - t0, **about)


def certify_many(
    puzzle: Puzzle,
    states: Sequence[np.ndarray | str],
    solutions: Sequence[str | Sequence[str] | None] | Mapping[str, str | Sequence[str] | None],
    ids: Sequence[str] | None = None,
    *,
    method: str = "auto",
    limits: solvers.Limits | None = None,
    executor: Executor | None = None,
    known_optimal: Sequence[int | None] | None = None,
    pdb_dir: str | None = None,
    progress: bool = False,
    **options: Any,
) -> list[Certificate]:
    """Certify a solution per start, matched by id, on ``executor``.

    Args:
        puzzle: the puzzle (:func:`exact.registry.get`).
        states: the starts, as label arrays of shape ``(puzzle.table.num_positions,)`` or in the
            puzzle's text (``parse_state``); each is checked before any search.
        solutions: per start, moves in notation or as names (``None``: the learned solver found
            none); a sequence in the order of ``states``, or a mapping from id to solution (an id
            missing from it has no solution).
        ids: the starts' ids (default ``"0"``, ``"1"``, ...); unique.
        method: the exact method that certifies (``auto``: :func:`hybrid.certify.choose_method`).
        limits: per start (:class:`exact.solvers.Limits`; default none).
        executor: where the starts run (:mod:`exact.executor`; default this process, in order).
        known_optimal: per start, the optimal length a file gives (checked against each proof:
            :meth:`Certificate.contradiction`).
        pdb_dir: pattern databases and tables (default: the user cache).
        progress: a progress bar over the starts.
        **options: the method's options (:func:`exact.solvers.check_options`).

    Returns:
        One certificate per start, in the order of ``states``, each with its ``id``.

    Raises:
        PuzzleoptError: a bad start, duplicate ids, solutions whose count or ids do not match the
            starts, or a method that cannot certify on this puzzle.
        KeyboardInterrupt: Ctrl-C, once the tasks still out are cancelled.
    """
    ids = [str(i) for i in range(len(states))] if ids is None else [str(i) for i in ids]
    if len(ids) != len(states) or len(set(ids)) != len(ids):
        raise PuzzleoptError(
            f"ids: give {len(states)} distinct ids, one per start (got {len(ids)}, {len(set(ids))} distinct)"
        )
    given = _matched(solutions, ids)
    starts = [_start(puzzle, s, i) for s, i in zip(states, ids)]
    known = [None] * len(ids) if known_optimal is None else list(known_optimal)
    if len(known) != len(ids):
        raise PuzzleoptError(f"known_optimal: give one length (or None) per start: {len(ids)}, not {len(known)}")
    chosen = choose_method(puzzle, method)
    checked = certify_options(chosen, options)
    shared = Shared(puzzle.spec.to_dict(), method, limits or solvers.Limits(), pdb_dir, progress, checked)
    tasks = [(Instance(i, "", k), s, g) for i, s, g, k in zip(ids, starts, given, known)]
    with executor or InProcess() as ex:
        run = run_batch(ex, certify_task, tasks, ids, shared, progress=progress, desc="certify")
    if run.interrupted:
        raise KeyboardInterrupt
    return run.in_order()


def _matched(solutions: Sequence[Any] | Mapping[str, Any], ids: list[str]) -> list[Any]:
    """The solutions in the order of ``ids``."""
    if isinstance(solutions, Mapping):
        stray = [str(k) for k in solutions if str(k) not in set(ids)]
        if stray:
            raise PuzzleoptError(
                f"solutions: ids {', '.join(stray[:5])} name no start; the ids are {', '.join(ids[:5])}, ..."
            )
        by_id = {str(k): v for k, v in solutions.items()}
        return [by_id.get(i) for i in ids]
    if len(solutions) != len(ids):
        raise PuzzleoptError(f"solutions: give one per start ({len(ids)}), not {len(solutions)}; or a mapping by id")
    return list(solutions)


def _start(puzzle: Puzzle, state: np.ndarray | str, ident: str) -> np.ndarray:
    """A start checked as a state of ``puzzle`` (text parsed first)."""
    try:
        start = puzzle.parse_state(state) if isinstance(state, str) else np.asarray(state)
        check = getattr(puzzle, "check_state", None)
        return check(start) if check is not None else start
    except ValueError as exc:
        raise PuzzleoptError(f"states: start {ident}: {exc}") from None
