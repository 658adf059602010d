"""Puzzles from definition files (exact/definitions): the ksolve/twsearch reader on every shipped
sample, the distance counts twsearch published, inverses on every file puzzle, bad files in one
line, and the methods of the registry on a file puzzle."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import cli, registry, solvers
from exact.definitions import DefinitionError, read_definition
from exact.definitions.puzzle import SAMPLES as TWS

SAMPLES = sorted(p for p in TWS.glob("*.tws") if p.stem != "squareone")  # Square-1: Illegal blocks


def _published(name: str) -> list[int]:
    """twsearch's counts (its logs' ``Dist d cnt c``), shipped beside the samples."""
    counts = json.loads((TWS / "twsearch_counts.json").read_text())[name]["counts"]
    while counts and counts[-1] == 0:  # "cnt 0": the space is exhausted
        counts = counts[:-1]
    return list(counts)


def test_the_samples_and_counts_are_the_reference_data() -> None:
    """Byte for byte the files of ../shared/data/definitions, and the counts its logs give."""
    from conftest import shared_data

    shared = shared_data("definitions")  # skipped, saying so, where ../shared/data is not present
    for path in TWS.glob("*.tws"):
        assert path.read_bytes() == (shared / "tws" / path.name).read_bytes(), path.name
    for log in (shared / "godsnumber").glob("*.log"):
        counts = [int(c) for c in re.findall(r"^Dist \d+ cnt (\d+)", log.read_text(), re.M)]
        name = log.stem.split("-g")[0]
        assert json.loads((TWS / "twsearch_counts.json").read_text())[name]["counts"] == counts, name


def test_every_sample_reads_and_makes_a_consistent_puzzle() -> None:
    from exact.testing import check_puzzle

    assert len(SAMPLES) >= 11
    for path in SAMPLES:
        puzzle = registry.from_file(path)
        assert puzzle.name == path.stem and puzzle.table.num_moves >= 2, path
        check_puzzle(puzzle, np.random.default_rng(0), walks=4, depth=6)
        assert registry.get(str(path)) is puzzle  # --puzzle PATH on every command goes here


# Each up to the distance where the ball holds about 250,000 states (the full counts: slow).
@pytest.mark.parametrize(
    ("name", "depth"),
    [("2x2x2", 5), ("skewb", 5), ("pyraminx", 5), pytest.param("skewb", 7, marks=pytest.mark.slow),
     pytest.param("2x2x2", 7, marks=pytest.mark.slow)],
)  # fmt: skip
def test_distance_counts_equal_twsearch_s(name: str, depth: int, capsys) -> None:
    """Orientation conventions are where readers go wrong: ksolve indexes a move's twists by the
    piece, a state's by the slot. The published counts tell (pyraminx differs from depth 3 if
    the twist is read by slot)."""
    from exact.cli.growth import main

    assert main(["--puzzle", f"tws:{name}", "--depth", str(depth), "--json"]) == cli.EXIT_OK
    got = json.loads(capsys.readouterr().out)
    assert got["counts"] == _published(name)[: depth + 1] and got["total"] == sum(got["counts"])


def test_the_3x3x3_file_counts_as_the_half_turn_metric() -> None:
    from exact.bfs import layer_counts

    p = registry.from_file(TWS / "3x3x3.tws")
    assert layer_counts(p.table, p.goal, 4) == [1, 18, 243, 3240, 43239]  # OEIS A080601
    assert set(p.table.names) >= {"F", "F2", "F'", "U", "U2", "U'"}


def test_powers_are_named_as_twsearch_names_them() -> None:
    from exact.definitions.generate import power_names

    assert power_names("F", 4) == ["F", "F2", "F'"]
    assert power_names("U", 5) == ["U", "U2", "U2'", "U'"]
    assert power_names("T", 2) == ["T"]


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(SAMPLES), st.integers(0, 2**32 - 1), st.integers(0, 30))
def test_a_sequence_then_its_inverse_returns_the_start(path: Path, seed: int, length: int) -> None:
    p = registry.from_file(path)
    rng = np.random.default_rng(seed)
    start = p.random_walk(1, 5, rng)[0]
    moves = [int(m) for m in rng.integers(0, p.table.num_moves, length)]
    there = p.table.apply(start, moves)
    back = p.table.apply(there, [int(p.table.inverse[m]) for m in reversed(moves)])
    assert np.array_equal(back, start)


GOOD = """Name Tiny
Set A 3 2
Solved
A
1 2 3
End
Move X
A
2 3 1
1 0 1
End
"""


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (GOOD.replace("Move X\nA", "Move X\nB"), 8, "set 'B' is not declared"),
        (GOOD.replace("2 3 1", "2 3"), 9, "the set has 3 slots, the line gives 2 numbers"),
        (GOOD.replace("2 3 1", "2 2 1"), 9, "is not a permutation of 1..3 (2 repeats)"),
        (GOOD.replace("1 0 1", "1 0 2"), 10, "orientations are 0..1"),
        (GOOD + "Move X\nA\n1 3 2\nEnd\n", 12, "move 'X' is defined twice"),
        (GOOD + "Illegal A 1 2\n", 12, "Illegal blocks"),
        (GOOD.replace("Solved", "Sovled"), 3, "unknown keyword 'Sovled'"),
        (GOOD.replace("Set A 3 2", "Set A 3 two"), 2, "expected a whole number, got 'two'"),
        (GOOD.replace("1 2 3\nEnd", "1 2 3\n? ? ?\nEnd", 1), 6, "orientation wildcards"),
    ],
)
def test_a_bad_file_is_one_line_with_the_file_and_the_line(text: str, line: int, needle: str, tmp_path, capsys):
    path = tmp_path / "bad.tws"
    path.write_text(text)
    with pytest.raises(DefinitionError, match=re.escape(f"{path}:{line}: ")) as caught:
        read_definition(path)
    assert needle in str(caught.value) and isinstance(caught.value, ValueError)
    from exact.solve import main as solve_main

    assert cli.run(solve_main, ["--puzzle", str(path), "--scramble", "X"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:{line}:" in err[0] and needle in err[0]


def test_square_one_is_refused_for_its_illegal_blocks(capsys) -> None:
    from exact.cli.growth import main

    assert cli.run(main, ["--puzzle", "tws:squareone", "--depth", "2"]) == cli.EXIT_BAD_INPUT
    assert "squareone.tws:31: Illegal blocks" in capsys.readouterr().err


def test_the_good_sample_file_and_a_missing_one(tmp_path) -> None:
    path = tmp_path / "tiny.tws"
    path.write_text(GOOD)
    p = registry.from_file(path)
    # a 3-cycle whose twists add up to 0 (mod 2) has order 3; adding up to 1, order 6
    assert p.table.names == ("X", "X'") and p.num_labels == 6
    path.write_text(GOOD.replace("1 0 1", "1 0 0"))
    assert registry.from_file(path).table.names == ("X", "X2", "X3", "X2'", "X'")
    with pytest.raises(DefinitionError, match="no such file"):
        registry.get(str(tmp_path / "none.tws"))
    with pytest.raises(ValueError, match="takes no options"):
        registry.get(str(path), n=3)


def test_the_registry_s_methods_agree_on_a_file_puzzle(tmp_path) -> None:
    """BFS, IDA* (pattern databases from the definition), CP-SAT and the MIP give the same
    optimum on a 2x2x2 read from its file; the spec rebuilds the puzzle."""
    p = registry.get("tws:2x2x2")
    start = p.table.apply(p.goal, p.table.parse("F R' U2 B"))
    lengths = {}
    for method in ("bfs", "ida*", "cp-sat", "mip"):
        kw = {"horizon": 4} if method in ("cp-sat", "mip") else {"pdb_dir": str(tmp_path)}
        r = solvers.solve(p, start, method=method, limits=solvers.Limits(time=120), **kw)
        assert r.status.value == "optimal", (method, r)
        lengths[method] = r.length
    assert set(lengths.values()) == {4}, lengths
    assert registry.rebuild(p.spec.to_dict()) is p
    assert p.spec.to_dict()["path"] == "tws:2x2x2"  # a shipped sample's spec: the same on every machine


def _as_gap(puzzle) -> str:
    """The puzzle's base moves as GAP generators (sticker ``a`` goes to ``sigma(a)``)."""
    lines = []
    for name in puzzle.definition.moves:
        perm = puzzle.table.perms[puzzle.table.names.index(name)]  # passive: new[b] = old[perm[b]]
        sigma = np.argsort(perm)  # active: the sticker at a goes to sigma[a]
        seen, cycles = set(), []
        for a in range(len(sigma)):
            if a in seen or sigma[a] == a:
                continue
            cycle, x = [], a
            while x not in seen:
                seen.add(x)
                cycle.append(x + 1)
                x = int(sigma[x])
            cycles.append("(" + ",".join(map(str, cycle)) + ")")
        lines.append(f"M_{name}:={''.join(cycles)};")
    return "\n".join(lines) + f"\nGen:=[{','.join('M_' + n for n in puzzle.definition.moves)}];\n"


def test_a_gap_file_is_the_puzzle_its_cycles_state(tmp_path) -> None:
    """The 2x2x2 written as GAP cycles (each generator and its inverse a move, as cayleypy counts)
    has the distance counts of the .tws 2x2x2 counted the same way."""
    import dataclasses

    from exact.bfs import layer_counts
    from exact.definitions import DefinitionPuzzle

    tws = registry.get("tws:2x2x2")
    (tmp_path / "cube2.gap").write_text("# from the .tws file\n" + _as_gap(tws))
    gap = registry.get(str(tmp_path / "cube2.gap"))
    quarter = DefinitionPuzzle(dataclasses.replace(tws.definition, metric="listed"))
    assert gap.table.names == quarter.table.names == ("F", "F'", "B", "B'", "D", "D'", "U", "U'", "L", "L'", "R", "R'")
    assert layer_counts(gap.table, gap.goal, 5) == layer_counts(quarter.table, quarter.goal, 5)
    assert layer_counts(gap.table, gap.goal, 2) == [1, 12, 114]  # quarter turns of all six faces


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("M_A:=(1,2,1);", ":1: generator A: sticker 1 appears twice"),
        ("M_A:=(1,2);\nM_A:=(2,3);", ":2: generator 'A' is defined twice"),
        ("M_A:=(1,2;", ":1: generator A: '(1,2' is not a product of cycles"),
        ("M_A:=(1,2);\nip:=[[1],[7]];", "ip names sticker 7, but the generators move stickers 1..2"),
        ("# nothing\n", "no generator"),
    ],
)
def test_a_bad_gap_file_is_one_line(text: str, needle: str, tmp_path) -> None:
    path = tmp_path / "bad.gap"
    path.write_text(text)
    with pytest.raises(DefinitionError) as caught:
        read_definition(path)
    assert str(caught.value).startswith(str(path)) and needle in str(caught.value), caught.value


def test_the_notebook_reads_a_definition_file(tmp_path) -> None:
    from puzzleopt import State

    s = State.from_file("tws:skewb").apply("DFR ULB'")
    r = s.solve()
    assert r.status.value == "optimal" and r.length == 2 and s.apply(list(r.moves)).is_solved
    with pytest.raises(DefinitionError, match="no shipped definition 'tws:nope'"):
        State.from_file("tws:nope")


def test_a_file_puzzle_trains_a_network_that_beam_searches_and_hybrid_verify_certifies(tmp_path, capsys) -> None:
    """The learned side on a definition file: ``learned.train --puzzle FILE`` (diffusion), then
    ``hybrid.verify`` certifying the beam's solutions with bidirectional BFS."""
    pytest.importorskip("torch")
    from hybrid.verify import main as verify
    from learned.train import main as train

    path = str(TWS / "2x2x2.tws")
    run = tmp_path / "run"
    assert cli.run(train, ["--puzzle", path, "--preset", "tiny", "--objective", "diffusion", "--max-scramble", "14",
                           "--steps", "200", "--batch", "256", "--threads", "1", "--seed", "0", "--out", str(run),
                           "--no-progress", "--json"]) == cli.EXIT_OK  # fmt: skip
    capsys.readouterr()
    p = registry.get(path)
    rng = np.random.default_rng(1)
    lines = [" ".join(map(str, p.table.apply(p.goal, list(rng.integers(0, p.table.num_moves, 4))))) for _ in range(3)]
    (tmp_path / "starts.txt").write_text("\n".join(lines) + "\n")
    code = cli.run(verify, ["--puzzle", path, "--instances", str(tmp_path / "starts.txt"), "--model",
                            str(run / "model.safetensors"), "--learned-method", "beam", "--width", "2000", "--method",
                            "bfs", "--time-limit", "60", "--no-progress", "--json"])  # fmt: skip
    captured = capsys.readouterr()
    doc = json.loads(captured.out.strip().splitlines()[-1])
    assert code == cli.EXIT_OK and doc["instances"] == 3, captured.err
    assert doc["optimal"]["n"] + doc.get("no_solution", {}).get("n", 0) >= 0  # every certificate was made
    assert doc["unknown_share"] == 0.0


CAYLEYPY = Path(__file__).parent / "data" / "cayleypy"


@pytest.mark.parametrize(
    ("name", "depth"),
    [("pyramorphix", None), ("pyraminx", 5), ("dino", 5), ("skewb_diamond", 5), ("tetraminx", 5),
     pytest.param("dino", 7, marks=pytest.mark.slow), pytest.param("tetraminx", 7, marks=pytest.mark.slow)],
)  # fmt: skip
def test_growth_of_cayleypy_s_gap_files_equals_its_published_counts(name, depth) -> None:
    from exact.bfs import layer_counts

    want = json.loads((CAYLEYPY / "puzzles_growth.json").read_text())["counts"][name]
    p = registry.from_file(CAYLEYPY / f"{name}.gap")
    depth = len(want) if depth is None else depth
    assert layer_counts(p.table, p.goal, depth, progress=False) == want[: depth + 1]
