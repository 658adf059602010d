"""A Sokoban level as an SVG picture: walls brown, floor pale, goals as rings, boxes as squares
(green on a goal), the player as a blue disc. Each cell's ``<rect>`` has ``data-cell`` (row-major
index) and ``data-content`` (its XSB character, :mod:`exact.puzzles.sokoban`)."""

from __future__ import annotations

from exact import svg
from exact.puzzles.sokoban.level import Level

WALL, FLOOR, GOAL, BOX, BOX_HOME, PLAYER = "#7a4b2a", "#f4efe6", "#d1495b", "#d9a05b", "#5aa55a", "#2e6fdb"


def level_svg(level: Level, cell: float = 32.0) -> str:
    """The level as SVG."""
    pad = cell / 8
    root = svg.document(level.width * cell + 2 * pad, level.height * cell + 2 * pad)
    g = svg.group(root, {"data-board": f"{level.height}x{level.width}"})
    for i in range(level.height * level.width):
        r, c = divmod(i, level.width)
        x, y = pad + c * cell, pad + r * cell
        wall, goal, box, player = i in level.walls, i in level.goals, i in level.boxes, i == level.player
        char = (
            "#"
            if wall
            else (
                "*"
                if box and goal
                else "$"
                if box
                else "+"
                if player and goal
                else "@"
                if player
                else "."
                if goal
                else " "
            )
        )
        svg.rect(g, x, y, cell, cell, WALL if wall else FLOOR, stroke="#c9c2b6", data_cell=i, data_content=char)
        cx, cy = x + cell / 2, y + cell / 2
        if goal:
            svg.circle(g, cx, cy, cell * 0.32, "none", stroke=GOAL, stroke_width=cell / 12)
        if box:
            m = cell * 0.14
            svg.rect(g, x + m, y + m, cell - 2 * m, cell - 2 * m, BOX_HOME if goal else BOX, rx=cell / 10)
        if player:
            svg.circle(g, cx, cy, cell * 0.28, PLAYER)
    return svg.to_string(root)
