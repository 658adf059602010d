"""One ``puzzleopt`` logger hierarchy (exact/logs.py): library code never prints, commands show
the log on stderr at the level their ``-v``/``-q`` ask for, and a program can route it."""

from __future__ import annotations

import ast
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from exact import logs

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("exact", "learned", "hybrid", "puzzleopt", "instances")


def _library_modules() -> list[Path]:
    """Every module that is not a command: commands (``__main__``, the CLI layers, a module with
    a ``main``) print their reports; the rest may not."""
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text())
            command = path.name in ("__main__.py", "cli.py", "console.py") or "cli" in path.parts
            command = command or any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body)
            if not command:
                out.append(path)
    return out


def _writes_to_the_terminal(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id == "print":
                lines.append(node.lineno)
            if isinstance(f, ast.Attribute) and f.attr == "write" and isinstance(f.value, ast.Attribute):
                if isinstance(f.value.value, ast.Name) and f.value.value.id == "sys":
                    lines.append(node.lineno)
    return lines


def test_library_code_never_prints() -> None:
    found = {}
    for path in _library_modules():
        hits = _writes_to_the_terminal(ast.parse(path.read_text()))
        if hits:
            found[str(path.relative_to(ROOT))] = hits
    assert not found, f"print or sys.stdout/stderr.write in library code (use exact.logs.get_logger): {found}"


def test_every_library_logger_is_under_puzzleopt() -> None:
    bad = [
        str(p.relative_to(ROOT))
        for package in PACKAGES
        for p in (ROOT / package).rglob("*.py")
        if "logging.getLogger(__name__)" in p.read_text()
    ]
    assert not bad, f"use exact.logs.get_logger(__name__), so that the logger is puzzleopt.<module>: {bad}"


def test_the_library_is_silent_until_configured_and_a_program_can_catch_it(caplog, capsys, monkeypatch) -> None:
    from exact.pdb.store import _announce

    root = logging.getLogger("puzzleopt")  # as in a fresh process: a command run in-process configured it
    monkeypatch.setattr(root, "handlers", [h for h in root.handlers if type(h).__name__ != "_TqdmStderr"])

    _announce("pdb x: building")
    assert capsys.readouterr().err == ""  # no handler of its own: NullHandler, no lastResort
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="puzzleopt"):
        _announce("pdb x: building")
    assert [r.name for r in caplog.records] == ["puzzleopt.exact.pdb.store"]


def _ida(tmp_path: Path, *flags: str) -> subprocess.CompletedProcess:
    cmd = [
        sys.executable,
        "-m",
        "exact.ida",
        "--puzzle",
        "tiles8",
        "--tiles",
        "1 2 0 3 4 5 6 7 8",
        "--heuristic",
        "pdb-44",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*cmd, "--pdb-dir", str(tmp_path), "--no-progress", *flags], cwd=ROOT, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize("quiet", [False, True])
def test_a_command_shows_the_log_on_stderr_and_q_silences_it(tmp_path, quiet) -> None:
    done = _ida(tmp_path, *(["-q"] if quiet else []))
    assert done.returncode == 0, done.stderr
    assert ("building" in done.stderr) != quiet and ("optimal" in done.stdout)


def test_configure_sets_the_level_and_keeps_one_handler() -> None:
    try:
        for verbosity, level in [(2, logging.DEBUG), (0, logging.INFO), (-1, logging.WARNING), (-5, logging.ERROR)]:
            root = logs.configure(verbosity)
            assert root.level == level and logs.configured() == verbosity
        assert sum(type(h).__name__ == "_TqdmStderr" for h in root.handlers) == 1
    finally:
        root = logging.getLogger("puzzleopt")
        for h in [h for h in root.handlers if type(h).__name__ == "_TqdmStderr"]:
            root.removeHandler(h)
        root.setLevel(logging.NOTSET)
        logs._VERBOSITY = None


# ----------------------------------------------------------------------------- progress of one search
def test_a_long_search_says_each_bound_and_how_it_ended(caplog) -> None:
    from exact.tiles import ida_tiles as ida
    from exact.tiles.catalog import tile_heuristic

    p = registry_get("tiles15")
    h = tile_heuristic("manhattan-lc", 4, 4, progress=False)
    with caplog.at_level(logging.INFO, logger="puzzleopt.exact.progress"):
        r = ida(p, p.parse_state("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"), h, progress=True)
    said = [rec.getMessage() for rec in caplog.records]
    assert r.length == 57 and [m.split(":")[1].split(" done")[0] for m in said[:3]] == [
        " bound 43",
        " bound 45",
        " bound 47",
    ]
    assert said[-1].startswith("ida* tiles15: solved at bound 57,")


def test_no_progress_says_nothing(caplog) -> None:
    from exact.tiles import ida_tiles as ida
    from exact.tiles.catalog import tile_heuristic

    p = registry_get("tiles8")
    with caplog.at_level(logging.DEBUG, logger="puzzleopt"):
        ida(p, p.parse_state("8 6 7 2 5 4 3 0 1"), tile_heuristic("manhattan", 3, 3, progress=False))
    assert not [r for r in caplog.records if r.name == "puzzleopt.exact.progress"]


def _model_lines(caplog, method: str, progress: bool, **options) -> tuple[object, list[str]]:
    from exact import solvers

    p = registry_get("cube3")
    start = p.table.apply(p.goal, "R U F' L")
    with caplog.at_level(logging.INFO, logger="puzzleopt.exact.progress"):
        r = solvers.solve(p, start, method=method, horizon=5, progress=progress, **options)
    return r, [rec.getMessage() for rec in caplog.records if rec.name == "puzzleopt.exact.progress"]


def test_the_mip_method_shows_its_split_stage_by_stage(caplog) -> None:
    r, said = _model_lines(caplog, "mip", True, threads=2)
    assert r.status.value == "optimal" and r.length == 4
    assert said[0].startswith("mip cube3: incumbent: 4 moves from bidirectional BFS")
    assert said[1].startswith("mip cube3: model of horizon 3: ") and "piece by piece" in said[1]
    assert said[-1] == "mip cube3: pieces refuted 12/12, bound 4, incumbent 4"


def test_the_cpsat_method_says_each_horizon(caplog) -> None:
    r, said = _model_lines(caplog, "cp-sat", True)
    assert r.status.value == "optimal" and r.length == 4
    assert said and all(m.startswith("cp-sat cube3: T = ") for m in said)
    assert any(m.startswith("cp-sat cube3: T = 4: ") for m in said), said


@pytest.mark.parametrize("method", ["mip", "cp-sat"])
def test_model_methods_without_progress_say_nothing(caplog, method) -> None:
    assert _model_lines(caplog, method, False)[1] == []


def test_model_progress_draws_a_bar_where_one_is_seen_and_logs_the_last_count(caplog, monkeypatch) -> None:
    from exact import progress

    monkeypatch.setattr(progress, "bars_wanted", lambda: True)
    shown = progress.ModelProgress("mip x")
    with caplog.at_level(logging.INFO, logger="puzzleopt.exact.progress"):
        for k in range(13):
            shown({"stage": "pieces", "refuted": k, "total": 12 if k < 12 else 13, "bound": 2})
        bar = shown._bar
        assert bar is not None and (bar.n, bar.total) == (12, 13)
        shown({"stage": "pieces", "refuted": 13, "total": 13, "bound": 3})
        shown.close()
        shown({"stage": "pieces", "refuted": 1, "total": 1, "bound": 4})  # closed: nothing more
    # with a bar, only the end of a phase is logged (not every tenth piece), since the bar goes
    assert [r.getMessage() for r in caplog.records] == ["mip x: pieces refuted 13/13, bound 3"]
    assert shown._bar is None


def test_a_search_ends_with_the_count_its_result_reports(caplog) -> None:
    # learned.solve's last progress line said 16,511 states and its result 17,535: the last
    # update came before the search's final count
    from exact.astar import best_first
    from exact.tiles.catalog import tile_heuristic

    p = registry_get("tiles8")
    h = tile_heuristic("manhattan", 3, 3, progress=False)
    with caplog.at_level(logging.INFO, logger="puzzleopt.exact.progress"):
        r = best_first(p, p.parse_state("8 6 7 2 5 4 3 0 1"), h, progress=True)
    last = [rec.getMessage() for rec in caplog.records][-1]
    assert f", {r.nodes:,} expanded nodes" in last, (last, r.nodes)


def test_bars_show_only_where_they_are_seen(monkeypatch) -> None:
    from exact import progress

    monkeypatch.setattr(progress, "bars_wanted", lambda: False)
    assert progress.bar(True, total=3).disable  # a log file or a pipe gets no \r-torn lines
    monkeypatch.setattr(progress, "bars_wanted", lambda: True)
    assert not progress.bar(True, total=3).disable
    assert progress.bar(False, total=3).disable


def test_a_command_writing_to_a_file_writes_no_bar(tmp_path) -> None:
    err = tmp_path / "stderr.txt"
    with err.open("w") as f:
        cmd = [sys.executable, "-m", "exact.pdb", "--pdb-dir", str(tmp_path / "t"), "build", "tiles15-1.4.5"]
        done = subprocess.run(cmd, cwd=ROOT, stderr=f, stdout=subprocess.DEVNULL, timeout=300)
    said = err.read_text()
    assert done.returncode == 0 and "building (3,360 entries, 0.0 MB, under 0.1 s on 2 cores)" in said, said[-500:]
    assert "\r" not in said and "%|" not in said, said[-500:]


def test_a_bar_shows_no_rate_or_eta_before_it_measured_one(monkeypatch) -> None:
    import io
    import time

    from tqdm.std import tqdm

    from exact import progress

    monkeypatch.setattr(progress, "RATE_AFTER", 0.05)
    b = progress._measured(tqdm)(total=100, file=io.StringIO(), mininterval=0)
    time.sleep(0.2)  # the set-up (numba compiling) before the first step: no part of the rate
    b.update(1)
    assert "<?, ?it/s]" in b.format_meter(**b.format_dict)
    time.sleep(0.06)
    b.update(10)
    shown = b.format_meter(**b.format_dict)
    b.close()
    rate = float(shown.split(", ")[-1].split("it/s")[0])
    assert "?" not in shown and rate > 100, shown  # 10 steps in ~0.06 s, not 11 in ~0.26 s


def test_an_animation_repr_is_one_short_line() -> None:
    from puzzleopt import Cube

    a = Cube(3).apply("R U F").animate("F' U' R'")
    assert repr(a) == "Animation(4 frames: start ... 3. R', 0.8 s a frame)"


def registry_get(name: str):
    from exact import registry

    return registry.get(name)
