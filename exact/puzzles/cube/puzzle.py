"""The cube as a batched :class:`~exact.puzzle.Puzzle` (for search and learning)."""

from __future__ import annotations

import numpy as np

from exact.errors import FaceletError, PuzzleoptError
from exact.puzzle import Conjugation, Goal, Puzzle
from exact.puzzles.cube.cubies import CORNER_NAMES, centre_facelets, corner_slots, edge_slots, home_facelets
from exact.puzzles.cube.facelets import from_facelets, to_facelets
from exact.puzzles.cube.geometry import SYMMETRY_MATRICES, symmetry_action
from exact.puzzles.cube.moves import check_size, cube_moves
from exact.puzzles.cube.state import is_solved, rotations, solved_state

GODS_NUMBERS = {(2, "faces", "qtm"): 14, (2, "faces", "htm"): 11, (3, "faces", "qtm"): 26, (3, "faces", "htm"): 20}


class CubePuzzle(Puzzle):
    """The ``n x n x n`` cube over a chosen move set and metric.

    Any state with one colour per face is a goal, so for even ``n`` (and for odd ``n`` with slice
    or rotation moves) all 24 whole-cube orientations of the solved cube count as solved.

    Args:
        n: Cube size.
        moves: ``"faces"`` (default), ``"layers"`` or ``"wide"``.
        metric: ``"qtm"`` (default, as DeepCubeA) or ``"htm"``.
    """

    def __init__(self, n: int, moves: str = "faces", metric: str = "qtm") -> None:
        self.n = check_size(n)
        self.moves = moves
        self.metric = metric
        self._symmetries: tuple[Conjugation, ...] | None = None
        super().__init__(f"cube{self.n}", cube_moves(self.n, moves, metric), solved_state(self.n), 6)

    @property
    def capabilities(self) -> frozenset[str]:
        """``cube3-coordinates`` on the 3x3x3 with face turns: the coordinates the optimal solver
        and Korf's tables read (:mod:`exact.cube`)."""
        return frozenset({"cube3-coordinates"}) if self.n == 3 and self.moves == "faces" else frozenset()

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        return np.asarray(is_solved(self.states(states), self.n))

    def goal_spec(self, start: np.ndarray | None = None) -> Goal:
        """One state when no move shifts the centres (odd n, outer or wide turns without
        rotations); otherwise "every face one colour", any orientation."""
        if self.n % 2 == 1:
            centres = centre_facelets(self.n)
            if (self.table.perms[:, centres] == centres).all():
                return Goal(state=self.goal)
        return Goal(groups=np.repeat(np.arange(6), self.n * self.n))

    def parse_goal(self, text: str) -> Goal:
        """A partial goal: ``cross``, ``f2l``, ``pair-FR``, ... or a facelet mask
        (:mod:`exact.puzzles.cube.goals`)."""
        from exact.puzzles.cube.goals import parse_goal

        return parse_goal(text, self.n)

    @property
    def diameter(self) -> int | None:
        """God's number of the 2x2x2 (QTM 14, HTM 11) and 3x3x3 (QTM 26, Rokicki et al. 2014; HTM
        20, 2010) over face turns; ``None`` otherwise."""
        return GODS_NUMBERS.get((self.n, self.moves, self.metric))

    def ranked_space(self):
        """The 2x2x2's positions with the DBL corner home (``7! * 3^6 = 3,674,160``,
        :class:`~exact.puzzles.cube.space.CornerSpace`), in the frame of :meth:`frame`: a complete
        distance table solves any 2x2x2. ``None`` for larger cubes."""
        if self.n != 2:
            return None
        from exact.puzzles.cube.space import CornerSpace

        return CornerSpace(2, fixed_corner=True)

    def frame(self) -> tuple[np.ndarray, np.ndarray]:
        """The 24 rotations, and the centres (odd n) or the DBL corner (even n) as reference."""
        ref = centre_facelets(self.n) if self.n % 2 else corner_slots(self.n)[CORNER_NAMES.index("DBL")]
        return rotations(self.n), np.asarray(ref)

    def symmetries(self) -> tuple[Conjugation, ...]:
        """The rotations and reflections of space (:data:`~exact.puzzles.cube.geometry.SYMMETRY_MATRICES`,
        in that order) that map this move set onto itself: all 48 for face turns. A reflection
        turns each face's clockwise turns into counter-clockwise ones."""
        if self._symmetries is None:
            out = []
            for a in SYMMETRY_MATRICES:
                sigma, cmap = symmetry_action(self.n, a)
                try:
                    out.append(self.conjugation(sigma, cmap))
                except PuzzleoptError:  # this move set is not closed under that symmetry
                    continue
            self._symmetries = tuple(out)
        return self._symmetries

    def distinct_labels(self, state: np.ndarray) -> np.ndarray | None:
        """Home facelet of each sticker for n = 2 and 3 (centres must be home); ``None`` otherwise."""
        if self.n % 2 == 1 and not np.array_equal(np.asarray(state)[centre_facelets(self.n)], np.arange(6)):
            return None
        return home_facelets(state, self.n)

    def pieces(self) -> list[np.ndarray]:
        """Corner facelets (clockwise) and, for odd n, middle-edge facelets."""
        out = list(corner_slots(self.n))
        if self.n % 2 == 1:
            out += list(edge_slots(self.n))
        return out

    def drawing(self, state: np.ndarray) -> str:
        """The net as letters (:func:`exact.puzzles.cube.net.net`)."""
        from exact.puzzles.cube.net import net

        return net(np.asarray(state), self.n)

    def svg(self, state: np.ndarray) -> str:
        """The net in the standard colours (:func:`exact.puzzles.cube.svg.net_svg`)."""
        from exact.puzzles.cube.svg import net_svg

        return net_svg(state, self.n)

    def format_state(self, state: np.ndarray) -> str:
        return to_facelets(state)

    def parse_state(self, text: str) -> np.ndarray:
        state = from_facelets(text)
        if state.size != self.num_positions:
            raise FaceletError(f"{self.name} needs {self.num_positions} facelets, the string has {state.size}")
        return state
