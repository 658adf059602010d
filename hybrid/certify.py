"""Certify a given (learned) solution: prove it optimal, find a shorter one, or say what is known.

A solution of length ``L`` is *optimal* when an exact method proves that nothing shorter than
``L`` exists; *suboptimal* when an exact method finds a shorter solution (the gap is ``L`` minus
the shortest length found, exact when that one is proven optimal); *unknown* when the budget ran
out first (with the lower bound proven so far). The exact method is chosen from :data:`METHODS`,
the first one that applies to the puzzle:

* ``table-walk``: the 2x2x2's complete distance table (the table is the proof);
* ``bfs-table``: the same for sliding-tile boards of at most :data:`TABLE_STATES` positions (the
  8-puzzle), by one BFS per process;
* ``ida*``: IDA* on the sliding tiles (Manhattan distance with linear conflicts on boards of at
  most 9 cells, additive pattern databases with the mirror lookup on the 15- and 24-puzzle), and
  ``ida*-cube`` on the 3x3x3 with face turns (Korf's tables), each stopped as soon as every
  threshold below ``L`` is exhausted; the thresholds step by 2 where every move flips a parity,
  so only ``L - 2`` is refuted;
* ``cp-sat``: the CP-SAT model with the horizon ``T = L - 1`` (any puzzle with a move table);
* ``mip``: the MIP (HiGHS, default formulation) with ``T = L - 1``, by name only.

Every verdict is returned as the project's :class:`~exact.result.SolveResult` (its moves are the
best solution known, replayed; ``status`` is ``optimal`` only with the proof) with
``extra["verdict"]``, ``extra["method"]``, ``extra["given_length"]``, ``extra["gap"]`` and
``extra["exact"]`` (the exact solver's own result, as a dict).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status

# The tile heuristic IDA* uses per board size (cells); larger boards than listed are not
# certified by IDA* (their tables do not exist), smaller ones use Manhattan with linear conflicts.
TILE_HEURISTICS = {16: "pdb-663", 25: "pdb-6666"}


@dataclass(frozen=True)
class Budget:
    """What one certification may spend.

    Attributes:
        time_limit: Seconds for the exact method (``None``: no limit).
        node_limit: Generated nodes for IDA* (the other methods have no node count to limit).
        pdb_dir: Where pattern databases and distance tables are kept (``None``: the user cache).
        progress: Show progress bars while a table is built.
    """

    time_limit: float | None = None
    node_limit: int | None = None
    pdb_dir: str | Path | None = None
    progress: bool = False


@dataclass(frozen=True)
class Method:
    """An exact method: when it applies, and how it searches below a known length ``L``.

    ``search(puzzle, start, L, budget)`` returns a :class:`SolveResult` that either holds a
    solution (of length at most ``L``, proven optimal or not) or a proven lower bound.
    """

    name: str
    applies: Callable[[Puzzle], bool]
    search: Callable[[Puzzle, np.ndarray, int, Budget], SolveResult]


def _is_cube(puzzle: Puzzle, n: int, moves: str | None = None) -> bool:
    meta = puzzle.table.metadata
    return meta.get("n") == n and "metric" in meta and (moves is None or meta.get("moves") == moves)


def _is_tiles(puzzle: Puzzle) -> bool:
    from exact.puzzles.tiles import TilesPuzzle

    return isinstance(puzzle, TilesPuzzle) and puzzle.goal_kind == "korf"


def _table_walk(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.ida.walk import solve_cube2

    return solve_cube2(puzzle, start, pdb_dir=budget.pdb_dir, progress=budget.progress)


@functools.lru_cache(maxsize=4)
def _tile_heuristic(name: str, rows: int, cols: int, pdb_dir: str | Path | None, progress: bool):
    # loaded once for a whole file of instances: the 7-8 tables alone are 577 MB
    from exact.pdb import tile_heuristic

    return tile_heuristic(name, rows, cols, pdb_dir=pdb_dir, progress=progress)


@functools.lru_cache(maxsize=2)
def _cube_tables(metric: str, pdb_dir: str | Path | None, progress: bool) -> tuple:
    from exact.ida.solve import cube_tables

    return cube_tables(metric, pdb_dir=pdb_dir, progress=progress)


# Boards with at most this many positions get a complete BFS table (the 8-puzzle: 181,440).
TABLE_STATES = 2_000_000


def _small_tiles(puzzle: Puzzle) -> bool:
    return _is_tiles(puzzle) and math.factorial(puzzle.rows * puzzle.cols) // 2 <= TABLE_STATES


@functools.lru_cache(maxsize=2)
def _tile_table(rows: int, cols: int) -> np.ndarray:
    # one BFS per process (0.22 s for the 8-puzzle, measured once); small enough not to store
    from exact.bfs import distance_table
    from exact.puzzles.tiles import TilesPuzzle, TilesSpace

    p = TilesPuzzle(rows, cols)  # Korf's goal, as _is_tiles requires
    return distance_table(TilesSpace(rows, cols), p.table, p.goal)


def _tiles_table(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.bfs import descend
    from exact.puzzles.tiles import TilesSpace

    t0 = time.perf_counter()
    dist = _tile_table(puzzle.rows, puzzle.cols)
    space = TilesSpace(puzzle.rows, puzzle.cols)
    rows = descend(puzzle.table, np.asarray(start), lambda states: dist[space.rank(states)])
    return SolveResult.build(
        puzzle,
        start,
        rows,
        Status.OPTIMAL,
        lower_bound=len(rows),
        nodes=len(rows),
        seconds=time.perf_counter() - t0,
        solver="table-walk",
        solver_version="puzzleopt",
        extra={"proof": "complete distance table (exhausted BFS)"},
    )


def _tiles_ida(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.ida.solve import ida_tiles

    cells = puzzle.rows * puzzle.cols
    name = "manhattan-lc" if cells <= 9 else TILE_HEURISTICS.get(cells)
    if name is None:
        raise PuzzleoptError(f"{puzzle.name}: no pattern databases for this board; certify with method='cp-sat'")
    h = _tile_heuristic(name, puzzle.rows, puzzle.cols, budget.pdb_dir, budget.progress)
    return ida_tiles(puzzle, start, h, time_limit=budget.time_limit, node_limit=budget.node_limit, stop_at=L)


def _cube_ida(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.ida.solve import ida_cube

    tables = _cube_tables(puzzle.table.metadata.get("metric", "htm"), budget.pdb_dir, budget.progress)
    return ida_cube(
        puzzle,
        start,
        tables=tables,
        time_limit=budget.time_limit,
        node_limit=budget.node_limit,
        progress=budget.progress,
        stop_at=L,
    )


def _cpsat(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.cpsat import solve_cpsat

    return solve_cpsat(puzzle, start, L - 1, time_limit=budget.time_limit)


def _mip(puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
    from exact.mip import solve_mip

    return solve_mip(puzzle, start, L - 1, time_limit=budget.time_limit)


METHODS: tuple[Method, ...] = (
    Method("table-walk", lambda p: _is_cube(p, 2), _table_walk),
    Method("bfs-table", _small_tiles, _tiles_table),
    Method("ida*", _is_tiles, _tiles_ida),
    Method("ida*-cube", lambda p: _is_cube(p, 3, "faces"), _cube_ida),
    Method("cp-sat", lambda p: True, _cpsat),
    Method("mip", lambda p: True, _mip),  # never chosen by "auto": CP-SAT proves these faster
)


def choose_method(puzzle: Puzzle, name: str = "auto") -> Method:
    """The method named ``name``, or with ``"auto"`` the first of :data:`METHODS` that applies."""
    for method in METHODS:
        if (name == "auto" or method.name == name) and method.applies(puzzle):
            return method
    known = [m.name for m in METHODS if m.applies(puzzle)]
    raise PuzzleoptError(f"method {name!r} does not apply to {puzzle.name}; use 'auto' or one of {', '.join(known)}")


def given_rows(puzzle: Puzzle, start: np.ndarray, solution: str | Sequence[str] | Sequence[int]) -> list[int]:
    """The given solution as move rows, checked to solve ``start``.

    Raises:
        PuzzleoptError: A move is unknown or illegal where it is played, or the moves end
            elsewhere than the goal (the message quotes the solution and says where it ends).
    """
    table = puzzle.table
    if isinstance(solution, str):
        text = solution
    else:
        items = list(solution)
        text = table.format(items) if all(isinstance(m, (int, np.integer)) for m in items) else " ".join(items)
    rows = table.parse(text, start) if text.strip() else []
    end = table.apply(np.asarray(start), rows) if rows else np.asarray(start)
    if not puzzle.solved(end):
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise PuzzleoptError(
            f"the solution {shown!r} ({len(rows)} moves) does not solve the start: it ends in "
            f"{puzzle.format_state(end)}, not the goal; "
            "check that it belongs to this start and uses this puzzle's notation"
        )
    return rows


def verify_solution(
    puzzle: Puzzle,
    start: np.ndarray,
    solution: str | Sequence[str] | Sequence[int],
    *,
    method: str = "auto",
    budget: Budget | None = None,
) -> SolveResult:
    """Certify ``solution`` of ``start``: optimal, suboptimal (with a shorter one) or unknown.

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        solution: The solution to certify: notation, move names or move rows.
        method: ``"auto"`` (see :data:`METHODS`) or a method's name.
        budget: Time limit and table directory (default: no limit, the user cache).

    Returns:
        A :class:`SolveResult` whose moves are the best solution known (the given one unless a
        shorter one was found) and whose ``extra`` holds the verdict (see the module docstring).

    Raises:
        PuzzleoptError: The solution does not solve ``start``, or ``method`` does not apply.
    """
    budget = budget or Budget()
    start = np.asarray(start)
    t0 = time.perf_counter()
    rows = given_rows(puzzle, start, solution)
    chosen = choose_method(puzzle, method)
    L = len(rows)
    exact = (
        SolveResult.build(puzzle, start, [], Status.OPTIMAL, lower_bound=0, solver="none")
        if L == 0
        else chosen.search(puzzle, start, L, budget)
    )
    moves, bound = rows, exact.lower_bound or 0
    if exact.status.has_solution and exact.length < L:
        verdict = "suboptimal"
        moves = puzzle.table.parse(" ".join(exact.moves), start)
    elif bound >= L:  # the proof: the exact method's lower bound reaches L
        verdict, bound = "optimal", L
    else:
        verdict = "unknown"
    best = len(moves)
    bound = min(bound, best)
    extra = {
        "verdict": verdict,
        "method": chosen.name,
        "given_length": L,
        "gap": L - best if verdict == "suboptimal" else (0 if verdict == "optimal" else None),
        "gap_exact": verdict == "optimal" or (verdict == "suboptimal" and exact.status is Status.OPTIMAL),
        "exact": exact.to_dict(),
    }
    return SolveResult.build(
        puzzle,
        start,
        moves,
        Status.OPTIMAL if bound == best else Status.FEASIBLE,
        lower_bound=bound,
        nodes=exact.nodes,
        seconds=time.perf_counter() - t0,
        solver=f"verify:{chosen.name}",
        solver_version=exact.solver_version,
        settings={"method": chosen.name, "time_limit": budget.time_limit, "node_limit": budget.node_limit},
        extra=extra,
    )


__all__ = ["METHODS", "Budget", "Method", "choose_method", "given_rows", "verify_solution"]
