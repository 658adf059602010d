"""Sliding-tile puzzles (8-, 15-, 24-puzzle and any R x C board with R, C >= 2).

Conventions, used by every module of this package:

* A board of ``R`` rows and ``C`` columns has ``N = R * C`` cells, numbered row-major. A state is
  a uint8 vector of length ``N``: ``state[i]`` is the tile at cell ``i``; 0 is the blank.
* The default goal is *Korf's*: ``0 1 2 ... N-1`` (blank top-left, tile ``v`` at cell ``v``).
  The other common goal, *blank-last*, is ``1 2 ... N-1 0`` (``goal="blank-last"``).
* To convert a board between the two: rotate it 180 degrees and map tile ``v`` to ``N - v``
  (0 stays 0); :func:`korf_to_blank_last` and :func:`blank_last_to_korf` (the same involution).
  Optimal solution lengths are unchanged; a solution's moves map U <-> D and L <-> R.
* Moves are named by the direction the *blank* moves: ``U``, ``D``, ``L``, ``R``. In the move
  table (:func:`tile_moves`) each name has one guarded row per blank cell.
* A board is solvable iff the parity of its permutation relative to the goal equals the parity
  of the blank's taxicab distance from its goal cell (:func:`is_solvable`); exactly half of the
  ``N!`` boards are. Note that the Korf and blank-last goals of a 4x4 board are in *different*
  halves: a board solvable for one goal is unsolvable for the other unless converted.
"""

from exact.puzzles.tiles.board import (
    blank_last_to_korf,
    goal_state,
    is_solvable,
    korf_to_blank_last,
    random_state,
    require_solvable,
)
from exact.puzzles.tiles.moves import tile_moves
from exact.puzzles.tiles.puzzle import TilesPuzzle
from exact.puzzles.tiles.space import TilesSpace
from exact.puzzles.tiles.text import format_board, parse_board

__all__ = [
    "TilesPuzzle",
    "TilesSpace",
    "blank_last_to_korf",
    "format_board",
    "goal_state",
    "is_solvable",
    "korf_to_blank_last",
    "parse_board",
    "random_state",
    "require_solvable",
    "tile_moves",
]
