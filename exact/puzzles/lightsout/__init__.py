"""Lights Out on an ``R x C`` board (DeepCubeA's 7x7 puzzle and any board with R, C >= 1).

Conventions, used by every module of this package and by :mod:`exact.lightsout`:

* Cells are numbered row-major: cell ``i = r * C + c`` is row ``r`` (0 = top), column ``c``
  (0 = left). A board's *lights* are a bool array ``(R, C)``; its text is the lights string, one
  character per cell row-major, ``1`` lit and ``0`` off (``"0101..."``, DeepCubeA's format).
* Pressing a cell toggles it and its orthogonal neighbours on the board. Presses commute and are
  self-inverse, so a solution is a *set* of cells (a vector over GF(2)); its length is its size.
* Presses are named like chess squares: the column letter (``a`` = leftmost column, ``b``, ...;
  after ``z`` come ``aa``, ``ab``, ...) then the row number counted from 1 at the top. ``a1`` is
  the top-left cell and ``g7`` the bottom-right cell of the 7x7 board.
* The move table (:func:`lightsout_moves`) expresses presses as permutations, as every table in
  puzzleopt does: a state has ``P = 2 * R * C`` positions, two *slots* per cell. Slot ``2i``
  holds label 1 when cell ``i`` is lit, else 0; slot ``2i + 1`` holds the complement. A press is
  the permutation swapping the two slots of every cell it toggles, so presses are commuting,
  self-inverse permutations. Labels ``K = 2``; table row ``m`` presses cell ``m``.
* The goal (all lights off) is label 0 at every even slot and 1 at every odd slot:
  ``0 1 0 1 ...``.
"""

from exact.puzzles.lightsout.board import MAX_CELLS, check_shape, column_letters, press_matrix, press_name
from exact.puzzles.lightsout.moves import lightsout_moves
from exact.puzzles.lightsout.puzzle import LightsOutPuzzle
from exact.puzzles.lightsout.text import (
    draw_lights,
    format_lights,
    lights_to_state,
    parse_lights,
    state_to_lights,
)

__all__ = [
    "MAX_CELLS",
    "LightsOutPuzzle",
    "check_shape",
    "column_letters",
    "draw_lights",
    "format_lights",
    "lights_to_state",
    "lightsout_moves",
    "parse_lights",
    "press_matrix",
    "press_name",
    "state_to_lights",
]
