"""Optimal tile solving by IDA*, returning the project's :class:`~exact.result.SolveResult`."""

from __future__ import annotations

import time

import numba
import numpy as np

from exact.errors import PuzzleoptError
from exact.ida.cube import CubeSearch
from exact.ida.tiles import EXHAUSTED, FOUND, PAUSED, TileSearch
from exact.pdb.catalog import cube_spec
from exact.pdb.cube import CubePattern, cubie_moves, korf_patterns
from exact.pdb.heuristic import TileHeuristic
from exact.pdb.store import load
from exact.puzzles.cube.cubies import centre_facelets, perm_parity, read_cubies
from exact.result import SolveResult, Status
from exact.timeindexed import move_rules

CHUNK = 2_000_000  # nodes between two looks at the clock (well under a second)


def ida_tiles(
    puzzle,
    start: np.ndarray,
    heuristic: TileHeuristic,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop_at: int | None = None,
) -> SolveResult:
    """A shortest solution of a tile board by IDA* with ``heuristic``.

    Args:
        puzzle: A :class:`~exact.puzzles.tiles.TilesPuzzle` with Korf's goal.
        start: The board, uint8 ``(n,)``.
        heuristic: An admissible heuristic for the same board shape.
        time_limit: Seconds (checked every :data:`CHUNK` nodes); ``None`` for none.
        node_limit: Generated nodes; ``None`` for none.
        stop_at: Stop with ``limit`` and the lower bound ``stop_at`` once every shorter
            threshold is exhausted, without searching for a solution of that length (to prove a
            known solution of length ``stop_at`` optimal); ``None``: search to the end.

    Returns:
        ``optimal`` with the solution; ``unsolvable`` for a board of the wrong parity; ``limit``
        with the proven lower bound (the threshold being searched) when a limit is reached.
    """
    if (puzzle.rows, puzzle.cols) != (heuristic.rows, heuristic.cols):
        raise PuzzleoptError(
            f"heuristic {heuristic.name} is for {heuristic.rows}x{heuristic.cols} boards, not {puzzle.name}"
        )
    if puzzle.goal_kind != "korf":
        raise PuzzleoptError(f"{puzzle.name}: IDA* works with Korf's goal; convert with korf_to_blank_last")
    if not heuristic.admissible:
        raise PuzzleoptError(f"heuristic {heuristic.name} is not admissible: IDA* with it would not be optimal")
    start = puzzle.parse_state(start) if isinstance(start, str) else np.asarray(start, dtype=np.uint8)
    settings = {"heuristic": heuristic.name, "time_limit": time_limit, "node_limit": node_limit, "stop_at": stop_at}
    t0 = time.perf_counter()

    def result(moves, status, bound, nodes, extra=None):
        rows = puzzle.table.parse(" ".join(moves), start) if moves else []
        return _result(puzzle, start, rows, status, bound, nodes, t0, settings, extra)

    if not puzzle.is_solvable(start):
        return result([], Status.UNSOLVABLE, None, 0, {"proof": "permutation parity differs from the blank's"})
    if puzzle.solved(start):
        return result([], Status.OPTIMAL, 0, 0)
    search = TileSearch.create(start, heuristic)
    code, bound, nodes, iterations = deepen(search, t0, time_limit, node_limit, stop_at)
    if code == FOUND:
        # every threshold below `bound` was exhausted, so no solution is shorter
        moves = search.moves()
        return result(moves, Status.OPTIMAL, len(moves), nodes, {"iterations": iterations})
    return result([], Status.LIMIT, bound, nodes, {"iterations": iterations})


def deepen(search, t0: float, time_limit: float | None, node_limit: int | None, stop_at: int | None = None):
    """Run IDA* iterations on a resumable ``search`` until it finds a solution or a limit.

    With ``stop_at``, it also stops (as at a limit) once the threshold reaches ``stop_at``: every
    shorter threshold is then exhausted, which proves a known solution of that length optimal.

    Returns:
        (code, bound, nodes, iterations): ``FOUND`` or ``PAUSED`` (a limit); ``bound`` is the
        solution length when found, else the proven lower bound.
    """

    def threshold(b: int) -> int:
        return b + 1 if search.parity is not None and (b - search.parity) % 2 else b

    bound, nodes, iterations = threshold(search.root_h), 0, []
    while True:
        search.restart()
        it_nodes = 0
        if stop_at is not None and bound >= stop_at:
            return PAUSED, bound, nodes, iterations
        while True:
            budget = CHUNK if node_limit is None else min(CHUNK, node_limit - nodes)
            if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                return PAUSED, bound, nodes, iterations
            code, k = search.run(bound, budget)
            nodes += k
            it_nodes += k
            if code == FOUND:
                iterations.append({"bound": bound, "nodes": it_nodes, "complete": False})
                return FOUND, bound, nodes, iterations
            if code == EXHAUSTED:
                break
        iterations.append({"bound": bound, "nodes": it_nodes, "complete": True})
        bound = threshold(int(search.acc[0]))


def _result(puzzle, start, rows, status, bound, nodes, t0, settings, extra) -> SolveResult:
    version = f"puzzleopt numba {numba.__version__}"
    done = SolveResult.recorder(puzzle, start, solver="ida*", solver_version=version, settings=settings, since=t0)
    return done(rows, status, bound, nodes, extra or {})


def cube_tables(
    metric: str, *, pdb_dir=None, patterns: list[CubePattern] | None = None, progress: bool = True
) -> tuple:
    """The three tables :func:`ida_cube` takes, loaded (built on first use) once for many solves.

    Returns:
        (corner data, corner pieces, edges data, pieces, edges data, pieces): packed uint8 tables
        and int64 piece lists, Korf's by default.
    """
    out = []
    for pattern in patterns or korf_patterns(metric):
        stored = load(cube_spec(pattern), pdb_dir, progress=progress)
        out += [np.asarray(stored.data), np.array(pattern.pieces, np.int64)]
    return tuple(out)


def ida_cube(
    puzzle,
    start: np.ndarray,
    *,
    tables: tuple | None = None,
    pdb_dir=None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    progress: bool = True,
    patterns: list[CubePattern] | None = None,
    stop_at: int | None = None,
) -> SolveResult:
    """A shortest solution of a 3x3x3 by IDA* with Korf's three pattern databases.

    Args:
        puzzle: A ``cube3`` puzzle with the ``faces`` move set (QTM or HTM).
        start: Facelet state ``(54,)`` with the centres home (face moves never turn them).
        tables: From :func:`cube_tables` for this metric (pass them when solving many cubes);
            otherwise they are loaded from ``pdb_dir`` (the user cache by default) and built
            there on first use (a few minutes each on one core).
        time_limit, node_limit, stop_at: As in :func:`ida_tiles`.
        patterns: Three :class:`~exact.pdb.cube.CubePattern` (corners, edges, edges) in place of
            Korf's (smaller ones build in seconds, for tests); ``h`` is their maximum.
    """
    table = puzzle.table
    meta = table.metadata
    if meta.get("n") != 3 or meta.get("moves") != "faces":
        raise PuzzleoptError(f"IDA* on the cube needs cube3 with the faces move set, not {table.description}")
    start = np.asarray(start)
    if not np.array_equal(start[centre_facelets(3)], np.arange(6)):
        raise PuzzleoptError("the start's centres are not home: turn the whole cube first (face moves never move them)")
    metric = meta.get("metric", "htm")
    names = "korf" if patterns is None else "+".join(p.name for p in patterns)
    settings = {
        "heuristic": f"{names}-{metric}",
        "time_limit": time_limit,
        "node_limit": node_limit,
        "stop_at": stop_at,
    }
    t0 = time.perf_counter()
    if puzzle.solved(start):
        return _result(puzzle, start, [], Status.OPTIMAL, 0, 0, t0, settings, {})
    if tables is None:
        tables = cube_tables(metric, pdb_dir=pdb_dir, patterns=patterns, progress=progress)
    c = read_cubies(start, 3)
    pos_ori = []
    for perm, ori in ((c.corner_perm, c.corner_ori), (c.edge_perm, c.edge_ori)):
        pos = np.empty(len(perm), np.int64)
        pos[perm] = np.arange(len(perm))
        pos_ori += [pos, np.asarray(ori, np.int64)[pos]]
    forbid = np.zeros((table.num_moves, table.num_moves), dtype=np.bool_)
    for a, b in move_rules(table).pairs:
        forbid[a, b] = True
    search = CubeSearch.create(tuple(pos_ori), cubie_moves(table), forbid, tables)
    if metric == "qtm":  # a quarter turn is an odd permutation of the corners
        search.parity = perm_parity(c.corner_perm)
    code, bound, nodes, iterations = deepen(search, t0, time_limit, node_limit, stop_at)
    if code == FOUND:
        moves = search.moves()
        return _result(
            puzzle, start, moves, Status.OPTIMAL, len(moves), nodes, t0, settings, {"iterations": iterations}
        )
    return _result(puzzle, start, [], Status.LIMIT, bound, nodes, t0, settings, {"iterations": iterations})
