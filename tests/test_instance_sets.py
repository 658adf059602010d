"""The shipped instance sets (instances/sets.py): checksums, counts, states that parse, byte-for-
byte copies of the reference data, names wherever a file is taken, and the README's commands
that name a set run from the checkout alone."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import instances
from exact import registry
from exact.errors import PuzzleoptError
from instances import sets
from instances.files import read_instances

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


@pytest.mark.parametrize("name", instances.names())
def test_every_set_is_the_shipped_file_with_its_count(name) -> None:
    entry = sets.SETS[name]
    where = instances.path(name)
    if entry.kind == "table":
        rows = [ln for ln in where.read_text().splitlines() if ln.strip() and not ln.startswith("#")][1:]
        if where.suffix == ".json":
            rows = json.loads(where.read_text())["instances"]
        assert len(rows) == entry.count
        with pytest.raises(PuzzleoptError, match="published figures"):
            instances.load(name)
        return
    items = instances.load(name)
    assert len(items) == entry.count and len({x.id for x in items}) == entry.count


@pytest.mark.parametrize("name", [n for n, s in sets.SETS.items() if s.puzzle and s.puzzle != "sokoban"])
def test_every_state_parses_as_its_puzzles(name) -> None:
    puzzle = registry.get(sets.SETS[name].puzzle)
    for item in instances.load(name):
        puzzle.parse_state(item.text)


@pytest.mark.parametrize("name", [n for n, s in sets.SETS.items() if s.puzzle == "sokoban"])
def test_every_level_parses_and_is_named_by_its_header(name) -> None:
    from exact.puzzles.sokoban.text import load_level, parse_level

    items = instances.load(name)
    for item in items[:50]:
        parse_level(item.text)
    assert load_level(f"{name}:{items[7].id}") == parse_level(items[7].text)


@pytest.mark.parametrize("name", instances.names())
def test_the_copies_equal_the_reference_data(name) -> None:
    reference = SHARED / sets.SETS[name].file
    if not reference.exists():
        pytest.skip(f"{reference} is not present (the reference data lives beside the repository)")
    assert instances.path(name).read_bytes() == reference.read_bytes()


def test_a_file_that_is_not_the_shipped_one_is_refused(monkeypatch) -> None:
    wrong = dataclasses.replace(sets.SETS["korf100"], sha256="0" * 64)
    monkeypatch.setitem(sets.SETS, "korf100", wrong)
    monkeypatch.setattr(sets, "_CHECKED", set())
    with pytest.raises(PuzzleoptError, match="korf100.*not the shipped file"):
        instances.load("korf100")


def test_an_unknown_name_lists_the_sets() -> None:
    with pytest.raises(PuzzleoptError, match="'korf1000' is not shipped; the sets are korf100, "):
        instances.load("korf1000")


def test_a_name_reads_as_the_set_and_a_file_of_that_name_wins(tmp_path, monkeypatch) -> None:
    assert read_instances("korf100") == instances.load("korf100")
    assert [x.optimal for x in instances.load("korf100")][:3] == [57, 55, 59]
    monkeypatch.chdir(tmp_path)
    Path("korf100").write_text("1 0 2 3 4 5 6 7 8\n")
    assert [x.text for x in read_instances("korf100")] == ["1 0 2 3 4 5 6 7 8"]


def test_the_data_readme_table_is_the_catalogue() -> None:
    from instances.__main__ import table

    text = (ROOT / "instances" / "data" / "README.md").read_text()
    assert "\n".join(table(markdown=True)) in text


def test_every_shipped_file_is_in_the_catalogue() -> None:
    data = ROOT / "instances" / "data"
    shipped = {p.relative_to(data).as_posix() for p in data.rglob("*.*")}
    assert shipped - {"README.md"} == {s.file for s in sets.SETS.values()}


def test_a_command_takes_a_set_by_name(tmp_path) -> None:
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "exact.solve", "--puzzle", "lightsout", "--instances", "deepcubea-lightsout7"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's code, run from elsewhere
    done = subprocess.run(
        [*cmd, "--out", str(out), "--no-progress"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    rows = [json.loads(ln) for ln in (out / "results.jsonl").read_text().splitlines()]
    solved = {r["id"]: r for r in rows if "id" in r and "length" in r}
    known = {x.id: x.optimal for x in instances.load("deepcubea-lightsout7")}
    assert len(solved) == 500 and all(solved[i]["length"] == known[i] for i in known)


# ----------------------------------------------------------------------------- the README's commands
def _readme_commands_naming_a_set() -> list[list[str]]:
    """Each README command (a line of a shell block) that passes a shipped set's name."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    found = []
    for line in (ln for b in blocks for ln in b.splitlines()):
        words = shlex.split(line.split("  #")[0])
        values = [w.split(":")[0] for w in words]
        if any(v in sets.SETS for v in values):
            found.append(words)
    return found


# Commands that name a set but are not run here, each with why: the rest run as printed.
NOT_RUN = {
    "--solutions": "its FILE is the user's own solutions",
    "hybrid.verify": "BWAS on 500 boards (minutes); test_hybrid runs it on a slice",
    "--workers": "the same command as the one before it, on 2 processes (test_executor covers them)",
    "exact.ida": "builds the 6-6-3 tables on a fresh machine; run in the slow test below",
}


def _why_not(words: list[str]) -> str | None:
    return next((why for key, why in NOT_RUN.items() if key in words), None)


def test_the_readme_names_shipped_sets_only() -> None:
    commands = _readme_commands_naming_a_set()
    assert len(commands) >= 5
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert not [ln for b in blocks for ln in b.splitlines() if "shared/data" in ln]


@pytest.mark.parametrize("words", [w for w in _readme_commands_naming_a_set() if _why_not(w) is None], ids=" ".join)
def test_a_readme_command_naming_a_set_runs_from_the_checkout(words, tmp_path) -> None:
    assert words[:2] == ["python", "-m"]
    done = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
def test_the_readme_korf100_command_runs(tmp_path) -> None:
    words = next(w for w in _readme_commands_naming_a_set() if "exact.ida" in w and "--workers" not in w)
    cmd = [sys.executable, *words[1:], "--pdb-dir", str(tmp_path)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "100" in done.stdout


def test_a_shipped_file_is_found_by_its_path_and_checked() -> None:
    for entry in sets.SETS.values():
        assert sets.file_path(entry.file) == instances.path(entry.name)
    with pytest.raises(PuzzleoptError, match="no shipped set has the file 'tiles/korf101.tsv'"):
        sets.file_path("tiles/korf101.tsv")


def test_an_instance_of_a_shipped_set_is_a_state_at_once():
    """``State.from_instance`` (issue 64): the notebook object, its puzzle known from the set."""
    from exact.errors import PuzzleoptError
    from instances.files import Instance
    from puzzleopt import State

    x = read_instances("korf100")[0]
    s = State.from_instance(x)
    assert x.puzzle == "tiles15" and s.puzzle.name == "tiles15" and s.board == x.text.strip()
    with pytest.raises(PuzzleoptError, match="name its puzzle"):
        State.from_instance(Instance("a", "1 0 2 3 4 5 6 7 8"))
    assert State.from_instance(Instance("a", "1 0 2 3 4 5 6 7 8"), "tiles8").legal_moves == ("D", "L", "R")
