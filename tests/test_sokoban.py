"""Sokoban: level text and states, the move table and LURD, the A* solver against plain
breadth-first search, the soundness of every deadlock cut, limits, the generator, the command line."""

from __future__ import annotations

import json
from collections import deque

import numpy as np
import pytest
from conftest import shared_data
from hypothesis import given, settings
from hypothesis import strategies as st

from exact.errors import NotationError, PuzzleoptError, StateError
from exact.puzzles.sokoban import (
    Level,
    SokobanPuzzle,
    count_pushes,
    format_level,
    format_lurd,
    load_level,
    parse_level,
    parse_levels,
    parse_lurd,
    replay_lurd,
    sokoban_moves,
)
from exact.puzzles.sokoban.generate import generate_level, pull_boxes, training_states
from exact.puzzles.sokoban.level import grid_step, player_region
from exact.result import Status
from exact.sokoban import solve_sokoban
from exact.sokoban.__main__ import main as sokoban_main
from exact.sokoban.analysis import analyse
from exact.sokoban.search import BIG
from exact.sokoban.solve import prunes, push_bound

FAST = settings(max_examples=25, deadline=None)
THOROUGH = settings(max_examples=120, deadline=None)
BOXOBAN = "sokoban/boxoban_unfiltered_test_000.txt"

SMALL = """\
#######
#     #
# $.  #
#  @  #
#######"""


@st.composite
def small_levels(draw, max_side: int = 7, max_boxes: int = 3):
    """A generated level of up to ``max_side`` x ``max_side`` with up to ``max_boxes`` boxes."""
    h, w = draw(st.integers(5, max_side)), draw(st.integers(5, max_side))
    boxes = draw(st.integers(1, max_boxes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return generate_level(h, w, boxes, rng, pulls=draw(st.integers(0, 30)))


def scrambled(level: Level, rng: np.random.Generator) -> Level:
    """The same room with boxes and player dropped anywhere on the floor (often unsolvable)."""
    floor = sorted(player_region(level.height, level.width, level.walls, level.player)[0])
    pick = rng.choice(floor, size=len(level.boxes) + 1, replace=False)
    return level.with_boxes((int(c) for c in pick[:-1]), int(pick[-1]))


# ------------------------------------------------------------------------------- references
def step_moves(level: Level, boxes: frozenset[int], player: int):
    """Every single move: ``(new boxes, new player, is_push)``."""
    for d in range(4):
        a = grid_step(player, d, level.height, level.width)
        if a < 0 or a in level.walls:
            continue
        if a not in boxes:
            yield boxes, a, False
            continue
        b = grid_step(a, d, level.height, level.width)
        if b >= 0 and b not in level.walls and b not in boxes:
            yield (boxes - {a}) | {b}, a, True


def bfs_optimum(level: Level, metric: str) -> int | None:
    """Fewest moves (plain BFS) or pushes (0-1 BFS: walks free) over every (boxes, player) state."""
    start = (level.boxes, level.player)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        boxes, player = state
        if boxes <= level.goals:
            return dist[state]
        for nb, np_, push in step_moves(level, boxes, player):
            cost = 1 if metric == "moves" or push else 0
            nxt = (nb, np_)
            if nxt not in dist or dist[nxt] > dist[state] + cost:
                dist[nxt] = dist[state] + cost
                (queue.append if cost else queue.appendleft)(nxt)
    return None


def push_space(level: Level) -> tuple[dict, dict]:
    """Every placement reachable by pushes, as ``(boxes, smallest cell of the player's region)``.

    Returns:
        ``pushed``: state -> the cells a box was pushed onto to reach it (from any parent), and
        ``togo``: state -> fewest pushes to solve it (absent when it is unsolvable).
    """

    def norm(boxes, player):
        region, _ = player_region(level.height, level.width, level.walls | boxes, player)
        return boxes, min(region), region

    start = norm(level.boxes, level.player)
    pushed = {start[:2]: set()}
    edges: dict = {}
    queue = deque([start])
    while queue:
        boxes, key, region = queue.popleft()
        edges[(boxes, key)] = []
        for b in boxes:
            for d in range(4):
                pp = grid_step(b, d ^ 1, level.height, level.width)
                t = grid_step(b, d, level.height, level.width)
                if pp not in region or t < 0 or t in level.walls or t in boxes:
                    continue
                nxt = norm((boxes - {b}) | {t}, b)
                edges[(boxes, key)].append(nxt[:2])
                if nxt[:2] not in pushed:
                    pushed[nxt[:2]] = set()
                    queue.append(nxt)
                pushed[nxt[:2]].add(t)
    togo = {s: 0 for s in edges if s[0] <= level.goals}
    frontier = deque(togo)
    back: dict = {}
    for s, outs in edges.items():
        for t in outs:
            back.setdefault(t, []).append(s)
    while frontier:
        s = frontier.popleft()
        for p in back.get(s, []):
            if p not in togo:
                togo[p] = togo[s] + 1
                frontier.append(p)
    return pushed, togo


# ------------------------------------------------------------------------------- text
def test_boxoban_file_round_trips():
    path = shared_data(BOXOBAN)
    levels = parse_levels(path)
    assert len(levels) == 1000 and [lv.name for lv in levels[:3]] == ["0", "1", "2"]
    blocks = path.read_text().split(";")[1:51]
    for level, block in zip(levels, blocks):
        rows = block.strip().split("\n", 1)[1].rstrip("\n")
        assert format_level(level) == rows
        assert parse_level(format_level(level), name=level.name) == level
        assert (level.height, level.width, len(level.boxes)) == (10, 10, 4)
    assert load_level(f"{path}:17") == levels[17] and load_level(f"{path}:17").name == "17"


@FAST
@given(small_levels(max_side=9, max_boxes=4))
def test_generated_levels_round_trip(level):
    text = format_level(level)
    assert parse_level(text) == level
    puzzle = SokobanPuzzle(level.height, level.width)
    state = puzzle.state_of(level)
    assert state.dtype == np.uint8 and state.shape == (2 * level.num_cells,)
    assert puzzle.level_of(state) == level
    assert puzzle.format_state(state) == text
    np.testing.assert_array_equal(puzzle.parse_state(text), state)
    assert bool(puzzle.is_goal(state)[0]) == level.is_solved


def test_collections_with_comments_titles_and_ragged_rows(tmp_path):
    text = "; first collection\n\n; 1\n####\n#@$.#\n#####\nTitle: one\n\n;2\n  ####\n  #@*#\n  ####\n"
    levels = parse_levels(text)
    assert [lv.name for lv in levels] == ["1", "2"]
    assert levels[0].width == 5 and levels[0].height == 3 and levels[1].is_solved
    # ragged rows are padded with floor, outside the walls, and round-trip at full width
    assert parse_level(format_level(levels[0])) == levels[0]
    assert format_level(levels[1]).split("\n")[1] == "  #@*#"
    f = tmp_path / "two.xsb"
    f.write_text(text)
    assert load_level(f"{f}:2") == levels[1] and parse_levels(f) == levels
    assert parse_level("; 7\n" + SMALL).name == "7"
    # XSB's other floor characters
    assert parse_level(SMALL.replace("#     #", "#-_-__#")) == parse_level(SMALL)


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        (SMALL.replace("$.", "$x"), ["level 9", "line 3", "column 4", "'x'", "# wall"]),
        (SMALL.replace("@", " "), ["level 9", "no player", "lines 1-5"]),
        (SMALL.replace("#     #", "#  @  #"), ["level 9", "2 players", "line 2, column 4", "line 4, column 4"]),
        (SMALL.replace("$.", "$ "), ["level 9", "1 boxes but 0 goals", "one goal"]),
        (SMALL.replace("$.", " ."), ["level 9", "there are no boxes"]),
        (SMALL.replace("#     #", "      #"), ["level 9", "walk off the grid", "line 2, column 1", "enclose"]),
        (SMALL + "\n\n" + SMALL, ["level 9", "holds 2 levels", "line 7", "parse_levels"]),
        ("", ["no rows"]),
    ],
)
def test_bad_levels_say_what_and_where(text, needles):
    with pytest.raises(StateError) as err:
        parse_level(text, name="9")
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))


def test_bad_files_name_the_file_level_and_line(tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("; 0\n" + SMALL + "\n\n; 1\n" + SMALL.replace("$.", "$?") + "\n")
    with pytest.raises(StateError, match=r"bad.txt, level 1, line 11, column 4: unknown character '\?'"):
        parse_levels(f)
    assert load_level(f"{f}:0").name == "0"  # a bad level elsewhere in the file does not block this one
    with pytest.raises(StateError, match=r"level 1, line 11"):
        load_level(f"{f}:1")
    f.write_text("; 0\n" + SMALL + "\n\n; 0\n" + SMALL + "\n")
    with pytest.raises(PuzzleoptError, match=r"has 2 levels named '0' \(at lines 2, \d+\)"):
        load_level(f"{f}:0")
    f.write_text("; 0\n" + SMALL + "\n\n; 1\n" + SMALL + "\n")
    with pytest.raises(PuzzleoptError, match="no level named '5'; its 2 levels are named 0, 1"):
        load_level(f"{f}:5")
    with pytest.raises(PuzzleoptError, match="holds 2 levels; pick one"):
        load_level(f)
    with pytest.raises(PuzzleoptError, match="cannot read level file"):
        load_level(tmp_path / "missing.txt")
    with pytest.raises(PuzzleoptError, match="does not exist"):
        parse_levels(str(tmp_path / "missing.txt"))


# ------------------------------------------------------------------------------- moves and LURD
def test_move_table_layout_guards_and_inverse():
    t = sokoban_moves(4, 5)
    assert t.num_positions == 40 and t.guarded
    walks = sum(n.islower() for n in t.names)
    assert walks == 2 * (3 * 5) + 2 * (4 * 4)  # vertical steps: 3 per column; horizontal: 4 per row
    assert t.num_moves - walks == 2 * (2 * 5) + 2 * (4 * 3)
    inv = t.inverse
    for m, name in enumerate(t.names):
        if name.isupper():
            assert inv[m] == -1  # a push cannot be undone
        else:
            assert t.names[inv[m]] == {"u": "d", "d": "u", "l": "r", "r": "l"}[name]
            np.testing.assert_array_equal(t.perms[m][t.perms[inv[m]]], np.arange(40))
    # goal flags never move
    assert (t.perms[:, 20:] == np.arange(20, 40)).all()


@FAST
@given(small_levels(), st.integers(0, 2**32 - 1))
def test_lurd_round_trips_and_matches_the_table(level, seed):
    """A random legal LURD string: parse/format round trip, and the table replays it like the rules."""
    rng = np.random.default_rng(seed)
    boxes, player, letters = level.boxes, level.player, []
    for _ in range(30):
        options = list(step_moves(level, boxes, player))
        if not options:
            break
        boxes_n, player_n, push = options[int(rng.integers(len(options)))]
        d = next(d for d in range(4) if grid_step(player, d, level.height, level.width) == player_n)
        letters.append("udlr"[d].upper() if push else "udlr"[d])
        boxes, player = boxes_n, player_n
    lurd = "".join(letters)
    rows = parse_lurd(lurd, level)
    assert format_lurd(rows, level.height, level.width) == lurd
    end = replay_lurd(lurd, level)
    assert (end.boxes, end.player) == (boxes, player)
    puzzle = SokobanPuzzle(level.height, level.width)
    np.testing.assert_array_equal(puzzle.table.apply(puzzle.state_of(level), rows), puzzle.state_of(end))
    assert count_pushes(lurd) == sum(ch.isupper() for ch in letters)
    assert puzzle.format_lurd(puzzle.parse_lurd(lurd, puzzle.state_of(level))) == lurd


@pytest.mark.parametrize(
    ("lurd", "needles"),
    [
        ("rx", ["move 2 'x' (character 2)", "not a LURD letter"]),
        ("r d", ["move 2 'd' (character 3)", "walks into a wall", "'#######|#     #|# $.  #|#   @ #|#######'"]),
        ("R", ["move 1 'R' (character 1)", "pushes no box", "'r' to walk"]),
        ("lu", ["move 2 'u' (character 2)", "walks into a box", "'U' to push"]),
        ("lUU", ["move 3 'U'", "pushes a box into a wall"]),
    ],
)
def test_lurd_errors_quote_the_letter_and_position(lurd, needles):
    level = parse_level(SMALL, name="s")
    with pytest.raises(NotationError) as err:
        parse_lurd(lurd, level)
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))
    assert "level s at that point" in str(err.value)


def test_lurd_push_into_a_box():
    level = parse_level("#######\n#.$$@.#\n#######", name="pair")
    with pytest.raises(NotationError, match="move 1 'L' .* pushes a box into another box; level pair at that point"):
        parse_lurd("L", level)


def test_puzzle_protocol():
    puzzle = SokobanPuzzle(5, 7)
    level = parse_level(SMALL)
    s = puzzle.state_of(level)
    children, rows = puzzle.expand(s[None])
    assert children.shape == (1, 8, 70) and rows.shape == (1, 8)
    assert {puzzle.table.names[m] for m in rows[0] if m >= 0} == {"u", "l", "r"}  # a wall below, no box near
    assert bool(puzzle.is_goal(puzzle.goal[None])[0])
    walked = puzzle.random_walk(4, 0, np.random.default_rng(0))  # no pulls: boxes on their goals
    assert walked.shape == (4, 70) and puzzle.is_goal(walked).all()
    assert puzzle.encode(s[None]).shape == (1, 70 * 4)
    with pytest.raises(PuzzleoptError, match="every box on a goal"):
        puzzle.goal_spec()
    # states with boxes to push: every child is the table's move, parse/format round-trip
    room = generate_level(6, 7, 2, np.random.default_rng(2))
    states, _ = training_states(room, 16, 5, np.random.default_rng(3))
    puzzle = SokobanPuzzle(6, 7)
    children, ids = puzzle.expand(states)
    assert (ids[:, 4:] >= 0).any(), "some push applies"
    for b in range(16):
        np.testing.assert_array_equal(puzzle.parse_state(puzzle.format_state(states[b])), states[b])
        for a in range(8):
            if ids[b, a] < 0:
                np.testing.assert_array_equal(children[b, a], states[b])
            else:
                assert puzzle.table.names[ids[b, a]] == puzzle.actions[a]
                np.testing.assert_array_equal(children[b, a], puzzle.table.apply(states[b], int(ids[b, a])))
    with pytest.raises(StateError, match="takes 10x10 levels"):
        SokobanPuzzle().state_of(level)


# ------------------------------------------------------------------------------- the solver
@THOROUGH
@given(small_levels(), st.integers(0, 2**32 - 1))
def test_optimum_equals_breadth_first_search(level, seed):
    """Moves and pushes, on a generated (solvable) level and on its scrambled (often unsolvable) twin."""
    for lv in (level, scrambled(level, np.random.default_rng(seed))):
        for metric in ("moves", "pushes"):
            res = solve_sokoban(lv, optimize=metric)
            want = bfs_optimum(lv, metric)
            if want is None:
                assert res.status is Status.UNSOLVABLE, format_level(lv)
                continue
            # pushes mode does not minimise moves, so it claims "feasible" for them (0 moves is optimal)
            assert res.status is (Status.OPTIMAL if metric == "moves" or want == 0 else Status.FEASIBLE)
            assert res.extra[metric] == want, (metric, format_level(lv), res.extra["lurd"])
            assert replay_lurd(res.extra["lurd"], lv).is_solved
            assert res.extra["pushes"] == count_pushes(res.extra["lurd"])
            if metric == "moves":
                assert res.lower_bound == res.length == want


@THOROUGH
@given(small_levels(max_side=8, max_boxes=4), st.integers(0, 2**32 - 1))
def test_pruning_never_cuts_a_solvable_state_and_the_bound_is_admissible(level, seed):
    """Every placement reachable by pushes: each cut the search would make is unsolvable (a full
    search says so), and the matching bound never exceeds the pushes still needed."""
    for lv in (level, scrambled(level, np.random.default_rng(seed))):
        an = analyse(lv)
        if an.unsolvable:
            assert bfs_optimum(lv, "pushes") is None
            continue
        pushed, togo = push_space(lv)
        for state, cells in pushed.items():
            boxes = sorted(state[0])
            bound = push_bound(an, np.array(boxes))
            if state in togo:
                assert bound <= togo[state], (format_level(lv), boxes)
                assert not any(prunes(an, boxes, t) for t in cells), (format_level(lv), boxes)
            if bound >= BIG:
                assert state not in togo


def test_unsolvable_levels():
    corner = parse_level("#####\n#$ .#\n# @ #\n#####")
    res = solve_sokoban(corner)
    assert res.status is Status.UNSOLVABLE and res.nodes == 0 and "can never be pushed" in res.extra["proof"]
    # Two boxes that must pass each other in a corridor: only an exhausted search shows it.
    stuck = parse_level("######\n###@ #\n###$.#\n##   #\n##.$ #\n######")
    for metric in ("moves", "pushes"):
        res = solve_sokoban(stuck, optimize=metric)
        assert res.status is Status.UNSOLVABLE and res.nodes > 0 and "searched" in res.extra["proof"]
        assert res.exit_code == 3 and res.lower_bound is None
    assert bfs_optimum(stuck, "moves") is None


def test_already_solved_level():
    res = solve_sokoban(parse_level("#####\n#@* #\n#####"))
    assert res.status is Status.OPTIMAL and res.length == 0 and res.lower_bound == 0


def test_limits_give_a_proven_bound():
    level = parse_levels(shared_data(BOXOBAN))[1]
    best = solve_sokoban(level)
    assert best.status is Status.OPTIMAL and best.length == best.lower_bound == 44
    for kwargs in ({"node_limit": 0}, {"node_limit": 100}, {"time_limit": 0.0}):
        res = solve_sokoban(level, **kwargs)
        assert res.status is Status.LIMIT and res.exit_code == 4
        assert 0 < res.lower_bound <= best.length and res.moves == ()
    pushes = solve_sokoban(level, optimize="pushes")
    res = solve_sokoban(level, optimize="pushes", node_limit=1)
    assert res.status is Status.LIMIT and res.lower_bound <= pushes.extra["pushes"]
    with pytest.raises(PuzzleoptError, match="optimize='walks'"):
        solve_sokoban(level, optimize="walks")
    with pytest.raises(PuzzleoptError, match="node_limit=-1"):
        solve_sokoban(level, node_limit=-1)


# Fewest moves of the first 20 unfiltered test levels, found by a plain breadth-first search over
# every (boxes, player) state (the search of bfs_optimum, with the state as two integers).
BOXOBAN_OPTIMA = [23, 44, 21, 30, 28, 49, 29, 31, 32, 22, 43, 30, 17, 32, 21, 35, 23, 28, 21, 25]


def test_first_boxoban_levels_solve_optimally():
    levels = parse_levels(shared_data(BOXOBAN))[:20]
    for level, want in zip(levels, BOXOBAN_OPTIMA):
        res = solve_sokoban(level, time_limit=60)
        assert res.status is Status.OPTIMAL and res.length == res.lower_bound == want
        assert replay_lurd(res.extra["lurd"], level).is_solved
        push = solve_sokoban(level, optimize="pushes", time_limit=60)
        assert push.extra["pushes"] <= res.extra["pushes"] and push.length >= res.length


def test_store_growth_keeps_results():
    """A tiny store forces several rounds of growth and rehashing mid-search; the optimum is unchanged."""
    level = parse_levels(shared_data(BOXOBAN))[4]
    a = solve_sokoban(level)
    b = solve_sokoban(level, max_stored=1 << 14)
    assert b.status is Status.OPTIMAL and b.length == a.length and b.extra["stored"] > 1 << 12
    c = solve_sokoban(level, max_stored=1 << 12)
    assert c.status is Status.LIMIT and "node store full" in c.extra["limit"] and c.lower_bound <= a.length


# ------------------------------------------------------------------------------- generator
def test_generator_is_seeded_and_solvable():
    a = generate_level(8, 8, 3, np.random.default_rng(5), pulls=20)
    b = generate_level(8, 8, 3, np.random.default_rng(5), pulls=20)
    assert a == b and not a.is_solved
    res = solve_sokoban(a)
    assert res.status is Status.OPTIMAL
    solved = parse_level("#######\n#     #\n#  *  #\n#  @  #\n#######")
    assert pull_boxes(solved, 0, np.random.default_rng(0))[0].is_solved
    pulled, made = pull_boxes(solved, 3, np.random.default_rng(0))
    assert made == 3 and solve_sokoban(pulled, optimize="pushes").extra["pushes"] <= 3
    with pytest.raises(PuzzleoptError, match="do not fit"):
        generate_level(4, 4, 3, np.random.default_rng(0))


def test_training_states_are_solvable_within_their_pulls():
    level = parse_levels(shared_data(BOXOBAN))[0]
    states, pulls = training_states(level, 12, 6, np.random.default_rng(1))
    puzzle = SokobanPuzzle(10, 10)
    assert states.shape == (12, 200) and states.dtype == np.uint8 and pulls.shape == (12,)
    assert pulls.max() <= 6
    for s, k in zip(states, pulls):
        lv = puzzle.level_of(s)
        assert lv.walls == level.walls and lv.goals == level.goals
        res = solve_sokoban(lv, optimize="pushes")
        assert res.status.has_solution and res.extra["pushes"] <= k
    again, _ = training_states(level, 12, 6, np.random.default_rng(1))
    np.testing.assert_array_equal(again, states)


def test_random_walk_pulls_solvable_states_in_fresh_rooms():
    # The learned solver's training states: boxes pulled from the goals of random rooms.
    puzzle = SokobanPuzzle(8, 8, boxes=3)
    depths = np.arange(16) % 8
    states = puzzle.random_walk(16, depths, np.random.default_rng(4))
    assert states.shape == (16, 128) and states.dtype == np.uint8
    np.testing.assert_array_equal(states, puzzle.random_walk(16, depths, np.random.default_rng(4)))
    assert puzzle.is_goal(states[depths == 0]).all()
    rooms = set()
    for s, k in zip(states, depths):
        lv = puzzle.level_of(s).check()  # one player, 3 boxes on 3 goals, enclosed
        assert len(lv.boxes) == 3
        rooms.add(lv.walls)
        res = solve_sokoban(lv, optimize="pushes")
        assert res.status.has_solution and res.extra["pushes"] <= k
    assert len(rooms) > 8
    with pytest.raises(PuzzleoptError, match="boxes=0"):
        SokobanPuzzle(8, 8, boxes=0)


# ------------------------------------------------------------------------------- command line
def test_cli_exit_codes(tmp_path, capsys):
    f = tmp_path / "levels.txt"
    f.write_text(
        "; 0\n"
        + SMALL
        + "\n\n; 1\n#####\n#$ .#\n# @ #\n#####\n\n; 2\n"
        + format_level(parse_levels(shared_data(BOXOBAN))[1])
        + "\n"
    )
    assert sokoban_main(["--level", f"{f}:0"]) == 0
    out = capsys.readouterr().out
    assert "solution (optimal): " in out and "moves " in out and "pushes 1" in out and "nodes" in out
    assert sokoban_main(["--level", f"{f}:0", "--optimize", "pushes", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "feasible" and d["extra"]["pushes"] == 1 and d["extra"]["pushes_optimal"]
    assert sokoban_main(["--level", f"{f}:1"]) == 3
    assert "unsolvable" in capsys.readouterr().out
    assert sokoban_main(["--level", f"{f}:2", "--node-limit", "5"]) == 4
    assert "no solution has fewer than" in capsys.readouterr().out
    assert sokoban_main(["--level", f"{f}:2", "--time-limit", "1e-9", "--json"]) == 4
    from exact import cli

    assert cli.run(sokoban_main, ["--level", f"{f}:7"]) == 2
    assert "no level named '7'" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text(SMALL.replace("$", "%"))
    assert cli.run(sokoban_main, ["--level", str(bad)]) == 2
    assert "line 3, column 3: unknown character '%'" in capsys.readouterr().err


@pytest.mark.parametrize(("rows", "length"), [
    (["######", "#@ $.#", "######"], 2),
    # the MIP takes about 45 s on this one (2 cores): the corridor above checks the same in 5 s
    pytest.param(["#####", "#@  #", "# $ #", "#  .#", "#####"], 5, marks=pytest.mark.slow),
])  # fmt: skip
def test_the_models_state_the_goal_set_and_agree_with_the_search(rows: list[str], length: int) -> None:
    # Goal(allowed=): no box off a goal square, the player anywhere; the MIP and CP-SAT prove the
    # same optimum as the Sokoban search (moves)
    from exact import registry
    from exact.solvers import solve

    p = registry.get("sokoban", height=len(rows), width=len(rows[0]))
    s = p.parse_state("\n".join(rows))
    best = solve(p, s, method="sokoban")
    assert best.status is Status.OPTIMAL and best.length == length
    goal = p.goal_spec(s)
    assert not goal.holds(s) and goal.holds(p.table.apply(s, p.table.parse(" ".join(best.moves), s)))
    for method in ("mip", "cp-sat"):
        short = solve(p, s, method=method, horizon=best.length - 1)
        assert short.status is Status.INFEASIBLE_WITHIN_HORIZON, method
        found = solve(p, s, method=method, horizon=best.length + 2)
        assert found.status is Status.OPTIMAL and found.length == best.length, method
    with pytest.raises(PuzzleoptError, match="give the start"):
        p.goal_spec()
