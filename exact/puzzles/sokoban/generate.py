"""Random Sokoban levels that are solvable by construction, and training states for learned solvers.

Both work backwards from a solved position: the boxes start on the goals and the player *pulls*
them (a pull is a push played backwards: the player steps away from a box and drags it along).
Reversing the pulls, with the walks between them, is a solution, so every level and state made
here is solvable. Between two pulls the player may walk anywhere it can reach, so a pull is drawn
uniformly from all pulls available from the player's region.

Randomness comes only from the ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.sokoban.level import STEPS, Level, grid_step, player_region
from exact.puzzles.sokoban.moves import BOX, FLOOR, PLAYER, WALL, level_state


def generate_level(
    height: int,
    width: int,
    boxes: int,
    rng: np.random.Generator,
    pulls: int | None = None,
    floor: int | None = None,
    name: str | None = None,
) -> Level:
    """A random enclosed room with ``boxes`` boxes, solvable by construction.

    The room is carved by a random walk over the interior (so its floor is connected); goals
    and the player are placed on random floor cells; then the boxes, starting on the goals, are
    pulled ``pulls`` times (fewer if the player runs out of pulls) and the player walks to a random
    cell of its region. A draw that ends with every box back on a goal is redrawn (up to 20 times;
    after that the solved level is returned).

    Args:
        height: Grid rows (>= 3), border included.
        width: Grid columns (>= 3), border included.
        boxes: Number of boxes (>= 1).
        rng: The only source of randomness.
        pulls: Pull moves (default ``4 * boxes``).
        floor: Floor cells to carve (default 60% of the interior, at least ``boxes + 2``).
        name: The level's name.

    Returns:
        A checked :class:`~exact.puzzles.sokoban.Level`.

    Raises:
        PuzzleoptError: sizes that leave no room for the boxes and the player.
    """
    interior = (height - 2) * (width - 2)
    if height < 3 or width < 3:
        raise PuzzleoptError(f"generate_level: a {height}x{width} grid has no interior; give height, width >= 3")
    if boxes < 1 or boxes + 2 > interior:
        raise PuzzleoptError(
            f"generate_level: {boxes} boxes do not fit a {height}x{width} grid ({interior} interior cells; "
            "boxes + 2 must fit)"
        )
    pulls = 4 * boxes if pulls is None else int(pulls)
    floor = max(boxes + 2, round(0.6 * interior)) if floor is None else int(floor)
    if not boxes + 2 <= floor <= interior:
        raise PuzzleoptError(f"generate_level: floor={floor} must be between boxes + 2 = {boxes + 2} and {interior}")
    level = None
    for _ in range(20):
        cells = _carve(height, width, floor, rng)
        walls = frozenset(range(height * width)) - cells
        picks = rng.choice(sorted(cells), size=boxes + 1, replace=False)
        goals = frozenset(int(c) for c in picks[:boxes])
        start = Level(height, width, walls, goals, goals, int(picks[boxes]), name)
        level = pull_boxes(start, pulls, rng)[0]
        if not level.is_solved:
            break
    assert level is not None
    return level.check()


def pull_boxes(level: Level, pulls: int, rng: np.random.Generator) -> tuple[Level, int]:
    """Pull boxes ``pulls`` times from ``level``'s position, then walk the player to a random cell.

    Each pull is drawn uniformly from those the player can make after walking anywhere it can
    reach. Playing the result's solution backwards gives ``level`` again (up to the player's cell),
    so a solvable ``level`` stays solvable.

    Returns:
        The new level and the number of pulls made (fewer than asked when none was left).
    """
    boxes = set(level.boxes)
    player = level.player
    h, w = level.height, level.width
    done = 0
    for _ in range(pulls):
        region, _ = player_region(h, w, level.walls | boxes, player)
        options = []
        for b in sorted(boxes):
            for d in range(4):
                p = grid_step(b, d, h, w)  # the player stands here, next to the box ...
                p2 = -1 if p < 0 else grid_step(p, d, h, w)  # ... and steps here, dragging it
                if p in region and p2 >= 0 and p2 not in level.walls and p2 not in boxes:
                    options.append((b, p, p2))
        if not options:
            break
        b, p, p2 = options[int(rng.integers(len(options)))]
        boxes.remove(b)
        boxes.add(p)
        player = p2
        done += 1
    region, _ = player_region(h, w, level.walls | boxes, player)
    player = sorted(region)[int(rng.integers(len(region)))]
    return level.with_boxes(boxes, player), done


def training_states(level: Level, n: int, max_pulls: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """States for a learned solver: ``level``'s goal layout with the boxes pulled ``k`` times.

    For each state ``k`` is drawn uniformly from ``0 .. max_pulls``; the boxes start on the
    goals, the player on a random free cell of the level's region, and :func:`pull_boxes` does
    the rest. Every state is solvable in at most ``k`` pushes.

    Args:
        level: Its walls and goals are used (its boxes and player are not).
        n: Number of states ``B``.
        max_pulls: Largest ``k``.
        rng: The only source of randomness.

    Returns:
        ``states``, uint8 ``(B, 2 * H * W)`` in the :class:`~exact.puzzles.sokoban.SokobanPuzzle`
        layout, and ``pulls``, int64 ``(B,)``: the pulls actually made for each.
    """
    if n < 0 or max_pulls < 0:
        raise PuzzleoptError(f"training_states: n={n} and max_pulls={max_pulls} must be >= 0")
    region, _ = player_region(level.height, level.width, level.walls, level.player)
    free = sorted(region - level.goals)
    if not free:
        raise PuzzleoptError(f"training_states: {level.where} has no free cell for the player beside the goals")
    states = np.zeros((n, 2 * level.height * level.width), dtype=np.uint8)
    made = np.zeros(n, dtype=np.int64)
    for i in range(n):
        k = int(rng.integers(max_pulls + 1))
        start = level.with_boxes(level.goals, free[int(rng.integers(len(free)))])
        pulled, made[i] = pull_boxes(start, k, rng)
        states[i] = level_state(pulled)
    return states, made


def _carve(height: int, width: int, floor: int, rng: np.random.Generator) -> frozenset[int]:
    """``floor`` interior cells joined by a random walk (a connected room)."""
    r, c = int(rng.integers(1, height - 1)), int(rng.integers(1, width - 1))
    cells = {r * width + c}
    while len(cells) < floor:
        dr, dc = STEPS[int(rng.integers(4))]
        if 1 <= r + dr < height - 1 and 1 <= c + dc < width - 1:
            r, c = r + dr, c + dc
            cells.add(r * width + c)
    return frozenset(cells)


def pulled_states(
    height: int, width: int, boxes: int, pulls: np.ndarray, rng: np.random.Generator, floor: int | None = None
) -> np.ndarray:
    """Random solvable states ``pulls[i]`` pulls away from a solved position, for learning.

    Each state gets its own room (carved as in :func:`generate_level`), ``boxes`` goals with a box
    on each, and the player on another random floor cell. Then, ``pulls[i]`` times, the player
    walks somewhere in its region and pulls a box (the reverse of a push: it steps away from the
    box and drags it along), the pull drawn uniformly from all those its region allows, as
    :func:`pull_boxes` does; at the end it walks to a random cell of its region. Playing this
    backwards solves the state, so every state is solvable (DeepCubeA's recipe for Sokoban: pushes
    cannot be undone, so states are made by pulling). A state with no pull left stops early. The
    whole batch is pulled at once (flood fills and choices in numpy).

    Args:
        height: Grid rows (>= 3), border included.
        width: Grid columns (>= 3).
        boxes: Boxes per state (>= 1).
        pulls: int ``(B,)``: pulls for each state.
        rng: The only source of randomness.
        floor: Floor cells to carve (default as :func:`generate_level`).

    Returns:
        uint8 ``(B, 2 * height * width)`` in the :class:`~exact.puzzles.sokoban.SokobanPuzzle` layout.
    """
    pulls = np.asarray(pulls, dtype=np.int64).reshape(-1)
    interior = (height - 2) * (width - 2)
    if height < 3 or width < 3 or boxes < 1 or boxes + 2 > interior:
        raise PuzzleoptError(
            f"pulled_states: {boxes} boxes do not fit a {height}x{width} grid ({interior} interior cells; "
            "boxes + 2 must fit)"
        )
    if (pulls < 0).any():
        raise PuzzleoptError(f"pulled_states: pulls must be >= 0, got {pulls.min()}")
    floor = max(boxes + 2, round(0.6 * interior)) if floor is None else int(floor)
    n = height * width
    b = pulls.size
    states = np.zeros((b, 2 * n), dtype=np.uint8)
    for i in range(b):
        cells = np.fromiter(sorted(_carve(height, width, floor, rng)), dtype=np.int64)
        st = states[i]
        st[:n] = WALL
        st[cells] = FLOOR
        picks = rng.choice(cells, size=boxes + 1, replace=False)
        st[picks[:boxes]] = BOX
        st[n + picks[:boxes]] = 1
        st[picks[boxes]] = PLAYER
    # Direction d steps by off[d] in row-major cells; walls border every room, so a step from
    # an interior cell stays on the grid (np.roll's wrap-around only meets border walls).
    off = (-width, width, -1, 1)
    live = np.arange(b)
    for step in range(int(pulls.max(initial=0))):
        live = live[pulls[live] > step]
        if not live.size:
            break
        c = states[live, :n]
        region = _regions(c, off, FLOOR, PLAYER)
        free = (c == FLOOR) | (c == PLAYER)
        box = c == BOX
        # A pull from region cell p in direction d: the player steps to p + off[d] (free), the
        # box at p - off[d] follows onto p.
        options = np.stack([region & np.roll(free, -o, axis=1) & np.roll(box, o, axis=1) for o in off], axis=2).reshape(
            live.size, -1
        )
        score = np.where(options, rng.random(options.shape), -1.0)
        pick = score.argmax(axis=1)
        ok = options[np.arange(live.size), pick]
        live, pick = live[ok], pick[ok]
        p, d = pick // 4, pick % 4
        o = np.asarray(off)[d]
        states[live, :n] = np.where(states[live, :n] == PLAYER, FLOOR, states[live, :n])
        states[live, p - o] = FLOOR
        states[live, p] = BOX
        states[live, p + o] = PLAYER
    # Finally a walk to a random cell of the player's region.
    c = states[:, :n]
    region = _regions(c, off, FLOOR, PLAYER)
    score = np.where(region, rng.random(region.shape), -1.0)
    cell = score.argmax(axis=1)
    states[:, :n] = np.where(c == PLAYER, FLOOR, c)
    states[np.arange(b), cell] = PLAYER
    return states


def _regions(content: np.ndarray, off: tuple[int, ...], floor: int, player: int) -> np.ndarray:
    """bool ``(B, N)``: the cells each player can walk to (a flood fill over the whole batch)."""
    passable = (content == floor) | (content == player)
    reach = content == player
    while True:
        grown = reach.copy()
        for o in off:
            grown |= np.roll(reach, o, axis=1)
        grown &= passable
        if np.array_equal(grown, reach):
            return reach
        reach = grown
