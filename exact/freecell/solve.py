"""A complete search that solves a FreeCell board or proves it unsolvable.

The search is a depth-first search over every position reachable by single-card moves, each
followed by the safe automatic moves home, with a transposition table keyed on
:meth:`~exact.puzzles.freecell.Board.key` (free cells and cascades as sorted multisets). When the
stack empties, no reachable position is solved: the board is proven unsolvable, and the number of
distinct positions is reported. Each restriction keeps that proof sound:

* Single-card moves only: a sequence move is a shorthand for single-card moves through the free
  cells and empty cascades (that is what its capacity counts), so they reach nothing new.
* Safe moves home are made at once instead of searched: by
  :func:`~exact.puzzles.freecell.is_safe`, if a board can be solved in ``L`` moves, it can be
  solved in at most ``L`` moves after a safe card goes home. By induction on ``L``, a solvable
  board has a move after which (the safe moves made) the board is solvable in fewer moves, so the
  search reaches a solved board from every solvable one.
* Boards equal up to the order of cascades or free cells share a key: the rules cannot tell them
  apart, so one is solvable exactly when the other is. For the same reason a card goes only to the
  first empty free cell or cascade, and a whole cascade never moves to an empty one.

A solution found on the way is replayed (:meth:`~exact.result.SolveResult.build`) and reported as
``feasible``: depth-first search does not look for a short one. The safe moves home are listed in
it like any other move.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from exact.errors import PuzzleoptError
from exact.puzzles.freecell import (
    Board,
    FreeCellPuzzle,
    Move,
    autoplay,
    encode_board,
    ms_deal,
    parse_board,
    successors,
)
from exact.result import SolveResult, Status

SOLVER = "freecell-dfs"
SOLVER_VERSION = "1"
MOVE_SET = "single cards, safe cards home at once"
_CHECK_EVERY = 1024  # states between clock readings: reading it costs more than a state
_first = itemgetter(0)


def _score(board: Board) -> int:
    """How far a board looks from solved: twice the cards not home, plus the cards covering the
    next card of each suit, less the empty free cells and cascades.

    It only orders the children (the best tried first).
    """
    found = board.foundations
    covering = 0
    for col in board.cascades:
        n = len(col)
        for depth, c in enumerate(col):
            if c >> 2 == found[c & 3]:  # rank - 1 == cards home: the next card of its suit
                covering += n - 1 - depth
    empty = board.freecells.count(None) + sum(1 for col in board.cascades if not col)
    return 2 * (52 - sum(found)) + covering - empty


def _shortcut(start: Board, path: list[Board]) -> list[tuple[Move, ...]]:
    """Moves from ``start`` through boards equal (up to symmetry) to ever later boards of
    ``path``, jumping as far along it as one move allows (sequence moves included).

    Depth-first search finds long solutions; this keeps their end and drops their detours. The
    boards are matched by key, so a jump may land on a symmetric copy of a path board: the next
    move is then found among that copy's own children, never copied from the path.
    """
    index = {b.key(): i for i, b in enumerate(path)}
    at, board, out = index[start.key()], start, []
    while at < len(path) - 1:
        best = max(
            successors(board, sequences=True, distinct=True, auto=True),
            key=lambda item: index.get(item[1].key(), -1),
        )
        at, board = index[best[1].key()], best[1]
        out.append(best[0])
    return out


def prove(
    board: Board,
    *,
    time_limit: float | None = None,
    max_states: int | None = None,
    extra: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Solve ``board`` or prove it unsolvable, by exhausting its positions (module docstring).

    Args:
        board: The start board (checked).
        time_limit: Seconds before giving up (``None``: none).
        max_states: Distinct positions before giving up (``None``: none); each takes about 200
            bytes of memory.
        extra: Facts to record in the result's ``extra`` (e.g. the deal number).

    Returns:
        A :class:`~exact.result.SolveResult`: ``feasible`` with a replayed solution, ``unsolvable``
        when every reachable position was visited, or ``limit``. ``nodes`` and ``extra["states"]``
        are the distinct positions visited (after the safe moves home, up to symmetry).
    """
    if time_limit is not None and not time_limit > 0:
        raise PuzzleoptError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if max_states is not None and (isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1):
        raise PuzzleoptError(f"max_states must be an integer >= 1, got {max_states!r}")
    since = time.perf_counter()
    board = Board(*board).check()
    puzzle = FreeCellPuzzle(board.num_freecells)
    settings = {"time_limit": time_limit, "max_states": max_states, "freecells": board.num_freecells}
    done = SolveResult.recorder(
        puzzle, encode_board(board), solver=SOLVER, solver_version=SOLVER_VERSION, settings=settings, since=since
    )
    info = {**(extra or {}), "moves_searched": MOVE_SET}

    def finish(status: Status, path: list[tuple[Move, ...]], states: int, **more: Any) -> SolveResult:
        rows = puzzle.table.rows([m for step in path for m in step])
        return done(rows, status, nodes=states, extra={**info, "states": states, **more})

    start, auto = autoplay(board)
    if start.is_solved():
        return finish(Status.FEASIBLE, [auto], 1)
    seen = {start.key()}

    def children(parent: Board) -> list[tuple[int, bytes, tuple[Move, ...], Board]]:
        # New children only, best last: the search pops from the end. The order decides how soon
        # a solution turns up; a proof visits every position whatever the order.
        kids = []
        for moves, child in successors(parent, sequences=False, distinct=True, auto=True):
            key = child.key()
            if key not in seen:
                kids.append((_score(child), key, moves, child))
        kids.sort(key=_first, reverse=True)
        return kids

    boards = [start]  # boards[d]: the board of stack level d
    stack = [children(start)]
    deadline = None if time_limit is None else since + time_limit
    next_check = _CHECK_EVERY
    while stack:
        kids = stack[-1]
        if not kids:
            stack.pop()
            boards.pop()
            continue
        _, key, moves, child = kids.pop()
        if key in seen:  # reached meanwhile, deeper down
            continue
        seen.add(key)
        if child.is_solved():
            path = [auto, *_shortcut(start, [*boards, child])]
            return finish(Status.FEASIBLE, path, len(seen), found_after=len(boards))
        if max_states is not None and len(seen) >= max_states:
            return finish(Status.LIMIT, [], len(seen), stopped_by="max_states")
        if len(seen) >= next_check:
            next_check += _CHECK_EVERY
            if deadline is not None and time.perf_counter() > deadline:
                return finish(Status.LIMIT, [], len(seen), stopped_by="time_limit")
        boards.append(child)
        stack.append(children(child))
    return finish(Status.UNSOLVABLE, [], len(seen), proof="every reachable position visited")


def solve_freecell(
    board: Board | int | str,
    *,
    freecells: int | None = None,
    time_limit: float | None = None,
    max_states: int | None = None,
) -> SolveResult:
    """Solve a FreeCell deal or board, or prove it unsolvable (:func:`prove`).

    Args:
        board: A Microsoft deal number (1..2^31 - 1), a board text (fc-solve's format) or a
            :class:`~exact.puzzles.freecell.Board`.
        freecells: Free cells of a deal or a board text (default 4); a Board brings its own
            (giving a different number is an error).
        time_limit: Seconds before giving up (``None``: none).
        max_states: Distinct positions before giving up (``None``: none).

    Returns:
        The :class:`~exact.result.SolveResult`; ``extra["deal"]`` holds the deal number.
    """
    extra: dict[str, Any] = {}
    if isinstance(board, Board):
        if freecells is not None and freecells != board.num_freecells:
            raise PuzzleoptError(
                f"the board has {board.num_freecells} free cells but freecells={freecells}; give one or the other"
            )
    elif isinstance(board, str):
        board = parse_board(board, 4 if freecells is None else freecells)
    elif isinstance(board, int) and not isinstance(board, bool):
        extra["deal"] = board
        board = ms_deal(board, 4 if freecells is None else freecells)
    else:
        raise PuzzleoptError(f"a FreeCell board is a deal number, a board text or a Board, got {type(board).__name__}")
    return prove(board, time_limit=time_limit, max_states=max_states, extra=extra)
