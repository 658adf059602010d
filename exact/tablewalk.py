"""The one distance-table solver: a complete BFS table of a puzzle's states, walked down.

A puzzle that declares :meth:`~exact.puzzle.Puzzle.ranked_space` (a perfect ranking of the
states that can reach its goal, in the frame :func:`exact.timeindexed.prepare` gives: for the
2x2x2, the DBL corner held home) gets the distance of every state by one BFS from the goal. A
solution is then any path that lowers the distance by one at each move, and its optimality is
proven by the table itself (an exhausted search). Tables of at most :data:`MEMORY_STATES` states
are built in memory (once per process); larger ones, up to :data:`STORED_STATES`, are built
once and kept by :mod:`exact.pdb.store` (atomic, versioned, checksummed, audited on load).

This module knows no puzzle.
"""

from __future__ import annotations

import functools
import time
from typing import Any

import numpy as np

from exact.bfs import UNREACHED, descend, distance_table
from exact.contract import Setup, table_puzzle
from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.pdb.store import TableSpec, load
from exact.provenance import toolkit
from exact.result import SolveResult, Status
from exact.solvers import register_method
from exact.timeindexed import prepare

MEMORY_STATES = 2_000_000
"""Ranked spaces of at most this many states are tabled in memory."""
STORED_STATES = 16_000_000
"""Ranked spaces of at most this many states (more than :data:`MEMORY_STATES`) are tabled on disk
(4 bits a state: 8 MB)."""

PROOF = "complete distance table (exhausted BFS)"


def applies(puzzle: Any) -> bool:
    """Whether ``puzzle`` declares a ranked space small enough to table, with invertible moves
    (the BFS from the goal then gives distances *to* it)."""
    space = puzzle.ranked_space()
    return space is not None and space.size <= STORED_STATES and not (_frame_table(puzzle).inverse < 0).any()


SECONDS_PER_ENTRY = 4.0e-6
"""Build seconds per state of a complete distance table on 2 cores (``docs/benchmarks/setup_rates.md``)."""


def table_spec(puzzle: Any) -> TableSpec:
    """The stored table of a puzzle whose ranked space exceeds :data:`MEMORY_STATES` (4-bit entries)."""
    space = puzzle.ranked_space()
    table = _frame_table(puzzle)

    def build(advance):
        dist = distance_table(space, table, puzzle.goal)
        advance(space.size)
        return dist

    meta = puzzle.table.metadata
    return TableSpec(
        name=puzzle.table.description.replace(" ", "-") + "-distances",
        puzzle=puzzle.name,
        pattern={"kind": "all states", "space": type(space).__name__, "moves": meta.get("moves"),
                 "metric": meta.get("metric"), "table": table.description},
        entries=space.size,
        packed=True,
        build=build,
        seconds_per_entry=SECONDS_PER_ENTRY,
    )  # fmt: skip


def solve_table(puzzle: Any, start: np.ndarray, *, pdb_dir=None, progress: bool = False) -> SolveResult:
    """An optimal solution of ``start`` by walking down the puzzle's complete distance table, or
    ``unsolvable`` when the table says the goal cannot be reached.

    Raises:
        PuzzleoptError: the puzzle declares no ranked space, or one too large to table.
    """
    t0 = time.perf_counter()
    space = puzzle.ranked_space()
    if space is None or space.size > STORED_STATES:
        size = "no ranked space" if space is None else f"{space.size:,} states"
        raise PuzzleoptError(
            f"{puzzle.name}: no complete distance table ({size}; at most {STORED_STATES:,}); use IDA* or the models"
        )
    start = np.asarray(start)
    problem = prepare(puzzle, start)
    reduced = problem.frame is not None
    table = problem.table if reduced else puzzle.table
    state = np.asarray(problem.frame_start) if reduced else start
    if space.size <= MEMORY_STATES:
        dist = _in_memory(puzzle)
        name = "bfs (in memory)"

        def distance(states: np.ndarray) -> np.ndarray:
            return dist[space.rank(states)]
    else:
        stored = load(table_spec(puzzle), pdb_dir, progress=progress)
        name = stored.spec.name

        def distance(states: np.ndarray) -> np.ndarray:
            return stored.values(space.rank(states))

    done = SolveResult.recorder(puzzle, start, solver="table-walk", solver_version=toolkit(),
                                settings={"table": name, "states": int(space.size)}, since=t0)  # fmt: skip
    if int(distance(state[None])[0]) == UNREACHED:
        return done([], Status.UNSOLVABLE, None, 0, {"proof": PROOF})
    chosen = descend(table, state, distance)
    moves = problem.lift(puzzle.table, start, chosen) if reduced else chosen
    # each step is one closer by the table: the length is its lower bound
    return done(moves, Status.OPTIMAL, len(chosen), len(chosen) * table.num_moves, {"proof": PROOF})


@functools.lru_cache(maxsize=16)
def _frame_table(puzzle: Any) -> MoveTable:
    """The moves in the frame the ranked space numbers: the puzzle's own, or, for goals in any
    orientation, each move followed by the rotation that brings the reference home (as the
    models reduce it); the goal there is :attr:`~exact.puzzle.Puzzle.goal`."""
    problem = prepare(puzzle, puzzle.goal)
    return problem.table if problem.frame is not None else puzzle.table


@functools.lru_cache(maxsize=4)
def _in_memory(puzzle: Any) -> np.ndarray:
    return distance_table(puzzle.ranked_space(), _frame_table(puzzle), puzzle.goal)


def _run(puzzle, start, limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """A walk down a complete BFS distance table of the puzzle's ranked space (the 2x2x2, the
    8-puzzle, ...; the table is the proof)."""
    return solve_table(puzzle, np.asarray(start), pdb_dir=pdb_dir, progress=progress)


def _applies(puzzle: Any) -> bool:
    return table_puzzle(puzzle) and applies(puzzle)


COMPILE_SECONDS = 1.0
"""numba's first compile of a ranked space's kernels on 2 cores: the 2x2x2, a walk of 8, table
built, cache removed 1.3 s (median of 3), cached 0.3 s (2026-11-28)."""


def _setups(puzzle: Any, options: Any, pdb_dir: Any) -> list[Setup]:
    """The complete table: built in memory for a small space (nothing kept), else stored; and the
    first compile of the space's ranking kernels."""
    import importlib

    from exact.kernels import with_compile
    from exact.pdb.store import setup_estimate

    space = puzzle.ranked_space()
    if space is None or space.size <= MEMORY_STATES:  # built in memory at each solve, never stored
        size = 0 if space is None else int(space.size)
        ways = [Setup({}, size, space is None or space.size <= 200_000, size * SECONDS_PER_ENTRY)]
    else:
        spec = table_spec(puzzle)
        ways = [Setup({}, spec.nbytes, *setup_estimate([spec], pdb_dir))]
    if space is None:
        return ways
    return with_compile(ways, importlib.import_module(type(space).__module__), seconds=COMPILE_SECONDS)


register_method("table-walk", _run, applies=_applies, rank=10, setups=_setups)
