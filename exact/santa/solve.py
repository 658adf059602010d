"""Solving Santa 2023's puzzles: proofs by bidirectional BFS where they fit (:mod:`.prove`), and
the commutator solver (:mod:`exact.commutators`), which always finishes, for the rest. Every
answer is a :class:`~exact.result.SolveResult`, replayed from the puzzle's initial state to
within its wildcards before it is returned."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from functools import cache

import numpy as np

from exact.commutators import CommutatorError, Solver, commute_matrix, shorten
from exact.provenance import toolkit
from exact.puzzles.santa.instances import Instance, format_moves, table
from exact.puzzles.santa.shapes import shape
from exact.result import SolveResult, Status
from exact.santa.cube3 import by_optimal_cube
from exact.santa.prove import MAX_STORED, prove
from exact.santa.puzzle import SantaPuzzle


@cache
def commutator_solver(type_name: str) -> Solver:
    """The commutator solver of a type (its library is built on first use and kept)."""
    t = table(type_name)
    return Solver(t.perms, t.inverse, shape(type_name).pieces())


@cache
def _commutes(type_name: str) -> np.ndarray:
    return commute_matrix(table(type_name).perms)


def by_commutators(puzzle: SantaPuzzle, bound: int | None = None) -> SolveResult:
    """The commutator solver's answer (``feasible``; ``bound``: a lower bound proven before).

    Returns ``limit`` with the reason in ``extra`` where the method cannot solve the puzzle.
    """
    t0 = time.perf_counter()
    done = SolveResult.recorder(puzzle, puzzle.start, solver="commutators", solver_version=toolkit(), settings={},
                                since=t0)  # fmt: skip
    try:
        rows = commutator_solver(puzzle.instance.type).solve(puzzle.start, puzzle.goal)
    except CommutatorError as exc:
        return done([], Status.LIMIT, bound, None, {"limit": str(exc)})
    raw = len(rows)
    t = puzzle.table
    rows = puzzle.solved_prefix(shorten(rows, t.perms, t.inverse, _commutes(puzzle.instance.type)))
    status = Status.OPTIMAL if bound is not None and bound == len(rows) else Status.FEASIBLE
    return done(rows, status, bound, None, {"raw_moves": raw})


SPECIAL: dict[str, Callable[[SantaPuzzle, float | None], SolveResult]] = {}
"""A type's own solver, tried before the commutators (it may end in ``limit``)."""
SPECIAL["cube_3/3/3"] = by_optimal_cube


def solve(instance: Instance, *, proof: bool = False, time_limit: float | None = None,
          stored: int = MAX_STORED) -> SolveResult:  # fmt: skip
    """One puzzle solved: with ``proof``, bidirectional BFS first (``optimal`` when it meets
    within ``time_limit`` and ``stored`` states); then, unless that proved it, the type's own
    solver (:data:`SPECIAL`, within ``time_limit``) or, where there is none or it stops at its
    limit, the commutator solver. A proof that stopped leaves its bound in the answer and its
    reason and seconds in ``extra`` (``proof_stop``, ``proof_used``)."""
    puzzle = SantaPuzzle(instance)
    proved = None
    if proof:
        proved = prove(puzzle, time_limit=time_limit, max_stored=stored)
        if proved.status is Status.OPTIMAL:
            return proved
    found = _unproven(puzzle, time_limit, None if proved is None else proved.lower_bound)
    if proved is None:
        return found
    told = {"proof_stop": proved.extra.get("limit"), "proof_used": round(proved.seconds, 1)}
    return dataclasses.replace(found, extra=found.extra | told)


def _unproven(puzzle: SantaPuzzle, time_limit: float | None, bound: int | None) -> SolveResult:
    """The type's own solver's answer, or the commutators' where it has none or it stops."""
    special = SPECIAL.get(puzzle.instance.type)
    if special is not None:
        found = special(puzzle, time_limit)
        if found.status is not Status.LIMIT:
            return found
    return by_commutators(puzzle, bound)


def row(instance: Instance, result: SolveResult) -> dict:
    """The JSON line of ``santa solve``: id, type, status, length, moves (Santa's text), bound,
    method, seconds."""
    names = table(instance.type).names
    index = {n: i for i, n in enumerate(names)}
    return {
        "id": instance.id, "type": instance.type, "status": result.status.value, "length": result.length,
        "moves": format_moves(instance.type, [index[m] for m in result.moves]) if result.moves else "",
        "bound": result.lower_bound, "method": result.solver, "seconds": round(result.seconds, 3),
        **{k: result.extra[k] for k in ("limit", "qtm", "relative", "proof_stop", "proof_used") if k in result.extra},
    }  # fmt: skip


__all__ = ["by_commutators", "commutator_solver", "row", "solve"]
