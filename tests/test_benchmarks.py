"""The benchmarks' instances on the executor (benchmarks/common.py): a page made with workers has
the rows of the page made in one process, timings aside, and its header says where they ran."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import in_order, run_instances, worker_flags, workers_text  # noqa: E402
from exact.executor import InProcess, Processes  # noqa: E402


def _cube(shared, item):
    return shared + item**3


def test_run_instances_in_item_order_on_every_backend() -> None:
    items = list(range(7))
    want = [10 + i**3 for i in items]
    assert run_instances(InProcess(), _cube, 10, items, progress=False) == want
    seen = []
    with Processes(2) as ex:
        assert (
            run_instances(ex, _cube, 10, items, progress=False, on_result=in_order(lambda k, v: seen.append(k))) == want
        )
    assert seen == items  # in_order hands the results on in item order, whatever order they came in


def test_in_order_waits_for_the_earlier_results() -> None:
    got = []
    take = in_order(lambda k, v: got.append((k, v)))
    for k in (2, 0, 3, 1):
        take(k, str(k))
    assert got == [(0, "0"), (1, "1"), (2, "2"), (3, "3")]


def test_the_header_says_where_the_instances_ran() -> None:
    class Args:
        workers, ray = 2, None

    assert worker_flags(Args) == " --workers 2" and "2 worker processes" in workers_text(Args, "stacks")
    Args.workers, Args.ray = None, "auto"
    assert worker_flags(Args) == " --ray" and "Ray tasks" in workers_text(Args)
    Args.ray = None
    assert worker_flags(Args) == "" and workers_text(Args) == "instances one after the other in this process"


def _pancake_page(tmp_path: Path, *extra: str) -> tuple[str, list[list[str]]]:
    out = tmp_path / f"pancake{len(extra)}.md"
    cmd = [sys.executable, "benchmarks/pancake.py", "--sizes", "8,9", "--seeds", "3", "--repeats", "1"]
    subprocess.run([*cmd, "--out", str(out), *extra], cwd=ROOT, check=True, capture_output=True, timeout=300)
    text = out.read_text()
    rows = [line.split(" | ")[:-1] for line in text.splitlines() if re.match(r"\| \d+ \| \d+ \|", line)]
    return text, rows  # each row without its seconds


@pytest.mark.parametrize(
    "extra",
    [
        ("--workers", "2"),
        pytest.param(
            ("--ray", "--workers", "2"),
            marks=pytest.mark.skipif(
                importlib.util.find_spec("ray") is None, reason="Ray is the optional extra puzzleopt[scale]"
            ),
        ),
    ],
)
def test_a_benchmark_on_workers_has_the_rows_of_one_process(tmp_path, extra) -> None:
    _, here = _pancake_page(tmp_path)
    text, there = _pancake_page(tmp_path, *extra)
    assert len(here) == 2 and there == here  # one row per n: the means over its 3 stacks
    assert text.splitlines()[2].endswith(f"{' '.join(extra)}`  ")  # the command line names them


def test_the_gpu_page_replays_every_device_solution_and_rejects_a_forged_one(tmp_path) -> None:
    pytest.importorskip("torch")
    import json

    from conftest import shared_data

    from benchmarks import learned_cube3 as page
    from exact import registry

    shared_data("cube/deepcubea_cube3_qtm_1000.tsv")
    cube = registry.get("cube3")
    text = "\n".join(page.gpu_section(cube))
    assert "W = 2^18, ball 6, cubes 0-" in text and "| 100% |" in text
    row = json.loads(page.GPU_DATA[0].read_text().splitlines()[0])
    forged = tmp_path / "gpu_cube3_forged.jsonl"
    forged.write_text(json.dumps({**row, "moves": " ".join(row["moves"].split()[:-1] + ["U"])}) + "\n")
    with pytest.raises(ValueError, match="do not solve it"):
        page.gpu_section(cube, [forged])
    forged.write_text(json.dumps({**row, "optimal": row["optimal"] - 1}) + "\n")
    with pytest.raises(ValueError, match="the data file"):
        page.gpu_section(cube, [forged])


def test_a_second_network_on_the_gpu_is_set_beside_the_shipped_one_and_only_its_section_is_rewritten(
    tmp_path,
) -> None:
    pytest.importorskip("torch")
    import json

    from conftest import shared_data

    from benchmarks import learned_cube3 as page
    from exact import registry

    shared_data("cube/deepcubea_cube3_qtm_1000.tsv")
    cube = registry.get("cube3")
    rows = [json.loads(line) for path in page.GPU_DATA for line in path.read_text().splitlines()]
    shipped = [r for r in rows if "network" not in r and r["gpu"] == "NVIDIA H200"][:3]
    probe = tmp_path / "gpu_cube3_probe.jsonl"
    probe.write_text("".join(json.dumps({**r, "network": "probe", "command": "probe"}) + "\n" for r in shipped))
    shipped_file = tmp_path / "gpu_cube3_shipped.jsonl"
    shipped_file.write_text("".join(json.dumps(r) + "\n" for r in shipped))
    text = "\n".join(page.gpu_section(cube, [shipped_file, probe]))
    assert "| probe, W = 2^18, ball 6, the cubes both searched, H200 | 3 |" in text
    assert "Probe at W = 2^18, on the 3 cubes both networks searched: 0 solutions shorter" in text
    md = tmp_path / "learned_cube3.md"
    section = "<!-- section fused -->\n## Section fused\n\nkept\n<!-- end section fused -->\n"
    md.write_text(f"# CPU\n\nthe CPU table\n\n{page.GPU_HEADING}\n\nold\n\nWritten by puzzleopt 0.0 at commit abc.\n\n"
                  f"{section}")  # fmt: skip
    page.rewrite_gpu_section(md, cube)
    new = md.read_text()
    assert "the CPU table" in new and "\nold\n" not in new and section in new
    assert "(The sections above: written by puzzleopt 0.0 at commit abc.)" in new
    with pytest.raises(ValueError, match="no '## On a GPU"):
        page.rewrite_gpu_section(probe, cube)


def test_the_curve_counts_the_first_cubes_names_fewer_and_is_drawn() -> None:
    pytest.importorskip("torch")
    from conftest import shared_data

    from benchmarks import learned_cube3 as page
    from benchmarks import plots
    from exact.plots import new_figure

    shared_data("cube/deepcubea_cube3_qtm_1000.tsv")

    def rows(lengths):
        return [{"i": i, "length": n, "optimal": 20} for i, n in enumerate(lengths)]

    series = [
        ("b (diffusion then davi)", 9e7, {(1024, False): rows([22] * 10)}),
        ("a (diffusion)", 5e7, {(1024, False): rows([20] * 5 + [22] * 7), (2**18, True): rows([20, None, 22])}),
        ("c (diffusion)", 2e8, {(4096, False): rows([20] * 3 + [22] * 7)[1:]}),  # not from cube 0: no cell
    ]
    lines = page.curve_section(series)
    text = "\n".join(lines)
    assert "| network | training states | W = 2^10 | W = 2^12 | W = 2^18 (GPU) |" in text
    assert "| a (diffusion) | 50.0M | 50% / 21.00 |  | 33% / 21.00 (cubes 0-2, 2 solved) |" in text
    assert text.index("| a (diffusion)") < text.index("| b (diffusion then davi)") < text.index("| c (diffusion)")
    assert "| c (diffusion) | 200.0M |  |  |  |" in text
    fig = new_figure(8, 3)
    w_ax, states_ax = fig.subplots(1, 2)
    plots._curves(w_ax, states_ax, text)
    assert [ln.get_label() for ln in w_ax.get_legend().get_lines()] == [
        "a (diffusion), 50.0M", "b (diffusion then davi), 90.0M", "c (diffusion), 200.0M"]  # fmt: skip


def test_the_peer_pairs_take_turns_and_report_median_seconds() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("cayleypy")
    import numpy as np

    from benchmarks import learned_cube3 as page
    from exact import registry

    cube = registry.get("cube3")
    start = cube.table.apply(cube.goal, "R U F' L")

    def misplaced(states: np.ndarray) -> np.ndarray:  # the same cheap heuristic for both searches
        return (cube.states(states) != cube.goal).sum(axis=1).astype(np.float64) / 8

    mine, theirs = page.run_pairs(cube, misplaced, [(start, 4)], width=64, repeats=3)
    assert [r["runs"] for r in mine + theirs] == [3, 3]
    assert mine[0]["length"] == 4 and theirs[0]["length"] == 4  # both replayed on our cube


def test_a_page_per_benchmark_script() -> None:
    """docs/benchmarks holds one page per script, named as it; runs of other settings are
    sections of that page (or data under docs/benchmarks/runs and data)."""
    pages = {p.stem for p in (ROOT / "docs" / "benchmarks").glob("*.md")} - {"index"}  # the site's list of them
    scripts = {p.stem for p in (ROOT / "benchmarks").glob("*.py")}
    assert pages <= scripts, f"pages with no script of their name: {sorted(pages - scripts)}"


def test_a_section_is_replaced_in_place_and_the_others_are_kept(tmp_path) -> None:
    from benchmarks.common import write_page

    page = tmp_path / "b.md"
    write_page(page, ["# Benchmark: b at 8", "", "first"], section="main", title="Benchmark: b")
    write_page(page, ["# Benchmark: b at 9", "", "deep"], section="t9", title="Benchmark: b")
    write_page(page, ["# Benchmark: b at 8", "", "again"], section="main", title="Benchmark: b")
    text = page.read_text()
    assert text.startswith("# Benchmark: b\n")
    assert "first" not in text and text.index("again") < text.index("deep")
    assert text.count("<!-- section main -->") == 1 and "## Section t9: b at 9" in text
    assert not [p for p in tmp_path.iterdir() if p.name != "b.md"], "a temporary file was left"
    with pytest.raises(ValueError, match="--section"):
        write_page(page, "x", section="two words")


def test_a_page_written_anew_keeps_its_plots(tmp_path) -> None:
    from benchmarks.common import write_page

    page = tmp_path / "p.md"
    write_page(page, ["# Benchmark: p", "", "old rows"])
    write_page(page, ["# the data above, drawn", "", "![p](img/p.png)"], section="plots")
    write_page(page, ["# Benchmark: p", "", "new rows"])
    text = page.read_text()
    assert "new rows" in text and "old rows" not in text and text.count("![p](img/p.png)") == 1


def test_the_deepcubea_certificates_are_replayed_and_a_forged_or_wrong_one_refused(tmp_path) -> None:
    """A row of benchmarks/deepcubea_h48.py counts only if its moves solve its cube in the file's
    optimal length; the page is written from the rows that pass."""
    import csv
    import json

    from benchmarks import deepcubea_h48 as cert

    with cert.instances.path("deepcubea-cube3").open() as fh:
        first = next(csv.DictReader(fh, delimiter="\t"))
    known = {c["id"]: c for c in cert.cubes(3)}
    p = cert.puzzle()
    row = {"id": "0", "optimal": int(first["optimal_qtm"]), "status": "optimal", "length": int(first["optimal_qtm"]),
           "bound": int(first["optimal_qtm"]), "nodes": 1, "seconds": 1.5, "moves": first["optimal_solution"],
           "table": "cube3-h48-h6-b11-qtm", "threads": 2, "date": "2026-11-29", "machine": "m", "commit": "c" * 40,
           "command": "python benchmarks/deepcubea_h48.py"}  # fmt: skip
    data = tmp_path / "deepcubea_h48.jsonl"
    data.write_text(json.dumps(row) + "\n")
    rows = cert.checked(p, cert.read_rows(data), known, data)
    text = "\n".join(cert.render(rows, known, 12.0, ""))
    assert "| 1 | 1 | 1 | 1.50 |" in text and "set-up took 12.0 s" in text
    assert "on 1 of 1,000 cubes (median 1.50 s)." in text  # no limit cube: no word on how limits count
    big = {**row, "table": "cube3-h48-h8-b11-qtm", "seconds": 0.75, "nodes": 2}
    data.write_text(json.dumps(row) + "\n" + json.dumps(big) + "\n")
    text = "\n".join(cert.render(cert.checked(p, cert.read_rows(data), known, data), known, None, ""))
    assert "on 1 of 1,000 cubes (median 1.50 s)." in text  # the target: judged on the 2 GB table alone
    assert ("`cube3-h48-h8-b11-qtm` (7.64 GB), on the 1 cubes both proved: median 0.75 s against 1.50 s (0.50 "
            "times), median nodes 2 against 1 (2.00 times)") in text  # fmt: skip
    moves = first["optimal_solution"].split()
    forged = {**row, "moves": " ".join(moves[:-1] + ["U" if moves[-1] != "U" else "D"])}
    wrong = {**row, "length": row["length"] - 2, "moves": " ".join(moves[:-2])}
    longer = {**row, "length": row["length"] + 2, "moves": " ".join([*moves, "U", "U'"])}
    cases = (
        (forged, "do not solve it"),
        (wrong, "do not solve it"),
        (longer, "the file says"),
        ({**row, "id": "x"}, "not one of"),
    )
    for bad, says in cases:
        data.write_text(json.dumps(bad) + "\n")
        with pytest.raises(ValueError, match=says):
            cert.checked(p, cert.read_rows(data), known, data)


def _certificate(p, item, start, given: list[str], best: list[str], verdict: str) -> dict:
    """A hybrid.verify record of DeepCubeA cube ``item`` (the best solution proven optimal)."""
    result = {"puzzle": "cube3", "start": [int(x) for x in start], "moves": best, "status": "optimal",
              "lower_bound": len(best), "nodes": 1, "seconds": 1.0, "solver": "verify:cube3-h48"}  # fmt: skip
    return {"verdict": verdict, "given": " ".join(given), "given_length": len(given), "best_length": len(best),
            "gap": len(given) - len(best), "method": "cube3-h48", "lower_bound": len(best), "gap_exact": True,
            "certify_seconds": 2.0, "id": item.id, "known_optimal": item.optimal, "learned_seconds": 50.0,
            "reason": None, "spec": {"name": "cube3"}, "result": result}  # fmt: skip


def test_the_verified_section_rechecks_every_certificate_and_refuses_a_forged_one(tmp_path) -> None:
    """benchmarks/verify_cube3.py renders hybrid.verify's certificates of the network's answers
    only after re-checking each against its DeepCubeA cube and optimum, whoever sealed the log."""
    import csv
    import json

    import instances
    from benchmarks import verify_cube3 as vc
    from exact import registry
    from instances.files import parse_states, read_instances

    p = registry.get("cube3")
    items = read_instances("deepcubea-cube3")[:2]
    starts = parse_states(p, items, "deepcubea-cube3")
    with instances.path("deepcubea-cube3").open() as fh:
        sols = [r["optimal_solution"].split() for r, _ in zip(csv.DictReader(fh, delimiter="\t"), range(2))]
    good = [_certificate(p, items[0], starts[0], sols[0], sols[0], "optimal"),
            _certificate(p, items[1], starts[1], [*sols[1], "U", "U'"], sols[1], "suboptimal")]  # fmt: skip
    learned = {"model": "shipped", "method": "beam", "options": {"quality": "best", "precision": "int8"}}
    run = {"command": "verify", "puzzle": {"name": "cube3"}, "method": "cube3-h48", "learned": learned}

    def folder(name: str, records: list[dict], header: dict = run) -> Path:
        f = tmp_path / name
        f.mkdir()
        lines = [{"format": "puzzleopt-certificate/3", "run": header}, *records]
        (f / "certificates.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
        return f

    page = tmp_path / "page.md"
    assert vc.main([str(folder("good", good)), "--out", str(page)]) == 0
    text = page.read_text()
    assert "| 0 | 1 | 50.0% |" in text and "| 2 | 1 | 50.0% |" in text and "50.0% (9.5-90.5%, 1/2)" in text
    assert "the proof 2.0 s (2 cores)." in text and "; 2 of 1,000 certified so far." in text
    assert vc.coverage(1000) == "all 1,000 certified"  # a complete run no longer says "so far"
    split = [str(folder("a", good[:1])), str(folder("b", [{**good[1], "learned_seconds": 80.0}]))]
    assert vc.main([*split, "--out", str(page)]) == 0  # a run continued on another machine: each folder's medians
    said = f"each run on its own machine: `{split[0]}` (1 cube) 50.0 s and 2.0 s, `{split[1]}` (1 cube) 80.0 s"
    assert said in page.read_text()
    longer = [*sols[1], "U", "U'"]
    cases = {
        "claims-optimal": _certificate(p, items[1], starts[1], longer, longer, "optimal"),  # beyond the optimum
        "does-not-solve": {**good[0], "given": " ".join([*sols[0], "U"])},
        "other-optimum": {**good[0], "known_optimal": items[0].optimal + 2},
    }
    for name, bad in cases.items():
        assert vc.main([str(folder(name, [bad])), "--out", str(page)]) == vc.EXIT_CONTRADICTION, name
    other = {**run, "learned": {**run["learned"], "options": {"width": 1024}}}
    assert vc.main([str(tmp_path / "good"), str(folder("other", good, other)), "--out", str(page)]) == 2
    assert vc.main([str(tmp_path / "missing"), "--out", str(page)]) == 2


def test_the_h48_page_says_which_sets_a_peer_ran_and_how_many_stopped_at_its_limit() -> None:
    from benchmarks import h48

    rows = [{"solver": "rubiks_optimal", "set": "17 moves", "id": str(i), "status": s}
            for i, s in enumerate(["limit", "optimal", "limit"])]  # fmt: skip
    rows += [{"solver": "ours", "set": "18 moves", "id": "0", "status": "optimal"},
             {"solver": "ours", "set": "hard", "id": "r5", "status": "optimal"}]  # fmt: skip
    assert h48._peer_sets(rows, "rubiks_optimal") == "17 moves, 2 of 3 at its limit (not run on 18 moves, hard r5)"


def test_the_h48_page_judges_the_issues_targets_only_on_tables_of_at_most_2_gb() -> None:
    from benchmarks import h48

    names = ["cube3-h48-h6-b9-htm", "cube3-h48-h8-b10-htm"]
    rows = [{"solver": "ours", "table": n, "set": "17 moves", "id": str(i), "status": "optimal", "seconds": s}
            for n, s in zip(names, [1.0, 0.5]) for i in range(3)]  # fmt: skip
    tables = {names[0]: {"bytes": 1_910_471_063}, names[1]: {"bytes": 7_641_884_250}}
    text = " ".join(h48._findings(rows, names, tables))
    assert "h6, 17 moves: median 1.00 s, target 1.25 s met; mean 1.00 s, 0.8 times H48's h6 mean 1.25 s" in text
    assert "h8, 17 moves: median 0.50 s; mean 0.50 s, 1.1 times H48's h8 mean 0.46 s" in text


def test_the_h48_mark_section_shows_each_comparison_and_bad_arguments_say_what_to_give(tmp_path) -> None:
    from benchmarks import h48_mark

    a = {"label": "old.py (abc)", "rounds": [2.6, 2.5, 2.7], "median": 2.6, "digest": "d"}
    b = {"label": "new.py (def)", "rounds": [2.1, 2.0, 2.3], "median": 2.1, "digest": "d"}
    row = {"date": "2026-11-30", "machine": "m", "commit": "c" * 40, "command": "python benchmarks/h48_mark.py",
           "h": 8, "starts": 6000, "depth": 7, "levels": 3, "threads": 2, "variants": [a, b],
           "load": "load average 0.1"}  # fmt: skip
    text = "\n".join(h48_mark.render([row]))
    assert "| h8 | 6,000 at 7, 3 moves | 2 | old.py (abc) | 2.60 (2.60, 2.50, 2.70) |" in text
    assert "| new.py (def) | 2.10 (2.10, 2.00, 2.30) | 0.808 |" in text
    missing = [str(tmp_path / "a.py"), str(tmp_path / "b.py")]
    with pytest.raises(ValueError, match="does not exist"):
        h48_mark.run(missing, 8, 10, 7, 3, 3, 2, "c")
    with pytest.raises(ValueError, match="give h in 0..11"):
        h48_mark.run(missing, 12, 10, 7, 3, 3, 2, "c")
    assert h48_mark.main(["--files", *missing]) == 2


def test_the_h48_ab_section_shows_each_comparison_and_bad_arguments_say_what_to_give(tmp_path) -> None:
    from benchmarks import h48_ab

    a = {"label": "1 thread", "rounds": [80.0, 79.0, 81.0], "median": 80.0, "nodes": 609}
    b = {"label": "2 threads", "rounds": [38.0, 40.0, 37.0], "median": 38.0, "nodes": 609}
    row = {"date": "2026-11-29", "machine": "m", "commit": "c" * 40, "command": "python benchmarks/h48_ab.py",
           "length": 17, "count": 25, "stop_at": False, "variants": [a, b], "load": "load average 0.1"}  # fmt: skip
    text = "\n".join(h48_ab.render([row]))
    assert "| 25 of 17 moves | 1 thread | 80.00 (80.00, 79.00, 81.00) |" in text
    assert "| 2 threads | 38.00 (38.00, 40.00, 37.00) |" in text
    assert "| 0.475 | 609 / 609 |" in text
    with pytest.raises(ValueError, match="give two thread counts"):
        h48_ab.variants(None, "1", 2)
    with pytest.raises(ValueError, match="does not exist"):
        h48_ab.variants([str(tmp_path / "a.py"), str(tmp_path / "b.py")], None, 2)
    assert h48_ab.main(["--threads-ab", "1,2", "--count", "0"]) == 2
