"""The generic ``ida*`` method: IDA* over any move table with the puzzle's declared heuristic or
pattern databases (projections of labels). Puzzles with their own kernel register a variant of
the same name (:mod:`exact.tiles.methods`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from exact.contract import Limits, Setup, single_goal, table_puzzle
from exact.deadline import left
from exact.errors import PuzzleoptError
from exact.options import Option
from exact.result import SolveResult
from exact.solvers import register_method


def run_ida(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, heuristic=None,
            patterns=None) -> SolveResult:  # fmt: skip
    """IDA* with the named or the puzzle's first declared heuristic, or pattern databases
    (projections of labels); on Korf-goal tiles, the tiles' own kernel."""
    from exact.ida import ida

    return ida(puzzle, np.asarray(start), _heuristic(puzzle, heuristic, patterns, pdb_dir, progress),
               time_limit=left(limits.time), node_limit=limits.nodes, stop_at=stop_at, progress=progress)  # fmt: skip


def _projections(puzzle, name, patterns) -> list | None:
    """The pattern databases the run uses (``None``: a declared heuristic or none)."""
    from exact.pdb import projection

    if patterns is None and name != "pdb" and (name is not None or puzzle.heuristics()):
        return None
    if patterns is None:
        return projection.default_patterns(puzzle)
    return [projection.Projection(puzzle.num_positions, tuple(p)) for p in patterns]


COMPILE_SECONDS = 1.0
"""numba's first compile of the generic IDA* kernel on 2 cores: 12 pancakes with the gap
heuristic, cache removed 2.3 s (median of 3), cached 1.3 s (2026-11-28)."""
PROJECTION_COMPILE_SECONDS = 2.2
"""The same with pattern databases (the projections' kernels too): the Pyraminx, a walk of 8,
tables built, cache removed 5.9 s, cached 3.8 s."""


def generic_setups(puzzle, options, pdb_dir) -> list[Setup]:
    """The pattern databases' tables, where the run uses them, and the kernels' first compile."""
    from exact.ida import generic
    from exact.kernels import compile_setup, with_compile
    from exact.pdb import projection
    from exact.pdb.store import setup_estimate

    pats = _projections(puzzle, options.get("heuristic"), options.get("patterns"))
    if pats is None:
        return compile_setup(generic, seconds=COMPILE_SECONDS)
    specs = [projection.spec(puzzle, p) for p in pats]
    ways = [Setup({}, sum(s.nbytes for s in specs), *setup_estimate(specs, pdb_dir))]
    return with_compile(ways, generic, projection, seconds=PROJECTION_COMPILE_SECONDS)


def _heuristic(puzzle, name, patterns, pdb_dir, progress):
    from exact.heuristic import Zero
    from exact.pdb import projection

    declared = puzzle.heuristics()
    if (pats := _projections(puzzle, name, patterns)) is not None:
        return projection.heuristic(puzzle, pats, pdb_dir=pdb_dir, progress=progress)
    if name == "zero":
        return Zero()
    name = name or next(iter(declared))
    if name not in declared:
        raise PuzzleoptError(
            f"{puzzle.name}: unknown heuristic {name!r}; use pdb, zero or {', '.join(declared) or '-'}"
        )
    return declared[name]()


def _applies(puzzle: Any) -> bool:
    if not table_puzzle(puzzle) or (puzzle.table.inverse < 0).any():
        return False
    if puzzle.heuristics():
        return True
    # projections need a label that appears once (a piece to track) and "is goal" = "is the goal"
    goal = np.asarray(puzzle.goal, dtype=np.int64)
    return bool((np.bincount(goal) == 1).any()) and single_goal(puzzle)


HEURISTIC = Option("heuristic", "text", None, "a heuristic the puzzle declares by name (default: its first)")
PATTERNS = Option("patterns", "object", None, "pattern databases: lists of positions whose labels are projected")
register_method(
    "ida*", run_ida, applies=_applies, options=(HEURISTIC, PATTERNS), nodes=True, rank=30, setups=generic_setups
)
