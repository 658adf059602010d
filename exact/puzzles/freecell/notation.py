"""Standard FreeCell notation for moves, read and written, and the replay of a solution.

A move is two characters, source then destination: cascades ``1``..``8``, free cells
``a``..``g`` (as many as the game has), ``h`` home: ``3a`` (cascade 3 to free cell a), ``8h``,
``a5``, ``54``. A sequence move between cascades is one move; its card count is written as
fc-solve's extended notation (``fc-solve -snx``) writes it, ``v`` and one hexadecimal digit
(``54v3`` carries 3 cards, ``82vc`` 12), and may be left out:
onto a non-empty cascade exactly one count fits, and onto an empty cascade a move without a count
carries one card (what ``-snx`` means by it). :func:`format_move` knows no board and writes the
count of every move of several cards; :func:`format_moves` given the start board writes it only
onto an empty cascade, as ``-snx`` does. Both read back as the same moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from exact.errors import NotationError
from exact.puzzles.freecell.board import FREECELL_LETTERS, NUM_CASCADES, Board
from exact.puzzles.freecell.cards import RANK
from exact.puzzles.freecell.moves import FREECELL0, HOME, Move, play, run_length, why_illegal
from exact.puzzles.freecell.text import format_board

_MOVE = re.compile(r"([1-8a-g])([1-8a-h])(?:v([1-9a-d]))?")


def _loc_char(loc: int) -> str:
    if 0 <= loc < NUM_CASCADES:
        return str(loc + 1)
    if loc == HOME:
        return "h"
    k = loc - FREECELL0
    if 0 <= k < len(FREECELL_LETTERS):
        return FREECELL_LETTERS[k]
    raise NotationError(f"location {loc} has no name: cascades are 0..7, free cells {FREECELL0}.., home {HOME}")


def _char_loc(ch: str) -> int:
    if ch.isdigit():
        return int(ch) - 1
    return HOME if ch == "h" else FREECELL0 + FREECELL_LETTERS.index(ch)


def format_move(move: Move) -> str:
    """A move in standard notation: ``"3a"``, ``"8h"``, ``"54"``, ``"54v3"`` (3 cards), ``"82vc"`` (12)."""
    src, dst, n = move
    text = _loc_char(src) + _loc_char(dst)
    return f"{text}v{n:x}" if n > 1 else text


def format_moves(moves: Iterable[Move], start: Board | None = None) -> str:
    """Moves in standard notation, separated by spaces.

    Args:
        moves: The moves.
        start: The board they start from: with it, counts are written only where a move of
            several cards goes to an empty cascade (fc-solve's ``-snx`` form); without it, for
            every move of several cards. The moves are not checked.
    """
    if start is None:
        return " ".join(format_move(m) for m in moves)
    out = []
    for m in moves:
        text = format_move(m)
        out.append(text if m.dst >= NUM_CASCADES or not start.cascades[m.dst] else text.split("v")[0])
        start = play(start, m)
    return " ".join(out)


def read_move(token: str) -> tuple[int, int, int | None]:
    """The source, destination and count (``None`` if not written) of one token, without a board.

    Raises:
        NotationError: the token is not a move, quoting it and saying how moves are written.
    """
    m = _MOVE.fullmatch(token.strip().lower())
    if m is None or m.group(1) == m.group(2):
        raise NotationError(
            f"cannot read move {token!r}: a move is its source then its destination (cascades 1-8, free cells "
            "a-g, h for home), e.g. '3a', '8h', 'a5', '54'; for several cards add 'v' and their count as one "
            "hexadecimal digit, e.g. '54v3', '82vc' (12 cards)"
        )
    src, dst = _char_loc(m.group(1)), _char_loc(m.group(2))
    count = None if m.group(3) is None else int(m.group(3), 16)
    if count is not None and not (src < FREECELL0 and dst < FREECELL0):
        raise NotationError(f"cannot read move {token!r}: only moves between cascades carry a count ('v')")
    return src, dst, count


def parse_move(token: str, board: Board) -> Move:
    """One move in standard notation, its count resolved on ``board`` (see the module docstring).

    Raises:
        NotationError: the token cannot be read.
    """
    src, dst, count = read_move(token)
    if count is None:
        count = 1
        if src < NUM_CASCADES and dst < NUM_CASCADES and board.cascades[src] and board.cascades[dst]:
            # Onto a non-empty cascade only one count can fit: the card one rank below its top.
            n = RANK[board.cascades[dst][-1]] - RANK[board.cascades[src][-1]]
            if 1 < n <= run_length(board.cascades[src]):
                count = n
    return Move(src, dst, count)


def replay(board: Board, moves: str | Iterable[str | Move]) -> Board:
    """The board after a solution, every move checked.

    Args:
        board: The start board.
        moves: Moves in standard notation (one string, or tokens) or :class:`Move` values.

    Raises:
        NotationError: quoting the bad move, its number and the board it could not be played on.
    """
    return _replay(board, moves)[1]


def parse_moves(text: str | Sequence[str | Move], board: Board) -> list[Move]:
    """Moves in standard notation read against ``board`` (the counts are resolved as they are played).

    Raises:
        NotationError: as :func:`replay`.
    """
    return _replay(board, text)[0]


def _replay(board: Board, moves: str | Iterable[str | Move]) -> tuple[list[Move], Board]:
    items = moves.split() if isinstance(moves, str) else list(moves)
    out: list[Move] = []
    for k, item in enumerate(items, start=1):
        shown = item if isinstance(item, str) else None
        try:
            move = parse_move(item, board) if isinstance(item, str) else Move(*item)
            shown = shown or format_move(move)
            reason = why_illegal(board, move)
        except NotationError as exc:
            raise NotationError(f"move {k} of {len(items)}: {exc}") from None
        if reason is not None:
            raise NotationError(
                f"move {k} of {len(items)}, {shown!r}, cannot be played: {reason}; the board before it:\n"
                f"{format_board(board)}"
            )
        board = play(board, move)
        out.append(move)
    return out, board
