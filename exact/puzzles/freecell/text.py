"""Board text in fc-solve's format: read as ``fc-solve`` reads boards, written as ``fc-solve -p -t`` prints them.

Written form (``format_board``), exactly fc-solve's: the foundations line ends in a space, and every
free cell takes 4 characters, an empty one 4 spaces (here: cells a, b full, c, d empty)::

    Foundations: H-0 C-0 D-0 S-0
    Freecells:  6C  8H
    : JD KD 2S 4C 3S 6D 6S
    ...                         (8 cascade lines, bottom card first; an empty cascade is ": ")

Read form (``parse_board``): blank lines are skipped; an optional ``Foundations:`` (or
``Founds:``) line of ``suit-rank`` tokens (``H-5 C-A S-0 D-K``; a suit left out has none home);
an optional ``Freecells:`` (or ``FC:``) line of cards, ``-`` for an empty cell; then exactly 8
cascade lines, each optionally starting with ``:``. A free-cell line laid out in fc-solve's
4-character columns keeps each card's cell; otherwise cards fill the cells from ``a`` in order.
Cards are written as :func:`~exact.puzzles.freecell.cards.parse_card` reads them (``10`` for ``T``).
"""

from __future__ import annotations

import re

from exact.errors import StateError
from exact.puzzles.freecell.board import MAX_FREECELLS, NUM_CASCADES, Board
from exact.puzzles.freecell.cards import NAMES, RANKS, SUITS, parse_card, parse_rank, parse_suit

_FOUNDATION_ORDER = (2, 0, 1, 3)  # fc-solve prints H C D S
_FOUND_LABELS = ("foundations:", "founds:")
_CELL_LABELS = ("freecells:", "fc:")
_CELL = re.compile(r" (?: \S\S|\S\S\S|   )")  # one of fc-solve's 4-character cells: "  6C", " 10C", "    "


def format_board(board: Board) -> str:
    """The board as ``fc-solve -p -t`` prints it (foundations H C D S, then free cells, then cascades)."""
    tops = [RANKS[f - 1] if f else "0" for f in board.foundations]
    found = " ".join(f"{SUITS[s]}-{tops[s]}" for s in _FOUNDATION_ORDER)
    cells = "".join("    " if c is None else f"  {NAMES[c]}" for c in board.freecells)
    lines = [f"Foundations: {found} ", f"Freecells:{cells}"]
    lines += [": " + " ".join(NAMES[c] for c in col) for col in board.cascades]
    return "\n".join(lines) + "\n"


def parse_board(text: str, freecells: int = 4) -> Board:
    """Read a board in fc-solve's format (see the module docstring).

    Args:
        text: The board text.
        freecells: Number of free cells of the game (0..7); the free-cell line may name fewer.

    Returns:
        A checked :class:`Board`.

    Raises:
        StateError: naming the line and token at fault (a bad card, a bad foundation, too many
            free cells, a wrong number of cascades) or the cards missing or found twice.
    """
    if isinstance(freecells, bool) or not isinstance(freecells, int) or not 0 <= freecells <= MAX_FREECELLS:
        raise StateError(f"freecells must be 0..{MAX_FREECELLS}, got {freecells!r}")
    found: list[int] | None = None
    cells: list[int | None] | None = None
    cascades: list[tuple[int, ...]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if not line.strip():
            continue
        head, _, rest = line.partition(":")
        label = head.strip().lower() + ":"
        if _ and label in _FOUND_LABELS:
            if found is not None:
                raise StateError(f"line {number}: a second foundations line {raw!r}; give one")
            found = _parse_foundations(rest, number)
        elif _ and label in _CELL_LABELS:
            if cells is not None:
                raise StateError(f"line {number}: a second free-cell line {raw!r}; give one")
            cells = _parse_freecells(rest, number, freecells)
        else:
            if len(cascades) == NUM_CASCADES:
                raise StateError(
                    f"line {number}: {raw!r} would be cascade {NUM_CASCADES + 1}; a board has {NUM_CASCADES} cascades"
                )
            body = line.lstrip()
            body = body[1:] if body.startswith(":") else body
            cascades.append(tuple(_card(tok, number, k) for k, tok in enumerate(body.split(), start=1)))
    if len(cascades) != NUM_CASCADES:
        raise StateError(
            f"the board has {len(cascades)} cascade line(s), expected {NUM_CASCADES} (one line per cascade, "
            "bottom card first; an empty cascade is a line holding ':')"
        )
    board = Board(
        tuple(cascades),
        tuple(cells or []) + (None,) * (freecells - len(cells or [])),
        tuple(found or (0, 0, 0, 0)),  # type: ignore[arg-type]
    )
    return board.check()


def _card(token: str, line: int, k: int) -> int:
    try:
        return parse_card(token)
    except StateError as exc:
        raise StateError(f"line {line}, token {k}: {exc}") from None


def _parse_foundations(rest: str, line: int) -> list[int]:
    found = [0, 0, 0, 0]
    seen: set[int] = set()
    for k, tok in enumerate(rest.split(), start=1):
        suit_tok, dash, rank_tok = tok.partition("-")
        try:
            if not dash:
                raise StateError("it has no '-'")
            suit = parse_suit(suit_tok)
            rank = 0 if rank_tok == "0" else parse_rank(rank_tok)
        except StateError as exc:
            raise StateError(
                f"line {line}, token {k}: cannot read foundation {tok!r} ({exc}); write suit-rank, e.g. 'H-5', 'S-0'"
            ) from None
        if suit in seen:
            raise StateError(f"line {line}, token {k}: suit {SUITS[suit]} is on the foundations line twice")
        seen.add(suit)
        found[suit] = rank
    return found


def _parse_freecells(rest: str, line: int, freecells: int) -> list[int | None]:
    body = rest.rstrip()
    body += " " * (-len(body) % 4)
    chunks = [body[i : i + 4] for i in range(0, len(body), 4)]
    if chunks and all(_CELL.fullmatch(c) for c in chunks):
        # fc-solve's own layout: a blank column is an empty cell, so every card keeps its cell.
        tokens = [c.strip() or "-" for c in chunks]
    else:
        tokens = rest.split()
    while len(tokens) > freecells and tokens[-1] == "-":
        tokens.pop()
    if len(tokens) > freecells:
        raise StateError(
            f"line {line}: the free-cell line {rest.strip()!r} fills {len(tokens)} cell(s), but the game has "
            f"{freecells} free cell(s); pass more free cells (--freecells)"
        )
    return [None if tok == "-" else _card(tok, line, k) for k, tok in enumerate(tokens, start=1)]


def read_board_file(path: str, freecells: int = 4) -> Board:
    """The board in a file of fc-solve's format (``-``: standard input), for the command lines.

    Raises:
        StateError: the file cannot be read (naming it), or its board is malformed.
    """
    import sys
    from pathlib import Path

    from exact.errors import PuzzleoptError
    from exact.userfiles import read_text

    if path == "-":
        return parse_board(sys.stdin.read(), freecells)
    try:
        text = read_text(Path(path), "--board")
    except PuzzleoptError as exc:
        raise StateError(f"{exc}; give a board file in fc-solve's format") from None
    return parse_board(text, freecells)
