"""GA-FreeCell: the compact board against the board model, the nine heuristics against a plain
reference and hand-made boards, staged deepening (replayed solutions, limits), weights files, the
deal split, the GA (deterministic, resumable) and the command line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from exact.errors import PuzzleoptError
from exact.executor import Processes
from exact.puzzles.freecell import (
    RANK,
    RED,
    Board,
    autoplay,
    card,
    legal_moves,
    ms_deal,
    parse_board,
    replay,
    successors,
)
from exact.puzzles.freecell import kernels as enc
from exact.result import Status
from learned.freecell.__main__ import main as fc_main
from learned.freecell.bench import fc_solve_row, solve_row, summary
from learned.freecell.deals import parse_deals, training_deals
from learned.freecell.deals import test_deals as split_test_deals
from learned.freecell.ga import GASettings, evolve
from learned.freecell.heuristics import HSDH, NAMES, check_weights, features, heuristic
from learned.freecell.hsd import solve_hsd
from learned.freecell.weights import SHIPPED, Weights, WeightsError, hsdh, load, save, shipped

C, D, H, S = range(4)
FC_SOLVE = shutil.which("fc-solve")


def _walk(deal: int, nf: int, steps: int, seed: int) -> list[Board]:
    """Boards of a seeded random game (each move followed by the safe moves home)."""
    rng = np.random.default_rng(seed)
    board, _ = autoplay(ms_deal(deal, nf))
    out = [board]
    for _ in range(steps):
        kids = successors(board, sequences=True, distinct=True, auto=True)
        if not kids:
            break
        board = kids[int(rng.integers(len(kids)))][1]
        out.append(board)
        if board.is_solved():
            break
    return out


BOARDS = [b for deal, nf in ((1, 4), (617, 2), (5, 0), (11982, 7), (20, 1)) for b in _walk(deal, nf, 120, deal)]


# ------------------------------------------------------------------------------------------ compact board
def test_kernels_equal_board_model() -> None:
    out = np.empty(enc.MAX_MOVES, dtype=np.uint16)
    rng = np.random.default_rng(0)
    for board in BOARDS:
        nf = board.num_freecells
        s = enc.encode(board)
        w = (len(s) - enc.CARDS) // 8
        assert enc.decode(s, nf) == board
        n = enc.legal_moves(s, nf, w, out)
        assert [enc.code_move(c) for c in out[:n]] == legal_moves(board, sequences=True, distinct=True)
        keys = enc.child_keys(s, nf, w, enc.ZOBRIST, enc.ZOBRIST_CELL)
        for (moves, child), k in zip(successors(board, sequences=True, distinct=True, auto=True), keys):
            t = s.copy()
            enc.play(t, enc.move_code(moves[0]), w)
            got = np.empty(64, dtype=np.uint16)
            m = enc.autoplay_moves(t, nf, w, got)
            assert enc.decode(t, nf) == child
            assert [enc.code_move(c) for c in got[:m]] == list(moves[1:])
            assert enc.key(enc.encode(child, w), nf, w, enc.ZOBRIST, enc.ZOBRIST_CELL) == k
        # The key ignores the order of cascades and of free cells, and tells these boards apart.
        perm, cells = rng.permutation(8), rng.permutation(nf)
        shuffled = Board(
            tuple(board.cascades[i] for i in perm), tuple(board.freecells[i] for i in cells), board.foundations
        )
        assert enc.key(enc.encode(shuffled, w), nf, w, enc.ZOBRIST, enc.ZOBRIST_CELL) == enc.key(
            s, nf, w, enc.ZOBRIST, enc.ZOBRIST_CELL
        )
    distinct = {b.key() for b in BOARDS}
    hashed = {int(enc.key(enc.encode(b, 20), b.num_freecells, 20, enc.ZOBRIST, enc.ZOBRIST_CELL)) for b in BOARDS}
    assert len(hashed) == len(distinct)


# ------------------------------------------------------------------------------------------ heuristics
def _reference(board: Board) -> list[float]:
    """The nine features written plainly from the docstring of learned.freecell.heuristics."""
    found = board.foundations
    nf = board.num_freecells
    not_home = 52 - sum(found)
    empty_cells = board.freecells.count(None)
    empty_cols = sum(1 for col in board.cascades if not col)
    above = 0
    for s in range(4):
        if found[s] < 13:
            need = card(found[s] + 1, s)
            for col in board.cascades:
                if need in col:
                    above += len(col) - 1 - col.index(need)
    if empty_cells == 0 and empty_cols == 0:
        above *= 2
    well = 0
    for col in board.cascades:
        if col:
            well += 1
            for below, c in zip(col, col[1:]):
                if RANK[below] != RANK[c] + 1 or RED[below] == RED[c]:
                    break
                well += 1
    tops = [RANK[col[-1]] for col in board.cascades if col]
    mean_top = sum(tops) / len(tops) if tops else 0.0
    bottoms = sum(RANK[col[0]] if col else 13 for col in board.cascades)
    return [
        above / 396,
        (not_home - well) / 52,
        not_home / 52,
        1 - (empty_cells + empty_cols) / (nf + 8),
        (mean_top - sum(found) / 4 + 13) / 26,
        (13 - min(found)) / 13,
        (13 - max(found)) / 13,
        (max(found) - min(found)) / 13,
        (104 - bottoms) / 104,
    ]


def test_features_equal_reference_and_lie_in_unit_interval() -> None:
    for board in BOARDS:
        f = features(board)
        assert f.shape == (len(NAMES),)
        assert np.all((f >= 0) & (f <= 1))
        np.testing.assert_allclose(f, _reference(board), atol=1e-12)


def test_features_on_hand_made_boards() -> None:
    solved = Board(((),) * 8, (None,) * 4, (13, 13, 13, 13)).check()
    np.testing.assert_array_equal(features(solved), np.zeros(9))
    # One card left: the king of spades alone in cascade 1.
    one = Board(((card(13, S),),) + ((),) * 7, (None,) * 4, (13, 13, 13, 12)).check()
    want = [0, 0, 1 / 52, 1 / 12, (13 - 51 / 4 + 13) / 26, 1 / 13, 0, 1 / 13, 0]
    np.testing.assert_allclose(features(one), want, atol=1e-12)
    # No free cell, no empty cascade: HSDH doubles. The ten of hearts lies under the king of
    # spades (1 card above it); the nine of spades is free.
    cols = [(card(10, H), card(13, S)), (card(9, S),), (card(11, H),), (card(12, H),), (card(13, H),)]
    cols += [(card(10, S),), (card(11, S),), (card(12, S),)]
    tight = Board(tuple(cols), (), (13, 13, 9, 8)).check()
    f = features(tight)
    assert f[0] == pytest.approx(2 / 396)
    assert f[1] == pytest.approx(1 / 52)  # every bottom card is well placed; the king on the ten is not
    assert f[3] == pytest.approx(1.0)  # nothing empty
    assert f[5] == pytest.approx(5 / 13) and f[6] == 0 and f[7] == pytest.approx(5 / 13)
    # The same board with one free cell: no doubling.
    assert features(Board(tight.cascades, (None,), tight.foundations))[0] == pytest.approx(1 / 396)
    # The start of deal 1: the four aces and the cards on them.
    deal1 = ms_deal(1)
    assert features(deal1)[0] * 396 == pytest.approx(sum(_aces_covered(deal1)))
    assert heuristic(deal1) == pytest.approx(features(deal1)[0])
    assert heuristic(deal1, np.ones(9)) == pytest.approx(features(deal1).sum())


def _aces_covered(board: Board) -> list[int]:
    out = []
    for s in range(4):
        for col in board.cascades:
            if card(1, s) in col:
                out.append(len(col) - 1 - col.index(card(1, s)))
    return out


def test_weights_are_checked() -> None:
    np.testing.assert_array_equal(check_weights(None), HSDH)
    for bad in ([1, 2], [-1] + [0] * 8, [0] * 9, [float("nan")] + [0] * 8, "abc"):
        with pytest.raises(PuzzleoptError, match="weights"):
            check_weights(bad)


# ------------------------------------------------------------------------------------------ staged deepening
@pytest.mark.parametrize(
    ("deal", "weights", "freecells"),
    [(1, None, 4), (617, None, 4), (617, "ga", 4), (2, "ga", 4), (3, "ga", 4), (1000, "ga", 4), (7, "ga", 3)],
)
def test_solutions_replay(deal: int, weights: str | None, freecells: int) -> None:
    w = shipped() if weights == "ga" else hsdh()
    res = solve_hsd(deal, w, k=w.k, tt_limit=w.tt_limit, time_limit=60, freecells=freecells)
    assert res.status is Status.FEASIBLE
    assert res.puzzle == ("freecell" if freecells == 4 else f"freecell-{freecells}fc")
    assert res.extra["deal"] == deal and res.nodes > 0
    assert res.length == len(res.moves) <= res.extra["raw_length"]
    # A fresh board and the moves as notation: every card home.
    assert replay(ms_deal(deal, freecells), " ".join(res.moves)).is_solved()


def test_unshortened_and_board_inputs() -> None:
    text = "Foundations: H-Q C-K D-K S-J\nFreecells:  KS\n: KH QS\n:\n:\n:\n:\n:\n:\n:\n"
    board = parse_board(text)
    res = solve_hsd(board, shorten=False)
    assert res.status is Status.FEASIBLE and replay(board, res.moves).is_solved()
    assert solve_hsd(text).moves == res.moves
    solved = Board(((),) * 8, (None,) * 4, (13, 13, 13, 13))
    assert solve_hsd(solved).length == 0
    one = Board(((card(13, S),),) + ((),) * 7, (None,) * 4, (13, 13, 13, 12))
    assert solve_hsd(one).moves == ("1h",)


def test_weights_bring_their_search_settings() -> None:
    w = shipped()
    res = solve_hsd(617, w)
    assert (res.settings["k"], res.settings["tt_limit"]) == (w.k, w.tt_limit)
    assert res.settings["weights"] == list(w.vector) and res.settings["heuristic"] == "weighted"
    res = solve_hsd(617, w, k=3, tt_limit=1000, node_limit=10**6)
    assert (res.settings["k"], res.settings["tt_limit"]) == (3, 1000)
    assert solve_hsd(1).settings["heuristic"] == "HSDH"


def test_limits_end_with_status_limit() -> None:
    res = solve_hsd(1, node_limit=50)
    assert res.status is Status.LIMIT and res.extra["stopped_by"] == "node_limit" and res.exit_code == 4
    assert res.length is None and res.moves == ()
    res = solve_hsd(11982, time_limit=0.05, tt_limit=10**8)  # unsolvable: only a limit stops it
    assert res.status is Status.LIMIT and res.extra["stopped_by"] in ("time_limit", "open list empty")
    # With a table that is never cleared, the open list of an unsolvable deal runs dry: still a limit.
    res = solve_hsd(11982, time_limit=60, tt_limit=10**8)
    assert res.status is Status.LIMIT and res.extra["stopped_by"] == "open list empty"
    for bad in ({"k": 0}, {"time_limit": -1}, {"node_limit": 0}, {"tt_limit": 0}):
        with pytest.raises(PuzzleoptError):
            solve_hsd(1, **bad)
    with pytest.raises(PuzzleoptError, match="free cells"):
        solve_hsd(ms_deal(1), freecells=3)


def test_node_counts_are_deterministic() -> None:
    a = solve_hsd(617, time_limit=None)
    b = solve_hsd(617, time_limit=None)
    assert (a.nodes, a.moves) == (b.nodes, b.moves)


# ------------------------------------------------------------------------------------------ weights files
def test_weights_file_round_trip(tmp_path) -> None:
    w = Weights(np.linspace(0.1, 0.9, 9), 3, 1234, {"seed": 5})
    path = save(tmp_path / "w.json", w)
    back = load(path)
    assert back.to_dict() == w.to_dict()
    np.testing.assert_array_equal(back.vector, w.vector)
    assert (back.k, back.tt_limit, back.training) == (3, 1234, {"seed": 5})
    assert shipped().training["seed"] is not None and shipped().vector.shape == (9,)


def test_bad_weights_files_fail_clearly(tmp_path) -> None:
    good = Weights(np.full(9, 0.5)).to_dict()
    cases = {
        "missing": None,
        "not json": "{",
        "a list": [1, 2],
        "foreign": {**good, "format": "something-else"},
        "version": {**good, "version": 99},
        "features": {**good, "features": list(reversed(NAMES))},
        "short": {**good, "weights": [0.5] * 8},
        "negative": {**good, "weights": [-0.5] + [0.5] * 8},
        "text": {**good, "weights": ["a"] * 9},
        "search": {**good, "search": {"k": 0}},
    }
    for name, doc in cases.items():
        path = tmp_path / f"{name}.json"
        if doc is not None:
            path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
        with pytest.raises(WeightsError, match=f"weights file {path}") as err:
            load(path)
        assert "format 'puzzleopt-freecell-weights'" in str(err.value)


def test_a_changed_digit_in_a_weights_file_is_caught(tmp_path) -> None:
    path = save(tmp_path / "w.json", Weights(np.full(9, 0.5), training={"seed": 1}))
    assert load(path).training == {"seed": 1}
    text = path.read_text()
    for old, new in [("0.5", "0.6"), ('"seed": 1', '"seed": 2')]:
        (tmp_path / "edited.json").write_text(text.replace(old, new, 1))
        with pytest.raises(WeightsError, match="damaged or edited"):
            load(tmp_path / "edited.json")
    assert load(SHIPPED).training["seed"] == 9  # the shipped file carries its checksum
    assert json.loads(SHIPPED.read_text())["version"] == 2


# ------------------------------------------------------------------------------------------ deals, GA
def test_deal_split() -> None:
    test, train = split_test_deals(), training_deals()
    assert len(test) == len(train) == 1000 and not set(test) & set(train)
    assert all(1 <= d <= 32000 for d in test + train) and 11982 not in train
    assert test == tuple(sorted(test)) and split_test_deals() == test
    assert parse_deals("1-3,7") == [1, 2, 3, 7] and len(parse_deals("test")) == 1000
    with pytest.raises(PuzzleoptError, match="--deals"):
        parse_deals("1-x")


TINY = GASettings(
    population=4,
    deal_population=3,
    deals_per_individual=2,
    opponents=1,
    generations=2,
    node_limit=20_000,
    elite=1,
    finalists=2,
    validation=3,
    training_size=12,
)


def _history(res) -> list[dict]:
    return [{k: v for k, v in h.items() if k != "seconds"} for h in res.history]


def test_ga_is_deterministic_and_resumes(tmp_path) -> None:
    a = evolve(TINY, seed=3, checkpoint=tmp_path / "a.json", progress=False)
    # the searches on 2 worker processes (exact.executor): the same run
    with Processes(2) as executor:
        b = evolve(TINY, seed=3, checkpoint=tmp_path / "b.json", progress=False, executor=executor)
    np.testing.assert_array_equal(a.weights.vector, b.weights.vector)
    assert _history(a) == _history(b) and len(a.history) == 2
    assert (a.weights.training["executor"], b.weights.training["executor"]) == ("in-process", "2 processes")
    # One generation, then resumed to two: the same run.
    one = GASettings(**{**TINY.__dict__, "generations": 1})
    evolve(one, seed=3, checkpoint=tmp_path / "c.json", progress=False)
    assert json.loads((tmp_path / "c.json").read_text())["generation"] == 1
    c = evolve(TINY, seed=3, checkpoint=tmp_path / "c.json", resume=True, progress=False)
    np.testing.assert_array_equal(a.weights.vector, c.weights.vector)
    assert _history(a) == _history(c)
    t = a.weights.training
    assert t["seed"] == 3 and t["settings"]["population"] == 4 and t["generations"] == 2
    assert set(t["validation_deals"]) <= set(training_deals())
    assert np.all((a.weights.vector >= 0) & (a.weights.vector < 1))
    with pytest.raises(PuzzleoptError, match="seed"):
        evolve(TINY, seed=4, checkpoint=tmp_path / "c.json", resume=True, progress=False)
    with pytest.raises(PuzzleoptError, match="does not exist"):
        evolve(TINY, seed=3, checkpoint=tmp_path / "none.json", resume=True, progress=False)
    doc = json.loads((tmp_path / "c.json").read_text())
    del doc["solvers"]
    (tmp_path / "d.json").write_text(json.dumps(doc))
    with pytest.raises(PuzzleoptError, match="damaged"):
        evolve(TINY, seed=3, checkpoint=tmp_path / "d.json", resume=True, progress=False)
    doc = json.loads((tmp_path / "c.json").read_text())
    doc["generation"] = 0  # one changed number, the rest intact
    (tmp_path / "f.json").write_text(json.dumps(doc))
    with pytest.raises(PuzzleoptError, match="damaged or edited"):
        evolve(TINY, seed=3, checkpoint=tmp_path / "f.json", resume=True, progress=False)
    (tmp_path / "e.json").write_text("[1]")
    with pytest.raises(PuzzleoptError, match="not a GA-FreeCell checkpoint"):
        evolve(TINY, seed=3, checkpoint=tmp_path / "e.json", resume=True, progress=False)


# ------------------------------------------------------------------------------------------ bench, CLI
def test_bench_rows() -> None:
    rows = [solve_row(d, hsdh(), 30, repeats=2) for d in (1, 2)]
    assert all(r["solved"] and r["length"] > 0 for r in rows)
    line = summary("hsdh", rows)
    assert line[2] == "2 (100.0%)" and line[-1] == "none"


@pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve (freecell-solver) is not installed")
def test_fc_solve_row() -> None:
    row = fc_solve_row(1, 10)
    assert row["solved"] and row["length"] > 50 and row["nodes"] > 0


def test_cli(tmp_path, capsys) -> None:
    assert fc_main(["solve", "--deal", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "feasible" and replay(ms_deal(1), doc["moves"]).is_solved()
    assert fc_main(["solve", "--deal", "1", "--weights", "hsdh", "--node-limit", "10"]) == 4
    assert "node_limit" in capsys.readouterr().out
    board = tmp_path / "b.txt"
    board.write_text("Foundations: H-Q C-K D-K S-K\nFreecells:\n: KH\n:\n:\n:\n:\n:\n:\n:\n")
    assert fc_main(["solve", "--board", str(board)]) == 0
    assert "1 moves" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    from exact import cli

    assert cli.run(fc_main, ["solve", "--deal", "1", "--weights", str(bad)]) == 2
    assert "weights file" in capsys.readouterr().err
    assert fc_main(["bench", "--deals", "1-2", "--weights", "ga", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["solved"] for r in doc["rows"]["ga"]] == [True, True]
    # the deals on 2 worker processes: the same rows, in deal order (timings aside)
    assert fc_main(["bench", "--deals", "1-2", "--weights", "ga", "--json", "--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    untimed = [{k: v for k, v in r.items() if k != "seconds"} for r in doc["rows"]["ga"]]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in two["rows"]["ga"]] == untimed
    out = tmp_path / "w.json"
    args = ["evolve", "--generations", "1", "--population", "3", "--deal-population", "3", "--node-limit", "5000"]
    assert fc_main([*args, "--validation", "2", "--seed", "1", "--out", str(out), "--no-progress"]) == 0
    assert load(out).training["generations"] == 1 and (tmp_path / "w.checkpoint.json").exists()


def test_never_imports_torch() -> None:
    code = "import sys, learned.freecell, learned.freecell.__main__, learned.freecell.bench\n"
    code += "assert not [m for m in sys.modules if m == 'torch' or m.startswith('torch.')]\n"
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
