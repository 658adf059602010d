"""Lights Out in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

import numpy as np

from exact.errors import StateError
from exact.puzzle import Puzzle
from exact.puzzles.lightsout.board import check_shape
from exact.puzzles.lightsout.moves import lightsout_moves
from exact.puzzles.lightsout.presses import press_system
from exact.puzzles.lightsout.text import format_lights, lights_to_state, parse_lights, state_to_lights


class LightsOutPuzzle(Puzzle):
    """An ``rows x cols`` Lights Out board (conventions in :mod:`exact.puzzles.lightsout`).

    States are uint8 ``(2 * rows * cols,)`` in the two-slot encoding; the goal is all lights off
    (``0 1 0 1 ...``); ``K = 2`` labels. Text is the row-major lights string (``"0101..."``).

    Args:
        rows: Board rows (>= 1, default 7: DeepCubeA's board).
        cols: Board columns (>= 1); default ``rows``.

    Attributes:
        rows: Board rows.
        cols: Board columns.
    """

    def __init__(self, rows: int = 7, cols: int | None = None) -> None:
        rows, cols = check_shape(rows, cols)
        self.rows, self.cols = rows, cols
        goal = lights_to_state(np.zeros(rows * cols, dtype=bool))
        super().__init__(f"lightsout{rows}x{cols}", lightsout_moves(rows, cols), goal, num_labels=2)

    capabilities = frozenset({"lights"})
    """Its states read as lights (:meth:`lights`): the press system's solvers (:mod:`exact.lightsout`)."""

    @property
    def diameter(self) -> int:
        """A bound: a solvable board needs each button pressed at most once (presses commute and
        two cancel), so at most rows x cols presses."""
        return self.rows * self.cols

    def __repr__(self) -> str:
        return f"LightsOutPuzzle({self.rows}, {self.cols})"

    @property
    def num_cells(self) -> int:
        """``N = rows * cols``."""
        return self.rows * self.cols

    def svg(self, state: np.ndarray) -> str:
        """The board, lit cells yellow (:func:`exact.puzzles.lightsout.svg.board_svg`)."""
        from exact.puzzles.lightsout.svg import board_svg

        return board_svg(state_to_lights(state, self.rows, self.cols))

    def drawing(self, state: np.ndarray) -> str:
        """The board in rows, ``#`` lit and ``.`` off."""
        text = self.format_state(state).replace("1", "#").replace("0", ".")
        return "\n".join(text[r * self.cols : (r + 1) * self.cols] for r in range(self.rows))

    def format_state(self, state: np.ndarray) -> str:
        """The lights string of a state, e.g. ``"0100..."`` (row-major, ``1`` lit)."""
        return format_lights(state_to_lights(state, self.rows, self.cols))

    def parse_state(self, text: str) -> np.ndarray:
        """The state (uint8 ``(P,)``) of a lights string; inverse of :meth:`format_state`."""
        return lights_to_state(parse_lights(text, self.rows, self.cols))

    def check_state(self, state: object) -> np.ndarray:
        """A board in any of the forms :meth:`lights` reads, checked, as a state ``(2 * rows * cols,)``."""
        a = np.asarray(state)
        if a.shape != (self.num_positions,) and a.dtype.kind in "biu":
            state = lights_to_state(self.lights(a).ravel())
        return super().check_state(state)

    def unsolvable(self, state: np.ndarray) -> str | None:
        """Where the press matrix over GF(2) is singular (5 x 5, say), the boards outside its
        column space: no set of presses turns their lights off."""
        system = press_system(self.rows, self.cols)
        if system.nullity == 0 or system.solvable(state_to_lights(state, self.rows, self.cols).reshape(1, -1))[0]:
            return None
        return (
            f"no set of presses turns these lights off: the {self.rows} x {self.cols} press matrix over GF(2) has "
            f"rank {system.rank} of {self.num_cells}, and this board is outside its column space"
        )

    def lights(self, board: str | np.ndarray) -> np.ndarray:
        """The lights (bool ``(rows, cols)``) of a board given in any of its forms.

        Args:
            board: A lights string; lights (0/1 or bool) of shape ``(rows, cols)`` or
                ``(rows * cols,)``; or a state of shape ``(2 * rows * cols,)``.

        Raises:
            StateError: text or an array that is none of these for this board size.
        """
        if isinstance(board, str):
            return parse_lights(board, self.rows, self.cols)
        a = np.asarray(board)
        n = self.num_cells
        if a.shape == (2 * n,):
            return state_to_lights(a, self.rows, self.cols)
        if a.shape in ((self.rows, self.cols), (n,)) and a.dtype.kind in "biu" and np.isin(a, (0, 1)).all():
            return a.astype(bool).reshape(self.rows, self.cols)
        raise StateError(
            f"{self.name}: a board is a lights string of {n} characters 0/1, 0/1 lights of shape "
            f"({self.rows}, {self.cols}) or ({n},), or a state of shape ({2 * n},); got {a.dtype} {a.shape}"
        )
