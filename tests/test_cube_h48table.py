"""H48's ``hk`` tables (exact/cube/h48table.py): the depth-first build from the short cosets
against breadth-first search over ``h0``, one ``k`` against the next, lower bounds on scrambles,
and the stored table's checks. Small bases keep the builds to seconds; the real sizes are built
by the benchmark."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exact import registry
from exact.cube.h48 import cocsep_of, esep_of, h0_distances, h0_tables, sym48
from exact.cube.h48table import (
    build_hk,
    catalog_spec,
    cocsep,
    corner_distances,
    corner_moves,
    cube_kit,
    entries,
    h_code,
    hk_edges,
    hk_lookup,
    hk_values,
    mask_kit,
    move_corners,
    short_cubes,
    spec,
    split,
)
from exact.cube.symmetry import conjugate_cubies, symmetry_of
from exact.pdb.store import check, load
from exact.puzzles.cube.cubies import read_cubies

BASE, SHORT = 3, 3  # entries exact to base + 2 = 5 moves


@pytest.fixture(scope="module", params=["htm", "qtm"])
def kit(request):
    p = registry.get("cube3", moves="faces", metric=request.param)
    return p, cube_kit(p.table)


def _cubes(p, rng, n, length):
    out = np.zeros((n, 40), np.uint8)
    for i in range(n):
        moves = rng.integers(0, p.table.num_moves, length)
        c = read_cubies(p.table.apply(p.goal, moves), 3)
        out[i] = np.concatenate([c.corner_perm, c.corner_ori, c.edge_perm, c.edge_ori])
    return out


def test_the_kernels_coordinates_are_the_numpy_ones(kit) -> None:
    p, k = kit
    cubes = _cubes(p, np.random.default_rng(0), 200, 30)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    for g in (0, 5, 17, 40):
        sym = symmetry_of(sym48()[g])
        ncp, nco, nep, neo = conjugate_cubies(cubes[:, :8], cubes[:, 8:16], cubes[:, 16:28], cubes[:, 28:], sym)
        codes = np.array([h_code(c, g, k.s_eto, k.s_ek, k.e_piece, k.m_piece, k.comb, ep, eo) for c in cubes])
        assert np.array_equal(codes >> 11, esep_of(nep))
        flips = (neo[:, :11] << np.arange(10, -1, -1)).sum(axis=1)
        assert np.array_equal(codes & 2047, flips)
    assert np.array_equal([cocsep(c, k.tetrad, k.comb) for c in cubes], cocsep_of(cubes[:, :8], cubes[:, 8:16]))


def test_the_solver_s_mask_edge_index_is_the_conjugate_s_code_cut_to_h_flips(kit) -> None:
    p, k = kit
    cubes = _cubes(p, np.random.default_rng(1), 100, 30)
    ep, eo = np.empty(12, np.uint8), np.empty(12, np.uint8)
    mk = mask_kit()
    for g in range(48):
        for h in range(12):
            ours = [hk_edges(c[16:28], c[28:40], g, h, mk) for c in cubes]
            code = [h_code(c, g, k.s_eto, k.s_ek, k.e_piece, k.m_piece, k.comb, ep, eo) >> (11 - h) for c in cubes]
            assert ours == code, (g, h)


def test_the_short_cosets_start_as_h48_counts_them(kit) -> None:
    p, k = kit
    counts = short_cubes(k, 4, capacity=1 << 8).counts  # the map grows from a small start
    assert counts[:2] == (1, 1)  # every quarter turn is a conjugate of every other
    assert counts == ((1, 1, 3, 23, 241) if p.table.num_moves == 18 else (1, 1, 2, 12, 92))


@pytest.fixture(scope="module")
def built(kit):
    p, k = kit
    return p, k, {h: build_hk(k, h, BASE, SHORT) for h in (0, 1)}


def test_h0_built_by_depth_first_search_equals_breadth_first_search(built) -> None:
    """On every entry breadth-first search over ``h0`` reaches (its canonical ones), the two bits
    are ``max(0, d - base)`` to ``base + 2`` and 3 beyond."""
    p, _, tables = built
    d = h0_distances(h0_tables(p.table), max_depth=BASE + 3)
    seen = d != 255
    expected = np.where(d[seen] <= BASE + 2, np.maximum(d[seen].astype(int) - BASE, 0), 3)
    assert np.array_equal(hk_values(tables[0])[seen], expected)
    assert (expected < 3).sum() > 100 and (expected == 3).sum() > 1000


def test_forgetting_a_flip_takes_the_smaller_of_two_entries(built) -> None:
    """``h(k-1)``'s entry is the smaller of the two ``hk`` entries that differ in the last tracked
    flip: every coset marks both tables from the same cube."""
    _, _, tables = built
    v0, v1 = hk_values(tables[0]), hk_values(tables[1])
    assert len(v1) == 2 * len(v0) == entries(1)
    assert np.array_equal(v0, np.minimum(v1[0::2], v1[1::2]))
    assert (v1[0::2] != v1[1::2]).any()  # the flip tells something


def test_threads_sharing_the_table_build_the_one_thread_table(kit) -> None:
    """Threads lower shared bytes by compare-and-swap: no update may be lost to a race."""
    _, k = kit
    one, two = (build_hk(k, 1, BASE, 2, threads=t) for t in (1, 2))
    assert np.array_equal(one.data, two.data) and np.array_equal(one.lines, two.lines)


def test_a_lookup_never_exceeds_the_scramble_length(built) -> None:
    p, k, tables = built
    rng = np.random.default_rng(1)
    args = (k.tetrad, k.comb, k.cls, k.sym, k.s_eto, k.s_ek, k.e_piece, k.m_piece)
    for length in range(0, 9):
        for c in _cubes(p, rng, 40, length):
            for t in tables.values():
                assert hk_lookup(c, t.h, t.base, t.data, t.lines, *args) <= length
    solved = _cubes(p, rng, 1, 0)[0]
    assert all(hk_lookup(solved, t.h, t.base, t.data, t.lines, *args) == 0 for t in tables.values())


def test_the_stored_table_verifies_and_a_corrupted_one_is_refused(tmp_path) -> None:
    p = registry.get("cube3", moves="faces", metric="htm")
    s = spec(p.table, "htm", 0, base=BASE)
    stored = load(s, tmp_path, progress=False)
    t = split(stored)
    assert t.base == BASE and len(t.data) == (entries(0) + 3) // 4 and check(s, tmp_path) is None
    del stored, t
    path = tmp_path / f"{s.name}.bin"
    raw = bytearray(path.read_bytes())
    raw[12345] ^= 0xFF
    path.write_bytes(bytes(raw))
    assert "sha256" in check(s, tmp_path)


@pytest.fixture(scope="module")
def solver_table():
    """``h0`` exact to 7 moves (base 5): strong enough for short scrambles, built in seconds."""
    p = registry.get("cube3", moves="faces", metric="htm")
    return p, build_hk(cube_kit(p.table), 0, 5, 5)


@pytest.mark.parametrize("metric, lengths", [("htm", (0, 1, 2, 3, 4, 5, 8, 10)), ("qtm", (1, 2, 3, 4, 5, 6, 7, 9))])
def test_the_h48_solver_finds_the_optimal_lengths_of_breadth_first_search(solver_table, metric, lengths) -> None:
    """Scrambles shorter than a task's prefix, as long, and longer, in both metrics (the quarter
    turns' ``h0`` at base 5 built here)."""
    from exact.cube.h48solve import h48_cube
    from exact.solvers import solve

    p, table = solver_table
    if metric == "qtm":
        p = registry.get("cube3", moves="faces", metric="qtm")
        table = build_hk(cube_kit(p.table), 0, 5, 5)
    rng = np.random.default_rng(7)
    for length in lengths:
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, length))
        ours = h48_cube(p, start, table=table)
        ref = solve(p, start, method="bfs")
        assert ours.status.value == "optimal" and ours.length == ref.length, (length, ours.length, ref.length)
        assert p.solved(p.table.apply(start, p.table.parse(" ".join(ours.moves), start=start)))


def test_the_answer_is_the_same_on_one_thread_and_on_two(solver_table) -> None:
    """The slots are fixed, not the threads: which task's solution comes first does not depend on
    how many threads run them."""
    from exact.cube.h48solve import h48_cube

    p, table = solver_table
    rng = np.random.default_rng(5)
    for _ in range(4):
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, 11))
        one, two = (h48_cube(p, start, table=table, threads=t) for t in (1, 2))
        assert one.moves == two.moves and one.nodes == two.nodes


def test_the_tasks_are_every_canonical_four_move_sequence_in_order() -> None:
    """18, 243, 3,240 and 43,254 canonical sequences of 1 to 4 half-turn moves (the count H48
    sizes its tasks by), each allowed by the rules, sorted, none twice."""
    from exact.cube.h48solve import task_prefixes
    from exact.cube.optimal import canonical_rules

    p = registry.get("cube3", moves="faces", metric="htm")
    forbid, forbid3 = canonical_rules(p.table)
    assert [len(task_prefixes(forbid, forbid3, k)) for k in (1, 2, 3, 4)] == [18, 243, 3240, 43254]
    t = task_prefixes(forbid, forbid3, 4)
    assert not forbid[t[:, :-1], t[:, 1:]].any() and not forbid3[t[:, :-2], t[:, 1:-1], t[:, 2:]].any()
    keys = [tuple(r) for r in t]
    assert keys == sorted(set(keys))


def test_switching_to_the_inverse_side_keeps_every_answer_optimal(solver_table) -> None:
    """Each node searching from the side with fewer children (the inverse's under the backward
    rules) finds the lengths the cube's side alone finds, and its answer replays."""
    from exact.cube.h48solve import h48_cube

    p, table = solver_table
    rng = np.random.default_rng(23)
    for _ in range(12):
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, int(rng.integers(7, 12))))
        on = h48_cube(p, start, table=table)
        off = h48_cube(p, start, table=table, switch=False)
        assert on.status.value == off.status.value == "optimal" and on.length == off.length
        assert p.solved(p.table.apply(start, p.table.parse(" ".join(on.moves), start=start)))


def test_the_inverse_side_s_rules_are_the_cube_s_read_backwards() -> None:
    """Moves p1 p2 on the inverse end the answer as p2^-1 p1^-1: the pair is barred exactly when
    the cube's rules bar that (and so for triples)."""
    from exact.cube.h48solve import backward_rules
    from exact.cube.optimal import canonical_rules

    for metric in ("htm", "qtm"):
        t = registry.get("cube3", moves="faces", metric=metric).table
        forbid, forbid3 = canonical_rules(t)
        inv = np.asarray(t.inverse)
        back, back3 = backward_rules(forbid, forbid3, inv)
        m = t.num_moves
        for a in range(m):
            for y in range(m):
                assert back[a, y] == forbid[inv[y], inv[a]]
                for z in range(m):
                    assert back3[a, y, z] == forbid3[inv[z], inv[y], inv[a]]


def test_the_corner_distances_bound_every_scramble_and_reach_every_coordinate(kit) -> None:
    p, k = kit
    d = corner_distances(k.cto, k.ctw)
    assert d.shape == (153_090,) and d.max() < 255 and (d == 0).sum() == 1
    rng = np.random.default_rng(2)
    for length in range(0, 12):
        for c in _cubes(p, rng, 30, length):
            assert d[cocsep(c, k.tetrad, k.comb)] <= length


def test_the_corner_move_table_moves_the_coordinate_as_the_pieces_move(kit) -> None:
    p, k = kit
    step = corner_moves(k.cto, k.ctw)
    assert step.shape == (153_090, p.table.num_moves) and step.min() >= 0
    moved = np.zeros(40, np.uint8)
    for c in _cubes(p, np.random.default_rng(3), 50, 25):
        for m in range(p.table.num_moves):
            move_corners(c, moved, m, k.cto, k.ctw)
            assert step[cocsep(c, k.tetrad, k.comb), m] == cocsep(moved, k.tetrad, k.comb)


def test_a_half_turn_premove_keeps_the_table_entry(built) -> None:
    """The solver's free inverse bound after a half turn: premultiplying by a half turn keeps the
    tetrads, slices, twists and flips, so the entry read is the same."""
    from exact.cube.h48solve import half_turns
    from exact.cube.optkernel import inverse_move

    p, k, tables = built
    half = half_turns(k.cto, k.eto)
    assert half.sum() == (6 if p.table.num_moves == 18 else 0)
    args = (k.tetrad, k.comb, k.cls, k.sym, k.s_eto, k.s_ek, k.e_piece, k.m_piece)
    out = np.empty(40, np.uint8)
    rng = np.random.default_rng(4)
    for c in np.concatenate([_cubes(p, rng, 40, 4), _cubes(p, rng, 40, 12)]):
        for m in np.flatnonzero(half):
            inverse_move(c, out, m, k.cto, k.ctw, k.eto, k.eflip)
            assert not np.array_equal(out, c)
            for t in tables.values():
                assert hk_lookup(out, t.h, t.base, t.data, t.lines, *args) == hk_lookup(
                    c, t.h, t.base, t.data, t.lines, *args
                )


def test_the_h48_solver_stops_at_its_limits_with_a_bound(solver_table) -> None:
    from exact.cube.h48solve import h48_cube

    p, table = solver_table
    start = p.table.apply(p.goal, np.random.default_rng(3).integers(0, p.table.num_moves, 30))
    r = h48_cube(p, start, table=table, node_limit=50_000)
    assert r.status.value == "limit" and not r.moves and 8 <= r.lower_bound <= 20


def test_the_registered_method_builds_its_table_and_solves(tmp_path) -> None:
    from exact.solvers import solve

    p = registry.get("cube3", moves="faces", metric="htm")
    start = p.table.apply(p.goal, p.table.parse("R U F' L2 D B'", start=p.goal))
    r = solve(p, start, method="cube3-h48", h=0, base=5, fallback=False, pdb_dir=str(tmp_path))
    assert r.status.value == "optimal" and r.length == 6 and r.solver == "ida*"
    assert (tmp_path / "cube3-h48-h0-b5-htm.bin").exists()


def test_a_table_loaded_by_an_earlier_solve_is_no_set_up_for_the_next(tmp_path) -> None:
    """A batch's second cube neither announces the table's loading again nor is refused a limit
    shorter than that loading: the table is already in memory."""
    from exact.contract import Limits
    from exact.cube import methods
    from exact.solvers import get_method, solve

    p = registry.get("cube3", moves="faces", metric="htm")
    options = {"h": 0, "base": 5, "pdb_dir": str(tmp_path)}
    first = p.table.apply(p.goal, p.table.parse("R U F' L2 D B'", start=p.goal))
    assert solve(p, first, method="cube3-h48", **options).length == 6
    assert get_method("cube3-h48").setups(p, options, str(tmp_path)) == []
    second = p.table.apply(p.goal, p.table.parse("F2 L' U B", start=p.goal))
    r = solve(p, second, method="cube3-h48", limits=Limits(time=5), **options)
    assert r.status.value == "optimal" and r.length == 4
    methods._H48_LOADED.clear()
    assert get_method("cube3-h48").setups(p, options, str(tmp_path)) != []  # loading it again is a set-up


def test_a_stored_table_of_another_base_is_read_where_the_default_base_is_not_stored(tmp_path) -> None:
    """``auto`` and an unset ``base`` read the table on disk, not a default one still to build."""
    from exact.cube import methods
    from exact.solvers import solve

    p = registry.get("cube3", moves="faces", metric="htm")
    start = p.table.apply(p.goal, p.table.parse("R U F' L2", start=p.goal))
    assert methods._chosen(p, "htm", None, None, str(tmp_path)) == (0, None)  # nothing stored: h0, its default
    assert solve(p, start, method="cube3-h48", h=0, base=5, pdb_dir=str(tmp_path)).length == 4
    assert methods._chosen(p, "htm", None, None, str(tmp_path)) == (0, 5)
    assert methods._chosen(p, "htm", 0, None, str(tmp_path)) == (0, 5)
    assert methods._chosen(p, "htm", 1, None, str(tmp_path)) == (1, None)
    r = solve(p, start, method="cube3-h48", pdb_dir=str(tmp_path))
    assert r.status.value == "optimal" and r.length == 4
    assert sorted(f.name for f in tmp_path.glob("*.bin")) == ["cube3-h48-h0-b5-htm.bin"]  # no default-base build
    methods._H48_LOADED.clear()


def test_a_time_limit_too_short_for_the_h6_build_ends_at_once_in_limit(tmp_path) -> None:
    from exact.contract import Limits
    from exact.solvers import solve

    p = registry.get("cube3", moves="faces", metric="htm")
    start = p.table.apply(p.goal, p.table.parse("R U F", start=p.goal))
    r = solve(p, start, method="cube3-h48", h=6, limits=Limits(time=30), pdb_dir=str(tmp_path))
    assert r.status.value == "limit" and "not started" in r.extra["limit"] and r.seconds < 10
    assert not list(tmp_path.iterdir())


def test_a_stopped_build_resumes_from_its_checkpoint_and_ignores_a_damaged_one(tmp_path, monkeypatch) -> None:
    from exact.cube import h48table
    from exact.pdb import partial

    p = registry.get("cube3", moves="faces", metric="htm")
    k = cube_kit(p.table)
    whole = build_hk(k, 0, 5, 5)
    monkeypatch.setattr(h48table, "CHECKPOINT_SECONDS", 0.0)  # a checkpoint after every part
    monkeypatch.setattr(h48table, "CHECKPOINT_SHARE", 0.0)
    calls = []

    def stop_at_3(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_hk(k, 0, 5, 5, advance=stop_at_3, checkpoint=(tmp_path, "t"))
    bin_path, json_path = partial.paths(tmp_path, "t")
    assert bin_path.exists()
    spent = json.loads(json_path.read_text())["about"]["seconds"]
    assert 0 < spent < 600
    monkeypatch.setattr(h48table, "CHECKPOINT_SECONDS", 1e9)  # none while it finishes
    calls.clear()
    again = build_hk(k, 0, 5, 5, advance=calls.append, checkpoint=(tmp_path, "t"))
    assert calls[0] == 3 and sum(calls) == h48table.CHUNKS  # the saved parts are not marked again
    assert np.array_equal(again.data, whole.data) and np.array_equal(again.lines, whole.lines)
    assert again.earlier_seconds == spent and whole.earlier_seconds == 0  # the store adds them
    raw = bytearray(bin_path.read_bytes())
    raw[-1] ^= 0xFF
    bin_path.write_bytes(bytes(raw))
    sizes = (len(whole.lines), len(whole.data))
    about = {"h": 0, "base": 5, "short_depth": 5, "moves": 18, "chunks": h48table.CHUNKS}
    assert partial.read(tmp_path, "t", sizes, about) is None


@pytest.mark.parametrize(
    "how_far",
    [{"progress": 0}, {"progress": "3"}, {"progress": 10**6}, {"progress": 3, "seconds": -1.0},
     {"progress": 3, "seconds": "12"}, {"progress": 3, "seconds": float("nan")}, {}],
)  # fmt: skip
def test_a_checkpoint_whose_progress_or_seconds_make_no_sense_is_not_resumed(tmp_path, how_far) -> None:
    """The sha256 covers a checkpoint's data, not how far it says it got: a build resumes only
    from a part count in ``1..CHUNKS-1`` and seconds that are a finite number ``>= 0``."""
    from exact.cube import h48table
    from exact.pdb import partial

    sizes, about = (4, 8), {"h": 0, "base": 5}
    partial.write(tmp_path, "t", [np.zeros(4, np.uint8), np.zeros(8, np.uint8)], {**about, **how_far})
    lines, data, done, earlier = h48table._start((tmp_path, "t"), sizes, about)
    assert (done, earlier) == (0, 0.0) and (lines == 8).all() and (data == 0xFF).all()
    partial.write(tmp_path, "t", [np.zeros(4, np.uint8), np.zeros(8, np.uint8)], {**about, "progress": 3})
    assert h48table._start((tmp_path, "t"), sizes, about)[2:] == (3, 0.0)  # no seconds: written before they were kept


def test_checkpoints_wait_a_multiple_of_the_last_one_s_own_seconds(tmp_path, monkeypatch) -> None:
    from exact.cube import h48table
    from exact.pdb import partial

    k = cube_kit(registry.get("cube3", moves="faces", metric="htm").table)
    monkeypatch.setattr(h48table, "CHECKPOINT_SECONDS", 0.0)
    monkeypatch.setattr(h48table, "CHECKPOINT_SHARE", 1e9)  # after the first, the next is far off
    written = []
    write = partial.write
    monkeypatch.setattr(partial, "write", lambda *a: written.append(a[-1]["progress"]) or write(*a))
    build_hk(k, 0, 5, 5, checkpoint=(tmp_path, "t"))
    assert written == [1]


@pytest.mark.slow  # needs the stored 1.9 GB h6 table (python -m exact.pdb build cube3-h48-h6-b9-htm)
def test_the_h48_solver_with_h6_equals_korf_s_solver_to_14_moves() -> None:
    from exact.cube.h48solve import h48_cube
    from exact.pdb.store import default_dir, stored_entries
    from exact.solvers import solve

    s = catalog_spec("htm", 6)
    if stored_entries(s.name, default_dir()) != s.entries:
        pytest.skip(f"{s.name} is not stored: python -m exact.pdb build {s.name}")
    table = split(load(s, None, progress=False))
    p = registry.get("cube3", moves="faces", metric="htm")
    rng = np.random.default_rng(14)
    for length in (11, 12, 13, 14, 14):
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, length))
        ours = h48_cube(p, start, table=table)
        ref = solve(p, start, method="ida*-cube")
        assert ours.status.value == ref.status.value == "optimal" and ours.length == ref.length, (length, ours, ref)


def test_the_fallback_s_unranking_inverts_its_ranks() -> None:
    """Edges made from an index read that index back (identity symmetry), flips of even parity."""
    from exact.cube.eoesep import ENTRIES, edges_of, unrank_kit

    inv_e, inv_m8 = unrank_kit()
    mk = mask_kit()
    c = np.zeros(40, np.uint8)
    for i in np.random.default_rng(3).integers(0, ENTRIES, 3000):
        edges_of(int(i), c, inv_e, inv_m8)
        assert sorted(c[16:28]) == list(range(12)) and int(c[28:40].sum()) % 2 == 0
        assert hk_edges(c[16:28], c[28:40], 0, 11, mk) == i


def test_a_fallback_table_of_zeros_changes_no_answer(solver_table) -> None:
    """The kernels read the fallback where an entry reads 0; a table of zeros (a weak but true
    bound) leaves every length as it was."""
    from dataclasses import replace

    from exact.cube.eoesep import ENTRIES
    from exact.cube.h48solve import h48_cube

    p, table = solver_table
    zeros = replace(table, fallback=np.zeros(ENTRIES // 2, np.uint8))
    rng = np.random.default_rng(9)
    for length in (6, 9, 11):
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, length))
        with_, without = h48_cube(p, start, table=zeros), h48_cube(p, start, table=table)
        assert with_.status.value == without.status.value == "optimal" and with_.length == without.length


@pytest.mark.slow  # the whole search: about two minutes on 2 cores
@pytest.mark.parametrize("metric", ["htm", "qtm"])
def test_the_fallback_distances_are_exact_on_short_scrambles_and_bound_the_rest(metric) -> None:
    """Every index is reached; each move changes a distance by at most one; a scramble's entry is
    at most its length and, within 4 moves, equals its breadth-first distance from the goal."""
    from exact.cube.eoesep import distances, solved_index
    from exact.cube.h48table import move_edges

    p = registry.get("cube3", moves="faces", metric=metric)
    kit = cube_kit(p.table)
    dist = distances(p.table)
    mk = mask_kit()
    assert dist[solved_index()] == 0 and dist.max() < 15
    rng = np.random.default_rng(4)
    c, nxt = np.zeros(40, np.uint8), np.zeros(40, np.uint8)
    for _ in range(200):
        start = p.table.apply(p.goal, rng.integers(0, p.table.num_moves, int(rng.integers(1, 25))))
        r = read_cubies(np.asarray(start), 3)
        c[16:28], c[28:40] = r.edge_perm, r.edge_ori
        here = dist[hk_edges(c[16:28], c[28:40], 0, 11, mk)]
        for m in range(p.table.num_moves):
            move_edges(c, nxt, m, kit.eto, kit.eflip)
            assert abs(int(dist[hk_edges(nxt[16:28], nxt[28:40], 0, 11, mk)]) - int(here)) <= 1


def test_a_stop_while_a_checkpoint_is_written_keeps_the_one_before(tmp_path, monkeypatch) -> None:
    """A checkpoint goes into the data file its metadata does not name, and only then is named:
    a build stopped in the middle of writing one resumes from the last whole one."""
    from exact.pdb import partial

    sizes, about = (3, 5), {"h": 0}
    first = [np.arange(3, dtype=np.uint8), np.arange(5, dtype=np.uint8)]
    partial.write(tmp_path, "t", first, {**about, "progress": 1})
    partial.write(tmp_path, "t", [a + 1 for a in first], {**about, "progress": 2})
    assert partial.read(tmp_path, "t", sizes, about)[1]["progress"] == 2
    assert len(list(tmp_path.glob("t.partial*.bin"))) == 1  # the older data file is removed

    def stopped(path, chunks):
        for _ in chunks:
            raise KeyboardInterrupt  # the stop lands in the middle of the data

    monkeypatch.setattr(partial, "write_chunks", stopped)
    with pytest.raises(KeyboardInterrupt):
        partial.write(tmp_path, "t", [a + 2 for a in first], {**about, "progress": 3})
    arrays, meta = partial.read(tmp_path, "t", sizes, about)
    assert meta["progress"] == 2 and np.array_equal(arrays[1], first[1] + 1)
    monkeypatch.undo()
    partial.drop(tmp_path, "t")
    assert not list(tmp_path.iterdir())


def test_a_checkpoint_read_into_a_buffer_gives_views_of_it_and_a_damaged_one_none(tmp_path) -> None:
    from exact.pdb import partial

    sizes, about = (3, 5), {"h": 0}
    arrays = [np.arange(3, dtype=np.uint8), np.arange(10, 15, dtype=np.uint8)]
    partial.write(tmp_path, "t", arrays, {**about, "progress": 4})
    into = np.zeros(8, np.uint8)
    (lines, data), meta = partial.read(tmp_path, "t", sizes, about, into=into)
    assert meta["progress"] == 4 and np.array_equal(into, np.concatenate(arrays))
    assert np.shares_memory(lines, into) and np.shares_memory(data, into)
    assert partial.read(tmp_path, "t", sizes, about, into=np.zeros(9, np.uint8)) is None  # not its size
    bin_path, _ = partial.paths(tmp_path, "t")
    raw = bytearray(bin_path.read_bytes())
    raw[0] ^= 1
    bin_path.write_bytes(bytes(raw))
    assert partial.read(tmp_path, "t", sizes, about, into=into) is None


def test_the_store_takes_a_built_table_s_one_buffer_whole() -> None:
    from exact.cube.h48table import HkTable, stored_values

    t = build_hk(cube_kit(registry.get("cube3", moves="faces", metric="htm").table), 0, 4, 4)
    whole = stored_values(t)
    assert np.shares_memory(whole, t.data) and np.shares_memory(whole, t.lines)
    assert np.array_equal(whole, np.concatenate([t.lines, t.data]))
    apart = HkTable(t.h, t.base, t.data.copy(), t.lines.copy())  # two separate arrays: joined
    joined = stored_values(apart)
    assert not np.shares_memory(joined, apart.data) and np.array_equal(joined, whole)
