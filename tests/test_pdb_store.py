"""Pattern-database storage: nibble packing, build/save/load, damage detection, atomicity, CLI."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path

import numpy as np
import platformdirs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import exact.pdb.__main__ as pdb_cli
from exact import cli
from exact.errors import PuzzleoptError
from exact.pdb.store import (
    Built,
    PdbError,
    Table,
    TableSpec,
    check,
    default_dir,
    list_tables,
    load,
    pack_nibbles,
    remove,
    save,
    unpack_nibbles,
)


def _values(entries: int, top: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, top + 1, size=entries, dtype=np.uint8)


def make_spec(name: str = "toy-a", entries: int = 1001, packed: bool = True, seed: int = 0):
    """``(spec, values, calls)``: a builder returning fixed random values, each call appended to ``calls``."""
    calls: list[int] = []
    values = _values(entries, 15 if packed else 40, seed)

    def build(advance):
        calls.append(1)
        for _ in range(4):
            advance(entries // 4)
        advance(entries - 4 * (entries // 4))
        return values.copy()

    spec = TableSpec(name, "toy", {"tiles": (1, 2, 3)}, entries, packed, build)
    return spec, values, calls


def _files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_a_resumed_build_stores_the_seconds_of_all_its_runs(tmp_path) -> None:
    """A build that returns :class:`Built` (resumed from its checkpoint) has its earlier runs'
    seconds added to this run's in the stored ``build_seconds``."""
    spec, values, _ = make_spec()
    resumed = TableSpec("toy-b", "toy", {"tiles": [1]}, 1001, True, lambda advance: Built(values.copy(), 5000.0))
    assert load(spec, tmp_path, progress=False).meta["build_seconds"] < 60
    meta = load(resumed, tmp_path, progress=False).meta
    assert 5000.0 <= meta["build_seconds"] < 5060
    assert json.loads((tmp_path / "toy-b.json").read_text())["build_seconds"] == meta["build_seconds"]


# --- packing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 1001])
def test_pack_unpack_round_trip(n: int) -> None:
    v = _values(n, 15, seed=n)
    packed = pack_nibbles(v)
    assert packed.dtype == np.uint8 and packed.shape == ((n + 1) // 2,)
    assert np.array_equal(unpack_nibbles(packed, n), v)


def test_pack_layout() -> None:
    # entry 0 in the low nibble of byte 0, entry 1 in its high nibble; odd tail padded with 0
    assert pack_nibbles(np.array([1, 2, 3], dtype=np.uint8)).tolist() == [0x21, 0x03]


@given(st.lists(st.integers(0, 15), max_size=300))
def test_pack_unpack_property(values: list[int]) -> None:
    v = np.array(values, dtype=np.uint8)
    packed = pack_nibbles(v)
    assert len(packed) == (len(v) + 1) // 2
    assert np.array_equal(unpack_nibbles(packed, len(v)), v)


def test_pack_rejects_wide_values() -> None:
    with pytest.raises(PdbError, match="value 16 at index 2 does not fit in 4 bits"):
        pack_nibbles(np.array([0, 15, 16], dtype=np.uint8))
    with pytest.raises(PdbError, match="shape"):
        unpack_nibbles(np.zeros(3, dtype=np.uint8), 7)


# --- specs -------------------------------------------------------------------------------------


def test_spec_validation_equality_and_hash() -> None:
    a, _, _ = make_spec()
    b = TableSpec("toy-a", "toy", {"tiles": [1, 2, 3]}, 1001, True, lambda advance: None)
    assert a == b and hash(a) == hash(b)  # build is not compared; the pattern is JSON-normalised
    assert a.progress_total == 1001 and a.nbytes == 501
    with pytest.raises(PdbError, match="table name '../x' is not allowed"):
        TableSpec("../x", "toy", {}, 10, False, lambda advance: None)
    with pytest.raises(PdbError, match="not JSON-serialisable"):
        TableSpec("x", "toy", {"s": {1, 2}}, 10, False, lambda advance: None)
    with pytest.raises(PdbError, match="entries must be a positive integer"):
        TableSpec("x", "toy", {}, 0, False, lambda advance: None)
    assert issubclass(PdbError, PuzzleoptError) and issubclass(PdbError, ValueError)
    assert default_dir() == Path(platformdirs.user_cache_dir("puzzleopt")) / "pdb"


# --- build, save, load -------------------------------------------------------------------------


@pytest.mark.parametrize("packed", [True, False])
def test_build_then_load(tmp_path: Path, packed: bool) -> None:
    spec, values, calls = make_spec(packed=packed)
    messages: list[str] = []
    table = load(spec, tmp_path, progress=False, log=messages.append)
    assert calls == [1]
    assert messages == [f"pdb toy-a: not found in {tmp_path}; building (1,001 entries, 0.0 MB, time not measured)"]
    assert isinstance(table, Table) and isinstance(table.data, np.memmap)
    assert table.data.dtype == np.uint8 and not table.data.flags.writeable
    assert table.data.shape == ((501,) if packed else (1001,))
    idx = np.arange(1001, dtype=np.int64)
    assert np.array_equal(table.values(idx), values)
    assert np.array_equal(table.values(idx[::-1].reshape(7, 143)), values[::-1].reshape(7, 143))

    meta = json.loads((tmp_path / "toy-a.json").read_text())
    assert meta == table.meta
    assert meta["format"] == "puzzleopt-pdb" and meta["format_version"] == 1
    assert meta["name"] == "toy-a" and meta["puzzle"] == "toy" and meta["pattern"] == {"tiles": [1, 2, 3]}
    assert meta["entries"] == 1001 and meta["packed"] is packed and meta["bytes"] == table.data.size
    assert meta["bytes"] == (tmp_path / "toy-a.bin").stat().st_size
    assert meta["max_value"] == int(values.max())
    assert meta["value_counts"] == np.bincount(values).tolist() and sum(meta["value_counts"]) == 1001
    assert meta["build_seconds"] >= 0 and meta["created"].endswith("+00:00")
    assert len(meta["sha256"]) == 64
    assert _files(tmp_path) == ["toy-a.bin", "toy-a.json"]

    again = load(spec, tmp_path, progress=False, log=messages.append)
    assert calls == [1] and len(messages) == 1  # valid: not rebuilt, nothing said
    assert np.array_equal(again.values(idx), values)
    assert check(spec, tmp_path) is None

    load(spec, tmp_path, rebuild=True, progress=False, log=messages.append)
    assert calls == [1, 1] and "rebuild requested" in messages[-1]


def test_values_rejects_bad_indices(tmp_path: Path) -> None:
    spec, _, _ = make_spec()
    table = load(spec, tmp_path, progress=False, log=lambda m: None)
    for bad in (1001, -1):
        with pytest.raises(PdbError, match=f"index {bad} is out of range"):
            table.values(np.array([0, bad]))
    with pytest.raises(PdbError, match="integers"):
        table.values(np.array([0.5]))


def test_builder_with_wrong_output_is_rejected(tmp_path: Path) -> None:
    spec = TableSpec("bad", "toy", {}, 10, True, lambda advance: np.full(10, 20, dtype=np.uint8))
    with pytest.raises(PdbError, match="largest value is 20"):
        load(spec, tmp_path, progress=False, log=lambda m: None)
    spec = TableSpec("bad", "toy", {}, 10, False, lambda advance: np.zeros(9, dtype=np.int64))
    with pytest.raises(PdbError, match=r"must be uint8 of shape \(10,\)"):
        load(spec, tmp_path, progress=False, log=lambda m: None)
    assert _files(tmp_path) == []


def _truncate(d: Path) -> None:
    with open(d / "toy-a.bin", "r+b") as fh:
        fh.truncate(100)


def _flip(d: Path) -> None:
    raw = bytearray((d / "toy-a.bin").read_bytes())
    raw[123] ^= 0x40
    (d / "toy-a.bin").write_bytes(bytes(raw))


def _corrupt_json(d: Path) -> None:
    (d / "toy-a.json").write_text('{"format": "puzzleopt-pdb", ')


def _version_2(d: Path) -> None:
    meta = json.loads((d / "toy-a.json").read_text())
    (d / "toy-a.json").write_text(json.dumps({**meta, "format_version": 2}))


def _other_pattern(d: Path) -> None:
    meta = json.loads((d / "toy-a.json").read_text())
    (d / "toy-a.json").write_text(json.dumps({**meta, "pattern": {"tiles": [4, 5, 6]}}))


def _drop_json(d: Path) -> None:
    (d / "toy-a.json").unlink()


@pytest.mark.parametrize(
    "damage, reason",
    [
        (_truncate, r"toy-a\.bin is truncated: 100 bytes, expected 501"),
        (_flip, r"toy-a\.bin is corrupted: sha256 "),
        (_corrupt_json, r"toy-a\.json is not valid JSON"),
        (_version_2, r"toy-a\.json has format_version 2, this version reads 1"),
        (_other_pattern, r"toy-a\.json does not match the spec: pattern is \{'tiles': \[4, 5, 6\]\}"),
        (_drop_json, r"toy-a\.json is missing"),
    ],
    ids=["truncated", "flipped-byte", "corrupt-json", "format-version-2", "other-pattern", "no-json"],
)
def test_damage_is_detected_and_rebuilt(tmp_path: Path, damage, reason: str) -> None:
    spec, values, calls = make_spec()
    load(spec, tmp_path, progress=False, log=lambda m: None)
    damage(tmp_path)
    found = check(spec, tmp_path)
    assert found is not None and "\n" not in found
    assert found.startswith(str(tmp_path)), found  # names the file
    assert re.search(reason, found), found

    messages: list[str] = []
    table = load(spec, tmp_path, progress=False, log=messages.append)
    assert calls == [1, 1]
    assert messages == [f"pdb toy-a: {found}; rebuilding (1,001 entries, 0.0 MB, time not measured)"]
    assert np.array_equal(table.values(np.arange(1001)), values)
    assert check(spec, tmp_path) is None
    assert _files(tmp_path) == ["toy-a.bin", "toy-a.json"]


def test_spec_mismatch_entries_and_packed(tmp_path: Path) -> None:
    spec, _, _ = make_spec()
    load(spec, tmp_path, progress=False, log=lambda m: None)
    other, _, _ = make_spec(entries=1000)
    assert "entries is 1001, expected 1000" in check(other, tmp_path)
    unpacked, _, _ = make_spec(packed=False)
    assert "packed is True, expected False" in check(unpacked, tmp_path)
    assert "not found" in check(make_spec(name="toy-b")[0], tmp_path)


# --- atomicity ---------------------------------------------------------------------------------


def test_interrupted_build_leaves_nothing(tmp_path: Path) -> None:
    def build(advance):
        advance(5)
        raise KeyboardInterrupt

    spec = TableSpec("toy-a", "toy", {}, 10, False, build)
    with pytest.raises(KeyboardInterrupt):
        load(spec, tmp_path, progress=False, log=lambda m: None)
    assert _files(tmp_path) == []


def test_interrupted_write_leaves_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, values, _ = make_spec()

    def interrupted_fsync(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted_fsync)
    with pytest.raises(KeyboardInterrupt):
        save(spec, values, tmp_path, 0.0)
    assert _files(tmp_path) == []


def test_interrupted_json_write_reads_as_missing_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, values, _ = make_spec()
    save(spec, values, tmp_path, 0.0)
    real_fsync, count = os.fsync, []

    def fsync_then_interrupt(fd: int) -> None:
        count.append(fd)
        if len(count) == 2:  # the .bin went through; the .json does not
            raise KeyboardInterrupt
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        save(spec, values, tmp_path, 0.0)
    assert _files(tmp_path) == ["toy-a.bin"]
    assert check(spec, tmp_path).endswith("toy-a.json is missing")


# --- list and remove ---------------------------------------------------------------------------


def test_list_and_remove(tmp_path: Path) -> None:
    assert list_tables(tmp_path / "absent") == []
    load(make_spec("toy-a")[0], tmp_path, progress=False, log=lambda m: None)
    load(make_spec("toy-b", packed=False)[0], tmp_path, progress=False, log=lambda m: None)
    _flip(tmp_path)
    (tmp_path / "orphan.bin").write_bytes(b"\0")
    tables = list_tables(tmp_path)
    assert [t["name"] for t in tables] == ["orphan", "toy-a", "toy-b"]
    assert tables[0]["status"].endswith("orphan.json is missing")
    assert "corrupted" in tables[1]["status"] and tables[1]["entries"] == 1001
    assert tables[2]["status"] == "ok" and tables[2]["packed"] is False
    assert remove("toy-a", tmp_path) is True
    assert remove("toy-a", tmp_path) is False
    with pytest.raises(PdbError, match="not allowed"):
        remove("../toy-b", tmp_path)
    assert _files(tmp_path) == ["orphan.bin", "toy-b.bin", "toy-b.json"]


def test_a_checkpoint_is_listed_as_one_and_removed_with_its_table(tmp_path: Path, capsys, fake_catalog) -> None:
    """A build's checkpoint (under way or stopped) is no damaged table: ``list`` names it with its
    progress, ``verify`` passes over it, and ``rm`` deletes it (alone, or with its table)."""
    from exact.pdb import partial

    load(make_spec("toy-a")[0], tmp_path, progress=False, log=lambda m: None)
    partial.write(tmp_path, "toy-b", [np.zeros(6, np.uint8)], {"chunks": 8, "progress": 3, "seconds": 12.5})
    partial.write(tmp_path, "toy-b", [np.ones(6, np.uint8)], {"chunks": 8, "progress": 5, "seconds": 20.0})
    (tmp_path / "toy-a.partial.1.bin").write_bytes(b"\0" * 4)  # a first checkpoint stopped mid-write
    assert [t["name"] for t in list_tables(tmp_path)] == ["toy-a"]
    assert partial.stored(tmp_path) == [
        {"name": "toy-a", "bytes": 4, "seconds": None, "progress": None, "parts": None},
        {"name": "toy-b", "bytes": 6, "seconds": 20.0, "progress": 5, "parts": 8},
    ]
    d = ["--pdb-dir", str(tmp_path)]
    code, out, _ = _run(capsys, *d, "list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4 and lines[1].split()[0] == "toy-a" and lines[1].endswith("ok")
    assert lines[3].startswith("toy-b: the checkpoint of a build under way or stopped (5/8 parts, 20 s, 0.0 MB)")
    code, out, _ = _run(capsys, *d, "--json", "list")
    assert [(t["name"], t["status"]) for t in json.loads(out)] == [
        ("toy-a", "ok"), ("toy-a", "checkpoint"), ("toy-b", "checkpoint")]  # fmt: skip
    code, out, _ = _run(capsys, *d, "verify")
    assert code == 0 and out == "toy-a: ok\n"
    code, out, _ = _run(capsys, *d, "rm", "toy-b")
    assert code == 0 and _files(tmp_path) == ["toy-a.bin", "toy-a.json", "toy-a.partial.1.bin"]
    code, out, _ = _run(capsys, *d, "rm", "toy-a")
    assert code == 0 and _files(tmp_path) == []


# --- command line ------------------------------------------------------------------------------


@pytest.fixture
def fake_catalog(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[int]]:
    """Two small tables in the CLI's catalog; returns each one's builder-call record."""
    specs = {"toy-a": make_spec("toy-a"), "toy-b": make_spec("toy-b", packed=False, seed=1)}
    monkeypatch.setattr(pdb_cli, "catalog", lambda: {name: (lambda s=s: s[0]) for name, s in specs.items()})
    return {name: s[2] for name, s in specs.items()}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.run(pdb_cli.main, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_build_list_verify_rm(tmp_path: Path, capsys, fake_catalog) -> None:
    d = ["--pdb-dir", str(tmp_path), "--no-progress"]
    code, out, err = _run(capsys, *d, "build", "toy-a")
    assert code == 0 and fake_catalog["toy-a"] == [1] and fake_catalog["toy-b"] == []
    assert "toy-a: built in" in out and "not found" in err

    code, out, err = _run(capsys, *d, "--json", "build", "all")
    report = json.loads(out)
    assert code == 0 and [(r["name"], r["built"]) for r in report] == [("toy-a", False), ("toy-b", True)]
    assert fake_catalog["toy-a"] == [1] and fake_catalog["toy-b"] == [1]

    code, out, _ = _run(capsys, *d, "build", "--force", "toy-b")
    assert code == 0 and fake_catalog["toy-b"] == [1, 1] and "toy-b: built in" in out

    code, out, _ = _run(capsys, *d, "list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and lines[0].split()[0] == "name"
    assert lines[1].split()[:3] == ["toy-a", "1001", "True"] and lines[1].endswith("ok")
    code, out, _ = _run(capsys, *d, "--json", "list")
    assert code == 0 and [(t["name"], t["status"]) for t in json.loads(out)] == [("toy-a", "ok"), ("toy-b", "ok")]

    code, out, _ = _run(capsys, *d, "verify")
    assert code == 0 and out.splitlines() == ["toy-a: ok", "toy-b: ok"]
    _flip(tmp_path)
    code, out, _ = _run(capsys, *d, "--json", "verify", "toy-a")
    assert code == pdb_cli.EXIT_BAD_TABLE and "corrupted" in json.loads(out)[0]["status"]
    code, out, err = _run(capsys, *d, "verify", "toy-b", "not-there")  # a name nothing has: bad input
    assert code == 2 and out == "" and "no stored table is named 'not-there'" in err

    code, out, _ = _run(capsys, *d, "rm", "toy-a")
    assert code == 0 and "removed toy-a" in out and not (tmp_path / "toy-a.bin").exists()
    code, out, err = _run(capsys, *d, "rm", "toy-a", "toy-b")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "no stored table named toy-a" in err
    assert (tmp_path / "toy-b.bin").exists()  # nothing removed when a name is wrong
    code, out, _ = _run(capsys, *d, "--json", "rm", "toy-b")
    assert code == 0 and json.loads(out)["removed"] == ["toy-b"] and _files(tmp_path) == []


def test_cli_verify_uses_metadata_when_not_in_catalog(tmp_path: Path, capsys, fake_catalog) -> None:
    spec, _, _ = make_spec("elsewhere")
    load(spec, tmp_path, progress=False, log=lambda m: None)
    code, out, _ = _run(capsys, "--pdb-dir", str(tmp_path), "verify")
    assert code == 0 and out == "elsewhere: ok\n"
    stored = tmp_path / "elsewhere.bin"
    stored.write_bytes(stored.read_bytes()[:10])
    code, out, _ = _run(capsys, "--pdb-dir", str(tmp_path), "verify")
    assert code == pdb_cli.EXIT_BAD_TABLE and "truncated" in out


def test_cli_unknown_name(tmp_path: Path, capsys, fake_catalog) -> None:
    code, out, err = _run(capsys, "--pdb-dir", str(tmp_path), "build", "toy-a", "nope")
    assert code == 2 and out == ""
    assert err.splitlines() == [err.rstrip("\n")]
    assert "unknown table name(s) nope; known names: toy-a, toy-b;" in err
    assert fake_catalog["toy-a"] == [] and _files(tmp_path) == []


def test_cli_with_the_real_catalog_and_an_empty_folder(tmp_path: Path, capsys) -> None:
    names = sorted(pdb_cli.catalog())
    assert names  # the catalog ships tables (tiles, cubes): an empty one is no state to test
    code, out, err = _run(capsys, "--pdb-dir", str(tmp_path), "list")
    assert code == 0 and out == f"no tables in {tmp_path}\n"
    code, out, _ = _run(capsys, "--pdb-dir", str(tmp_path), "verify")
    assert code == 0 and out == f"no tables in {tmp_path}\n"
    code, _, err = _run(capsys, "--pdb-dir", str(tmp_path), "build", "no-such-table")
    assert code == 2 and "no-such-table" in err and f"known names: {', '.join(names)}" in err
    assert _files(tmp_path) == []


def _forge(directory: Path, name: str, change, recount: bool) -> None:
    """Rewrite a stored table's values with ``change`` and recompute its sha256 (and, with
    ``recount``, its value counts), as a forger who knows the format would."""
    import hashlib

    bin_path, json_path = directory / f"{name}.bin", directory / f"{name}.json"
    values = change(np.fromfile(bin_path, dtype=np.uint8))
    values.tofile(bin_path)
    meta = json.loads(json_path.read_text())
    meta["sha256"] = hashlib.sha256(values.tobytes()).hexdigest()
    if recount:
        counts = np.bincount(values)
        meta["max_value"], meta["value_counts"] = int(values.max()), counts.tolist()
    json_path.write_text(json.dumps(meta))


@pytest.mark.parametrize("recount", [False, True])
def test_a_forged_tile_table_is_caught(tmp_path: Path, capsys, caplog, recount: bool) -> None:
    """Values times 3 with the sha256 recomputed: ``verify`` fails (counts, then the spec's walk
    audit) and no solver uses the table (it once made IDA* "prove" 50 moves for a 38-move board):
    the audit on load has it rebuilt, with a line saying why."""
    from exact.tiles.catalog import tile_heuristic

    name = "tiles8-1.2.3.4"
    code, _, _ = _run(capsys, "--pdb-dir", str(tmp_path), "--no-progress", "build", name)
    assert code == 0
    h = tile_heuristic("pdb-44", 3, 3, pdb_dir=tmp_path, progress=False)
    true_tables = h.tables.copy()
    _forge(tmp_path, name, lambda v: np.minimum(v.astype(np.int64) * 3, 254).astype(np.uint8), recount)
    code, out, _ = _run(capsys, "--pdb-dir", str(tmp_path), "verify", name)
    assert code == pdb_cli.EXIT_BAD_TABLE
    assert ("does not hold what its metadata says" in out) != recount
    assert ("damaged or forged" in out) == recount
    with caplog.at_level(logging.INFO, logger="puzzleopt"):
        again = tile_heuristic("pdb-44", 3, 3, pdb_dir=tmp_path, progress=False)
    assert "damaged or forged; rebuilding" in caplog.text  # said in the puzzleopt log
    assert np.array_equal(again.tables, true_tables)
