"""What the search needs to know about a level before it starts, computed once per level.

* the player's region (the cells reachable from the player when boxes are ignored); everything
  else is treated as wall, because neither the player nor a box can ever get there;
* ``nbr``: the neighbour of every cell in each direction inside that region (``-1`` = wall);
* ``dist[g, c]``: the fewest pushes that bring a box from cell ``c`` to goal ``g`` when it is the
  only box and the player may stand wherever the walls allow (a backwards breadth-first search of
  *pulls* from the goal). It never exceeds the true number of pushes, so the minimum-cost matching
  of boxes to goals on it is an admissible bound on the pushes still needed;
* ``dead[c]``: no goal can be reached from ``c`` (``dist[:, c]`` all infinite); a box pushed there
  can never be solved, whatever the other boxes do.

Boxes outside the player's region never move: on a goal they are set aside as walls (with their
goal); anywhere else they make the level unsolvable, which :func:`analyse` reports instead of
searching.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from exact.puzzles.sokoban.level import Level, grid_step, player_region

INF = 1 << 20
"""Distance of an unreachable cell (fits int32; sums of a few stay far below the matching's own infinity)."""


@dataclass(frozen=True, eq=False)
class Analysis:
    """The per-level tables of the search (all read-only arrays).

    Attributes:
        level: The level analysed.
        wall: uint8 ``(N,)``, 1 on walls and on cells outside the player's region.
        nbr: int32 ``(N, 4)``: neighbour in each direction (u, d, l, r), ``-1`` where it is a wall.
        goals: int64 ``(G,)``: the goal cells the search must fill, ascending.
        goal: uint8 ``(N,)``: 1 on those goals.
        boxes: int64 ``(G,)``: the boxes the search moves, ascending.
        dist: int32 ``(G, N)``: single-box push distance from each cell to each goal (:data:`INF`).
        dead: uint8 ``(N,)``: 1 on cells from which no goal can be reached by pushes.
        unsolvable: Why the level cannot be solved without searching ("" when it may be).
    """

    level: Level
    wall: np.ndarray
    nbr: np.ndarray
    goals: np.ndarray
    goal: np.ndarray
    boxes: np.ndarray
    dist: np.ndarray
    dead: np.ndarray
    unsolvable: str


def analyse(level: Level) -> Analysis:
    """The search tables of ``level`` (see the module docstring)."""
    h, w = level.height, level.width
    n = h * w
    region, _ = player_region(h, w, level.walls, level.player)
    fixed = level.boxes - region  # boxes the player can never touch
    goals = sorted((level.goals & region) - fixed)
    boxes = sorted(level.boxes & region)
    lonely = (level.goals - region) - fixed  # goals out of reach with no box on them
    why = ""
    if fixed - level.goals:
        why = f"the box at {level.describe(min(fixed - level.goals))} is off a goal where the player can never reach it"
    elif lonely:
        why = f"the goal at {level.describe(min(lonely))} is where no box can ever be pushed"
    wall = np.ones(n, dtype=np.uint8)
    wall[sorted(region)] = 0
    wall[sorted(fixed)] = 1
    nbr = np.full((n, 4), -1, dtype=np.int32)
    for c in np.flatnonzero(wall == 0):
        for d in range(4):
            q = grid_step(int(c), d, h, w)
            if q >= 0 and not wall[q]:
                nbr[c, d] = q
    dist = np.full((len(goals), n), INF, dtype=np.int32)
    for k, g in enumerate(goals):
        dist[k] = _pull_distances(nbr, g)
    dead = (dist.min(axis=0, initial=INF) >= INF).astype(np.uint8) if goals else np.ones(n, dtype=np.uint8)
    dead[wall == 1] = 1
    if not why:
        on_dead = [b for b in boxes if dead[b] and b not in level.goals]
        if on_dead:
            why = f"the box at {level.describe(on_dead[0])} can never be pushed onto any goal"
    goal = np.zeros(n, dtype=np.uint8)
    goal[goals] = 1
    arrays = [wall, nbr, np.array(goals, np.int64), goal, np.array(boxes, np.int64), dist, dead]
    for a in arrays:
        a.setflags(write=False)
    return Analysis(level, *arrays, unsolvable=why)


def _pull_distances(nbr: np.ndarray, goal: int) -> np.ndarray:
    """int32 ``(N,)``: pushes from each cell to ``goal`` for a lone box, by a BFS of pulls from the goal.

    A pull moves the box from ``y`` to ``y + d`` with the player stepping from ``y + d`` to
    ``y + 2d``, so both must be floor; reversed, that is a push from ``y + d`` to ``y``.
    """
    out = np.full(nbr.shape[0], INF, dtype=np.int32)
    out[goal] = 0
    queue = deque([goal])
    while queue:
        y = queue.popleft()
        for d in range(4):
            a = nbr[y, d]
            if a < 0 or nbr[a, d] < 0 or out[a] < INF:
                continue
            out[a] = out[y] + 1
            queue.append(a)
    return out
