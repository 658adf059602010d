"""Heineman's staged deepening (HSD) with a weighted heuristic: :func:`solve_hsd`.

The search (Heineman's, as Elyasaf, Hauptman & Sipper describe it for GA-FreeCell):

1. The open list holds boards sorted by the heuristic ``h = weights . features``
   (:mod:`learned.freecell.heuristics`); it starts with the deal.
2. A *stage* takes the best board and runs a depth-first search from it without looking at the
   heuristic, to depth exactly ``k``; every board it reaches ``k`` moves away enters the open list.
   A transposition table of board keys (free cells and cascades as multisets) keeps the search
   from reaching a board twice, across stages too.
3. After a stage the table is cleared once it holds ``tt_limit`` boards (the paper's N = 200,000).
4. The search stops at a solved board, when the open list is empty, or at a limit.

Choices the paper leaves open, or where this module differs: the stage depth is ``k = 4`` by
default (on deals 1..700 with a fixed weighted heuristic, k = 4 had the fewest failures within a
time limit among k = 2..5); the open list holds at most ``max_open`` boards (when full, the worse
half is dropped); the shipped GA-FreeCell weights run with N = 4,000,000, since a cleared table
lets the search regenerate boards still on the open list and circle among them, and at about three
million nodes a second N = 200,000 is reached every tenth of a second (the table takes 8 bytes a
key, 64 MB at 4,000,000).

A move is any legal move of the board model, sequence moves (supermoves) included, each followed
by the safe moves home (:func:`exact.puzzles.freecell.autoplay`); a board is reached "``k`` moves
away" counting the moves chosen, not the safe moves home that follow them. Among boards of equal
heuristic the newest is taken first. Nodes are the children generated (each one a move and its
safe moves home, counted whether or not the table knew it).

The solution is then shortened (``shorten=True``): from each of its boards the move that lands
furthest along it is taken (matching boards up to the order of cascades and free cells), which drops
detours; ``extra["raw_length"]`` keeps the length before. The result is built with
:meth:`exact.result.SolveResult.recorder`, so its moves (safe moves home listed like any other,
in standard notation) are replayed on :class:`exact.puzzles.freecell.FreeCellPuzzle`. The status
is ``feasible`` (a solution; HSD proves nothing about its length) or ``limit`` (time or nodes
ran out, or the open list emptied: with the table cleared now and then, and boards told apart by
a 64-bit hash, an empty open list proves nothing; ``extra["stopped_by"]`` says which).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError, ReplayError
from exact.puzzles.freecell import Board, FreeCellPuzzle, autoplay, encode_board, ms_deal, parse_board, why_illegal
from exact.puzzles.freecell import play as play_move
from exact.puzzles.freecell.kernels import ZOBRIST, ZOBRIST_CELL, code_move, encode
from exact.result import SolveResult, Status
from learned.freecell import search
from learned.freecell.heuristics import HSDH, check_weights

SOLVER = "hsd"
SOLVER_VERSION = "1"
DEFAULT_K = 4
DEFAULT_TT_LIMIT = 200_000
DEFAULT_MAX_OPEN = 1 << 22
_BUDGET = 20_000  # nodes between clock readings (a few milliseconds)


def _board_of(board: Board | int | str, freecells: int | None) -> tuple[Board, dict[str, Any]]:
    if isinstance(board, Board):
        if freecells is not None and freecells != board.num_freecells:
            raise PuzzleoptError(
                f"the board has {board.num_freecells} free cells but freecells={freecells}; give one or the other"
            )
        return Board(*board).check(), {}
    if isinstance(board, str):
        return parse_board(board, 4 if freecells is None else freecells), {}
    if isinstance(board, (int, np.integer)) and not isinstance(board, bool):
        return ms_deal(int(board), 4 if freecells is None else freecells), {"deal": int(board)}
    raise PuzzleoptError(f"a FreeCell board is a deal number, a board text or a Board, got {type(board).__name__}")


def _check_int(name: str, value: object, low: int, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise PuzzleoptError(f"{name} must be an integer >= {low}{' or None' if allow_none else ''}, got {value!r}")


@cache
def warm_up() -> None:
    """Compile the kernels (or load them from numba's cache) once per process, so that the first
    solve's clock does not count it: a cold compile takes seconds."""
    start = encode(autoplay(ms_deal(1))[0])
    none = np.zeros(0, dtype=np.uint16)
    search_hsd(autoplay(ms_deal(1))[0], HSDH, node_limit=1)
    search.shortcut(start, none, 4, ZOBRIST, ZOBRIST_CELL)
    search.path_length(start, none, 4)


@cache
def _puzzle(freecells: int) -> FreeCellPuzzle:
    """One puzzle object per number of free cells: building its move table takes milliseconds."""
    return FreeCellPuzzle(freecells)


def _weights_name(w: np.ndarray) -> str:
    return "HSDH" if np.array_equal(w, HSDH) else "weighted"


def solve_hsd(
    board: Board | int | str,
    weights: Sequence[float] | np.ndarray | None = None,
    *,
    k: int | None = None,
    time_limit: float | None = 10.0,
    node_limit: int | None = None,
    tt_limit: int | None = None,
    max_open: int = DEFAULT_MAX_OPEN,
    freecells: int | None = None,
    shorten: bool = True,
    extra: dict[str, Any] | None = None,
) -> SolveResult:
    """Solve a FreeCell board by staged deepening (module docstring).

    Args:
        board: A :class:`~exact.puzzles.freecell.Board`, a Microsoft deal number or a board text
            (fc-solve's format).
        weights: The 9 feature weights (:mod:`learned.freecell.heuristics`); ``None``: HSDH alone.
            A :class:`~learned.freecell.weights.Weights` works too, and brings its ``k`` and
            ``tt_limit``.
        k: Depth of each stage's depth-first search (>= 1); ``None``: the weights' own, else 4.
        time_limit: Seconds before giving up (``None``: none); read between stages, every few
            milliseconds.
        node_limit: Nodes before giving up (``None``: none); checked between stages, so a search
            may pass it by one stage. Deterministic, unlike the time limit.
        tt_limit: Keys in the transposition table before it is cleared (the paper's N); ``None``:
            the weights' own, else 200,000.
        max_open: Most boards in the open list; when it is full the worse half is dropped.
        freecells: Free cells of a deal or board text (default 4).
        shorten: Shorten the solution found (module docstring).
        extra: Facts to record in the result's ``extra`` (e.g. the deal number).

    Returns:
        A :class:`~exact.result.SolveResult` (``feasible`` or ``limit``); ``nodes`` are the children
        generated, ``extra`` holds the stages, the table clears and the largest open list.
    """
    warm_up()
    since = time.perf_counter()
    if k is None:
        k = getattr(weights, "k", DEFAULT_K)
    if tt_limit is None:
        tt_limit = getattr(weights, "tt_limit", DEFAULT_TT_LIMIT)
    weights = check_weights(getattr(weights, "vector", weights))
    _check_int("k", k, 1)
    _check_int("node_limit", node_limit, 1, allow_none=True)
    _check_int("tt_limit", tt_limit, 1)
    _check_int("max_open", max_open, 2)
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise PuzzleoptError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    board, info = _board_of(board, freecells)
    info.update(extra or {})
    nf = board.num_freecells
    puzzle = _puzzle(nf)
    settings = {
        "weights": [float(x) for x in weights],
        "heuristic": _weights_name(weights),
        "k": k,
        "time_limit": time_limit,
        "node_limit": node_limit,
        "tt_limit": tt_limit,
        "max_open": max_open,
        "freecells": nf,
        "shorten": shorten,
    }
    done = SolveResult.recorder(
        puzzle, encode_board(board), solver=SOLVER, solver_version=SOLVER_VERSION, settings=settings, since=since
    )
    start, auto = autoplay(board)
    if start.is_solved():
        return done(puzzle.table.rows(auto), Status.FEASIBLE, nodes=0, extra={**info, "stages": 0})

    out = search_hsd(start, weights, k=k, time_limit=time_limit, node_limit=node_limit, tt_limit=tt_limit,
                     max_open=max_open, since=since)  # fmt: skip
    facts = {**info, **out.facts}
    if out.codes is None:
        return done([], Status.LIMIT, nodes=out.nodes, extra={**facts, "stopped_by": out.stopped_by})
    codes_arr = out.codes
    s0 = encode(start)
    facts["raw_length"] = int(search.path_length(s0, codes_arr, nf)) + len(auto)
    if shorten:
        codes_arr = search.shortcut(s0, codes_arr, nf, ZOBRIST, ZOBRIST_CELL)
    moves = list(auto) + expand(start, codes_arr)
    return done(puzzle.table.rows(moves), Status.FEASIBLE, nodes=out.nodes, extra=facts)


@dataclass(frozen=True)
class Outcome:
    """What :func:`search_hsd` found.

    Attributes:
        codes: The moves from the start board (uint16 codes of :mod:`exact.puzzles.freecell.kernels`,
            each followed by the safe moves home), or ``None`` without a solution.
        nodes: Children generated.
        stopped_by: ``None`` (solved), ``"time_limit"``, ``"node_limit"`` or ``"open list empty"``.
        facts: Stages, table clears, the largest open list and the times it was cut.
    """

    codes: np.ndarray | None
    nodes: int
    stopped_by: str | None
    facts: dict[str, int]


def search_hsd(
    start: Board,
    weights: np.ndarray,
    *,
    k: int = DEFAULT_K,
    time_limit: float | None = None,
    node_limit: int | None = None,
    tt_limit: int = DEFAULT_TT_LIMIT,
    max_open: int = DEFAULT_MAX_OPEN,
    since: float | None = None,
) -> Outcome:
    """The staged deepening search alone, from a board after its safe moves home that is not
    solved, with checked ``weights`` (a float64 vector of 9): what :func:`solve_hsd` and the GA
    call. Nothing is replayed here; :func:`solve_hsd` builds the checked result."""
    since = time.perf_counter() if since is None else since
    nf = start.num_freecells
    s0 = encode(start)
    s_len = len(s0)
    roots = np.empty((1024, s_len), dtype=np.uint8)
    roots[0] = s0
    root_leaf = np.full(1024, -1, dtype=np.int64)
    leaf_root = np.zeros(4096, dtype=np.int32)
    leaf_moves = np.zeros((4096, k), dtype=np.uint16)
    hk = np.zeros(4096)
    hid = np.zeros(4096, dtype=np.int32)
    tt = np.zeros(search.TT_START, dtype=np.uint64)
    tt_slots = 1 << max(15, int(np.ceil(np.log2(tt_limit * 2))))
    meta = np.zeros(search.META_SIZE, dtype=np.int64)
    meta[search.M_ROOTS] = 1
    meta[search.M_LEAVES] = 1  # leaf 0: the start, no moves from root 0
    meta[search.M_OPEN] = 1
    meta[search.M_MAX_OPEN] = 1
    goal = np.zeros(k + 1, dtype=np.uint16)
    deadline = None if time_limit is None else since + time_limit
    stopped_by = None
    while True:
        result, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt = search.run(
            meta, roots, root_leaf, leaf_root, leaf_moves, hk, hid, tt, weights, ZOBRIST, ZOBRIST_CELL,
            nf, k, _BUDGET, 0 if node_limit is None else node_limit, tt_limit, tt_slots, max_open, goal,
        )  # fmt: skip
        if result == search.SOLVED:
            break
        if result == search.EXHAUSTED:
            stopped_by = "open list empty"
        elif result == search.NODE_LIMIT:
            stopped_by = "node_limit"
        elif deadline is not None and time.perf_counter() > deadline:
            stopped_by = "time_limit"
        if stopped_by is not None:
            break
    facts = {
        "stages": int(meta[search.M_STAGES]),
        "tt_clears": int(meta[search.M_CLEARS]),
        "max_open": int(meta[search.M_MAX_OPEN]),
        "open_trims": int(meta[search.M_TRIMS]),
    }
    nodes = int(meta[search.M_NODES])
    if stopped_by is not None:
        return Outcome(None, nodes, stopped_by, facts)
    # The moves: the chain of roots back to the start, then the last stage's.
    r = int(meta[search.M_SOLVED_ROOT])
    codes = list(goal[: int(meta[search.M_SOLVED_DEPTH])])
    while root_leaf[r] >= 0:
        leaf = int(root_leaf[r])
        codes = [c for c in leaf_moves[leaf] if c != 0] + codes
        r = int(leaf_root[leaf])
    return Outcome(np.array(codes, dtype=np.uint16), nodes, None, facts)


def expand(start: Board, codes: Sequence[int] | np.ndarray) -> list:
    """The moves of a search path: each code's move, then the safe moves home after it.

    Raises:
        ReplayError: a code is not a legal move (a bug of the search, never bad input).
    """
    out = []
    board = start
    for code in codes:
        move = code_move(int(code))
        reason = why_illegal(board, move)
        if reason is not None:
            raise ReplayError(f"{SOLVER}: search move {move} cannot be played: {reason}")
        board, more = autoplay(play_move(board, move))
        out.append(move)
        out.extend(more)
    return out
