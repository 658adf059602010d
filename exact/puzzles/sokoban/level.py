"""A Sokoban level as cell sets, and the grid walk every module shares.

Conventions are in :mod:`exact.puzzles.sokoban`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from exact.errors import StateError

DIRECTIONS = ("u", "d", "l", "r")
"""Direction letters in the order used everywhere (index 0..3): up, down, left, right."""

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""``(row, column)`` step of each direction in :data:`DIRECTIONS`."""


@dataclass(frozen=True)
class Level:
    """One Sokoban level on an ``height x width`` grid (cells row-major).

    Attributes:
        height: Rows ``H`` (>= 1).
        width: Columns ``W`` (>= 1).
        walls: Cells holding a wall.
        goals: Cells holding a goal.
        boxes: Cells holding a box.
        player: The player's cell.
        name: The level's name or number in its file (``"17"`` for ``; 17`` in Boxoban), or
            ``None``; not part of equality.
    """

    height: int
    width: int
    walls: frozenset[int]
    goals: frozenset[int]
    boxes: frozenset[int]
    player: int
    name: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Only type normalisation and the cheap facts that make a Level a layout at all; the
        # rules of a playable level (one box per goal, an enclosed player) are in check().
        for what in ("walls", "goals", "boxes"):
            object.__setattr__(self, what, frozenset(int(c) for c in getattr(self, what)))
        object.__setattr__(self, "height", int(self.height))
        object.__setattr__(self, "width", int(self.width))
        object.__setattr__(self, "player", int(self.player))
        where = self.where
        if self.height < 1 or self.width < 1:
            raise StateError(f"{where}: a grid needs at least 1 row and 1 column, got {self.height}x{self.width}")
        n = self.height * self.width
        for what in ("walls", "goals", "boxes"):
            bad = [c for c in getattr(self, what) if not 0 <= c < n]
            if bad:
                raise StateError(
                    f"{where}: {what} cell {bad[0]} is off the {self.height}x{self.width} grid (0..{n - 1})"
                )
        if not 0 <= self.player < n:
            raise StateError(f"{where}: player cell {self.player} is off the {self.height}x{self.width} grid")
        for what, cells in (("goal", self.goals), ("box", self.boxes), ("player", {self.player})):
            on_wall = sorted(cells & self.walls)
            if on_wall:
                raise StateError(
                    f"{where}: a {what} stands on the wall at cell {on_wall[0]} ({self.describe(on_wall[0])})"
                )
        if self.player in self.boxes:
            raise StateError(f"{where}: the player and a box share cell {self.player} ({self.describe(self.player)})")

    # ------------------------------------------------------------------ geometry
    @property
    def where(self) -> str:
        """``"level NAME"`` (or ``"level"``) for messages."""
        return "level" if self.name is None else f"level {self.name}"

    @property
    def num_cells(self) -> int:
        """``H * W``."""
        return self.height * self.width

    def describe(self, cell: int, first_line: int = 1) -> str:
        """``"line 3, column 4"``: where a person finds ``cell`` in the level's text.

        Args:
            cell: Row-major cell index.
            first_line: Line number of the level's first row (in its file).
        """
        r, c = divmod(int(cell), self.width)
        return f"line {first_line + r}, column {c + 1}"

    def step(self, cell: int, direction: int) -> int:
        """The neighbour of ``cell`` in ``direction`` (index into :data:`DIRECTIONS`), ``-1`` off the grid."""
        return grid_step(cell, direction, self.height, self.width)

    # ------------------------------------------------------------------ rules
    @property
    def is_solved(self) -> bool:
        """Every box stands on a goal."""
        return self.boxes <= self.goals

    def region(self) -> frozenset[int]:
        """The cells the player can reach with the boxes where they are."""
        return player_region(self.height, self.width, self.walls | self.boxes, self.player)[0]

    def check(self, first_line: int = 1, where: str | None = None) -> Level:
        """Raise unless this is a playable level; return it.

        Args:
            first_line: Line number of the first row, for messages about a level read from a file.
            where: How messages name the level (default :attr:`where`).

        Raises:
            StateError: no boxes; the number of boxes differs from the number of goals; or the
                player can walk off the grid (the level is not enclosed by walls). Messages name
                the level and the cells by line and column.
        """
        where = where or self.where
        lines = f"lines {first_line}-{first_line + self.height - 1}"
        if not self.boxes:
            raise StateError(
                f"{where} ({lines}): there are no boxes; a level needs at least one box ($ or *) and as many goals"
            )
        if len(self.boxes) != len(self.goals):
            raise StateError(
                f"{where} ({lines}): {len(self.boxes)} boxes but {len(self.goals)} goals; "
                "a level needs exactly one goal (. + *) per box ($ *)"
            )
        _, leak = player_region(self.height, self.width, self.walls, self.player)
        if leak is not None:
            raise StateError(
                f"{where}: the player at {self.describe(self.player, first_line)} can walk off the grid at "
                f"{self.describe(leak, first_line)}; enclose the level with walls (#)"
            )
        return self

    def with_boxes(self, boxes: Iterable[int], player: int) -> Level:
        """The same walls and goals with other boxes and player."""
        return replace(self, boxes=frozenset(boxes), player=player)


def grid_step(cell: int, direction: int, height: int, width: int) -> int:
    """The neighbour of ``cell`` one step in ``direction`` on a ``height x width`` grid, ``-1`` off it."""
    r, c = divmod(int(cell), width)
    dr, dc = STEPS[direction]
    r, c = r + dr, c + dc
    return r * width + c if 0 <= r < height and 0 <= c < width else -1


def player_region(height: int, width: int, blocked: Iterable[int], start: int) -> tuple[frozenset[int], int | None]:
    """The cells reachable from ``start`` through unblocked cells, by breadth-first search.

    Args:
        height: Grid rows.
        width: Grid columns.
        blocked: Cells that cannot be entered (walls, and boxes if they count).
        start: The first cell (reached even if blocked).

    Returns:
        ``(region, leak)``: the reached cells, and a reached cell on the grid's edge from which
        the player could step off the grid (``None`` when the region is enclosed).
    """
    blocked = frozenset(blocked)
    seen = {start}
    leak = None
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for d in range(4):
            nxt = grid_step(cell, d, height, width)
            if nxt < 0:
                if leak is None:
                    leak = cell
            elif nxt not in blocked and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return frozenset(seen), leak
