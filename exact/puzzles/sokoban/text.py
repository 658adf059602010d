"""Reading and writing Sokoban levels in XSB, the format of Boxoban and of most collections.

Conventions are in :mod:`exact.puzzles.sokoban`. Pairs that round-trip:

* :func:`parse_level` / :func:`format_level`: one level and its rows;
* :func:`parse_levels`: a file or text of many levels (``; N`` headers as in Boxoban, or plain
  XSB levels separated by blank lines and comment lines); :func:`load_level` picks one by
  ``FILE:N``.

Every error names the source, the level and the line (and column) of the defect, and says what
would fix it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from exact.errors import PuzzleoptError, StateError
from exact.puzzles.sokoban.level import Level

# character -> (wall, goal, box, player)
_CHARS = {
    "#": (True, False, False, False),
    " ": (False, False, False, False),
    "-": (False, False, False, False),
    "_": (False, False, False, False),
    ".": (False, True, False, False),
    "$": (False, False, True, False),
    "*": (False, True, True, False),
    "@": (False, False, False, True),
    "+": (False, True, False, True),
}
_LEGEND = "# wall, $ box, . goal, * box on goal, @ player, + player on goal, space floor"
# "Title: ...", "Author: ..." lines of XSB collections: metadata, never board rows.
_META = re.compile(r"^\s*[A-Za-z][A-Za-z ]*:")


@dataclass(frozen=True)
class _Block:
    """The rows of one level in its source: ``rows[k]`` is line ``first_line + k``."""

    rows: tuple[str, ...]
    first_line: int
    name: str | None


def format_level(level: Level) -> str:
    """The XSB rows of a level, every row ``width`` characters long, joined by newlines.

    Floor is written as a space and rows keep their trailing spaces, so :func:`parse_level`
    reads the same level back (same height and width).
    """
    out = []
    for r in range(level.height):
        row = []
        for c in range(level.width):
            i = r * level.width + c
            if i in level.walls:
                row.append("#")
            elif i in level.boxes:
                row.append("*" if i in level.goals else "$")
            elif i == level.player:
                row.append("+" if i in level.goals else "@")
            else:
                row.append("." if i in level.goals else " ")
        out.append("".join(row))
    return "\n".join(out)


def parse_level(text: str, name: str | None = None) -> Level:
    """Read one level from XSB text.

    Blank lines around the rows and ``;`` comment lines are skipped; a ``; N`` comment before the
    rows names the level when ``name`` is not given. Rows may differ in length: the width is the
    longest row and shorter rows are padded with floor.

    Args:
        text: The rows of one level.
        name: The level's name for messages and :attr:`Level.name`.

    Returns:
        The level, checked with :meth:`Level.check`.

    Raises:
        StateError: an unknown character (quoted, with its line and column), no player or
            several, as many goals as boxes not given, no boxes, a player region that is not
            enclosed by walls, or text holding no level or several.
    """
    if not isinstance(text, str):
        raise PuzzleoptError(f"parse_level takes the level's text, got {type(text).__name__}")
    blocks = _blocks(text)
    where = "level text" if name is None else f"level {name}"
    if not blocks:
        raise StateError(f"{where}: no rows found; write the level in XSB ({_LEGEND})")
    if len(blocks) > 1:
        raise StateError(
            f"{where}: holds {len(blocks)} levels (separated by blank or comment lines, the second at line "
            f"{blocks[1].first_line}); read a collection with parse_levels"
        )
    block = blocks[0]
    return _level(block, name if name is not None else block.name, None)


def parse_levels(source: str | os.PathLike) -> list[Level]:
    """Read every level of a collection: a file path, or the text itself.

    A ``; N`` line (the last ``;`` comment before a level) names the level ``N``; a level without
    one is named by its position, counting from 0 (Boxoban's headers count the same way). Lines
    such as ``Title: ...`` are skipped.

    Args:
        source: A :class:`~pathlib.Path`, a path string (one line naming an existing file), or
            the text of the levels.

    Returns:
        The levels in file order, each checked.

    Raises:
        PuzzleoptError: The file cannot be read.
        StateError: A level is bad (the message names the file, the level and the line), or
            there is no level at all.
    """
    text, label = _read(source)
    blocks = _blocks(text)
    if not blocks:
        raise StateError(f"{label}: no level found; levels are XSB rows ({_LEGEND}) separated by blank lines")
    return [_level(b, name, label) for b, name in zip(blocks, _names(blocks))]


def load_level(spec: str | os.PathLike) -> Level:
    """The level named by ``"FILE:N"`` (or ``"FILE"`` holding a single level).

    ``FILE`` may be a shipped set's name (``"boxoban-test:0"``; :mod:`instances.sets`).
    ``N`` is the level's name as :func:`parse_levels` gives it: its ``; N`` header, or its position
    from 0 when it has none (for Boxoban files both are the same).

    Only the chosen level is checked, so a bad level elsewhere in the file does not block it.

    Raises:
        PuzzleoptError: the file cannot be read, holds no level named ``N`` or several of that
            name, or holds several levels and no ``N`` was given. StateError: the chosen level
            is bad (the message names the file, the level and the line).
    """
    spec = os.fspath(spec)
    path, sep, key = spec.rpartition(":")
    if not sep or not key or os.path.exists(spec):
        path, key = spec, None
    from instances.sets import resolve

    text, label = _read(resolve(path))
    blocks = _blocks(text)
    if not blocks:
        raise StateError(f"{label}: no level found; levels are XSB rows ({_LEGEND}) separated by blank lines")
    names = _names(blocks)
    if key is None:
        if len(blocks) != 1:
            raise PuzzleoptError(
                f"{path} holds {len(blocks)} levels; pick one with {path}:N (N from {names[0]} to {names[-1]})"
            )
        return _level(blocks[0], names[0], label)
    found = [k for k, name in enumerate(names) if name == key]
    if len(found) > 1:
        lines = ", ".join(str(blocks[k].first_line) for k in found)
        raise PuzzleoptError(
            f"{path} has {len(found)} levels named {key!r} (at lines {lines}); give each level its own '; N' header"
        )
    if found:
        return _level(blocks[found[0]], key, label)
    shown = ", ".join(str(n) for n in names[:5]) + (f", ... {names[-1]}" if len(names) > 5 else "")
    raise PuzzleoptError(f"{path} has no level named {key!r}; its {len(names)} levels are named {shown}")


# ---------------------------------------------------------------------- internals
def _names(blocks: list[_Block]) -> list[str]:
    """Each level's name: its ``; N`` header, else its position from 0."""
    return [b.name if b.name is not None else str(k) for k, b in enumerate(blocks)]


def _read(source: str | os.PathLike) -> tuple[str, str]:
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and os.path.isfile(source)):
        path = Path(source)
        try:
            return path.read_text(), str(path)
        except OSError as exc:
            raise PuzzleoptError(
                f"cannot read level file {path}: {exc.strerror or exc}; give an existing file"
            ) from exc
        except UnicodeDecodeError as exc:
            raise PuzzleoptError(f"level file {path} is not text ({exc}); give an XSB/Boxoban text file") from exc
    if not isinstance(source, str):
        raise PuzzleoptError(f"parse_levels takes a path or the levels' text, got {type(source).__name__}")
    if "\n" not in source and source.strip() and not any(ch in source for ch in "#$@"):
        raise PuzzleoptError(f"level file {source} does not exist; give an existing file or the levels' text")
    return source, "text"


def _blocks(text: str) -> list[_Block]:
    """Split text into levels: runs of board rows between blank, ``;`` and metadata lines."""
    blocks: list[_Block] = []
    rows: list[str] = []
    first = 0
    pending: str | None = None  # the last ';' comment, which names the next level
    name: str | None = None

    def close() -> None:
        nonlocal rows
        if rows:
            blocks.append(_Block(tuple(rows), first, name))
            rows = []

    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            close()
        elif stripped.startswith(";"):
            close()
            pending = stripped[1:].strip() or pending
        elif _META.match(line):
            close()
        else:
            if not rows:
                first, name, pending = number, pending, None
            rows.append(line)
    close()
    return blocks


def _level(block: _Block, name: str | None, source: str | None) -> Level:
    where = ("" if source is None else f"{source}, ") + ("level" if name is None else f"level {name}")
    width = max(len(r) for r in block.rows)
    walls, goals, boxes, players = set(), set(), set(), []
    for r, row in enumerate(block.rows):
        for c, ch in enumerate(row):
            kind = _CHARS.get(ch)
            if kind is None:
                raise StateError(
                    f"{where}, line {block.first_line + r}, column {c + 1}: unknown character {ch!r}; "
                    f"Sokoban levels use {_LEGEND}"
                )
            cell = r * width + c
            wall, goal, box, player = kind
            if wall:
                walls.add(cell)
            if goal:
                goals.add(cell)
            if box:
                boxes.add(cell)
            if player:
                players.append((cell, r, c))
    if len(players) != 1:
        if not players:
            raise StateError(
                f"{where} (lines {block.first_line}-{block.first_line + len(block.rows) - 1}): no player; "
                "put exactly one @ (or + on a goal)"
            )
        at = " and ".join(f"line {block.first_line + r}, column {c + 1}" for _, r, c in players[:3])
        raise StateError(f"{where}: {len(players)} players (at {at}); a level has exactly one @ or +")
    level = Level(len(block.rows), width, frozenset(walls), frozenset(goals), frozenset(boxes), players[0][0], name)
    return level.check(block.first_line, where)
