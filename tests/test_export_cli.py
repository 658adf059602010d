"""Move-table export (JSON, the case study's lm CSV) and the exact.moves command line."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from exact import cli
from exact.cube.export import to_json, to_lm_csv
from exact.errors import PuzzleoptError
from exact.moves import cube_moves, main, tile_moves


def test_json_export_round_trip() -> None:
    t = cube_moves(3, "layers", "qtm")
    d = json.loads(to_json(t))
    assert d["format"] == "puzzleopt.movetable" and d["version"] == 1
    assert d["names"] == list(t.names)
    assert np.array_equal(np.array(d["perms"]), t.perms)
    assert d["inverse"] == t.inverse.tolist()
    guarded = json.loads(to_json(tile_moves(3, 3)))
    assert "guards" in guarded and all(g == [[g[0][0], 0]] for g in guarded["guards"])


def test_lm_csv() -> None:
    t = cube_moves(3, "layers", "qtm")
    rows = list(csv.reader(io.StringIO(to_lm_csv(t))))
    assert rows[0] == ["m", "f_i", "r_i", "c_i", "f_j", "r_j", "c_j"]
    body = rows[1:]
    per_move = {name: sum(1 for r in body if r[0] == name) for name in t.names}
    assert per_move["R"] == 20 and per_move["M"] == 12  # a face turn moves 20 facelets, a slice 12
    # U moves the top row of F to L
    assert ["U", "F", "1", "1", "L", "1", "1"] in body
    full = list(csv.reader(io.StringIO(to_lm_csv(t, include_fixed=True))))
    assert len(full) - 1 == 54 * len(t)
    with pytest.raises(PuzzleoptError, match="cube move tables"):
        to_lm_csv(tile_moves(3, 3))


def test_cli_demo_and_exports(tmp_path, capsys) -> None:
    out_json, out_csv = tmp_path / "t.json", tmp_path / "lm.csv"
    code = main(
        [
            "--size",
            "3",
            "--moves",
            "layers",
            "--metric",
            "qtm",
            "--scramble-length",
            "8",
            "--seed",
            "0",
            "--export-json",
            str(out_json),
            "--export-csv",
            str(out_csv),
        ]
    )
    assert code == 0
    text = capsys.readouterr().out
    assert "cube3 layers qtm: 18 moves" in text and "facelets:" in text
    assert json.loads(out_json.read_text())["names"][0] == "U"
    assert out_csv.read_text().startswith("m,f_i,r_i,c_i,f_j,r_j,c_j")
    assert main(["--size", "2", "--scramble", "R U R'", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["scramble"] == "R U R'" and len(d["facelets"]) == 24


@pytest.mark.parametrize(
    "argv, pattern",
    [
        (["--size", "1"], "cube size"),
        (["--size", "3", "--scramble", "R Q"], "unknown move 'Q'"),
        (["--size", "3", "--scramble-length", "-2"], "--scramble-length: -2 must be at least 0"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(argv, pattern, capsys) -> None:
    assert cli.run(main, argv) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and pattern in err
