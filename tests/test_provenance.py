"""Which puzzleopt made a file (exact/provenance.py): the version from the package metadata, the
commit where known, in every batch command's results, certificates, model cards and pages."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import puzzleopt
from exact import provenance
from exact.resultlog import MADE_BY, ResultLog

ROOT = Path(__file__).resolve().parents[1]
BOARDS = "1 0 2 3 4 5 6 7 8\n1 2 0 3 4 5 6 7 8\n"


def test_the_version_is_the_package_metadatas() -> None:
    assert puzzleopt.__version__ == version("puzzleopt") == provenance.stamp()["puzzleopt"]
    code = "import sys; from puzzleopt.console import main; sys.exit(main(['--version']))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout.strip() == f"puzzleopt {puzzleopt.__version__}"


def test_the_commit_is_this_checkouts_and_none_outside_git(tmp_path, monkeypatch) -> None:
    if (ROOT / ".git").exists():
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
        assert provenance.commit().split("+")[0] == head.strip()
    monkeypatch.setattr(provenance, "_SOURCE", tmp_path)
    provenance.commit.cache_clear()
    try:
        assert provenance.commit() is None and "commit" not in provenance.stamp()
    finally:
        provenance.commit.cache_clear()


def _first_line(folder: Path, name: str) -> dict:
    return json.loads((folder / name).read_text().splitlines()[0])


BATCH = {
    "exact.solve": (["--puzzle", "tiles8", "--method", "ida*"], "results.jsonl"),
    "exact.ida": (["--puzzle", "tiles8"], "results.jsonl"),
    "learned.evaluate": (["--puzzle", "tiles8"], "results.jsonl"),
    "hybrid.verify": (["--puzzle", "tiles8"], "certificates.jsonl"),
}


@pytest.mark.parametrize("command", sorted(BATCH))
def test_every_batch_command_writes_the_version_and_commit(command, tmp_path) -> None:
    args, name = BATCH[command]
    (tmp_path / "boards.txt").write_text(BOARDS)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", command, *args, "--instances", str(tmp_path / "boards.txt"), "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    writers = _first_line(out, name)[MADE_BY]
    assert writers[-1]["puzzleopt"] == puzzleopt.__version__
    assert ("commit" in writers[-1]) == (provenance.commit() is not None)


def test_a_resumed_log_lists_each_writer_once(tmp_path, monkeypatch) -> None:
    log = ResultLog(tmp_path / "r.jsonl", "test/1", run={"a": 1}, key=b"k" * 32)
    log.start()
    log.append({"id": "1"})
    log.close()
    monkeypatch.setattr("exact.resultlog.stamp", lambda: {"puzzleopt": "9.9", "commit": "abc"})
    again = ResultLog(tmp_path / "r.jsonl", "test/1", run={"a": 1}, key=b"k" * 32)
    kept = again.read()
    again.start(kept)
    again.close()
    writers = _first_line(tmp_path, "r.jsonl")[MADE_BY]
    assert writers[0] == provenance.stamp() and writers[1] == {"puzzleopt": "9.9", "commit": "abc"}
    assert kept == [{"id": "1"}]


def test_a_certificate_carries_its_maker_and_an_old_record_claims_none() -> None:
    from exact import registry
    from hybrid.certify import Certificate, verify_solution

    p = registry.get("tiles8")
    start = p.parse_state("1 0 2 3 4 5 6 7 8")
    cert = verify_solution(p, start, "L")
    assert cert.made_by == provenance.stamp() and cert.to_dict()["made_by"] == provenance.stamp()
    old = {k: v for k, v in cert.to_dict().items() if k != "made_by"}
    assert Certificate.from_dict(old, p).made_by == {}
    assert Certificate.from_dict(cert.to_dict(), p).made_by == provenance.stamp()


def test_a_model_card_records_its_maker(tmp_path) -> None:
    pytest.importorskip("torch")
    from learned.nets import CostToGo, NetConfig
    from learned.weights import load_model, save_model

    net = CostToGo(NetConfig(inputs=81, widths=(8,), res_blocks=0))
    save_model(tmp_path / "m.safetensors", net, {"puzzle": "tiles8"})
    _, card = load_model(tmp_path / "m.safetensors")
    assert card["made_by"] == provenance.stamp()
    save_model(tmp_path / "n.safetensors", net, {**card, "note": "saved again"})
    assert load_model(tmp_path / "n.safetensors")[1]["made_by"] == provenance.stamp()


def test_a_benchmark_page_ends_with_its_maker(tmp_path) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks.common import write_page

    write_page(tmp_path / "p.md", ["# Benchmark: p", "", "rows"])
    last = (tmp_path / "p.md").read_text().rstrip().splitlines()[-1]
    assert last.startswith(f"Written by puzzleopt {puzzleopt.__version__}")
    write_page(tmp_path / "d.tsv", ["a\tb", "1\t2"])
    assert (tmp_path / "d.tsv").read_text() == "a\tb\n1\t2\n"
