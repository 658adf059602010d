"""LURD, the Sokoban community's solution notation, as table rows (conventions in
:mod:`exact.puzzles.sokoban`).

``u d l r`` walk, ``U D L R`` push; whitespace between letters is ignored (solution files wrap
long lines). :func:`parse_lurd` replays the letters on a level, so every error says which letter
fails, why, and in which position.
"""

from __future__ import annotations

from collections.abc import Iterable

from exact.errors import NotationError
from exact.puzzles.sokoban.level import DIRECTIONS, Level
from exact.puzzles.sokoban.moves import move_rows, sokoban_moves
from exact.puzzles.sokoban.text import format_level


def parse_lurd(lurd: str, level: Level) -> list[int]:
    """Read a LURD string into rows of ``sokoban_moves(level.height, level.width)``.

    Args:
        lurd: e.g. ``"rrUUlD"``.
        level: The start position the letters are played from.

    Returns:
        Row indices, one per letter.

    Raises:
        NotationError: quoting the bad letter, its number and character position, what is wrong
            (unknown letter, walk into a wall or box, push with no box or into a wall or box) and
            the position it was played in (XSB rows joined by ``|``).
    """
    return _replay(lurd, level)[0]


def replay_lurd(lurd: str, level: Level) -> Level:
    """The level after playing ``lurd`` (raises :class:`NotationError` as :func:`parse_lurd`)."""
    return _replay(lurd, level)[1]


def format_lurd(moves: Iterable[int], height: int, width: int) -> str:
    """Write table rows of an ``height x width`` grid as a LURD string (inverse of :func:`parse_lurd`)."""
    return sokoban_moves(height, width).format(moves).replace(" ", "")  # LURD letters take no spaces


def count_pushes(lurd: str) -> int:
    """The pushes of a LURD string: its upper-case letters."""
    return sum(ch.isupper() for ch in lurd)


def _replay(lurd: str, level: Level) -> tuple[list[int], Level]:
    if not isinstance(lurd, str):
        raise NotationError(f"a LURD solution is a string of the letters udlrUDLR, got {type(lurd).__name__}")
    rows = move_rows(level.height, level.width)
    walls, boxes, player = level.walls, set(level.boxes), level.player
    out: list[int] = []
    for offset, ch in enumerate(lurd):
        if ch.isspace():
            continue
        why = _illegal(ch, level, walls, boxes, player)
        if why:
            here = level.with_boxes(boxes, player)
            raise NotationError(
                f"LURD {_shorten(lurd)}: move {len(out) + 1} {ch!r} (character {offset + 1}) {why}; "
                f"{here.where} at that point: {format_level(here).replace(chr(10), '|')!r}"
            )
        d = DIRECTIONS.index(ch.lower())
        q = level.step(player, d)
        if ch.islower():
            out.append(int(rows[0, d, player]))
            player = q
            continue
        out.append(int(rows[1, d, player]))
        boxes.discard(q)
        boxes.add(level.step(q, d))
        player = q
    return out, level.with_boxes(boxes, player)


def _illegal(ch: str, level: Level, walls: frozenset[int], boxes: set[int], player: int) -> str:
    """Why letter ``ch`` cannot be played with these boxes and player ("" if it can)."""
    if ch.lower() not in DIRECTIONS:
        return "is not a LURD letter; use u d l r to walk and U D L R to push"
    d = DIRECTIONS.index(ch.lower())
    q = level.step(player, d)
    if q < 0 or q in walls:
        return "walks into a wall"
    if ch.islower():
        return f"walks into a box; write {ch.upper()!r} to push it" if q in boxes else ""
    if q not in boxes:
        return f"pushes no box (there is none next to the player that way); write {ch.lower()!r} to walk"
    r = level.step(q, d)
    if r < 0 or r in walls or r in boxes:
        return "pushes a box into " + ("another box" if r in boxes else "a wall")
    return ""


def _shorten(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
