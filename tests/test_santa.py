"""Kaggle Santa 2023 (exact/puzzles/santa, exact/santa): the three shapes under Santa's move
names, proven right by the winning team's 398 solutions replaying; the score command; proofs
by bidirectional BFS equal to (or below) the winner's lengths; the commutator solver on every
type; bad input in one line."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import cli, registry
from exact.errors import PuzzleoptError
from exact.puzzles.santa import instances, parse_moves, read_submission, score, shape, table, types
from exact.puzzles.santa.instances import parse_ids
from exact.puzzles.santa.score import check
from exact.santa.__main__ import main
from exact.santa.prove import goal_states, prove
from exact.santa.puzzle import SantaPuzzle
from exact.santa.solve import by_commutators, row, solve
from tests.conftest import SHARED_DATA

DATA = Path(__file__).parent / "data" / "santa2023"
WINNER = {int(r["input"]): int(r["score"]) for r in csv.DictReader((DATA / "winner_scores.csv").open())}


def test_the_shipped_puzzles_and_the_winner_files_are_the_reference_bytes() -> None:
    shipped = Path(__file__).parents[1] / "exact" / "puzzles" / "santa" / "data" / "puzzles.csv"
    for mine, theirs in ((shipped, "puzzles.csv"), (DATA / "winner_submission.csv", "winner_submission.csv"),
                         (DATA / "winner_scores.csv", "winner_scores.csv")):  # fmt: skip
        ref = SHARED_DATA / "santa2023" / theirs
        if not ref.exists():
            pytest.skip("../shared/data/santa2023 is not present")
        assert hashlib.sha256(mine.read_bytes()).digest() == hashlib.sha256(ref.read_bytes()).digest(), theirs


def test_the_398_puzzles_in_27_types() -> None:
    assert len(instances()) == 398
    assert len(types()) == 26  # the file's names: globe_33/3 is spelt globe_3/33 there (264 positions each)
    assert sum(WINNER.values()) == 53_770


def test_the_winner_s_submission_replays_to_398_valid_and_53770_moves() -> None:
    """The proof that the generated moves are Santa's: every one of the winners' solutions ends
    within its wildcards under them."""
    result = score(read_submission(DATA / "winner_submission.csv"))
    assert result.invalid == []
    assert result.total == 53_770
    assert {c.id: c.moves for c in result.checks} == WINNER


def test_the_score_command_prints_json_and_exits_0_only_when_all_are_valid(tmp_path, capsys) -> None:
    assert main(["score", "--submission", str(DATA / "winner_submission.csv"), "--json"]) == cli.EXIT_OK
    doc = json.loads(capsys.readouterr().out)
    assert doc["total"] == 53_770 and doc["valid"] == 398 and doc["invalid"] == []
    assert doc["by_type"]["cube_2/2/2"] == {"puzzles": 30, "valid": 30, "moves": 315}
    lines = (DATA / "winner_submission.csv").read_text().splitlines()
    lines[1] = "0,r1"  # one move short
    del lines[5]  # id 4 missing
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["score", "--submission", str(bad), "--json"]) == cli.EXIT_LIMIT
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["invalid"] == [0, 4] and doc["valid"] == 396
    assert "invalid: 2 puzzles: 0, 4" in captured.err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,moves\n0,r1.x9\n", None),  # an unknown move: that row is invalid, the file is read
        ("ident,moves\n0,r1\n", r"bad.csv:1: the header must be id,moves"),
        ("id,moves\n0,r1\n0,r1\n", r"bad.csv:3: id 0 appears twice"),
        ("id,moves\n400,r1\n", r"bad.csv:2: expected ID,MOVES with an id 0-397"),
        (b"\x89PNG\r\n\x1a\n\xff\xfe", r"bad.csv: not a text file"),
    ],
)
def test_a_bad_submission_is_one_line_naming_the_file_and_line(tmp_path, capsys, text, message) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(text) if isinstance(text, bytes) else bad.write_text(text)
    code = cli.run(main, ["score", "--submission", str(bad)])
    err = capsys.readouterr().err
    if message is None:
        assert code == cli.EXIT_LIMIT
        assert score(read_submission(bad)).checks[0].reason.startswith("unknown move 'x9'")
    else:
        assert code == cli.EXIT_BAD_INPUT
        assert len(err.strip().splitlines()) == 1 and message in err.replace(str(tmp_path) + "/", "")


def test_a_row_of_a_million_characters_is_read(tmp_path) -> None:
    """A 33x33x33's solution is a row longer than the csv module's default field limit."""
    long = tmp_path / "long.csv"
    long.write_text("id,moves\n283," + ".".join(["f0", "-f0"] * 200_000) + "\n")
    assert len(read_submission(long)[283]) > 1_000_000
    assert score(read_submission(long)).checks[283].moves == 400_000


def test_move_counts_and_names_of_each_shape() -> None:
    assert table("cube_3/3/3").names[:4] == ("f0", "-f0", "f1", "-f1")
    assert len(table("cube_4/4/4").names) == 2 * 3 * 4
    assert table("wreath_6/6").names == ("l", "-l", "r", "-r")
    globe = table("globe_1/8")
    assert len(globe.names) == 2 * 2 + 16  # rows and their inverses; flips are their own inverses
    assert parse_moves("globe_1/8", "f3.-f3") == [7, 7]  # Santa may write -f3: it is f3
    assert shape("globe_3/33").num_positions == 264 and shape("wreath_100/100").num_positions == 198


@pytest.mark.parametrize("name", ["cube_2/2/2", "cube_3/3/3", "cube_5/5/5", "wreath_7/7", "wreath_21/21", "globe_1/8",
                                  "globe_2/6", "globe_6/10"])  # fmt: skip
@settings(max_examples=20)
@given(data=st.data())
def test_a_random_sequence_then_its_inverse_returns_the_start(name, data) -> None:
    t = table(name)
    rows = data.draw(st.lists(st.integers(0, t.num_moves - 1), max_size=30))
    start = np.arange(t.num_positions)
    there = t.apply(start, rows)
    assert np.array_equal(t.apply(there, t.undoing(rows)), start)


def test_a_santa_type_is_a_registry_puzzle() -> None:
    p = registry.get("santa:wreath_6/6")
    assert p.table.names == ("l", "-l", "r", "-r") and registry.rebuild(p.spec) is p
    with pytest.raises(PuzzleoptError, match="unknown Santa 2023 puzzle type 'hexagon_3'"):
        registry.get("santa:hexagon_3")
    with pytest.raises(PuzzleoptError, match="a cube has three equal sides"):
        registry.get("santa:cube_3/3/4")


def test_ids_are_read_as_ranges_and_bad_ones_quoted() -> None:
    assert parse_ids("0-2,5,3") == [0, 1, 2, 3, 5]
    with pytest.raises(PuzzleoptError, match="bad token 'x'"):
        parse_ids("1,x")
    with pytest.raises(PuzzleoptError, match="'390-400' is not a range within 0-397"):
        parse_ids("390-400")
    with pytest.raises(PuzzleoptError, match="'5-3' is not a range: 5 is above 3"):
        parse_ids("5-3")


def test_the_goal_states_of_two_wildcards_are_the_goal_and_its_swaps() -> None:
    goal = np.array([0, 0, 1, 1, 2])
    states = goal_states(goal, 2)
    different = sum(goal[i] != goal[j] for i in range(5) for j in range(i + 1, 5))
    assert len(states) == 1 + different
    assert ((states != goal).sum(axis=1) <= 2).all()
    assert goal_states(np.arange(60), 10) is None  # too many to list: no proof is tried


FAST_PROOFS = [0, 1, 284, 285, 304, 309, 319]


@pytest.mark.parametrize("i", FAST_PROOFS)
def test_a_proof_is_optimal_and_at_most_the_winner_s_length(i) -> None:
    result = prove(SantaPuzzle(instances()[i]), time_limit=60)
    assert result.status.value == "optimal" and result.lower_bound == result.length
    assert result.length <= WINNER[i]


@pytest.mark.slow
def test_every_cube2_and_small_wreath_is_proven_at_most_the_winner_s_length() -> None:
    ids = [i.id for i in instances() if i.type in ("cube_2/2/2", "wreath_6/6", "wreath_7/7", "wreath_12/12")]
    assert len(ids) == 75
    for i in ids:
        result = prove(SantaPuzzle(instances()[i]), time_limit=120)
        assert result.status.value == "optimal" and result.length <= WINNER[i], i


def test_a_proof_that_runs_out_of_time_says_limit_with_a_bound() -> None:
    result = prove(SantaPuzzle(instances()[338]), time_limit=2)
    assert result.status.value == "limit" and result.lower_bound is not None and result.lower_bound <= WINNER[338]


def test_a_proof_stopped_by_its_memory_leaves_its_bound_and_reason_in_the_answer() -> None:
    inst = instances()[1]
    result = solve(inst, proof=True, time_limit=30, stored=2000)
    line = row(inst, result)
    assert result.status.value == "feasible" and result.solver == "commutators"
    assert line["proof_stop"] == "2,000 stored states" and 0 < line["bound"] <= WINNER[1] <= line["length"]
    assert check(inst, line["moves"]).valid


COMMUTATOR_CASES = [0, 150, 304, 338, 358]  # a 2x2x2, a 4x4x4, a wreath, globes: a second or less each
SLOW_COMMUTATOR_CASES = [30, 140, 205, 210, 240, 284, 329, 343, 353, 368, 373]  # the 3x3 and 5x5, equators, N-labels


@pytest.mark.parametrize(
    "i", COMMUTATOR_CASES + [pytest.param(i, marks=pytest.mark.slow) for i in SLOW_COMMUTATOR_CASES]
)
def test_the_commutator_solver_finds_a_valid_solution(i) -> None:
    inst = instances()[i]
    result = by_commutators(SantaPuzzle(inst))
    assert result.status.value == "feasible", result.extra
    rows = parse_moves(inst.type, ".".join(result.moves))
    assert score({i: ".".join(result.moves)}).checks[i].valid
    assert len(rows) == result.length


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted({i.type for i in instances()} - {"cube_19/19/19", "cube_33/33/33"}))
def test_the_commutator_solver_solves_every_puzzle_of_a_type(name) -> None:
    for inst in instances():
        if inst.type == name:
            result = by_commutators(SantaPuzzle(inst))
            assert result.status.has_solution, (inst.id, result.extra)


def test_solve_prefers_the_proof_and_the_cli_writes_a_submission(tmp_path, capsys) -> None:
    assert solve(instances()[284], proof=True, time_limit=30).status.value == "optimal"
    out = tmp_path / "sub.csv"
    assert main(["solve", "--ids", "284,285", "--prove", "--json", "--out", str(out)]) == cli.EXIT_OK
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["id"] for x in lines] == [284, 285] and all(x["status"] == "optimal" for x in lines)
    assert set(lines[0]) >= {"id", "type", "status", "length", "moves", "bound", "method"}
    checked = score(read_submission(out))
    assert [c.id for c in checked.checks if c.valid] == [284, 285]


CAYLEYPY = json.loads((DATA / "cayleypy_growth.json").read_text())["counts"]


@pytest.mark.parametrize(
    ("ours", "theirs", "depth"),
    [
        ("globe_1/1", "globe:1,1", None),
        ("globe_1/2", "globe:1,2", None),
        ("globe_2/1", "globe:2,1", None),
        ("globe_2/2", "globe:2,2", None),
        ("globe_3/1", "globe:3,1", None),
        ("wreath_6/6", "hungarian_rings:6,2,6,3", 12),
        pytest.param("wreath_6/6", "hungarian_rings:6,2,6,3", None, marks=pytest.mark.slow),
        ("wreath_7/7", "hungarian_rings:7,2,7,3", 11),
        ("cube_2/2/2", "puzzles:cube_222_qstm", 6),
    ],
)
def test_growth_from_distinct_labels_equals_cayleypy_s(ours, theirs, depth) -> None:
    """The Cayley graph of each type's moves, grown from the identity, against the counts cayleypy
    ships (its globes and its Hungarian rings with Santa's parameters build the same moves)."""
    from exact.bfs import layer_counts

    t = table(ours)
    want = CAYLEYPY[theirs]
    depth = len(want) if depth is None else depth
    got = layer_counts(t, np.arange(t.num_positions), depth, progress=False)
    assert got == want[: depth + 1]


@pytest.mark.parametrize("name", ["cube_3/3/3", "wreath_7/7", "globe_2/6"])
@settings(max_examples=30)
@given(data=st.data())
def test_shorten_keeps_the_permutation_and_never_lengthens(name, data) -> None:
    from exact.commutators import commute_matrix, shorten

    t = table(name)
    rows = data.draw(st.lists(st.integers(0, t.num_moves - 1), max_size=40))
    short = shorten(rows, t.perms, t.inverse, commute_matrix(t.perms))
    start = np.arange(t.num_positions)
    assert np.array_equal(t.apply(start, short), t.apply(start, rows)) and len(short) <= len(rows)


def test_shorten_takes_a_ring_s_power_the_short_way_and_cancels_commuting_moves() -> None:
    from exact.commutators import commute_matrix, shorten

    t = table("wreath_7/7")
    assert t.format(shorten([0] * 12, t.perms, t.inverse, commute_matrix(t.perms))) == "-l -l"  # l^12 = l^-2 on 7 beads
    c = table("cube_3/3/3")
    rows = c.parse(["f0", "f2", "-f0", "r1", "-r1", "-f2"])
    assert shorten(rows, c.perms, c.inverse, commute_matrix(c.perms)) == []


def _perm(rows, perms) -> np.ndarray:
    p = np.arange(perms.shape[1])
    for r in rows:
        p = p[perms[r]]
    return p


def test_the_3x3x3_face_moves_are_found_by_their_permutations() -> None:
    from exact.santa.cube3 import face_rows, to_ours

    t = table("cube_3/3/3")
    ours = registry.get("cube3", moves="faces", metric="qtm").table
    assert [t.names[r] for r in face_rows()] == ["-d2", "d2", "r0", "-r0", "f0", "-f0", "d0", "-d0", "-r2", "r2",
                                                 "-f2", "f2"]  # fmt: skip
    state = np.random.default_rng(0).permutation(54)
    for m, r in zip(ours.perms, face_rows(), strict=True):  # re-laying then turning = turning then re-laying
        assert np.array_equal(state[to_ours()][m], state[t.perms[r]][to_ours()])


@settings(max_examples=40, deadline=None)
@given(frame=st.integers(0, 23), word=st.lists(st.integers(0, 11), max_size=14))
def test_realise_turns_the_centres_home_for_at_most_the_rotation_s_price(frame, word) -> None:
    """The Santa word equals the rotation home then the face word, and costs no more than the
    face word plus the rotation paid by itself (the programme may do better with slices)."""
    from exact.santa.cube3 import face_rows, frames, realise

    fr = frames()
    relative = [int(face_rows()[m]) for m in word]
    out = realise(relative, frame)
    home = fr.rots[fr.inverse[frame]]
    assert np.array_equal(_perm(out, fr.perms), home[_perm(relative, fr.perms)])
    assert len(out) <= len(relative) + fr.cost[frame]


def test_realise_turns_r_and_l_prime_into_one_slice_when_the_centres_need_that_quarter() -> None:
    from exact.santa.cube3 import frames, realise

    fr = frames()
    row = fr.row
    relative = [row["r0"], row["r2"]]  # R and L': Santa turns both layers clockwise seen from the right
    quarter = fr.index[fr.axis_turn["r"].tobytes()]
    assert [fr.names[r] for r in realise(relative, quarter)] == ["-r1"]  # two moves for one
    assert [fr.names[r] for r in realise(relative, 0)] == ["r0", "r2"]  # centres home: the face moves


@pytest.mark.parametrize(
    ("scramble", "base_id"), [("r1.f0.-d1", 140), ("-f1.d2.r0.r1.-f0.d1", 140), ("-f1.d2.r0.r1.-f0.d1", 130)]
)
def test_a_santa_3x3x3_scrambled_with_slices_is_solved_in_as_few_moves(scramble, base_id, cube3_qtm_small) -> None:
    """On goals of distinct labels (the centres' turns are seen) and of Santa's checkerboard
    (a face's edges wear the next face's colour)."""
    from dataclasses import replace

    from exact.santa.cube3 import by_optimal_cube

    base = instances()[base_id]
    t = table(base.type)
    start, goal = base.encoded()
    state = goal[_perm(parse_moves(base.type, scramble), t.perms)]
    alphabet = base.alphabet
    inst = replace(base, initial=tuple(alphabet[x] for x in state))
    result = by_optimal_cube(SantaPuzzle(inst), tables=cube3_qtm_small[1])
    assert result.status.value == "feasible" and result.length <= len(scramble.split("."))
    assert check(inst, ".".join(result.moves)).valid


def test_every_santa_3x3x3_reads_as_a_cube_of_face_colours() -> None:
    """Plain, checkerboard and distinct-label goals: each piece found by its labels, the colours a
    valid cube with its centres a rotation of home."""
    from exact.puzzles.cube.cubies import check_invariants, read_cubies
    from exact.puzzles.cube.geometry import FACES
    from exact.santa.cube3 import SANTA_FACES, face_colours, frames, home_rotation, to_ours

    ours = np.array([FACES.index(f) for f in SANTA_FACES])
    for i in range(30, 150):
        p = SantaPuzzle(instances()[i])
        colours = face_colours(p.start, p.goal)
        assert np.array_equal(face_colours(p.goal, p.goal), np.arange(54) // 9)
        home = colours[frames().rots[home_rotation(colours)]]
        check_invariants(read_cubies(ours[home[to_ours()]], 3))


def test_the_3x3x3_solver_says_limit_when_its_table_cannot_be_ready_in_time(monkeypatch) -> None:
    from exact.santa import cube3

    monkeypatch.setattr("exact.pdb.store.setup_estimate", lambda specs, directory=None: (False, 240.0))
    result = cube3.by_optimal_cube(SantaPuzzle(instances()[31]), time_limit=5)
    assert result.status.value == "limit" and "building" in result.extra["limit"]


def test_a_type_s_network_guides_the_beam_to_a_replayed_answer(tmp_path) -> None:
    """learned.santa: a network trained on one type (here briefly, and tiny) and the beam it
    guides, answered for the puzzle itself; a puzzle of another solution state is not its."""
    pytest.importorskip("torch")
    from learned.santa import beam_solve, model_dir, train_type

    train_type("wreath_6/6", tmp_path, seconds=None, steps=30, batch=256, max_walk=12, preset="resmlp-tiny")
    model = model_dir(tmp_path, "wreath_6/6") / "model.safetensors"
    result = beam_solve(instances()[285], model, time_limit=60)
    assert result is not None and result.status.value == "feasible" and result.solver == "beam"
    assert check(instances()[285], ".".join(result.moves)).valid
    assert beam_solve(instances()[140], model) is None  # cube_3/3/3 with distinct labels


def test_an_answer_ends_as_soon_as_the_wildcards_allow() -> None:
    inst = next(i for i in instances() if i.wildcards and i.type == "wreath_12/12")
    puzzle = SantaPuzzle(inst)
    proof = prove(puzzle, time_limit=60)
    t = table(inst.type)
    padded = list(proof.moves and [t.names.index(m) for m in proof.moves]) + [0, 1]  # two moves that cancel
    assert puzzle.solved_prefix(padded) == padded[: proof.length]
    exact = SantaPuzzle(instances()[284])  # no wildcards: nothing is cut
    assert exact.solved_prefix([0, 1]) == [0, 1]


def test_a_types_colour_goal_does_not_depend_on_the_processs_string_hashing():
    import os
    import subprocess
    import sys

    code = "from exact.puzzles.santa.instances import colour_goal; print(';'.join(colour_goal('cube_33/33/33')))"
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout  # fmt: skip
        for seed in ("1", "2", "3", "4")
    }
    assert len(seen) == 1 and seen.pop().strip() == ";".join(instances()[281 - instances()[0].id].solution)
