"""The generic ``ida*`` method: IDA* over any move table with the puzzle's declared heuristic or
pattern databases (projections of labels). Puzzles with their own kernel register a variant of
the same name (:mod:`exact.tiles.methods`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from exact.contract import Limits, single_goal, table_puzzle
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


def _heuristic(puzzle, name, patterns, pdb_dir, progress):
    from exact.heuristic import Zero
    from exact.pdb import projection

    declared = puzzle.heuristics()
    if patterns is not None or name == "pdb" or (name is None and not declared):
        pats = (
            projection.default_patterns(puzzle)
            if patterns is None
            else [projection.Projection(puzzle.num_positions, tuple(p)) for p in patterns]
        )
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
register_method("ida*", run_ida, applies=_applies, options=(HEURISTIC, PATTERNS), rank=30)
