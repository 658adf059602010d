"""Tile pattern databases and IDA*: lower bounds against BFS, optimal lengths, honest limits."""

from __future__ import annotations

import csv
import itertools
import json
import time

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exact import registry
from exact.bfs import distance_table
from exact.ida.__main__ import main as ida_main
from exact.ida.solve import deepen
from exact.pdb.store import check
from exact.puzzles.tiles import TilesSpace
from exact.ranking import partial_permutation_count, partial_permutation_rank
from exact.result import Status
from exact.tiles import TilePattern, additive, ida_tiles, manhattan, tile_heuristic
from exact.tiles.build import build_tile_pattern, neighbours
from exact.tiles.catalog import tile_spec
from exact.tiles.kernel import FOUND, TileSearch
from tests.conftest import shared_data


@pytest.fixture(scope="module")
def eight():
    p = registry.get("tiles8")
    space = TilesSpace(3, 3)
    dist = distance_table(space, p.table, p.goal)
    patterns = [TilePattern(3, 3, (1, 2, 3, 4)), TilePattern(3, 3, (5, 6, 7, 8))]
    tables = [build_tile_pattern(q) for q in patterns]
    return p, space, dist, patterns, tables


def _heuristics(patterns, tables):
    return [
        manhattan(3, 3, linear_conflicts=False),
        manhattan(3, 3),
        additive("pdb-44", patterns, tables, mirror=False),
        additive("pdb-44", patterns, tables, mirror=True),
    ]


def test_heuristics_are_lower_bounds(eight) -> None:
    p, space, dist, patterns, tables = eight
    states = space.unrank(np.random.default_rng(0).integers(0, len(dist), 3000))
    d = dist[space.rank(states)].astype(np.int64)
    for h in _heuristics(patterns, tables):
        assert h.admissible
        v = h(states)
        assert (v <= d).all(), h.name
        assert (v[d == 0] == 0).all()
    for q, t in zip(patterns, tables):  # each pattern alone, and the two together (additivity)
        assert (t[q.rank(states)] <= d).all()
    both = tables[0][patterns[0].rank(states)].astype(int) + tables[1][patterns[1].rank(states)]
    assert (both <= d).all() and both.mean() > 0.7 * d.mean()


def test_consistent_heuristics_change_by_at_most_one_per_move(eight) -> None:
    p, space, dist, patterns, tables = eight
    states = space.unrank(np.random.default_rng(1).integers(0, len(dist), 500))
    children, ids = p.expand(states)
    for h in _heuristics(patterns, tables):
        if not h.consistent:
            continue
        hs = h(states)
        for a in range(children.shape[1]):
            ok = ids[:, a] >= 0
            assert (np.abs(h(children[ok, a]) - hs[ok]) <= 1).all(), h.name


@pytest.mark.parametrize("rows,cols,tiles", [(3, 3, (1, 2, 3, 4)), (3, 3, (2, 5, 7)), (2, 4, (1, 2, 6))])
def test_builder_equals_dijkstra_on_the_abstract_space(rows, cols, tiles) -> None:
    # An independent reference: networkx's Dijkstra over (pattern tile cells, blank cell), a
    # pattern-tile move costing 1 and any other blank move 0, then the least over the blank.
    n = rows * cols
    g = nx.DiGraph()
    for cells in itertools.permutations(range(n), len(tiles) + 1):
        *tile_cells, blank = cells
        r, c = divmod(blank, cols)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                t = (r + dr) * cols + c + dc
                moved = [blank if x == t else x for x in tile_cells]
                g.add_edge(cells, (*moved, t), weight=int(t in tile_cells))
    dist = nx.single_source_dijkstra_path_length(g.reverse(), (*tiles, 0))
    want = np.full(partial_permutation_count(n, len(tiles)), 255)
    for cells, d in dist.items():
        i = int(partial_permutation_rank(np.array(cells[:-1]), n))
        want[i] = min(want[i], d)
    assert np.array_equal(build_tile_pattern(TilePattern(rows, cols, tiles)), want)


def test_table_values_are_exact_pattern_distances(eight) -> None:
    # the goal placement is 0, and a value is never more than the full puzzle's distance of any
    # state with that placement; the largest value of the 1-2-3-4 pattern is reached
    p, space, dist, patterns, tables = eight
    q, t = patterns[0], tables[0]
    assert t[q.rank(p.goal[None])[0]] == 0
    assert len(t) == 9 * 8 * 7 * 6 and t.max() < 255


@given(st.permutations(list(range(9))))
def test_pattern_rank_is_in_range_and_matches_positions(perm) -> None:
    q = TilePattern(3, 3, (2, 5, 7))
    board = np.array(perm, dtype=np.uint8)
    r = int(q.rank(board[None])[0])
    assert 0 <= r < q.entries
    cells = [int(np.flatnonzero(board == t)[0]) for t in q.tiles]
    assert q.positions(board[None])[0].tolist() == cells


def test_ida_equals_bfs_on_the_8_puzzle(eight) -> None:
    p, space, dist, patterns, tables = eight
    rng = np.random.default_rng(2)
    states = space.unrank(rng.integers(0, len(dist), 60))
    for h in (manhattan(3, 3), additive("pdb-44", patterns, tables)):
        for s in states:
            r = ida_tiles(p, s, h)
            assert r.status is Status.OPTIMAL and r.length == dist[space.rank(s[None])[0]] == r.lower_bound
            # thresholds skip the parity no solution has (the blank's distance from home fixes it)
            assert all((it["bound"] - r.length) % 2 == 0 for it in r.extra.get("iterations", []))


@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 3), (4, 4), (3, 5), (5, 5)]), st.booleans())
def test_incremental_manhattan_equals_a_full_evaluation_along_the_path(seed, shape, lc) -> None:
    # the kernel updates Manhattan distance by the moved tile and linear conflicts by the two
    # lines a move changes; its per-depth values along the solution must equal a fresh evaluation
    rows, cols = shape
    h = manhattan(rows, cols, linear_conflicts=lc)
    nbr = neighbours(rows, cols)
    rng = np.random.default_rng(seed)
    board = np.arange(rows * cols, dtype=np.uint8)
    blank = 0
    for _ in range(24):
        to = rng.choice([c for c in nbr[blank] if c >= 0])
        board[[blank, to]] = board[[to, blank]]
        blank = int(to)
    search = TileSearch.create(board, h)
    code, length, _, _, _ = deepen(search, time.perf_counter(), None, None)
    assert code == FOUND and length <= 24
    blank = int(np.flatnonzero(board == 0)[0])
    for d in range(length + 1):
        assert search.hp[d, 0] == h(board[None])[0], (d, board)
        if d < length:
            to = nbr[blank, search.path[d]]
            board[[blank, to]] = board[[to, blank]]
            blank = int(to)
    assert (board == np.arange(rows * cols)).all()


def test_manhattan_lc_solves_easy_korf_instances(korf_rows) -> None:
    p = registry.get("tiles15")
    for key in ("55", "79"):  # the easiest for Manhattan distance with linear conflicts
        row = korf_rows[key]
        r = ida_tiles(p, p.parse_state(row["tiles"]), manhattan(4, 4))
        assert r.status is Status.OPTIMAL and r.length == int(row["optimal_length"])


def test_limits_and_unsolvable(eight) -> None:
    p, space, dist, patterns, tables = eight
    far = space.unrank(int(np.flatnonzero(dist == dist.max())[0]))
    r = ida_tiles(p, far, manhattan(3, 3, linear_conflicts=False), node_limit=50)
    assert r.status is Status.LIMIT and r.length is None
    assert manhattan(3, 3, False)(far[None])[0] <= r.lower_bound <= dist.max()
    bad = p.goal.copy()
    bad[[1, 2]] = bad[[2, 1]]
    assert ida_tiles(p, bad, manhattan(3, 3)).status is Status.UNSOLVABLE


KORF_SLICE = ("2", "9", "12", "56")  # among the easiest of Korf's 100 for the 5-5-5 tables


@pytest.fixture(scope="module")
def korf_rows():
    path = shared_data("tiles/korf100.tsv")
    with open(path) as fh:
        return {row["id"]: row for row in csv.DictReader(fh, delimiter="\t")}


def test_korf_slice_with_555(tmp_path_factory, korf_rows) -> None:
    pdb_dir = tmp_path_factory.mktemp("pdb")
    h = tile_heuristic("pdb-555", 4, 4, pdb_dir=pdb_dir, progress=False)
    p = registry.get("tiles15")
    for ident in KORF_SLICE:
        row = korf_rows[ident]
        r = ida_tiles(p, p.parse_state(row["tiles"]), h, time_limit=120)
        assert r.status is Status.OPTIMAL and r.length == int(row["optimal_length"]), ident


def test_damaged_table_is_rebuilt(tmp_path, eight) -> None:
    messages: list[str] = []
    h = tile_heuristic("pdb-44", 3, 3, pdb_dir=tmp_path, progress=False)
    pattern = TilePattern(3, 3, (1, 2, 3, 4))
    path = tmp_path / f"{pattern.name}.bin"
    raw = bytearray(path.read_bytes())
    raw[100] ^= 0x7
    path.write_bytes(bytes(raw))
    assert "corrupt" in check(tile_spec(pattern), tmp_path)
    from exact.pdb import store

    again = store.load(tile_spec(pattern), tmp_path, progress=False, log=messages.append)
    assert messages and "rebuilding" in messages[0]
    assert np.array_equal(np.asarray(again.data), eight[4][0])
    assert tile_heuristic("pdb-44", 3, 3, pdb_dir=tmp_path, progress=False).tables.tobytes() == h.tables.tobytes()


def test_cli(tmp_path, capsys) -> None:
    f = tmp_path / "boards.tsv"
    f.write_text("id\ttiles\toptimal_length\na\t1 2 0 3 4 5 6 7 8\t2\nb\t3 1 2 0 4 5 6 7 8\t1\n")
    assert ida_main(["--puzzle", "tiles8", "--instances", str(f), "--pdb-dir", str(tmp_path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "2/2 optimal" in out
    argv = ["--puzzle", "tiles8", "--instances", str(f), "--pdb-dir", str(tmp_path), "--no-progress", "--json"]
    assert ida_main(argv) == 0
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]  # JSON Lines
    assert [r["id"] for r in lines[:2]] == ["a", "b"] and lines[2]["summary"]["optimal"] == 2
    assert lines[2]["summary"]["interrupted"] is False and len(lines) == 3
    assert ida_main(["--puzzle", "tiles8", "--tiles", "1 0 2 3 4 5 6 7 8", "--heuristic", "manhattan", "--json"]) == 0
    assert '"status": "optimal"' in capsys.readouterr().out
    from exact import cli

    assert cli.run(ida_main, ["--puzzle", "tiles8", "--tiles", "1 0 2"]) == 2
    assert "expected 9 numbers" in capsys.readouterr().err
    assert cli.run(ida_main, ["--puzzle", "tiles8", "--tiles", "0 1 2 3 4 5 6 8 7", "--heuristic", "manhattan"]) == 3


def test_best_first_search(eight) -> None:
    from exact.astar import best_first

    p, space, dist, patterns, tables = eight
    h = additive("pdb-44", patterns, tables)  # admissible, not consistent: nodes get reopened
    for s in space.unrank(np.random.default_rng(9).integers(0, len(dist), 25)):
        d = int(dist[space.rank(s[None])[0]])
        r = best_first(p, s, h, admissible=True)
        assert r.status is Status.OPTIMAL and r.length == d
        w = best_first(p, s, h, weight=0.5, admissible=True)
        assert w.status is Status.FEASIBLE and w.length >= d
    far = space.unrank(int(np.flatnonzero(dist == dist.max())[0]))
    lim = best_first(p, far, manhattan(3, 3), admissible=True, node_limit=10)
    assert lim.status is Status.LIMIT and lim.lower_bound <= dist.max()
    from exact.puzzles.tiles import TilesPuzzle

    small = TilesPuzzle(2, 3)
    bad = small.goal.copy()
    bad[[1, 2]] = bad[[2, 1]]
    # the other half of the 2x3 board: the open list runs dry after its 360 states
    r = best_first(small, bad, manhattan(2, 3), admissible=True)
    assert r.status is Status.UNSOLVABLE and r.nodes == 360


def test_ctrl_c_reports_the_boards_solved(tmp_path, capsys, monkeypatch) -> None:
    import exact.ida.__main__ as ida_cli

    f = tmp_path / "boards.txt"
    f.write_text("1 2 0 3 4 5 6 7 8\n3 1 2 0 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n")
    real, calls = ida_cli.solvers.solve, []

    def second_is_interrupted(*a, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(ida_cli.solvers, "solve", second_is_interrupted)
    argv = ["--puzzle", "tiles8", "--instances", str(f), "--heuristic", "manhattan", "--no-progress"]
    assert ida_cli.main(argv) == 130
    captured = capsys.readouterr()
    assert "1/1 optimal (interrupted)" in captured.out and "interrupted after 1 of 3 boards" in captured.err
    calls.clear()
    assert ida_cli.main([*argv, "--json"]) == 130
    summary = json.loads(capsys.readouterr().out.splitlines()[-1])["summary"]
    assert summary["interrupted"] and summary["boards"] == 1 and summary["planned"] == 3


def test_a_stale_numba_cache_of_the_generic_kernel_falls_back_to_a_fresh_compile(monkeypatch) -> None:
    # numba's cache keys _search by its own file; a changed heuristic kernel elsewhere made its load
    # fail with KeyError / ReferenceError ("underlying object has vanished") in an edited checkout
    import exact.ida.generic as generic
    from exact import registry, solvers

    def stale(*args):
        raise ReferenceError("underlying object has vanished")

    p = registry.get("pancake", n=8)
    start = p.random_states(1, np.random.default_rng(4))[0]
    want = solvers.solve(p, start, method="ida*", heuristic="gap")
    monkeypatch.setattr(generic, "_search", stale)
    got = solvers.solve(p, start, method="ida*", heuristic="gap")
    assert got.status is want.status and got.length == want.length and got.moves == want.moves
