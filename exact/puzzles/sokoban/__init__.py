"""Sokoban on an ``H x W`` grid: levels, their text (XSB / Boxoban), the move table and LURD.

Conventions, used by every module of this package and by :mod:`exact.sokoban`:

* **Cells** are numbered row-major: cell ``i = r * W + c`` is row ``r`` (0 = top), column ``c``
  (0 = left). A :class:`Level` holds its walls, goals and boxes as frozensets of cells and the
  player as one cell.
* **Text** is XSB, the Sokoban community's format, which Boxoban uses too: ``#`` wall, ``$`` box,
  ``.`` goal, ``*`` box on a goal, ``@`` player, ``+`` player on a goal, space floor (``-`` and
  ``_`` are read as floor as well). A file of many levels separates them by blank lines; a line
  starting with ``;`` is a comment, and ``; N`` just before a level names it ``N`` (Boxoban).
  Lines and columns in error messages count from 1.
* **State** (the move table's vector, ``P = 2 * H * W`` positions, uint8): position ``i < H*W``
  holds the *content* of cell ``i``: ``0`` floor, ``1`` wall, ``2`` box, ``3`` player. Position
  ``H*W + i`` holds the *goal flag* of cell ``i`` (``1`` on a goal, else ``0``); no move permutes
  the flags. Labels ``K = 4``. A state is solved when every box stands on a goal flag.
* **Moves** are LURD letters, the community's solution notation: ``u d l r`` walk the player one
  cell up, down, left, right; ``U D L R`` push the box in front of the player one cell that way
  (the player follows it). In the move table, walk ``x`` from cell ``p`` to ``q`` is the
  transposition of ``p`` and ``q`` guarded by "player at ``p``, floor at ``q``"; push ``X`` from
  ``p`` over the box at ``q`` to ``r`` is a 3-cycle guarded by "player at ``p``, box at ``q``,
  floor at ``r``". Rows sharing a letter form one action (one row per cell). Walls are a label,
  so one table serves every level of a grid size. Pushes cannot be undone (``inverse`` is ``-1``).
* A solution is a LURD string such as ``"rrUUlD"``; its *moves* are its length, its *pushes* its
  upper-case letters.
"""

from exact.puzzles.sokoban.level import DIRECTIONS, Level, player_region
from exact.puzzles.sokoban.moves import sokoban_moves
from exact.puzzles.sokoban.notation import count_pushes, format_lurd, parse_lurd, replay_lurd
from exact.puzzles.sokoban.puzzle import SokobanPuzzle
from exact.puzzles.sokoban.text import format_level, load_level, parse_level, parse_levels

__all__ = [
    "DIRECTIONS",
    "Level",
    "SokobanPuzzle",
    "count_pushes",
    "format_level",
    "format_lurd",
    "load_level",
    "parse_level",
    "parse_levels",
    "parse_lurd",
    "player_region",
    "replay_lurd",
    "sokoban_moves",
]
