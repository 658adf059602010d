"""Shared test settings: reproducible hypothesis runs and the path of the shared reference data."""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "puzzleopt", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("puzzleopt")

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


SHIPPED_DATA = ROOT / "instances" / "data"


def shared_data(relative: str) -> Path:
    """The path of a reference file: the shipped copy (``instances/data``, the same relative path,
    checked against ``../shared/data`` by ``test_instance_sets.py``) where the package ships it,
    else ``../shared/data``; the test is skipped where neither has it.

    The rest of the reference data lives beside the repository and is not copied into it, so a
    checkout without it cannot run those comparisons; every other test still runs.
    """
    if (SHIPPED_DATA / relative).exists():
        return SHIPPED_DATA / relative
    path = SHARED_DATA / relative
    if not path.exists():
        pytest.skip(f"reference data {path} is not present (it lives beside the repository, in ../shared/data)")
    return path


@pytest.fixture(scope="session")
def distance_tables() -> dict:
    """The published distance distributions in ``../shared/data/distance_tables.json``."""
    return json.loads(shared_data("distance_tables.json").read_text())


def shared_dir(tmp_path_factory, name: str) -> Path:
    """A folder every worker of this run shares (pytest-xdist's workers have their own base
    folders under one parent): tables built once per run, not once per worker."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name
    folder.mkdir(exist_ok=True)
    return folder


def cube2_table(tmp_path_factory, metric: str):
    """The 2x2x2 of ``metric``, a shared folder and its complete distance table, built by one
    worker while the others wait (15 s on 2 cores), then read back by each (checked as it loads)."""
    from exact import registry
    from exact.pdb.store import load
    from exact.tablewalk import table_spec

    pdb_dir = shared_dir(tmp_path_factory, f"cube2-{metric}")
    p = registry.get("cube2", moves="faces", metric=metric)
    with open(pdb_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return p, pdb_dir, load(table_spec(p), pdb_dir, progress=False)


@pytest.fixture(scope="session")
def cube3_qtm_small(tmp_path_factory):
    """``(puzzle, tables, pdb_dir)``: the quarter-turn 3x3x3 and its optimal solver's small (70 MB)
    table, built once per run by one worker in a shared folder. Read it only: a test that
    forges or removes tables takes its own folder."""
    from exact import registry
    from exact.cube.optimal import optimal_tables

    pdb_dir = shared_dir(tmp_path_factory, "cube3-qtm-slice")
    p = registry.get("cube3", moves="faces", metric="qtm")
    with open(pdb_dir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return p, optimal_tables(p, edge="slice", pdb_dir=pdb_dir, progress=False), pdb_dir


@pytest.fixture(scope="session", params=["qtm", "htm"])
def cube2_tables(request, tmp_path_factory):
    """The 2x2x2 puzzle of one metric and a directory holding its complete distance table."""
    return cube2_table(tmp_path_factory, request.param)


@pytest.fixture(autouse=True)
def _no_large_cube_table(monkeypatch):
    """CI never builds the optimal cube solver's 1.67 GB table: a test that would (a 3x3x3 solved
    by ``auto`` or ``cube3-optimal`` without ``edge="slice"``) fails here instead."""
    from exact.cube import prune

    build = prune.build

    def guarded(table, advance=None, *, edge="slice", **kwargs):
        if edge != "slice":
            raise AssertionError(f"a test asked for the large {edge} table; pass edge='slice' (70 MB)")
        return build(table, advance, edge=edge, **kwargs)

    monkeypatch.setattr(prune, "build", guarded)


# The large variants of parametrized checks whose smaller variants run in `make test` (CI):
# marked slow here, each with why the fast suite still covers it; `make test-all` runs them.
SLOW_VARIANTS = {
    "tests/test_cube_optimal.py::test_bounds_hold_and_lengths_equal_bfs[htm]": "[qtm]: the same solver and bounds",
    "tests/test_cube_optimal.py::test_a_damaged_table_is_rebuilt[qtm]": "[htm]: the same rebuild",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-layers-htm-4]": "layers HTM 1-3, layers QTM at 4 and 5",
    "tests/test_benchmarks.py::test_a_benchmark_on_workers_has_the_rows_of_one_process[extra1]": (
        "[extra0]: the same rows on process workers; Ray's executor: tests/test_scale.py's Ray tests"
    ),
    "tests/test_scale.py::test_the_commands_run_as_python_m_on_ray[hybrid.verify]": (
        "[learned.evaluate]: a command run as python -m on Ray the same way; hybrid.verify on Ray: "
        "test_verify_on_ray_and_processes_equals_in_process"
    ),
    "tests/test_cube_h48table.py::test_h0_built_by_depth_first_search_equals_breadth_first_search[qtm]": "[htm]",
    "tests/test_cube_h48table.py::test_forgetting_a_flip_takes_the_smaller_of_two_entries[qtm]": "[htm]",
    "tests/test_cube_h48table.py::test_a_lookup_never_exceeds_the_scramble_length[qtm]": "[htm]: the same bound",
    "tests/test_cube_h48table.py::test_threads_sharing_the_table_build_the_one_thread_table[qtm]": (
        "[htm]: the same compare-and-swap; the swap itself: test_memory.py::test_compare_exchange_swaps_only_on_a_"
        "match_and_loses_no_update"
    ),
    "tests/test_cube_h48table.py::test_a_half_turn_premove_keeps_the_table_entry[qtm]": "[htm] (QTM has no half turn)",
    "tests/test_cube_h48table.py::test_the_registered_method_builds_its_table_and_solves": (
        "test_the_h48_solver_finds_the_optimal_lengths_of_the_current_solver (the same solver, called directly) and "
        "test_the_stored_table_verifies_and_a_corrupted_one_is_refused (the store's build of the same spec)"
    ),
    "tests/test_cube_optimal.py::test_a_forged_table_fails_its_audit[htm]": "[qtm]: the same audit and rebuild",
    "tests/test_cube_optimal.py::test_every_entry_is_its_true_distance[htm]": "[qtm]: the same equations",
    "tests/test_goals.py::test_the_models_agree_with_ida_on_a_partial_goal[4]": "[3]: the same three methods",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-faces-qtm-6]": "the 3x3's depths 1-5",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-faces-htm-6]": "the 3x3's depths 1-5",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-layers-qtm-6]": "depths 1-5; layers at 6: below",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-layers-htm-6]": "depths 1-5; layers at 6: below",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-faces-htm-5]": "faces HTM 1-4, faces QTM at 5",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[3-layers-htm-5]": "layers HTM 1-4, layers QTM at 5",
    "tests/test_models.py::test_mip_equals_cpsat_equals_bfs[2-layers-htm-6]": "2x2 layers HTM 1-5, QTM at 6",
    "tests/test_learned.py::test_killed_training_process_restarts_from_its_checkpoint": (
        "test_interrupted_training_resumes_where_it_stopped and test_checkpoints_by_steps_...: the same resume "
        "in this process; the checkpoint's atomic write (exact.atomic.write_chunks): "
        "test_pdb_store.py::test_interrupted_write_leaves_no_temp_file"
    ),
    "tests/test_cube_optimal.py::test_lengths_equal_reids_optimal_solver": (
        "test_ida_cube.py::test_ida_equals_reids_optimal_solver: the same peer; cube3-optimal's lengths: "
        "DeepCubeA's optimal cubes partway and BFS (test_bounds_hold_and_lengths_equal_bfs)"
    ),
    "tests/test_scale.py::test_the_commands_run_as_python_m_on_ray[learned.evaluate]": (
        "[hybrid.verify]: the same `python -m` on Ray; evaluate's task (learned.evaluation.bwas_task) on Ray: "
        "test_evaluate_sends_the_network_once_and_agrees"
    ),
    "tests/test_models.py::test_3x3_layers_at_distance_5_and_6[5-htm]": "layers HTM 1-4 (the case matrix), QTM 5-6",
    "tests/test_conformance.py::test_new_puzzles_agree_across_methods[pyraminx-options3-4]": (
        "[pyraminx-options2-6] (the same four methods without the tips, walks of 6); with the tips, every method "
        "proves the same optimum from a scramble in test_console.py's same-settings pairs"
    ),
    "tests/test_hypercube.py::test_optimum_equals_bfs[4-3-3]": "[4-1-3] and the d = 3 cases",
    "tests/test_freecell_hsd.py::test_solutions_replay[1-None-4]": "[617-None-4]: the same weights",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid in SLOW_VARIANTS:
            item.add_marker(pytest.mark.slow)
