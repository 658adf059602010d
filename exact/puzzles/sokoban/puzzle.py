"""Sokoban in the batched :class:`~exact.puzzle.Puzzle` protocol (conventions in :mod:`exact.puzzles.sokoban`)."""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError, StateError
from exact.puzzle import Goal, Puzzle
from exact.puzzles.sokoban.generate import pulled_states
from exact.puzzles.sokoban.level import Level
from exact.puzzles.sokoban.moves import BOX, FLOOR, NUM_LABELS, PLAYER, WALL, check_grid, level_state, sokoban_moves
from exact.puzzles.sokoban.notation import format_lurd, parse_lurd
from exact.puzzles.sokoban.text import format_level, parse_level


class SokobanPuzzle(Puzzle):
    """Every Sokoban level on an ``height x width`` grid: one move table, levels as states.

    States are uint8 ``(2 * height * width,)``: contents (0 floor, 1 wall, 2 box, 3 player) then
    goal flags. A state is a goal when every box stands on a goal flag, so :meth:`is_goal` is
    overridden and there is no single goal state: :attr:`goal` is only a stand-in that the
    protocol needs (an empty walled room, player in the top-left corner, no boxes: trivially
    solved). :meth:`random_walk`, where learned solvers get their training states, therefore
    pulls boxes away from the goals of fresh random rooms instead of walking from :attr:`goal`.

    Args:
        height: Grid rows (>= 3; Boxoban: 10).
        width: Grid columns (>= 3; Boxoban: 10).
        boxes: Boxes in the states :meth:`random_walk` makes (Boxoban: 4).

    Attributes:
        height: Grid rows.
        width: Grid columns.
        boxes: Boxes per :meth:`random_walk` state.
    """

    own_method = "sokoban"
    capabilities = frozenset({"sokoban-level"})
    """Solved by the registered ``sokoban`` method (:class:`exact.solvers.OwnSolver`): its goal is
    every box on a flag, not one state, and its search needs the level's deadlock tables."""

    walk_description = "pulls (reversed pushes) from the goals of a fresh random room"

    def __init__(self, height: int = 10, width: int = 10, boxes: int = 4) -> None:
        height, width = check_grid(height, width)
        if height < 3 or width < 3:
            raise PuzzleoptError(f"sokoban grid {height}x{width}: a level needs at least 3 rows and 3 columns")
        if isinstance(boxes, bool) or not isinstance(boxes, (int, np.integer)) or boxes < 1:
            # Whether they fit a room is checked where rooms are made (random_walk).
            raise PuzzleoptError(f"sokoban boxes={boxes!r}: give a whole number >= 1 (Boxoban: 4)")
        self.height, self.width, self.boxes = height, width, int(boxes)
        n = height * width
        goal = np.full(2 * n, FLOOR, dtype=np.uint8)
        rc = np.arange(n)
        r, c = rc // width, rc % width
        goal[:n][(r == 0) | (c == 0) | (r == height - 1) | (c == width - 1)] = WALL
        goal[width + 1] = PLAYER
        super().__init__(f"sokoban{height}x{width}", sokoban_moves(height, width), goal, num_labels=NUM_LABELS)

    def __repr__(self) -> str:
        return f"SokobanPuzzle({self.height}, {self.width}, boxes={self.boxes})"

    @property
    def num_cells(self) -> int:
        """``N = height * width``."""
        return self.height * self.width

    def random_walk(self, n: int, depth: int | np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Solvable states ``depth`` *pulls* from a solved position, each in a fresh random room.

        Pushes cannot be undone, so walking forward from a goal would only reach states no box
        has left; instead :func:`exact.puzzles.sokoban.generate.pulled_states` places :attr:`boxes` boxes
        on the goals of a random room and pulls them (a pull is a push played backwards). Every
        state is therefore solvable, in at most as many pushes as pulls were made.

        Args:
            n: Number of states ``B``.
            depth: Pulls, one int for all or an int array of shape ``(n,)``.
            rng: The only source of randomness.

        Returns:
            uint8 ``(n, 2 * height * width)``.
        """
        depths = np.broadcast_to(np.asarray(depth, dtype=np.int64), (n,))
        if (depths < 0).any():
            raise StateError(f"{self.name}: random_walk depth must be >= 0, got {depths.min()}")
        return pulled_states(self.height, self.width, self.boxes, depths, rng)

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        """bool ``(B,)``: every box (content 2) stands on a goal flag."""
        s = self.states(states)
        n = self.num_cells
        return ~((s[:, :n] == BOX) & (s[:, n:] == 0)).any(axis=1)

    def goal_spec(self, start: np.ndarray | None = None) -> Goal:
        """The goal set of a level: no box on a square without a goal flag, the player anywhere.

        The flags never move, so the start (any state of the level) fixes them; the goal is
        stated as the labels each position may hold (:class:`~exact.puzzle.Goal` ``allowed``).

        Raises:
            PuzzleoptError: no start: which squares are goals depends on the level.
        """
        if start is None:
            raise PuzzleoptError(
                f"{self.name}: the goal is 'every box on a goal flag', and where the flags are depends on the level; "
                "give the start: goal_spec(start)"
            )
        s = self.states(np.asarray(start)[None])[0]
        n = self.num_cells
        allowed = np.ones((2 * n, self.num_labels), dtype=bool)
        allowed[np.flatnonzero(s[n:] == 0), BOX] = False
        allowed[n + np.arange(n)] = False
        allowed[n + np.arange(n), s[n:].astype(np.int64)] = True  # flags stay as they are
        return Goal(allowed=allowed)

    # ----------------------------------------------------------------- levels and states
    def state_of(self, level: Level) -> np.ndarray:
        """The state of a level: uint8 ``(2 * height * width,)``.

        Raises:
            StateError: the level's grid is not ``height x width``.
        """
        if (level.height, level.width) != (self.height, self.width):
            raise StateError(
                f"{level.where} is {level.height}x{level.width}; {self.name} takes {self.height}x{self.width} "
                f"levels (use SokobanPuzzle({level.height}, {level.width}))"
            )
        return level_state(level)

    def level_of(self, state: np.ndarray, name: str | None = None) -> Level:
        """The level of a state (inverse of :meth:`state_of`).

        Raises:
            StateError: wrong shape, a content label outside 0..3 or a goal flag outside 0/1
                (naming the position), or not exactly one player.
        """
        s = self.states(state)[0].astype(np.int64)
        n = self.num_cells
        content, flags = s[:n], s[n:]
        bad = np.flatnonzero(content > PLAYER)
        if bad.size:
            raise StateError(
                f"{self.name}: position {bad[0]} holds {content[bad[0]]}; contents are 0 floor, 1 wall, 2 box, 3 player"
            )
        bad = np.flatnonzero(flags > 1)
        if bad.size:
            raise StateError(f"{self.name}: goal flag {n + bad[0]} holds {flags[bad[0]]}; flags are 0 or 1")
        players = np.flatnonzero(content == PLAYER)
        if players.size != 1:
            raise StateError(f"{self.name}: a state holds exactly one player (label 3), this one {players.size}")
        flagged = flags == 1
        on_wall = np.flatnonzero(flagged & (content == WALL))
        if on_wall.size:
            raise StateError(f"{self.name}: goal flag {n + on_wall[0]} is set on a wall")
        return Level(
            self.height,
            self.width,
            frozenset(np.flatnonzero(content == WALL).tolist()),
            frozenset(np.flatnonzero(flagged).tolist()),
            frozenset(np.flatnonzero(content == BOX).tolist()),
            int(players[0]),
            name,
        )

    def check_state(self, state: object) -> np.ndarray:
        """A level's state checked (:meth:`level_of`'s rules: contents, flags, one player). Its
        labels are not the stand-in goal's, so the protocol's label count does not apply."""
        s = self.label_vector(state)
        if not np.array_equal(self.state_of(self.level_of(s)), s):
            raise StateError(f"{self.name}: not a state of the puzzle (its labels do not read back as a level)")
        return s

    def unsolvable(self, state: np.ndarray) -> str | None:
        """More boxes than goal squares: never every box on a goal."""
        n = self.num_cells
        boxes, goals = int((state[:n] == BOX).sum()), int((state[n:] == 1).sum())
        return f"{boxes} boxes but {goals} goal squares" if boxes > goals else None

    def svg(self, state: np.ndarray) -> str:
        """The level as a picture (:func:`exact.puzzles.sokoban.svg.level_svg`)."""
        from exact.puzzles.sokoban.svg import level_svg

        return level_svg(self.level_of(state))

    def format_state(self, state: np.ndarray) -> str:
        """The XSB rows of a state (see :func:`~exact.puzzles.sokoban.text.format_level`)."""
        return format_level(self.level_of(state))

    def parse_state(self, text: str) -> np.ndarray:
        """The state of XSB text (inverse of :meth:`format_state`)."""
        return self.state_of(parse_level(text))

    # ----------------------------------------------------------------- notation
    def parse_lurd(self, lurd: str, state: np.ndarray) -> list[int]:
        """Table rows of a LURD string played from ``state`` (see :func:`~exact.puzzles.sokoban.parse_lurd`)."""
        return parse_lurd(lurd, self.level_of(state))

    def format_lurd(self, moves: list[int]) -> str:
        """The LURD string of table rows."""
        return format_lurd(moves, self.height, self.width)
