"""The sliding-tile puzzle in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

import numpy as np

from exact.puzzle import Puzzle
from exact.puzzles.tiles.board import check_goal, check_shape, goal_state, is_solvable, random_state
from exact.puzzles.tiles.moves import tile_moves
from exact.puzzles.tiles.space import MAX_CELLS, TilesSpace
from exact.puzzles.tiles.text import format_board, parse_board

DIAMETERS = {(2, 2): 6, (2, 3): 21, (3, 2): 21, (3, 3): 31, (4, 4): 80}
"""God's number by board shape (rows, cols); the tiles' goals are symmetric images of each
other under which these hold."""


class TilesPuzzle(Puzzle):
    """An ``rows x cols`` sliding-tile puzzle (conventions in :mod:`exact.puzzles.tiles`).

    Args:
        rows: Board rows (>= 2).
        cols: Board columns (>= 2).
        goal: ``"korf"`` (``0 1 ... N-1``, the default) or ``"blank-last"`` (``1 2 ... N-1 0``).

    Attributes:
        rows: Board rows.
        cols: Board columns.
        goal_kind: The goal convention.
    """

    def __init__(self, rows: int, cols: int, goal: str = "korf") -> None:
        rows, cols = check_shape(rows, cols)
        self.rows, self.cols, self.goal_kind = rows, cols, check_goal(goal)
        n = rows * cols
        name = f"tiles{n - 1}" if rows == cols else f"tiles{rows}x{cols}"
        super().__init__(name, tile_moves(rows, cols), goal_state(rows, cols, goal), num_labels=n)

    @property
    def capabilities(self) -> frozenset[str]:
        """``korf-tiles`` on boards with Korf's goal (blank first): the tiles' own IDA* kernel and
        additive tables (:mod:`exact.tiles`) solve them."""
        return frozenset({"korf-tiles"}) if self.goal_kind == "korf" else frozenset()

    @property
    def diameter(self) -> int | None:
        """God's number of the boards solved exhaustively (the 8-puzzle 31, Reinefeld 1993; the
        15-puzzle 80, Brüngger et al. 1999 and Korf 2008, for the blank-first goal of
        :data:`DIAMETERS`); ``None`` for other boards."""
        return DIAMETERS.get((self.rows, self.cols))

    def __repr__(self) -> str:
        return f"TilesPuzzle({self.rows}, {self.cols}, goal={self.goal_kind!r})"

    def svg(self, state: np.ndarray) -> str:
        """The board, tiles on their goal cell shaded (:func:`exact.puzzles.tiles.svg.board_svg`)."""
        from exact.puzzles.tiles.svg import board_svg

        return board_svg(state, self.rows, self.cols, self.goal)

    def drawing(self, state: np.ndarray) -> str:
        """The board in rows, the blank as ``.``."""
        s = np.asarray(state)
        width = len(str(self.rows * self.cols - 1))
        cells = [("." if v == 0 else str(int(v))).rjust(width) for v in s]
        return "\n".join(" ".join(cells[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows))

    def format_state(self, state: np.ndarray) -> str:
        """One line, ``"0 1 2 ..."`` (Korf-convention text; blank 0)."""
        return format_board(np.asarray(state), self.rows, self.cols)

    def parse_state(self, text: str) -> np.ndarray:
        """Read a board written by :meth:`format_state` (or any whitespace/comma separated text).

        Returns:
            uint8 ``(P,)``; solvability is not checked (see :meth:`is_solvable`).
        """
        return parse_board(text, self.rows, self.cols)

    def is_solvable(self, states: np.ndarray) -> bool | np.ndarray:
        """Whether boards ``(P,)`` or ``(B, P)`` can reach this puzzle's goal."""
        return is_solvable(states, self.rows, self.cols, self.goal_kind)

    def unsolvable(self, state: np.ndarray) -> str | None:
        """The parity rule (:func:`~exact.puzzles.tiles.board.is_solvable`): half of all boards
        cannot reach the goal."""
        if self.is_solvable(state):
            return None
        return (
            "the board's permutation parity differs from the parity of the blank's distance to its goal cell, "
            "and every move changes both (half of all boards cannot reach the goal)"
        )

    def ranked_space(self):
        """The solvable boards, ranked (:class:`~exact.puzzles.tiles.space.TilesSpace`), or
        ``None`` for boards too large to rank in int64 (more than 20 cells: the 24-puzzle up)."""
        if self.rows * self.cols > MAX_CELLS:
            return None
        return TilesSpace(self.rows, self.cols, self.goal_kind)

    def random_states(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """uint8 ``(n, P)``: boards uniform over the solvable ones."""
        return random_state(self.rows, self.cols, rng, self.goal_kind, n=n)
