"""Lights Out: move table, text round trips, the three exact methods against brute force and each
other, singular boards, DeepCubeA's 500 7x7 states, the command line."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from conftest import shared_data
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import cli
from exact.errors import PuzzleoptError, StateError
from exact.lightsout import METHODS, min_presses, press_system, solve_gf2, solve_lightsout
from exact.lightsout.__main__ import main as lightsout_main
from exact.puzzles.lightsout import (
    LightsOutPuzzle,
    column_letters,
    draw_lights,
    format_lights,
    lights_to_state,
    lightsout_moves,
    parse_lights,
    press_matrix,
    state_to_lights,
)
from exact.result import Status

FAST = settings(max_examples=40, deadline=None)
SHAPES = st.tuples(st.integers(1, 9), st.integers(1, 9))


@st.composite
def boards(draw, shapes=SHAPES):
    """(rows, cols, lights): any lights on a board of up to 9 x 9."""
    rows, cols = draw(shapes)
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rows, cols, rng.random((rows, cols)) < draw(st.floats(0.0, 1.0))


def toggled(rows: int, cols: int, presses: np.ndarray) -> np.ndarray:
    """bool ``(B, N)``: the lights a batch of press sets ``(B, N)`` toggles (``A x mod 2``)."""
    return ((np.asarray(presses, np.int64) @ press_matrix(rows, cols).T.astype(np.int64)) & 1).astype(bool)


def brute_force(rows: int, cols: int) -> np.ndarray:
    """int ``(2**N,)``: the fewest presses for every board (lights read as bits, cell i = bit i); -1 if none.

    Every one of the ``2**N`` press sets is tried: the independent check of the other methods.
    """
    n = rows * cols
    sets = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
    code = toggled(rows, cols, sets).astype(np.int64) @ (1 << np.arange(n))
    best = np.full(2**n, n + 1)
    np.minimum.at(best, code, sets.sum(axis=1))
    return np.where(best > n, -1, best)


# ------------------------------------------------------------------------------- move table
def test_move_table_layout_and_names():
    t = lightsout_moves(7)
    assert t.num_moves == 49 and t.num_positions == 98 and not t.guarded
    assert t.names[0] == "a1" and t.names[6] == "g1" and t.names[48] == "g7"
    assert t.description == "lightsout 7x7" and dict(t.metadata) == {"puzzle": "lightsout", "rows": 7, "cols": 7}
    assert lightsout_moves(2, 3).names == ("a1", "b1", "c1", "a2", "b2", "c2")
    assert [column_letters(c) for c in (0, 25, 26, 27, 51, 52)] == ["a", "z", "aa", "ab", "az", "ba"]
    assert lightsout_moves(1, 28).names[-1] == "ab1"
    assert t.parse("a1 g7 d4") == [0, 48, 24]


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (3, 4), (4, 4), (7, 7)])
def test_presses_are_self_inverse_commuting_and_toggle_the_neighbourhood(rows, cols):
    t = lightsout_moves(rows, cols)
    ident = np.arange(t.num_positions)
    for m in range(t.num_moves):
        np.testing.assert_array_equal(t.perms[m][t.perms[m]], ident)  # pressing twice is nothing
    np.testing.assert_array_equal(t.inverse, np.arange(t.num_moves))
    assert t.commutes.all()
    # The permutation flips exactly the lights the press matrix says.
    a = press_matrix(rows, cols)
    goal = lights_to_state(np.zeros(rows * cols, bool))
    for m in range(t.num_moves):
        np.testing.assert_array_equal(state_to_lights(goal[t.perms[m]], rows, cols).ravel(), a[:, m])
    assert (a == a.T).all() and a.sum() == 5 * rows * cols - 2 * (rows + cols)


@FAST
@given(boards(), st.integers(0, 2**32 - 1))
def test_a_press_sequence_toggles_its_parity(case, seed):
    rows, cols, b = case
    t = lightsout_moves(rows, cols)
    seq = np.random.default_rng(seed).integers(0, t.num_moves, 12)
    end = t.apply(lights_to_state(b), seq)
    parity = np.bincount(seq, minlength=t.num_moves) % 2
    np.testing.assert_array_equal(
        state_to_lights(end, rows, cols).ravel(), b.ravel() ^ toggled(rows, cols, parity[None])[0]
    )
    assert t.parse(t.format(seq)) == list(seq)


# ------------------------------------------------------------------------------- text
@FAST
@given(boards())
def test_text_round_trips(case):
    rows, cols, b = case
    text = format_lights(b)
    assert len(text) == rows * cols and set(text) <= {"0", "1"}
    np.testing.assert_array_equal(parse_lights(text, rows, cols), b)
    state = lights_to_state(b)
    assert state.dtype == np.uint8 and state.shape == (2 * rows * cols,)
    np.testing.assert_array_equal(state_to_lights(state, rows, cols), b)
    p = LightsOutPuzzle(rows, cols)
    assert p.format_state(p.parse_state(text)) == text
    np.testing.assert_array_equal(p.parse_state(text), state)
    for form in (text, b, b.ravel().astype(np.uint8), state):
        np.testing.assert_array_equal(p.lights(form), b)
    spaced = " ".join(text[r * cols : (r + 1) * cols] for r in range(rows))  # whitespace is ignored
    np.testing.assert_array_equal(parse_lights(spaced, rows, cols), b)
    assert draw_lights(b).count("#") == b.sum()


def test_puzzle_protocol():
    p = LightsOutPuzzle()
    assert p.name == "lightsout7x7" and (p.rows, p.cols) == (7, 7) and p.num_labels == 2
    assert p.goal.tolist() == [0, 1] * 49 and p.is_goal(p.goal[None])[0]
    p = LightsOutPuzzle(3, 4)
    assert p.name == "lightsout3x4"
    walks = p.random_walk(20, 5, np.random.default_rng(0))
    children, rows = p.expand(walks)
    assert children.shape == (20, 12, 24) and (rows >= 0).all()
    assert p.encode(walks).shape == (20, 48)
    for s in walks:  # every state reached by presses is a valid board
        state_to_lights(s, 3, 4)


def test_registry_builds_lightsout():
    from exact import registry

    assert registry.get("lightsout").name == "lightsout7x7"
    assert registry.get("lightsout", rows=3, cols=5).name == "lightsout3x5"


# ------------------------------------------------------------------------------- bad input
def test_malformed_input_names_the_defect():
    with pytest.raises(StateError, match=r"expected 9 lights \(3x3\), got 8"):
        parse_lights("10101010", 3, 3)
    with pytest.raises(StateError, match=r"character 3, 'x', is not 0 or 1"):
        parse_lights("10x101010", 3)
    with pytest.raises(StateError, match="character 2, '2'"):
        LightsOutPuzzle(3).parse_state("120000000")
    for rows, cols in [(0, 3), (3, 0), (-1, 2)]:
        with pytest.raises(PuzzleoptError, match="too small"):
            LightsOutPuzzle(rows, cols)
    with pytest.raises(PuzzleoptError, match="integer"):
        LightsOutPuzzle(3.0)
    with pytest.raises(PuzzleoptError, match="at most 1024"):
        lightsout_moves(40, 40)
    with pytest.raises(StateError, match=r"cell 1 \(slots 2, 3\) holds 1 1"):
        state_to_lights(np.array([0, 1, 1, 1]), 1, 2)
    with pytest.raises(StateError, match="shape"):
        LightsOutPuzzle(3).lights(np.zeros(7, np.uint8))
    with pytest.raises(PuzzleoptError, match="unknown lightsout method 'bfs'"):
        solve_lightsout(3, "000000000", method="bfs")
    with pytest.raises(PuzzleoptError, match="time_limit"):
        solve_lightsout(3, "000000000", time_limit=0)


# ------------------------------------------------------------------------------- gf2 against brute force
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 6), (2, 2), (2, 5), (3, 3), (3, 4), (4, 4), (5, 3)])
def test_gf2_equals_brute_force_on_every_board(rows, cols):
    n = rows * cols
    best = brute_force(rows, cols)
    lights = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(bool)
    presses, ok = min_presses(rows, cols, lights)
    np.testing.assert_array_equal(ok, best >= 0)
    np.testing.assert_array_equal(np.where(ok, presses.sum(axis=1), -1), best)
    np.testing.assert_array_equal(toggled(rows, cols, presses[ok]), lights[ok])
    assert ok.sum() == 2 ** press_system(rows, cols).rank  # the column space


def test_nullity_of_square_boards():
    # OEIS A075462: dimension of the kernel of the n x n Lights Out matrix over GF(2).
    known = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0]
    assert [press_system(n).nullity for n in range(1, 21)] == known
    for n in (4, 5, 9):
        basis = press_system(n).null_basis
        assert not toggled(n, n, basis).any()  # the "quiet patterns" change no light


@FAST
@given(boards(st.sampled_from([(4, 4), (5, 5), (9, 9), (2, 3), (5, 11)])))
def test_solvable_iff_orthogonal_to_every_quiet_pattern(case):
    # A is symmetric, so its column space is the orthogonal complement of its null space.
    rows, cols, b = case
    quiet = press_system(rows, cols).null_basis.astype(np.int64)
    expected = not ((quiet @ b.ravel().astype(np.int64)) & 1).any()
    presses, ok = min_presses(rows, cols, b)
    assert ok[0] == expected
    if expected:
        np.testing.assert_array_equal(toggled(rows, cols, presses)[0], b.ravel())


def test_gf2_gives_proven_results():
    p = LightsOutPuzzle(5)
    r = solve_gf2(p, "1" * 25)
    assert r.status is Status.OPTIMAL and r.length == r.lower_bound == 15  # the classic all-on 5x5
    assert r.nodes == 4 and r.extra["nullity"] == 2
    assert solve_gf2(p, "0" * 25).length == 0


def test_gf2_refuses_a_coset_beyond_its_limit(monkeypatch):
    import exact.lightsout.gf2 as gf2

    monkeypatch.setattr(gf2, "MAX_NULLITY", 3)  # 4x4 has nullity 4
    with pytest.raises(PuzzleoptError, match=r"nullity 4.*2\*\*4 solutions.*'mip' or 'cpsat'"):
        solve_gf2(LightsOutPuzzle(4), "1" * 16)
    assert solve_gf2(LightsOutPuzzle(4), "1" + "0" * 15).status is Status.UNSOLVABLE  # no coset to search


# ------------------------------------------------------------------------------- three methods
def _boards_for_agreement():
    """Seeded boards of sizes 2..9: random lights (often unsolvable on singular sizes), and boards
    made by random presses (always solvable) where the MIP would otherwise prove infeasibility slowly."""
    rng = np.random.default_rng(20240607)
    out = []
    for rows, cols in [(2, 2), (2, 3), (3, 3), (4, 4), (3, 5), (5, 5), (4, 6), (6, 6), (2, 9), (7, 5)]:
        out.append((rows, cols, rng.random((rows, cols)) < 0.5))
    for rows, cols in [(5, 5), (7, 7), (8, 6), (9, 9)]:
        presses = rng.random(rows * cols) < 0.5
        out.append((rows, cols, toggled(rows, cols, presses[None])[0].reshape(rows, cols)))
    return out


@pytest.mark.parametrize(("rows", "cols", "lights"), _boards_for_agreement())
def test_three_methods_agree(rows, cols, lights):
    results = {m: solve_lightsout((rows, cols), lights, method=m, time_limit=60) for m in METHODS}
    statuses = {r.status for r in results.values()}
    assert len(statuses) == 1 and statuses <= {Status.OPTIMAL, Status.UNSOLVABLE}, results
    assert len({r.length for r in results.values()}) == 1
    presses, ok = min_presses(rows, cols, lights)
    assert ok[0] == (results["gf2"].status is Status.OPTIMAL)
    if ok[0]:
        assert results["mip"].length == int(presses.sum())
        assert all(r.lower_bound == r.length for r in results.values())


@pytest.mark.parametrize("method", list(METHODS))
def test_singular_5x5(method):
    # A single lit corner meets one quiet pattern of 5x5 an odd number of times: unsolvable.
    corner = "1" + "0" * 24
    quiet = press_system(5).null_basis
    assert (quiet[:, 0] == 1).any()
    r = solve_lightsout(5, corner, method=method, time_limit=60)
    assert r.status is Status.UNSOLVABLE and r.length is None and r.exit_code == 3
    # All lights on: 15 presses (the known minimum), found by every method.
    r = solve_lightsout(5, "1" * 25, method=method, time_limit=60)
    assert r.status is Status.OPTIMAL and r.length == 15


@pytest.mark.parametrize("method", ["mip", "cpsat"])
def test_a_time_limit_ends_honestly(method):
    lights = np.random.default_rng(3).random((20, 20)) < 0.5
    best = solve_lightsout(20, lights).length  # gf2: 20x20 is nonsingular
    r = solve_lightsout(20, lights, method=method, time_limit=0.05)
    assert r.status in (Status.OPTIMAL, Status.FEASIBLE, Status.LIMIT)  # on this machine: LIMIT for both
    assert r.lower_bound is None or r.lower_bound <= best  # a bound given at the limit is a proven one
    if r.status is Status.FEASIBLE:
        assert r.lower_bound is None or r.lower_bound <= r.length
    if r.status is Status.LIMIT:
        assert r.exit_code == cli.EXIT_LIMIT


# ------------------------------------------------------------------------------- DeepCubeA's 500
def _deepcubea():
    with open(shared_data("lightsout/deepcubea_lightsout7_500.tsv"), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_deepcubea_500_optimal_presses():
    rows = _deepcubea()
    assert len(rows) == 500
    lights = np.array([[c == "1" for c in r["lights_rowmajor_7x7"]] for r in rows])
    known = np.array([int(r["optimal_presses"]) for r in rows])
    presses, ok = min_presses(7, 7, lights)
    assert ok.all()
    np.testing.assert_array_equal(presses.sum(axis=1), known)
    # 7x7 is nonsingular: the press set is unique, so it is the file's too.
    sets = np.array([[c == "1" for c in r["press_set_rowmajor"]] for r in rows])
    np.testing.assert_array_equal(presses, sets)
    assert round(float(known.mean()), 2) == 24.26 and round(float(presses.sum(axis=1).mean()), 2) == 24.26
    p = LightsOutPuzzle(7)
    for r, k in zip(rows[:20], known[:20]):  # through SolveResult, which replays the presses
        res = solve_gf2(p, r["lights_rowmajor_7x7"])
        assert res.status is Status.OPTIMAL and res.length == k
    for r, k in zip(rows[:5], known[:5]):
        assert solve_lightsout(p, r["lights_rowmajor_7x7"], method="cpsat").length == k


# ------------------------------------------------------------------------------- command line
def test_cli_solves_and_draws(capsys):
    lights = "1100010001010001111001111100000101101101001011001"
    assert lightsout_main(["--size", "7", "--lights", lights]) == 0
    out = capsys.readouterr().out
    assert "gf2: optimal, 23 presses" in out and "d1 f1 g1" in out and "  a b c d e f g" in out
    assert lightsout_main(["--rows", "3", "--cols", "4", "--lights", "1010 0110 1111", "--method", "cpsat"]) == 0
    assert "cpsat: optimal, 8 presses" in capsys.readouterr().out


def test_cli_unsolvable_exits_3(capsys):
    assert lightsout_main(["--size", "5", "--lights", "1" + "0" * 24]) == cli.EXIT_NO_SOLUTION
    assert "unsolvable" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--size", "3", "--lights", "10101010"], "expected 9 lights"),
        (["--size", "3", "--lights", "10x101010"], "character 3, 'x'"),
        (["--size", "0", "--lights", ""], "rows = 0 is too small"),
        (["--rows", "2", "--cols", "-1", "--lights", "11"], "cols = -1 is too small"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert cli.run(lightsout_main, argv) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_json_round_trip(capsys):
    lights = "110101011"
    assert lightsout_main(["--size", "3", "--lights", lights, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "optimal" and d["lights"] == lights and d["solver"] == "gf2"
    p = LightsOutPuzzle(3)
    assert p.format_state(np.array(d["start"], np.uint8)) == lights
    end = p.table.apply(np.array(d["start"], np.uint8), d["moves"])
    assert p.is_goal(end[None])[0] and d["length"] == len(d["moves"]) == d["lower_bound"]
