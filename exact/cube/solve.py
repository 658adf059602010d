"""Optimal 3x3x3 solving by IDA* with Korf's pattern databases and the cube's own numba kernel
(:mod:`exact.cube.kernel`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from exact.cube.catalog import cube_spec
from exact.cube.kernel import CubeSearch
from exact.cube.pdb import CubePattern, korf_patterns
from exact.errors import PuzzleoptError
from exact.ida.solve import finish, recorder, watched
from exact.pdb.store import load
from exact.puzzles.cube.cubies import centre_facelets, cubie_moves, perm_parity, read_cubies
from exact.result import SolveResult, Status
from exact.timeindexed import move_rules

if TYPE_CHECKING:
    from exact.puzzle import Puzzle


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


def face_turn_start(puzzle, start: np.ndarray, who: str) -> tuple[str, np.ndarray]:
    """``(metric, start)`` of a 3x3x3 with face turns, checked: the puzzle's move set is ``faces``
    and the start's centres are home (face turns never move them).

    Raises:
        PuzzleoptError: naming ``who`` and what to use instead.
    """
    meta = puzzle.table.metadata
    if meta.get("n") != 3 or meta.get("moves") != "faces":
        raise PuzzleoptError(
            f"{who} needs cube3 with the faces move set, not {puzzle.table.description}; "
            "use registry.get('cube3', moves='faces', metric='htm' or 'qtm')"
        )
    start = np.asarray(start)
    if not np.array_equal(start[centre_facelets(3)], np.arange(6)):
        raise PuzzleoptError("the start's centres are not home: turn the whole cube first (face moves never move them)")
    return meta.get("metric", "htm"), start


def ida_cube(
    puzzle: Puzzle,
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
        time_limit: Seconds, as in :func:`exact.ida.solve.ida`; ``None`` for none.
        node_limit: Expanded nodes, as there.
        stop_at: A known solution length to prove or beat, as there.
        patterns: Three :class:`~exact.cube.pdb.CubePattern` (corners, edges, edges) in place of
            Korf's (smaller ones build in seconds, for tests); ``h`` is their maximum.
    """
    table = puzzle.table
    metric, start = face_turn_start(puzzle, start, "IDA* on the cube")
    names = "korf" if patterns is None else "+".join(p.name for p in patterns)
    settings = {
        "heuristic": f"{names}-{metric}",
        "time_limit": time_limit,
        "node_limit": node_limit,
        "stop_at": stop_at,
    }
    t0 = time.perf_counter()
    done = recorder(puzzle, start, settings, t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
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
    return finish(
        search, *watched(f"ida* {puzzle.name} (Korf)", progress, search, t0, time_limit, node_limit, stop_at), done
    )
