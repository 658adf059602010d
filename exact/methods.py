"""The built-in methods of :mod:`exact.solvers`, in preference order for ``method="auto"``.

Each adapter maps the one contract (``run(puzzle, start, limits, **options)``) onto a solver:
the generic engines (IDA* with pattern databases or a puzzle's declared heuristic, the
distance-table walk over a declared ranked space, bidirectional BFS, CP-SAT, the MIP) and the
puzzles' registered fast specialisations (the tiles' and the cube's IDA* kernels, Lights Out's
three solvers, the cubical sliding puzzle's BFS, Sokoban and FreeCell). The specialisations are
chosen by what a puzzle's move table declares in its metadata, or by the
:class:`~exact.solvers.OwnSolver` protocol.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from exact.contract import Limits, Method, OwnSolver
from exact.deadline import left
from exact.errors import PuzzleoptError
from exact.result import SolveResult


def _meta(puzzle: Any) -> dict:
    return dict(getattr(getattr(puzzle, "table", None), "metadata", None) or {})


def _table_puzzle(puzzle: Any) -> bool:
    """A puzzle of the batched protocol whose goal is its one goal state."""
    return not isinstance(puzzle, OwnSolver) and hasattr(puzzle, "table") and hasattr(puzzle, "goal")


def _is_cube(puzzle: Any, n: int, moves: str | None = None) -> bool:
    meta = _meta(puzzle)
    return meta.get("puzzle") == "cube" and meta.get("n") == n and (moves is None or meta.get("moves") == moves)


def _is_korf_tiles(puzzle: Any) -> bool:
    return _meta(puzzle).get("puzzle") == "tiles" and getattr(puzzle, "goal_kind", None) == "korf"


# ------------------------------------------------------------------------------ table walks
def _table_walk(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    from exact.tablewalk import solve_table

    return solve_table(puzzle, np.asarray(start), pdb_dir=pdb_dir, progress=progress)


def _walk_applies(puzzle: Any) -> bool:
    if not _table_puzzle(puzzle):
        return False
    from exact.tablewalk import applies

    return applies(puzzle)


# ------------------------------------------------------------------------------ IDA*
def _cube3_optimal(
    puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, edge="slicesorted", threads=None
) -> SolveResult:
    from exact.cube.optimal import optimal_cube

    tables = _optimal_tables(puzzle, edge, pdb_dir, progress)
    return optimal_cube(
        puzzle, np.asarray(start), tables=tables, time_limit=left(limits.time), node_limit=limits.nodes,
        stop_at=stop_at, threads=threads,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _optimal_tables(puzzle, edge: str, pdb_dir, progress: bool):
    from exact.cube.optimal import optimal_tables

    return optimal_tables(puzzle, edge=edge, pdb_dir=pdb_dir, progress=progress)


def _ida_cube(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    from exact.cube.solve import ida_cube

    tables = _cube_tables(_meta(puzzle).get("metric", "htm"), pdb_dir, progress)
    return ida_cube(
        puzzle, np.asarray(start), tables=tables, time_limit=left(limits.time), node_limit=limits.nodes,
        progress=progress, stop_at=stop_at,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _cube_tables(metric: str, pdb_dir, progress: bool) -> tuple:
    from exact.cube.solve import cube_tables

    return cube_tables(metric, pdb_dir=pdb_dir, progress=progress)


TILE_HEURISTICS = {16: "pdb-663", 25: "pdb-6666"}
"""The tile heuristic IDA* uses per board size (cells) when none is named; boards of at most 9
cells use Manhattan distance with linear conflicts."""


@functools.lru_cache(maxsize=4)
def _tile_heuristic(name: str, rows: int, cols: int, pdb_dir, progress: bool, mirror: bool):
    # loaded once for a whole file of instances: the 7-8 tables alone are 577 MB
    from exact.tiles import tile_heuristic

    return tile_heuristic(name, rows, cols, pdb_dir=pdb_dir, progress=progress, mirror=mirror)


def _tile_name(puzzle) -> str:
    cells = puzzle.rows * puzzle.cols
    name = "manhattan-lc" if cells <= 9 else TILE_HEURISTICS.get(cells)
    if name is None:
        raise PuzzleoptError(f"{puzzle.name}: no pattern databases for this board; name heuristic='manhattan-lc'")
    return name


def _ida(
    puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, heuristic=None, patterns=None,
    mirror=True,
) -> SolveResult:  # fmt: skip
    """IDA*: the tiles' kernel on Korf-goal boards (a registered specialisation), else the
    generic kernel with the named or the puzzle's first declared heuristic, or pattern databases."""
    start = np.asarray(start)
    if _is_korf_tiles(puzzle) and patterns is None:
        from exact.tiles import ida_tiles

        h = _tile_heuristic(heuristic or _tile_name(puzzle), puzzle.rows, puzzle.cols, pdb_dir, progress, mirror)
        return ida_tiles(puzzle, start, h, time_limit=left(limits.time), node_limit=limits.nodes, stop_at=stop_at)
    from exact.ida import ida

    return ida(puzzle, start, _heuristic(puzzle, heuristic, patterns, pdb_dir, progress), time_limit=left(limits.time),
               node_limit=limits.nodes, stop_at=stop_at)  # fmt: skip


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


def _ida_applies(puzzle) -> bool:
    if not _table_puzzle(puzzle) or (puzzle.table.inverse < 0).any():
        return False
    if _is_korf_tiles(puzzle) or puzzle.heuristics():
        return True
    goal = np.asarray(puzzle.goal, dtype=np.int64)
    return bool((np.bincount(goal) == 1).any()) and _single_goal(puzzle)


def _single_goal(puzzle) -> bool:
    """Whether ``is_goal`` is "equals the goal state" (checked on the goal's neighbours too)."""
    children, rows = puzzle.expand(puzzle.goal[None])
    same = (children[0] == puzzle.goal).all(axis=1)
    return bool(np.array_equal(puzzle.is_goal(children[0]), same))


# ------------------------------------------------------------------------------ puzzles' own
def _lightsout(module: str, function: str) -> Callable[..., SolveResult]:
    """A Lights Out solver as a method: ``start`` is a state, lights or a lights string."""

    def run(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, threads=1, **options):
        import importlib

        solve = getattr(importlib.import_module(module), function)  # gf2 never imports Pyomo
        return solve(puzzle, puzzle.lights(start), time_limit=left(limits.time), threads=threads, **options)

    return run


def _is_lightsout(puzzle) -> bool:
    return _meta(puzzle).get("puzzle") == "lightsout"


def _hypercube(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    from exact.hypercube.solve import DEFAULT_MAX_STATES, solve_bibfs

    stored = DEFAULT_MAX_STATES if limits.stored is None else limits.stored
    return solve_bibfs(puzzle, np.asarray(start), max_states=stored, time_limit=left(limits.time))


def _own(name: str) -> Callable[[Any], bool]:
    return lambda p: isinstance(p, OwnSolver) and p.own_method == name


def _sokoban(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, optimize="moves"):
    from exact.sokoban.solve import DEFAULT_MAX_STORED, solve_sokoban

    level = puzzle.level_of(np.asarray(start)) if isinstance(start, np.ndarray) else start
    stored = DEFAULT_MAX_STORED if limits.stored is None else limits.stored
    return solve_sokoban(level, optimize, time_limit=left(limits.time), node_limit=limits.nodes, max_stored=stored)


def _freecell(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    from exact.freecell.solve import solve_freecell

    return solve_freecell(start, time_limit=left(limits.time), max_states=limits.stored)


# ------------------------------------------------------------------------------ generic search
def _bfs(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, max_depth=40) -> SolveResult:
    import time

    from exact.bidirectional import TableSide, search
    from exact.result import Status

    t0 = time.perf_counter()
    start = np.asarray(start)
    stored = 1_000_000 if limits.stored is None else limits.stored
    met = search(
        TableSide(puzzle.table, start), TableSide(puzzle.table, _goal_states(puzzle, start), backward=True),
        max_depth=int(max_depth), max_stored=stored, time_limit=left(limits.time),
    )  # fmt: skip
    done = SolveResult.recorder(
        puzzle, start, solver="bfs", solver_version="puzzleopt",
        settings={"max_depth": max_depth, "stored": stored}, since=t0,
    )  # fmt: skip
    extra = met.extra()
    if met.outcome == "met":
        return done(met.rows, Status.OPTIMAL, met.bound, met.expanded, extra | {"proof": "bidirectional BFS"})
    if met.outcome == "exhausted":
        return done([], Status.UNSOLVABLE, None, met.expanded, extra | {"proof": f"the {met.exhausted} side's component"
                    " holds no state of the other"})  # fmt: skip
    limit = {"depth": f"depth {max_depth}", "stored": f"{stored:,} stored states", "time": f"{limits.time} s"}
    return done([], Status.LIMIT, met.bound, met.expanded, extra | {"limit": limit[met.outcome]})


def _goal_states(puzzle, start: np.ndarray) -> np.ndarray:
    """``(G, P)``: the goal states the backward search grows from: a puzzle solved in any
    orientation (:meth:`~exact.puzzle.Puzzle.frame`) has one per whole turn, of which only the
    one whose reference positions match the start's is reachable where no move shifts them."""
    frame = puzzle.frame()
    goal = np.asarray(puzzle.goal)
    if frame is None:
        return goal[None]
    rotations, reference = frame
    goals = np.unique(goal[np.asarray(rotations)], axis=0)
    if puzzle.goal_spec(start).state is not None:  # the reference never moves
        goals = goals[(goals[:, reference] == start[reference]).all(axis=1)]
    return goals if len(goals) else goal[None]


def _bfs_applies(puzzle) -> bool:
    # the backward side undoes moves: by inverse permutations, or on guarded tables by inverse rows
    if not _table_puzzle(puzzle):
        return False
    table = puzzle.table
    return (not table.guarded or bool((table.inverse >= 0).all())) and _single_goal(puzzle)


def _horizon(stop_at, horizon, who: str) -> int:
    if horizon is not None:
        return int(horizon)
    if stop_at is not None:
        return int(stop_at) - 1
    raise PuzzleoptError(f"method {who!r} needs horizon= (the most moves; or stop_at=L to prove a length L)")


def _cpsat(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, threads=1,
           hint=None):  # fmt: skip
    from exact.cpsat import solve_cpsat

    return solve_cpsat(puzzle, np.asarray(start), _horizon(stop_at, horizon, "cp-sat"), time_limit=left(limits.time),
                       threads=threads, hint=None if hint is None else puzzle.table.rows(hint, start))  # fmt: skip


def _mip(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, horizon=None, threads=None,
         formulation="pairs", split=True, incumbent="bfs", hint=None):  # fmt: skip
    """The MIP as ``python -m exact.mip`` runs it: the ``pairs`` formulation proven piece by piece
    (the split, on all cores) with an incumbent (``hint``, else bidirectional BFS); ``split=False``
    solves the whole model in one HiGHS run (``threads`` default 1 then)."""
    from exact.cli import cores
    from exact.mip import solve_mip

    split = bool(split) and formulation != "seed"
    threads = threads if threads is not None else (cores() if split else 1)
    extra = {"split": True, "incumbent": incumbent} if split else {}
    rows = None if hint is None else puzzle.table.rows(hint, start)
    return solve_mip(puzzle, np.asarray(start), _horizon(stop_at, horizon, "mip"), time_limit=left(limits.time),
                     threads=threads, formulation_name=formulation, hint=rows, **extra)  # fmt: skip


def _ida_goal(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    from exact.goals import solve_partial

    return solve_partial(puzzle, np.asarray(start), time_limit=left(limits.time), node_limit=limits.nodes,
                         stop_at=stop_at, pdb_dir=pdb_dir, progress=progress)  # fmt: skip


def _ida_goal_applies(puzzle) -> bool:
    # pieces the mask fixes whole (exact.goals.pins); a mask that names part of a piece is the models'
    if getattr(puzzle, "partial_goal", None) is None:
        return False
    try:
        return puzzle.pinned is not None
    except PuzzleoptError:
        return False


def _model_applies(puzzle) -> bool:
    # any move table whose goal a Goal states (one state, label groups, allowed labels: Sokoban too)
    from exact.movetable import MoveTable

    return isinstance(getattr(puzzle, "table", None), MoveTable) and hasattr(puzzle, "goal_spec")


def _model_ready(options) -> bool:
    return options.get("horizon") is not None or options.get("stop_at") is not None


BUILTINS: tuple[Method, ...] = (
    Method("table-walk", _walk_applies, True, _table_walk,
           description="a walk down a complete BFS distance table of the puzzle's ranked space (the 2x2x2, "
           "the 8-puzzle, ...; the table is the proof)"),
    Method("cube3-optimal", lambda p: _is_cube(p, 3, "faces"), True, _cube3_optimal, ("edge", "threads"),
           description="IDA* on the 3x3x3 (face turns) with the symmetry-reduced flip-slice x twist table read "
           "along three axes, on every thread (edge=slicesorted: 1.67 GB, the default; edge=slice: 70 MB)"),
    Method("ida*-cube", lambda p: _is_cube(p, 3, "faces"), True, _ida_cube,
           description="IDA* on the 3x3x3 (face turns) with Korf's three pattern databases"),
    Method("ida*", _ida_applies, True, _ida, ("heuristic", "patterns", "mirror"),
           description="IDA*: the tiles' kernel (Korf's goal) or the generic one, with the puzzle's declared "
           "heuristic or pattern databases (projections of labels)"),
    Method("lightsout", _is_lightsout, True, _lightsout("exact.lightsout.gf2", "solve_gf2"), ("threads", "verbose"),
           description="Lights Out by Gaussian elimination over GF(2), the solution coset enumerated"),
    Method("lightsout-mip", _is_lightsout, True, _lightsout("exact.lightsout.mip", "solve_lightsout_mip"),
           ("threads", "verbose", "solver", "solver_options"),
           description="Lights Out as a parity MIP (integer slack) solved by HiGHS via Pyomo"),
    Method("lightsout-cpsat", _is_lightsout, True, _lightsout("exact.lightsout.cpsat", "solve_lightsout_cpsat"),
           ("threads", "verbose", "seed"), description="Lights Out with one XOR per cell, presses minimised by CP-SAT"),
    Method("hypercube", lambda p: _meta(p).get("puzzle") == "hypercube", True, _hypercube, stored=True,
           description="the cubical sliding puzzle by bidirectional BFS over configurations"),
    Method("sokoban", _own("sokoban"), True, _sokoban, ("optimize",), stored=True,
           description="Sokoban by A* with deadlock tables (moves or pushes optimal)"),
    Method("ida*-goal", _ida_goal_applies, True, _ida_goal, goals=True,
           description="IDA* to a partial goal (a cross, an F2L pair, a pattern) that fixes whole pieces, with "
           "pattern databases over pairs of the pieces it fixes"),
    Method("cp-sat", _model_applies, True, _cpsat, ("horizon", "threads", "hint"), goals=True,
           description="the time-indexed CP-SAT model within a horizon (or stop_at - 1)", ready=_model_ready),
    Method("bfs", _bfs_applies, True, _bfs, ("max_depth",), stored=True,
           description="bidirectional BFS over the move table (guarded tables need inverse rows)"),
    Method("mip", _model_applies, True, _mip, ("horizon", "threads", "formulation", "split", "incumbent", "hint"),
           goals=True, ready=_model_ready,
           description="the time-indexed MIP (HiGHS) within a horizon (or stop_at - 1), proven piece by piece "
                       "(split=False: the whole model in one run)"),
    Method("freecell", _own("freecell"), False, _freecell, stored=True,
           description="FreeCell: a solution or a proof that none exists, not the shortest; deals are solved by "
                       "python -m exact.freecell and puzzleopt.FreeCell, not by --puzzle here"),
)  # fmt: skip
"""The built-in methods, in preference order (registered by :mod:`exact.solvers`)."""
