"""Move-optimal and push-optimal Sokoban solutions by A* over macro pushes.

:func:`solve_sokoban` analyses the level (:mod:`exact.sokoban.analysis`), runs the numba kernel
(:mod:`exact.sokoban.search`) in slices so that time and node limits are checked between them,
grows the node store when it fills, and turns the pushes found into a LURD string whose moves
:meth:`SolveResult.build` replays on :class:`~exact.puzzles.sokoban.SokobanPuzzle`.

What a result claims:

* ``optimize="moves"``: status ``optimal`` with ``lower_bound == length`` (moves); among the
  move-optimal solutions it has the fewest pushes.
* ``optimize="pushes"``: the fewest pushes, which ``extra["pushes"]`` holds, with
  ``extra["pushes_optimal"] = True``. The result's ``length`` counts moves (walks included),
  which this mode does not minimise, so its status is ``feasible`` and its ``lower_bound`` is the
  optimal push count (every move-optimal solution has at least that many moves).
* ``unsolvable``: the search exhausted every placement reachable without a deadlock (the pruning
  rules are sound, see :mod:`exact.sokoban.search`), or the analysis found a box or goal that can
  never be matched (``extra["proof"]`` says which).
* ``limit``: ``lower_bound`` is the least ``f`` still open (moves, or pushes in pushes mode),
  proven: no solution is shorter.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from functools import cache

import numpy as np

from exact.errors import PuzzleoptError
from exact.provenance import toolkit
from exact.puzzles.sokoban import Level, SokobanPuzzle, parse_lurd
from exact.puzzles.sokoban.level import DIRECTIONS
from exact.result import SolveResult, Status
from exact.sokoban import search as k
from exact.sokoban.analysis import Analysis, analyse

OPTIMIZE = ("moves", "pushes")
DEFAULT_MAX_STORED = 1 << 24
"""Most nodes kept (about 45 bytes each with 4 boxes, plus the hash table and open list: ~1.5 GiB)."""
SLICE = 20_000  # expansions between two looks at the clock
SOLVER = "sokoban-astar"


@dataclass(eq=False)
class _Store:
    """The kernel's growable arrays (see :func:`exact.sokoban.search.search` for their meaning)."""

    boxes: np.ndarray
    player: np.ndarray
    hashv: np.ndarray
    g1: np.ndarray
    g2: np.ndarray
    h1: np.ndarray
    h2: np.ndarray
    parent: np.ndarray
    move: np.ndarray
    flags: np.ndarray
    table: np.ndarray
    hk: np.ndarray
    hv: np.ndarray

    @classmethod
    def empty(cls, cap: int, nb: int) -> _Store:
        return cls(
            boxes=np.zeros((cap, nb), np.int16),
            player=np.zeros(cap, np.int16),
            hashv=np.zeros(cap, np.uint64),
            g1=np.zeros(cap, np.int32),
            g2=np.zeros(cap, np.int32),
            h1=np.zeros(cap, np.int32),
            h2=np.zeros(cap, np.int32),
            parent=np.zeros(cap, np.int32),
            move=np.zeros(cap, np.int32),
            flags=np.zeros(cap, np.uint8),
            table=np.zeros(4 * cap, np.int32),
            hk=np.zeros(2 * cap, np.int64),
            hv=np.zeros(2 * cap, np.int32),
        )

    def grown(self, count: int, heap: int) -> _Store:
        """A store of twice the capacity holding the first ``count`` nodes and ``heap`` open entries."""
        cap = 2 * self.boxes.shape[0]
        new = _Store.empty(cap, self.boxes.shape[1])
        for name in ("boxes", "player", "hashv", "g1", "g2", "h1", "h2", "parent", "move", "flags"):
            getattr(new, name)[:count] = getattr(self, name)[:count]
        new.hk[:heap] = self.hk[:heap]
        new.hv[:heap] = self.hv[:heap]
        k.rehash(new.hashv, count, new.table)
        return new

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in vars(self).values())


@cache
def _zobrist(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random 64-bit keys of a box and of the player on each of ``n`` cells (fixed seed: runs repeat)."""
    rng = np.random.default_rng(0x50C0BA)
    keys = rng.integers(0, np.iinfo(np.uint64).max, size=(2, n), dtype=np.uint64, endpoint=True)
    keys.setflags(write=False)
    return keys[0], keys[1]


@cache
def _puzzle(height: int, width: int) -> SokobanPuzzle:
    return SokobanPuzzle(height, width)


def push_bound(an: Analysis, boxes: np.ndarray) -> int:
    """The matching bound on the pushes left with boxes on ``boxes`` (``>= search.BIG`` if hopeless)."""
    nb = len(an.goals)
    sc = _scratch(nb)
    return int(k.matching(np.asarray(boxes, np.int16), nb, an.dist, *sc))


def prunes(an: Analysis, boxes, cell: int) -> bool:
    """Whether the search cuts the placement ``boxes`` reached by pushing a box onto ``cell``.

    The rules of :mod:`exact.sokoban.search`: ``cell`` is a dead square, or a 2x2 or freeze
    deadlock involves the box there. Exposed so that tests can check every cut against a full
    search.
    """
    if an.dead[cell]:
        return True
    n = an.level.num_cells
    occ = np.zeros(n, np.uint8)
    occ[list(boxes)] = 1
    return bool(k.deadlocked(cell, occ, an.wall, an.nbr, an.dead, an.goal, an.level.width, *_freeze_scratch(n)))


def _freeze_scratch(n: int) -> tuple[np.ndarray, ...]:
    """``mark``, ``scell``, ``sstage``, ``budget`` of :func:`exact.sokoban.search.frozen` for ``n`` cells."""
    return np.zeros(n, np.uint8), np.zeros(n + 1, np.int32), np.zeros(n + 1, np.int64), np.zeros(1, np.int64)


def _scratch(nb: int) -> tuple[np.ndarray, ...]:
    m = nb + 1
    return (
        np.zeros((m, m), np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.int64),
        np.zeros(m, np.uint8),
    )


def solve_sokoban(
    level: Level,
    optimize: str = "moves",
    time_limit: float | None = None,
    node_limit: int | None = None,
    max_stored: int = DEFAULT_MAX_STORED,
) -> SolveResult:
    """An optimal solution of a Sokoban level, a proof that there is none, or a proven bound.

    Args:
        level: The level (checked with :meth:`Level.check`).
        optimize: ``"moves"`` (every step counts) or ``"pushes"`` (only pushes count).
        time_limit: Seconds (``None``: none). Checked every few thousand expansions.
        node_limit: Expanded nodes (``None``: none).
        max_stored: Most nodes stored (memory); reaching it ends the search with ``limit``.

    Returns:
        A :class:`~exact.result.SolveResult` (puzzle ``sokoban{H}x{W}``; moves are LURD letters;
        ``nodes`` = expanded nodes; ``extra`` holds ``lurd``, ``moves``, ``pushes``, ``generated``,
        ``stored``, ``optimize``). Statuses are described in the module docstring.

    Raises:
        PuzzleoptError: a bad level or bad settings (message says which and why).
    """
    t0 = time.perf_counter()
    if optimize not in OPTIMIZE:
        raise PuzzleoptError(f"optimize={optimize!r}: choose 'moves' or 'pushes'")
    if time_limit is not None and not time_limit >= 0:
        raise PuzzleoptError(f"time_limit={time_limit!r}: give seconds >= 0, or None for no limit")
    for what, v in (("node_limit", node_limit), ("max_stored", max_stored)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0):
            raise PuzzleoptError(
                f"{what}={v!r}: give a whole number >= 0" + (", or None" if what == "node_limit" else "")
            )
    if not isinstance(level, Level):
        raise PuzzleoptError(
            f"solve_sokoban takes a Level (see exact.puzzles.sokoban.parse_level), got {type(level).__name__}"
        )
    level.check()
    puzzle = _puzzle(level.height, level.width)
    start = puzzle.state_of(level)
    settings = {"optimize": optimize, "time_limit": time_limit, "node_limit": node_limit, "max_stored": max_stored}
    done = SolveResult.recorder(puzzle, start, solver=SOLVER, solver_version=toolkit(), settings=settings, since=t0)
    base = {"optimize": optimize}
    if level.is_solved:
        solved = {"lurd": "", "moves": 0, "pushes": 0, "pushes_optimal": True}
        return done([], Status.OPTIMAL, bound=0, nodes=0, extra={**base, **solved})
    an = analyse(level)
    if an.unsolvable:
        return done([], Status.UNSOLVABLE, nodes=0, extra={**base, "proof": an.unsolvable})
    hp0 = push_bound(an, an.boxes)
    if hp0 >= k.BIG:
        proof = "no assignment of boxes to goals lets every box reach its goal, even with the other boxes removed"
        return done([], Status.UNSOLVABLE, nodes=0, extra={**base, "proof": proof})
    return _run(an, optimize, hp0, time_limit, node_limit, max_stored, done, base, puzzle)


def _run(an: Analysis, optimize, hp0, time_limit, node_limit, max_stored, done, base, puzzle) -> SolveResult:
    mode = k.MODE_MOVES if optimize == "moves" else k.MODE_PUSHES
    zb, zp = _zobrist(an.level.num_cells)
    st, meta = _root(an, mode, hp0, zb, zp)
    status, why, st = _search(an, mode, zb, zp, st, meta, time_limit, node_limit, max_stored)
    extra = {**base, "generated": int(meta[k.M_GENERATED]), "stored": int(meta[k.M_COUNT]),
             "reopened": int(meta[k.M_REOPENED]), "store_mib": round(st.nbytes / 2**20, 1)}  # fmt: skip
    expanded = int(meta[k.M_EXPANDED])
    if status == k.EXHAUSTED:
        proof = "every placement reachable without a deadlock was searched"
        return done([], Status.UNSOLVABLE, nodes=expanded, extra={**extra, "proof": proof})
    if status != k.FOUND:
        bound = int(meta[k.M_LB])
        if meta[k.M_HEAP] > 0:
            bound = max(bound, int(st.hk[0] >> k.SHIFT1))
        return done([], Status.LIMIT, bound=bound, nodes=expanded, extra={**extra, "limit": why, "bound_in": optimize})
    return _solution(an, mode, st, int(meta[k.M_GOAL]), expanded, extra, done)


def _root(an: Analysis, mode: int, hp0: int, zb, zp) -> tuple[_Store, np.ndarray]:
    """The node store and the kernel's counters, holding the start node on the open heap."""
    st = _Store.empty(1 << 12, len(an.goals))
    meta = np.zeros(k.META_SIZE, np.int64)
    player = an.level.player if mode == k.MODE_MOVES else min(an.level.region())
    st.boxes[0] = an.boxes
    st.player[0] = player
    hx = np.uint64(zp[player])
    for b in an.boxes:
        hx ^= zb[b]
    st.hashv[0] = hx
    st.h1[0] = hp0
    st.h2[0] = hp0 if mode == k.MODE_MOVES else 0
    st.parent[0] = -1
    st.move[0] = -1
    k.rehash(st.hashv, 1, st.table)
    meta[k.M_COUNT] = 1
    meta[k.M_HEAP] = k.heap_push(st.hk, st.hv, 0, k.node_key(st.h1[0], st.h2[0], 0), 0)
    meta[k.M_GOAL] = -1
    return st, meta


def _search(an: Analysis, mode: int, zb, zp, st: _Store, meta: np.ndarray, time_limit, node_limit, max_stored):
    """The kernel in slices of :data:`SLICE` expansions between the limits' checks, the store
    grown when full. Returns ``(status, why a limit ended it, store)``."""
    t0 = time.perf_counter()
    n, nb = an.level.num_cells, len(an.goals)
    scratch = (
        np.zeros(n, np.uint8),  # occ
        np.zeros(n, np.int32),  # pd
        np.zeros(n, np.int64),  # seen
        np.zeros(n, np.int64),  # seen2
        np.zeros(n + 1, np.int32),  # queue
        *_freeze_scratch(n),  # mark, scell, sstage, budget
        np.zeros(nb, np.int16),  # cur
        np.zeros(nb, np.int16),  # nxt
        *_scratch(nb),
    )
    while True:
        if time_limit is not None and time.perf_counter() - t0 >= time_limit:
            return k.PAUSED, f"time limit {time_limit:g} s", st
        stop = meta[k.M_EXPANDED] + SLICE
        meta[k.M_STOP] = stop if node_limit is None else min(stop, node_limit)
        status = k.search(
            mode, an.nbr, an.wall, an.goal, an.dead, an.dist, zb, zp, an.level.width,
            st.boxes, st.player, st.hashv, st.g1, st.g2, st.h1, st.h2, st.parent, st.move, st.flags,
            st.table, st.hk, st.hv, meta, *scratch,
        )  # fmt: skip
        if status == k.FOUND or status == k.EXHAUSTED:
            return status, "", st
        if status == k.FULL:
            if 2 * st.boxes.shape[0] > max_stored:
                return status, f"node store full ({max_stored:,} nodes)", st
            st = st.grown(int(meta[k.M_COUNT]), int(meta[k.M_HEAP]))
            continue
        if node_limit is not None and meta[k.M_EXPANDED] >= node_limit:
            return status, f"node limit {node_limit:,}", st


def _solution(an: Analysis, mode: int, st: _Store, goal: int, expanded: int, extra: dict, done) -> SolveResult:
    """The pushes back from the goal node, walked in LURD and replayed by ``done``."""
    pushes = []
    x = goal
    while st.parent[x] >= 0:
        pushes.append(divmod(int(st.move[x]), 4))
        x = int(st.parent[x])
    lurd = lurd_of_pushes(an, pushes[::-1])
    moves = parse_lurd(lurd, an.level)
    extra.update(lurd=lurd, moves=len(moves), pushes=len(pushes))
    if mode == k.MODE_MOVES:
        if len(moves) != int(st.g1[goal]):
            raise RuntimeError(f"{SOLVER}: the path has {len(moves)} moves but the search counted {int(st.g1[goal])}")
        return done(moves, Status.OPTIMAL, bound=len(moves), nodes=expanded, extra=extra)
    return done(moves, Status.FEASIBLE, bound=len(pushes), nodes=expanded, extra={**extra, "pushes_optimal": True})


def lurd_of_pushes(an: Analysis, pushes: list[tuple[int, int]]) -> str:
    """The LURD string of a push sequence: before each push the player takes a shortest walk.

    Args:
        an: The level's analysis (its walls and ``nbr``).
        pushes: ``(box cell, direction)`` pairs in order.
    """
    boxes = set(an.level.boxes)
    player = an.level.player
    out = []
    for cell, d in pushes:
        target = int(an.nbr[cell, d ^ 1])  # the player pushes from the opposite side
        out.append(_walk(an.nbr, boxes, player, target))
        out.append(DIRECTIONS[d].upper())
        boxes.remove(cell)
        boxes.add(int(an.nbr[cell, d]))
        player = cell
    return "".join(out)


def _walk(nbr: np.ndarray, boxes: set[int], start: int, target: int) -> str:
    """Letters of a shortest walk from ``start`` to ``target`` around ``boxes``."""
    back = {start: (-1, -1)}
    queue = deque([start])
    while queue and target not in back:
        c = queue.popleft()
        for d in range(4):
            q = int(nbr[c, d])
            if q >= 0 and q not in boxes and q not in back:
                back[q] = (c, d)
                queue.append(q)
    if target not in back:
        raise RuntimeError(f"{SOLVER}: no walk from cell {start} to cell {target}: the search's push was illegal")
    letters = []
    c = target
    while c != start:
        c, d = back[c]
        letters.append(DIRECTIONS[d])
    return "".join(reversed(letters))
