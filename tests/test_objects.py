"""The notebook API (puzzleopt): immutable states that agree with the functional API, pictures
whose stickers carry the state's colours, result cards, and the kociemba-style one-liner."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry, solvers
from exact.moves import cube_moves
from exact.puzzles.cube import scramble, solved_state, to_facelets
from exact.puzzles.freecell.cards import NAMES
from puzzleopt import (
    Cube,
    FreeCell,
    LightsOut,
    Pancake,
    Pyraminx,
    Sokoban,
    State,
    Tiles,
    certify,
    solve,
    solve_facelets,
)  # fmt: skip

ROOT = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
# The WCA's Western scheme, written out here rather than read from the code under test.
STANDARD = {"U": "#ffffff", "R": "#b71234", "F": "#009b48", "D": "#ffd500", "L": "#ff5800", "B": "#0046ad"}


def _rects(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(SVG + "rect"))


# ---------------------------------------------------------------- the object and functional APIs
def test_apply_matches_the_move_table():
    seq = "R U R' U' F2 D' L B2"
    table = cube_moves(3, "faces", "qtm")
    assert np.array_equal(Cube(3).apply(seq).labels, table.apply(solved_state(3), seq))
    assert Cube(3).apply(seq).facelets == to_facelets(table.apply(solved_state(3), seq))
    htm = cube_moves(4, "faces", "htm")
    assert np.array_equal(Cube(4, metric="htm").apply("R2 U F'").labels, htm.apply(solved_state(4), "R2 U F'"))


@pytest.mark.parametrize(
    ("state", "method", "options"),
    [
        (lambda: Cube(2).apply("R U F'"), "bfs", {}),
        (lambda: Tiles(8).apply("R D L D R"), "cp-sat", {"horizon": 6}),
        (lambda: Tiles(8).apply("R D L D R"), "ida*", {}),
        (lambda: LightsOut(5).apply("a1 c3 e5"), "lightsout", {}),
        (lambda: Pancake(6).apply("f4 f6 f3"), "ida*", {}),
    ],
)
def test_solve_gives_what_the_functional_api_gives(state, method, options):
    s = state()
    mine = s.solve(method=method, time_limit=60, **options)
    theirs = solvers.solve(s.puzzle, s.labels, method=method, limits=solvers.Limits(time=60), **options)
    assert (mine.status, mine.moves, mine.length, mine.lower_bound) == (
        theirs.status, theirs.moves, theirs.length, theirs.lower_bound,
    )  # fmt: skip
    assert mine.status.value == "optimal"
    assert s.apply(list(mine.moves)).is_solved
    assert solve(s, method=method, time_limit=60, **options).moves == mine.moves


def test_the_models_take_their_horizon_from_the_path():
    s = Cube(3).apply("R U")
    assert s.solve(method="mip").moves == ("U'", "R'")
    assert s.solve(method="cpsat").length == 2
    refused = Cube.from_facelets(s.facelets)
    assert refused.path is None
    with pytest.raises(ValueError, match="horizon"):
        refused.solve(method="mip")
    assert refused.solve(method="mip", horizon=3).length == 2


@pytest.mark.parametrize("seed", [4, 5])
def test_the_mip_method_is_the_mip_command_proven_and_equal_to_cp_sat(seed):
    s = Cube(3).scramble(8, rng=seed)  # before: 'limit, no solution (bound 5)' after 82 s on seed 4
    r = s.solve(method="mip", time_limit=240)
    assert r.status.value == "optimal" and r.lower_bound == r.length, r
    assert r.extra["proof"]["incumbent_source"].startswith("the scramble's inverse")  # the path undone, as the CLI's
    assert r.length == s.solve(method="cpsat", time_limit=240).length
    assert s.apply(list(r.moves)).is_solved


def test_the_whole_model_is_an_option_of_the_mip_method():
    r = Cube(3).apply("R U").solve(method="mip", split=False)
    assert r.status.value == "optimal" and r.moves == ("U'", "R'") and "proof" not in r.extra


def test_to_pyomo_and_to_cpsat_return_unsolved_models():
    pyo = pytest.importorskip("pyomo.environ")
    s = Cube(2).apply("R U")
    m = s.to_pyomo(2)
    assert isinstance(m, pyo.ConcreteModel) and m.nvariables() > 0
    res = pyo.SolverFactory("appsi_highs").solve(m)
    assert str(res.solver.termination_condition) == "optimal"
    assert hasattr(s.to_cpsat(2), "model")


def test_certify_proves_or_shortens():
    s = Cube(2).apply("R U")
    assert certify(s, "U' R'", method="bfs").verdict == "optimal"
    long = s.certify("R R' U' R'", method="bfs")
    assert long.verdict == "suboptimal" and long.gap == 2 and long.length == 2


def test_a_certificate_shows_its_verdict_and_the_solution_given():
    t = Tiles(8).scramble(20, rng=0)
    best = t.solve(method="ida")
    c = t.certify(" ".join(best.moves) + " D U")
    line = str(c)
    assert line.startswith("tiles8: suboptimal;") and f"given {best.length + 2} moves:" in line
    assert " ".join(best.moves) + " D U" in line and "gap 2" in line and f"lower bound {best.length}" in line
    d = json.loads(c.to_json())
    assert list(d)[:6] == ["verdict", "given", "given_length", "best_length", "gap", "method"]
    assert d["verdict"] == "suboptimal" and d["given_length"] == best.length + 2 and d["best_length"] == best.length
    card = c._repr_html_()
    assert ">suboptimal<" in card and "D U" in card
    assert "optimal;" in str(t.certify(" ".join(best.moves)))


# ---------------------------------------------------------------- immutability
def test_states_are_immutable():
    s = Cube(3)
    t = s.apply("R")
    assert s.is_solved and not t.is_solved and s != t
    with pytest.raises(AttributeError, match="immutable"):
        s._labels = t.labels
    with pytest.raises(ValueError):
        t.labels[0] = 0
    assert t.path == ("R",) and s.path == ()
    assert s == Cube(3).apply("R R'") and hash(s) == hash(Cube(3).apply("U U'"))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), length=st.integers(0, 12))
def test_a_scramble_undone_is_solved(n, seed, length):
    s = Cube(n).scramble(length, seed)
    assert len(s.path) == length and s == Cube(n).scramble(length, np.random.default_rng(seed))
    table = s.puzzle.table
    undo = [table.names[table.inverse[table.names.index(m)]] for m in reversed(s.path)]
    assert s.apply(undo).is_solved
    assert Cube.from_facelets(s.facelets) == s


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(0, 30))
def test_boards_round_trip(seed, length):
    t = Tiles(15).scramble(length, seed)
    assert Tiles.from_board(t.board) == t
    lo = LightsOut(5, 6).scramble(length, seed)
    assert LightsOut.from_board(lo.board, rows=5) == lo and lo.lights.shape == (5, 6)


def test_bad_states_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="54 integer labels"):
        State("cube3", np.zeros(10, np.uint8))
    with pytest.raises(ValueError, match="0..5"):
        State("cube3", np.full(54, 7))
    with pytest.raises(ValueError, match="unknown move 'Q'"):
        Cube(3).apply("R Q")
    with pytest.raises(ValueError, match="whole number"):
        Cube(3).scramble(-1, 0)


# ---------------------------------------------------------------- pictures
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_the_net_shows_each_stickers_colour(n):
    s = Cube(n).scramble(25, n)
    letters = s.facelets  # kociemba's string: face f, row r, column c at f*n*n + r*n + c
    rects = _rects(s.svg())
    assert len(rects) == 6 * n * n
    where = {}
    for r in rects:
        f, row, col = r.get("data-face"), int(r.get("data-row")), int(r.get("data-col"))
        i = "URFDLB".index(f) * n * n + row * n + col
        assert r.get("fill") == STANDARD[letters[i]], (f, row, col)
        where[f, row, col] = (float(r.get("x")), float(r.get("y")))
    # the cross: L F R B left to right on one band, U above F, D below it; rows go down, columns right
    x = {f: where[f, 0, 0][0] for f in "URFDLB"}
    y = {f: where[f, 0, 0][1] for f in "URFDLB"}
    assert x["L"] < x["F"] == x["U"] == x["D"] < x["R"] < x["B"]
    assert y["U"] < y["F"] == y["L"] == y["R"] == y["B"] < y["D"]
    assert where["F", n - 1, 0][1] > where["F", 0, 0][1] and where["F", 0, n - 1][0] > where["F", 0, 0][0]
    assert s._repr_svg_() == s.svg()


def test_boards_are_drawn_cell_by_cell():
    t = Tiles(8).apply("R D")
    cells = _rects(t.svg())
    assert len(cells) == 9
    labels = [x.text for x in ET.fromstring(t.svg()).iter(SVG + "text")]
    assert sorted(int(v) for v in labels) == list(range(1, 9))
    blank = int(np.flatnonzero(t.labels == 0)[0])
    assert [c.get("fill") for c in cells].count(cells[blank].get("fill")) == 1
    lo = LightsOut(3).apply("b2")
    lit = {c.get("data-name") for c in _rects(lo.svg()) if c.get("fill") == "#ffd84d"}
    assert lit == {"b1", "a2", "b2", "c2", "b3"}


def test_a_puzzle_without_a_picture_says_so():
    p = Pancake(5)
    assert p._repr_svg_() is None
    with pytest.raises(ValueError, match="no picture"):
        p.svg()


@pytest.mark.parametrize("tips", [True, False])
def test_the_pyraminx_net_keeps_each_tip_at_its_vertex(tips):
    from exact.puzzles.pyraminx.geometry import COLOURS, OPPOSITE, stickers

    solved = ET.fromstring(Pyraminx(tips).svg())
    shown = [x for x in solved.iter(SVG + "polygon") if x.get("data-index") is not None]
    assert len(shown) == (36 if tips else 24)
    assert all(x.get("data-color") == COLOURS[x.get("data-face")] for x in shown)  # one colour per face
    # Scrambled: a tip only twists in place, so the stickers at a vertex show the colours of the
    # three faces that meet there, whatever the scramble (checked on the picture, by position).
    p = Pyraminx(tips).scramble(30, 5)
    colours = {int(x.get("data-index")): x.get("data-color") for x in ET.fromstring(p.svg()).iter(SVG + "polygon")
               if x.get("data-index") is not None}  # fmt: skip
    for v in "ULRB":
        at = [i for i, st in enumerate(stickers(tips)) if st.kind in ("tip", "axial") and st.at == (v,)]
        faces = {f for f, o in OPPOSITE.items() if o != v}
        for kind in ("tip", "axial") if tips else ("axial",):
            mine = {colours[i] for i in at if stickers(tips)[i].kind == kind}
            assert mine == {COLOURS[f] for f in faces}, (v, kind)


def test_sokoban_and_freecell_states_solve_and_draw():
    s = Sokoban("boxoban-test:0")  # the shipped set (instances/data)
    cells = _rects(s.svg())
    level = s.puzzle.level_of(s.labels)
    content = {int(c.get("data-cell")): c.get("data-content") for c in cells if c.get("data-cell")}
    assert {i for i, ch in content.items() if ch in "$*"} == set(level.boxes)
    assert {i for i, ch in content.items() if ch in "@+"} == {level.player}
    r = s.solve(time_limit=60)
    assert r.status.value == "optimal" and s.apply(list(r.moves)).is_solved
    assert Sokoban.from_board(s.board) == s
    f = FreeCell(617)
    names = [c.get("data-card") for c in _rects(f.svg()) if c.get("data-card")]
    assert sorted(names) == sorted(NAMES[c] for col in f.start.cascades for c in col) and len(names) == 52
    r = f.solve(time_limit=60)  # auto: FreeCell's own solver (a solution, not proven shortest)
    assert r.status.value == "feasible" and f.apply(list(r.moves)).is_solved
    assert FreeCell.from_board(f.board) == f
    with pytest.raises(ValueError, match="no random scramble"):
        f.scramble(3, 0)


def test_the_result_card_is_well_formed_and_complete():
    r = Cube(3).apply("R U").solve(method="mip")
    card = ET.fromstring(r._repr_html_())
    text = "".join(card.itertext())
    for word in ("optimal", "U' R'", "lower bound", "highs", "no solution shorter than 2 moves"):
        assert word in text
    assert str(r).startswith("cube3: optimal, 2 moves: U' R'")
    limit = Tiles(15).apply("R R D D L U R D D L L U").solve(method="cp-sat", horizon=2)
    assert "no solution of at most 2 moves" in "".join(ET.fromstring(limit._repr_html_()).itertext())


# ---------------------------------------------------------------- the one-liner
def test_solve_facelets_solves_and_agrees_with_kociemba():
    kociemba = pytest.importorskip("kociemba")
    assert solve_facelets(to_facelets(solved_state(3)), method="bfs") == ""
    state, text = scramble(3, 5, np.random.default_rng(3), "faces", "htm")
    facelets = to_facelets(state)
    ours = solve_facelets(facelets, metric="htm", method="bfs")  # kociemba counts half turns as one
    theirs = kociemba.solve(facelets)
    table = cube_moves(3, "faces", "htm")
    for answer in (ours, theirs):  # the same notation: both solve the cube here
        assert registry.get("cube3", metric="htm").solved(table.apply(state, answer))
    assert len(ours.split()) <= min(5, len(theirs.split()))


# ---------------------------------------------------------------- matplotlib's backend
def test_importing_the_project_leaves_the_backend_alone():
    code = (
        "import matplotlib\nmatplotlib.use('svg')\n"
        "import exact, exact.plots, hybrid, hybrid.verify, puzzleopt\n"
        "from puzzleopt import Cube\nCube(2).apply('R')\n"
        "try:\n    import learned.evaluate, learned.davi\nexcept ImportError:\n    pass\n"
        "assert matplotlib.get_backend().lower() == 'svg', matplotlib.get_backend()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


# ---------------------------------------------------------------- animations and --svg
def test_an_animation_shows_each_position_in_turn(tmp_path):
    s = Cube(2).apply("R U F'")
    r = s.solve(method="bfs")
    a = s.animate(r)
    assert a.captions == ("start", *(f"{k + 1}. {m}" for k, m in enumerate(r.moves)))
    assert ET.fromstring(a.pictures[-1]) is not None and len(a.pictures) == r.length + 1
    last = {(x.get("data-face"), x.get("data-color")) for x in _rects(a.pictures[-1])}
    assert all(face == colour for face, colour in last)  # the last frame is solved
    doc = ET.fromstring(a.svg())
    groups = [g for g in doc if g.get("data-frame") is not None]
    assert len(groups) == len(a.pictures) and [g.get("visibility") for g in groups].count("visible") == 1
    assert all(g.find(SVG + "animate") is not None for g in groups)
    ET.fromstring(a.html())  # the player is well formed (XHTML)
    assert a.save(tmp_path / "a.svg").read_text() == a.svg()
    assert "<!DOCTYPE html>" in a.save(tmp_path / "a.html").read_text()
    with pytest.raises(ValueError, match=r"\.svg .* or \.html"):
        a.save(tmp_path / "a.gif")


@pytest.mark.parametrize(
    ("module", "argv"),
    [
        ("exact.moves", ["--scramble", "R U"]),
        ("exact.cpsat", ["--size", "2", "--turns", "3", "--scramble", "R U F"]),
        ("exact.lightsout", ["--size", "3", "--lights", "110001000"]),
        ("exact.freecell", ["--deal", "617", "--time-limit", "60"]),
        ("exact.sokoban", ["--level", "boxoban-test:0"]),
    ],
)
def test_the_clis_write_the_picture_they_print(module, argv, tmp_path, capsys):
    import importlib

    main = importlib.import_module(module if module == "exact.moves" else module + ".__main__").main
    out = tmp_path / "p.svg"
    assert main([*argv, "--svg", str(out)]) == 0
    assert len(_rects(out.read_text())) > 8
    capsys.readouterr()
    from exact import cli

    assert cli.run(main, [*argv, "--svg", str(tmp_path / "missing" / "p.svg")]) == cli.EXIT_BAD_INPUT
    assert "--svg" in capsys.readouterr().err


@pytest.mark.parametrize("n", [2, 3, 5, 7])
def test_the_net_rendered_to_png_shows_the_facelet_strings_colours(n, tmp_path):
    """The picture as pixels: each sticker's centre in the PNG has the standard colour of the
    facelet string's letter there (and the PNG is kept in tmp_path to look at)."""
    import io

    from matplotlib.image import imread

    from exact.plots import png_bytes, svg_figure

    s = Cube(n).scramble(40, 100 + n)
    png = png_bytes(svg_figure(s.svg()))
    (tmp_path / f"cube{n}.png").write_bytes(png)
    pixels = imread(io.BytesIO(png))[:, :, :3]
    letters = s.facelets
    for r in _rects(s.svg()):
        i = "URFDLB".index(r.get("data-face")) * n * n + int(r.get("data-row")) * n + int(r.get("data-col"))
        cx = float(r.get("x")) + float(r.get("width")) / 2
        cy = float(r.get("y")) + float(r.get("height")) / 2
        got = pixels[int(cy), int(cx)]
        want = np.array([int(STANDARD[letters[i]][k : k + 2], 16) / 255 for k in (1, 3, 5)])
        assert np.abs(got - want).max() < 0.02, (i, letters[i], got, want)


def test_the_models_take_a_tile_path_undone_as_their_hint():
    s = Tiles(8).apply("R D L")  # tile actions resolve state by state: the hint is read from the goal
    r = s.solve(method="cpsat")
    assert r.status.value == "optimal" and r.length == 3 and s.apply(list(r.moves)).is_solved


def test_states_pickle_and_copy():
    """Issue 63: multiprocessing, joblib and caches pickle states; "Cube is immutable" stopped them."""
    import copy
    import pickle

    states = [Cube(3).apply("R U"), Cube(2, metric="htm").apply("R2"), Tiles(8).scramble(5, rng=0), LightsOut(3, 3),
              FreeCell(1)]  # fmt: skip
    for s in states:
        back = pickle.loads(pickle.dumps(s))
        assert type(back) is type(s) and back == s and back.path == s.path and back.puzzle.name == s.puzzle.name
        assert copy.copy(s) is s and copy.deepcopy(s) is s  # immutable: a copy is the state itself
    assert pickle.loads(pickle.dumps(states[0])).solve(method="bfs").moves == ("U'", "R'")


def test_a_state_lists_its_moves_neighbours_and_inverse_and_prints_itself():
    """What python-chess and magiccube users expect of a state (issue 64)."""
    cube = Cube(3).apply("R U")
    assert cube.legal_moves == cube.puzzle.table.names and len(cube.neighbors()) == 12
    assert all(n == cube.apply(m) for m, n in cube.neighbors())
    inv = cube.inverse()
    assert Cube(3).apply("U' R'") == inv and cube.apply("U' R'").is_solved  # the undoing moves reach it
    assert str(cube).splitlines()[0].split() == ["U", "U", "U"] and len(str(cube).splitlines()) == 9  # the net
    assert Tiles(8).legal_moves == ("D", "R")  # the blank in its corner: two moves, not four
    assert set(Tiles(8).apply("R D").legal_moves) == {"U", "D", "L", "R"}  # in the middle: four
    assert str(Tiles(8)).splitlines() == [". 1 2", "3 4 5", "6 7 8"]
    with pytest.raises(ValueError, match="no inverse states"):
        Tiles(8).inverse()
    assert str(LightsOut(3, 3).apply("a1")).splitlines() == ["##.", "#..", "..."]


def test_moves_from_pyomo_reads_a_model_the_user_solved():
    pyo = pytest.importorskip("pyomo.environ")
    cube = Cube(2).apply("R U")
    for formulation in ("tight", "pairs", "seed"):
        model = cube.to_pyomo(2, formulation=formulation)
        pyo.SolverFactory("appsi_highs").solve(model)
        moves = cube.moves_from_pyomo(model)
        assert len(moves) == 2 and cube.apply(list(moves)).is_solved, formulation
    with pytest.raises(ValueError, match="do not bring this state to the goal"):
        cube.moves_from_pyomo(cube.to_pyomo(2))  # not solved
