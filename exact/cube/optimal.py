"""The optimal 3x3x3 solver: IDA* over the symmetry-reduced flip-slice x twist table read along
the cube's three axes and its inverse's (:mod:`exact.cube.prune`, :mod:`exact.cube.optkernel`),
in either metric, on every thread given.

:func:`optimal_tables` loads (or builds, about 10 s, and stores: 70 MB per metric) what the
search reads; pass its result to :func:`optimal_cube` when solving many cubes. A time or node
limit ends in ``limit`` with the proven lower bound; ``stop_at=L`` ends once every length below
``L`` is refuted, which proves a known solution of length ``L`` optimal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numba
import numpy as np

from exact.cube import optkernel as K
from exact.cube import prune
from exact.cube.coords import SOLVED, coordinates
from exact.cube.solve import face_turn_start
from exact.cube.symmetry import URF, conjugate_moves, conjugate_state, symmetry_of
from exact.errors import PuzzleoptError
from exact.ida.solve import recorder
from exact.memory import huge_pages
from exact.pdb.store import default_dir, load
from exact.progress import SearchProgress
from exact.puzzles.cube.cubies import cubie_moves, perm_parity, read_cubies
from exact.result import SolveResult, Status
from exact.timeindexed import move_rules

if TYPE_CHECKING:
    from exact.puzzle import Puzzle

AXES = (np.eye(3, dtype=np.int64), URF, URF @ URF)
"""The symmetries that bring each axis onto U-D: identity, then R-L, then F-B."""

_LIMIT = -1
TASK_BUDGET = 50_000
"""Generated nodes per task and call: at most about 1.2 x 10^7 per call over the 243 tasks of
the half-turn metric (2-3 s at the 4-6 M generated nodes/s measured on two threads, less as
tasks finish), between two looks at the clock."""


@dataclass(frozen=True)
class OptimalTables:
    """Everything :func:`optimal_cube` reads, for one metric's face-move table.

    Attributes:
        metric: ``"htm"`` or ``"qtm"``.
        data: uint8, packed 4-bit table (memory-mapped from the store).
        phase: :class:`exact.cube.prune.PhaseOne` (move tables, classes, symmetries).
        mconj: int64 ``(3, M)``: each move as seen along each axis.
        forbid: bool ``(M, M)``: pairs of successive moves never tried (:func:`move_rules`, and
            of two pairs with the same product all but the first, e.g. ``U' U'`` beside ``U U``).
        forbid3: bool ``(M, M, M)``: triples never tried (a single move or none, e.g. ``U U U``).
        pieces: The cubie move tables (corner/edge ``to``, twist, flip) for the final check.
        axes: (corner to, corner k0, edge to, edge k0, edge from) of the three axis rotations,
            int64 ``(3, 8)``/``(3, 12)``, for the inverse cube's lookups.
        maxes: int64 ``(M,)``: bit mask of the axes whose table subgroup holds each move.
        clsym: int32, the phase's ``cls << 4 | sym`` (the kernel reads both at once).
    """

    metric: str
    data: np.ndarray
    phase: prune.PhaseOne
    mconj: np.ndarray
    forbid: np.ndarray
    forbid3: np.ndarray
    pieces: tuple
    axes: tuple
    maxes: np.ndarray
    clsym: np.ndarray


def optimal_tables(puzzle, *, edge: str = "slicesorted", pdb_dir=None, progress: bool = True) -> OptimalTables:
    """Load the table of ``puzzle``'s metric from ``pdb_dir`` (the user cache by default),
    building and storing it first if it is missing or fails its checks.

    Args:
        edge: ``"slicesorted"`` (the default: 1.67 GB per metric, built in minutes) or
            ``"slice"`` (70 MB, seconds; many times the nodes).
    """
    metric, _ = face_turn_start(puzzle, puzzle.goal, "the optimal cube solver")
    table = puzzle.table
    directory = default_dir() if pdb_dir is None else Path(pdb_dir)
    stored = load(prune.spec(table, metric, edge, directory), directory, progress=progress)
    forbid, forbid3 = canonical_rules(table)
    mconj = np.stack([conjugate_moves(table, symmetry_of(a)) for a in AXES])
    assert np.array_equal(mconj[0], np.arange(table.num_moves))  # the kernel reads axis 0 unconjugated
    cm = cubie_moves(table)
    phase = prune.phase_one(table, edge)
    return OptimalTables(
        metric,
        huge_pages(np.asarray(stored.data)),
        phase,
        mconj,
        forbid,
        forbid3,
        (cm.corner_to, cm.corner_twist, cm.edge_to, cm.edge_flip),
        _axis_arrays(),
        move_axes(phase, mconj),
        huge_pages((phase.cls.astype(np.int32) << 4) | phase.sym.astype(np.int32)),
    )


def move_axes(phase: prune.PhaseOne, mconj: np.ndarray) -> np.ndarray:
    """int64 ``(M,)``: for each move the bit mask of the axes ``a`` whose table coordinate it
    leaves solved when seen along ``a``: the axes whose subgroup holds it (``U`` and ``D`` turns
    in the first; with the unsorted slice also ``R2`` etc. in two)."""
    solved = (SOLVED["flip"], SOLVED[phase.edge], SOLVED["twist"])
    out = np.zeros(mconj.shape[1], np.int64)
    for m in range(mconj.shape[1]):
        for a in range(3):
            ma = mconj[a, m]
            if (phase.flip_mv[solved[0], ma], phase.slice_mv[solved[1], ma], phase.twist_mv[solved[2], ma]) == solved:
                out[m] |= 1 << a
    if not out.all():
        raise AssertionError("every move must lie in some axis' subgroup (the kernel's combine relies on it)")
    return out


def _axis_arrays() -> tuple:
    syms = [symmetry_of(a) for a in AXES]
    assert all(s.det == 1 for s in syms)  # rotations: the kernel's orientation formula has no sign
    out = tuple(np.stack([getattr(s, k) for s in syms]) for k in ("corner_to", "corner_k0", "edge_to", "edge_k0"))
    return (*out, np.argsort(out[2], axis=1))


_COMB = np.array([[comb(n, k) for k in range(5)] for n in range(12)], dtype=np.int64)


def inverse_cubies(pieces: np.ndarray) -> np.ndarray:
    """int64 ``(40,)``: the inverse of a cube given as (corner perm, corner ori, edge perm, edge
    ori), slot-indexed: where the cube has piece ``p`` in slot ``s`` twisted by ``o``, the inverse
    has piece ``s`` in slot ``p`` twisted by ``-o``."""
    cp, co, ep, eo = pieces[:8], pieces[8:16], pieces[16:28], pieces[28:]
    out = np.empty(40, np.int64)
    out[cp] = np.arange(8)
    out[8 + cp] = (-co) % 3
    out[16 + ep] = np.arange(12)
    out[28 + ep] = eo
    return out


def inverse_step(inv: np.ndarray, moves: np.ndarray, tables: OptimalTables) -> np.ndarray:
    """The inverse cubes ``(B, 40)`` after their cubes make ``moves`` ``(B,)`` (the kernel's own
    update, :func:`exact.cube.optkernel.inverse_move`, for the prefixes)."""
    src = np.ascontiguousarray(inv, dtype=np.int64)
    out = np.empty_like(src)
    for b, m in enumerate(np.asarray(moves)):
        K.inverse_move(src[b], out[b], int(m), *tables.pieces)
    return out


def _inverse_raw(tables: OptimalTables, inv: np.ndarray) -> np.ndarray:
    """int64 ``(3,)``: the raw lookups of the inverse cube ``inv`` (``(40,)``) along the axes."""
    p = tables.phase
    raw = np.zeros(3, np.int64)
    K.inverse_raw(
        np.ascontiguousarray(inv, dtype=np.int64), *tables.axes, _COMB, p.edge == "slicesorted", tables.data,
        tables.clsym, p.tconj, raw,
    )  # fmt: skip
    return raw


def _inverse_h(tables: OptimalTables, inv: np.ndarray, parity: int) -> int:
    return int(K.combine(*_inverse_raw(tables, inv), parity))


def canonical_rules(table) -> tuple[np.ndarray, np.ndarray]:
    """The move sequences the search never tries: bool ``(M, M)`` pairs and ``(M, M, M)``
    triples. Every cube has an optimal solution that avoids them all (each is a longer or a
    later spelling of a sequence that stays)."""
    rules = move_rules(table)
    m = table.num_moves
    forbid = np.zeros((m, m), dtype=np.bool_)
    for a, b in rules.pairs:
        forbid[a, b] = True
    kept: set[bytes] = set()
    for a in range(m):
        for b in range(m):
            if forbid[a, b]:
                continue
            key = table.perms[a][table.perms[b]].tobytes()
            if key in kept:
                forbid[a, b] = True  # the same as an earlier pair, e.g. U' U' after U U
            kept.add(key)
    forbid3 = np.zeros((m, m, m), dtype=np.bool_)
    for a, b, c in rules.triples:
        forbid3[a, b, c] = True
    return forbid, forbid3


def axis_coordinates(start: np.ndarray, edge: str) -> np.ndarray:
    """int32 ``(9,)``: (flip, ``edge`` coordinate, twist) of ``start`` seen along each axis."""
    out = []
    for a in AXES:
        c = coordinates(conjugate_state(start, symmetry_of(a)))
        out += [c["flip"], c[edge], c["twist"]]
    return np.array(out, dtype=np.int32)


def _pieces(start: np.ndarray) -> np.ndarray:
    c = read_cubies(np.asarray(start), 3)
    return np.concatenate([c.corner_perm, c.corner_ori, c.edge_perm, c.edge_ori]).astype(np.int64)


def lower_bound(tables: OptimalTables, start: np.ndarray, *, inverse: bool = True) -> int:
    """The heuristic of a state: the largest of its three axis lookups and (``inverse``) those
    of its inverse."""
    crd = axis_coordinates(np.asarray(start), tables.phase.edge)[None]
    p = tables.phase
    pieces = _pieces(start)
    parity = perm_parity(pieces[:8]) if tables.metric == "qtm" else -1
    h = int(K.node_h(crd, 0, tables.data, p.cls, p.sym, p.tconj, parity))
    return max(h, _inverse_h(tables, inverse_cubies(pieces), parity)) if inverse else h


class _Tasks:
    """The two-move prefixes of one search and their depth-first stacks."""

    def __init__(self, tables: OptimalTables, root: np.ndarray, pieces: np.ndarray, rows: int, parity: int):
        p = tables.phase
        m = tables.forbid.shape[0]
        pairs = [(a, b) for a in range(m) for b in range(m) if not tables.forbid[a, b]]
        self.first = np.array(pairs, dtype=np.int64)
        n = len(pairs)
        self.crd = np.zeros((n, rows, 9), np.int32)
        self.crd[:, 0] = root
        for depth in (1, 2):
            for a in range(3):
                mv = tables.mconj[a, self.first[:, depth - 1]]
                prev = self.crd[:, depth - 1]
                self.crd[:, depth, 3 * a] = p.flip_mv[prev[:, 3 * a], mv]
                self.crd[:, depth, 3 * a + 1] = p.slice_mv[prev[:, 3 * a + 1], mv]
                self.crd[:, depth, 3 * a + 2] = p.twist_mv[prev[:, 3 * a + 2], mv]
        self.inv = np.zeros((n, rows, 40), np.int64)
        self.inv[:, 0] = inverse_cubies(pieces)
        for d in (1, 2):
            self.inv[:, d] = inverse_step(self.inv[:, d - 1], self.first[:, d - 1], tables)
        # the inverses' raw lookups of the prefix rows (the kernel starts from row 2's), and the
        # h of each prefix node: the first one over the bound is where the task is cut
        self.iraw = np.zeros((n, rows, 3), np.int64)
        for d in (1, 2):
            self.iraw[:, d] = [_inverse_raw(tables, self.inv[t, d]) for t in range(n)]
        par = [-1, -1] if parity < 0 else [(parity + 1) & 1, parity]
        self.h = np.array(
            [
                [
                    max(
                        K.node_h(self.crd[t], d, tables.data, p.cls, p.sym, p.tconj, par[d - 1]),
                        K.combine(*self.iraw[t, d], par[d - 1]),
                    )
                    for d in (1, 2)
                ]
                for t in range(n)
            ]
        )
        self.depth = np.zeros(n, np.int64)
        self.tried = np.zeros((n, rows), np.int64)
        self.path = np.zeros((n, rows), np.int64)
        self.path[:, :2] = self.first
        self.status = np.zeros(n, np.int64)
        self.minf = np.zeros(n, np.int64)
        self.nodes = np.zeros(n, np.int64)
        self.expanded = np.zeros(n, np.int64)
        self.pieces = pieces
        self.scratch = np.zeros((n, 2, 40), np.int64)
        self.cidx = np.zeros((n, m, 3), np.int64)
        self.cval = np.zeros((n, rows, m), np.int64)
        self.fraw = np.zeros((n, m, 3), np.int64)
        self.kinv = np.zeros((n, 40), np.int64)
        self.kraw = np.zeros((n, rows, m, 3), np.int64)

    def state(self) -> tuple:
        """The arrays :func:`exact.cube.optkernel.run_tasks` updates, in its order."""
        return (
            self.crd, self.depth, self.tried, self.path, self.status, self.minf, self.nodes, self.expanded,
            self.scratch, self.cidx, self.cval, self.inv, self.iraw, self.fraw, self.kinv, self.kraw,
        )  # fmt: skip

    def restart(self, bound: int) -> None:
        self.depth[:] = 2
        self.tried[:, 2] = 0
        self.minf[:] = np.iinfo(np.int64).max
        self.status[:] = K.RUNNING
        for d in (1, 2):
            cut = (self.status == K.RUNNING) & (d + self.h[:, d - 1] > bound)
            self.status[cut] = K.EXHAUSTED
            self.minf[cut] = d + self.h[cut, d - 1]


def optimal_cube(
    puzzle: Puzzle,
    start: np.ndarray,
    *,
    tables: OptimalTables | None = None,
    pdb_dir=None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    stop_at: int | None = None,
    threads: int | None = None,
    progress: bool = True,
) -> SolveResult:
    """A shortest solution of a 3x3x3 (face moves, HTM or QTM), proven optimal.

    Args:
        puzzle: ``cube3`` with the ``faces`` move set.
        start: Facelet state ``(54,)``, centres home.
        tables: From :func:`optimal_tables` (else loaded, and built on first use).
        time_limit: Seconds; ``node_limit``: expanded nodes; ``None`` for none. Either ends in
            ``limit`` with the proven lower bound.
        stop_at: End (as at a limit) once every length below it is refuted.
        threads: numba threads for the search (``None``: numba's current setting).
        progress: show the tables' build and the search's bound, nodes and rate
            (:mod:`exact.progress`).
    """
    metric, start = face_turn_start(puzzle, start, "the optimal cube solver")
    edge = "slicesorted" if tables is None else tables.phase.edge
    settings = {
        "heuristic": f"{prune.NAMES[edge]}-twist-{metric}, 3 axes and the inverse",
        "time_limit": time_limit,
        "node_limit": node_limit,
        "stop_at": stop_at,
        "threads": threads,
    }
    t0 = time.perf_counter()
    done = recorder(puzzle, start, settings, t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    if tables is None:
        tables = optimal_tables(puzzle, pdb_dir=pdb_dir, progress=progress)
    elif tables.metric != metric:
        raise PuzzleoptError(f"the tables given are for {tables.metric}, the puzzle's metric is {metric}")
    pieces = _pieces(start)
    parity = perm_parity(pieces[:8]) if metric == "qtm" else None  # a quarter turn is odd on corners
    root = axis_coordinates(start, tables.phase.edge)
    root_h = lower_bound(tables, start)

    def threshold(b: int) -> int:
        return b + 1 if parity is not None and (b - parity) % 2 else b

    before = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(int(threads))
    try:
        with SearchProgress(f"cube3-optimal ({metric})", progress, unit="generated nodes") as watch:
            code, bound, moves, generated, expanded, iterations = _deepen(
                tables, root, pieces, -1 if parity is None else parity, threshold(max(root_h, 1)), threshold, t0,
                time_limit, node_limit, stop_at, watch,
            )  # fmt: skip
            watch.close("solved" if code == K.FOUND else "stopped at a limit", generated)
    finally:
        numba.set_num_threads(before)
    extra = {"iterations": iterations, "generated": generated}
    if code == K.FOUND:
        return done(moves, Status.OPTIMAL, len(moves), expanded, extra)
    return done([], Status.LIMIT, bound, expanded, extra)


def _short(tables: OptimalTables, pieces, bound: int):
    """Solutions of 1 or 2 moves, by trying them (the tasks start below two-move prefixes)."""
    m = tables.forbid.shape[0]
    scratch = np.zeros((2, 40), np.int64)
    seqs = (
        [[a] for a in range(m)]
        if bound == 1
        else [[a, b] for a in range(m) for b in range(m) if not tables.forbid[a, b]]
    )
    path = np.zeros(2, np.int64)
    for seq in seqs:
        path[: len(seq)] = seq
        if K._is_solved(path, len(seq), pieces, *tables.pieces, scratch):
            return seq
    return None


def _deepen(tables, root, pieces, parity, bound, threshold, t0, time_limit, node_limit, stop_at, watch):
    p = tables.phase
    read_only = (
        tables.forbid, tables.forbid3, p.flip_mv, p.slice_mv, p.twist_mv, tables.mconj, tables.data, tables.clsym,
        p.tconj, pieces, *tables.pieces, *tables.axes, _COMB, p.edge == "slicesorted", tables.maxes,
    )  # fmt: skip
    generated = expanded = 0
    iterations: list[dict] = []
    tasks = None
    while True:
        if stop_at is not None and bound >= stop_at:
            return _LIMIT, bound, None, generated, expanded, iterations
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            return _LIMIT, bound, None, generated, expanded, iterations
        if bound <= 2:
            found = _short(tables, pieces, bound)
            iterations.append({"bound": bound, "nodes": 0, "complete": found is None})
            if found is not None:
                return K.FOUND, bound, found, generated, expanded, iterations
            bound = threshold(bound + 1)
            continue
        if tasks is None:
            tasks = _Tasks(tables, root, pieces, max(bound, 24) + 2, parity)
        if tasks.crd.shape[1] < bound + 2:
            tasks = _Tasks(tables, root, pieces, bound + 2, parity)
        tasks.restart(bound)
        start_nodes = int(tasks.nodes.sum())
        while True:
            active = np.flatnonzero(tasks.status == K.RUNNING)
            if not len(active):
                break
            spent = int(tasks.expanded.sum())
            left = None if node_limit is None else node_limit - expanded - spent
            budget = TASK_BUDGET if left is None else min(TASK_BUDGET, left // len(active))
            if budget <= 0 or (time_limit is not None and time.perf_counter() - t0 > time_limit):
                it = int(tasks.nodes.sum()) - start_nodes
                iterations.append({"bound": bound, "nodes": it, "complete": False})
                return _LIMIT, bound, None, generated + it, expanded + spent, iterations
            K.run_tasks(active, tasks.state(), read_only, 2, bound, budget, parity)
            watch.update(bound, generated + int(tasks.nodes.sum()) - start_nodes)
            hits = np.flatnonzero(tasks.status == K.FOUND)
            if len(hits):
                t = int(hits[0])  # the first task in move order: the same answer on any thread count
                it = int(tasks.nodes.sum()) - start_nodes
                iterations.append({"bound": bound, "nodes": it, "complete": False})
                moves = [int(x) for x in tasks.path[t, : tasks.depth[t]]]
                return K.FOUND, bound, moves, generated + it, expanded + int(tasks.expanded.sum()), iterations
        it = int(tasks.nodes.sum()) - start_nodes
        generated += it
        expanded += int(tasks.expanded.sum())
        tasks.expanded[:] = 0
        iterations.append({"bound": bound, "nodes": it, "complete": True})
        bound = threshold(int(tasks.minf.min()))
