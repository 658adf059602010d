"""The optimal 3x3x3 solver (issue 27) with its small table (flip-slice x twist, 70 MB, seconds to
build): lower bounds against BFS and known optima, lengths against BFS, Reid's solver and the
DeepCubeA file, honest limits, resumed and damaged tables. The large table (sorted slice) runs
the same code with other arrays; CI never builds it."""

from __future__ import annotations

import csv
import json
import shutil

import numpy as np
import pytest
from conftest import shared_data

from exact import registry, solvers
from exact.bfs import shortest_distance
from exact.cube import prune
from exact.cube.optimal import canonical_rules, lower_bound, optimal_cube, optimal_tables
from exact.cube.peers import ReidOptimal
from exact.cube.symmetry import flipslice_classes
from exact.moves import cube_moves
from exact.pdb import partial
from exact.pdb.store import load, pack_nibbles, save, unpack_nibbles
from exact.puzzles.cube import is_solved, rotations, scramble
from exact.puzzles.cube.cubies import cubie_moves
from exact.puzzles.cube.facelets import from_facelets
from exact.result import Status
from exact.resultlog import read_log
from hybrid.certify import verify_solution

METRICS = ["htm", "qtm"]


@pytest.fixture(scope="module", params=METRICS)
def small(request, tmp_path_factory):
    """(puzzle, tables, pdb_dir) of one metric with the small table (the quarter-turn one shared
    with other tests: read it only)."""
    if request.param == "qtm":
        return request.getfixturevalue("cube3_qtm_small")
    pdb_dir = tmp_path_factory.mktemp(f"cube3-opt-{request.param}")
    p = registry.get("cube3", moves="faces", metric=request.param)
    return p, optimal_tables(p, edge="slice", pdb_dir=pdb_dir, progress=False), pdb_dir


def test_class_counts_match_the_table_specs():
    for edge, n in prune.CLASSES.items():
        if edge == "slice":  # the sorted slice's 24 million raw values take 1.5 GB to classify
            assert len(flipslice_classes(edge).rep) == n


def test_every_raw_state_is_counted_once(small):
    """Each entry stands for as many raw (flip, slice, twist) triples as its class has members:
    the layers add up to all 2048 * 495 * 2187 of them."""
    p, tables, pdb_dir = small
    k = flipslice_classes("slice")
    orbit = np.bincount(k.cls)
    dist = unpack_nibbles(np.asarray(tables.data), len(k.rep) * 2187)
    raw = np.bincount(dist, weights=np.repeat(orbit, 2187).astype(np.float64))
    assert int(raw.sum()) == 2048 * 495 * 2187
    assert raw[0] == 1 and dist.max() == (12 if tables.metric == "htm" else 13)


def test_every_entry_is_its_true_distance(small):
    """The full check of the table's equations: each entry one more than its nearest child, the
    solved one alone at 0, conjugates equal. A table that passes holds the exact distances."""
    p, tables, _ = small
    assert prune.violations(tables.data, tables.phase) == 0


def test_a_forged_table_fails_its_audit(small, tmp_path):
    p, tables, _ = small
    spec = prune.spec(p.table, tables.metric, "slice", tmp_path)
    values = unpack_nibbles(np.asarray(tables.data), spec.entries)
    values[values == 9] = 8  # too small and inconsistent, with a valid checksum
    save(spec, values, tmp_path, 0.0)
    said = []
    again = load(spec, tmp_path, progress=False, log=said.append)
    assert said and "distance equations" in said[0]
    assert prune.violations(again.data, tables.phase) == 0


def test_bounds_hold_and_lengths_equal_bfs(small):
    p, tables, _ = small
    rng = np.random.default_rng(5)
    for length in range(0, 8):
        start, _ = scramble(3, length, rng, "faces", tables.metric)
        d = shortest_distance(p.table, start, p.goal[rotations(3)][:1], 8)
        assert lower_bound(tables, start) <= d
        r = optimal_cube(p, start, tables=tables, threads=1)
        assert r.status is Status.OPTIMAL and r.length == d == r.lower_bound, (length, r.moves)
        assert is_solved(p.table.apply(start, r.moves), 3)


def test_bounds_hold_on_the_known_optima(small):
    p, tables, _ = small
    if tables.metric == "qtm":
        path, col = shared_data("cube/deepcubea_cube3_qtm_1000.tsv"), "optimal_qtm"
    else:
        path, col = shared_data("cube/cube3_htm_optimal_hkociemba.tsv"), "optimal_htm"
    with open(path) as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))[:300]
    for row in rows:
        start = from_facelets(row["facelets_URFDLB"])
        assert lower_bound(tables, start) <= int(row[col]), row


def test_the_deepcubea_optima_from_partway(small):
    """A cube k moves along one of the file's optimal solutions is exactly L - k from solved."""
    p, tables, _ = small
    if tables.metric != "qtm":
        pytest.skip("the DeepCubeA file is in the quarter-turn metric")
    with open(shared_data("cube/deepcubea_cube3_qtm_1000.tsv")) as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))[:6]
    for row in rows:
        start = from_facelets(row["facelets_URFDLB"])
        moves = p.table.parse(row["optimal_solution"], start)
        assert len(moves) == int(row["optimal_qtm"])
        left = 13
        partway = p.table.apply(start, moves[: len(moves) - left])
        r = optimal_cube(p, partway, tables=tables, threads=2)
        assert r.status is Status.OPTIMAL and r.length == left, row["id"]


@pytest.mark.skipif(not ReidOptimal.available(), reason="rubiks_optimal (Debian package rubiks) is not installed")
def test_lengths_equal_reids_optimal_solver(tmp_path_factory):
    p = registry.get("cube3", moves="faces", metric="qtm")
    tables = optimal_tables(p, edge="slice", pdb_dir=tmp_path_factory.mktemp("reid"), progress=False)
    htm = cube_moves(3, "faces", "htm")  # the peer writes half turns
    rng = np.random.default_rng(16)
    with ReidOptimal() as peer:
        for length in (10, 12, 14, 16):
            start, text = scramble(3, length, rng, "faces", "qtm")
            theirs = peer.solve(start, time_limit=120)
            assert is_solved(htm.apply(start, htm.parse(theirs.moves)), 3), (text, theirs.moves)
            ours = optimal_cube(p, start, tables=tables, threads=2)
            assert ours.status is Status.OPTIMAL and ours.length == theirs.length, (text, ours.moves, theirs.moves)


def test_threads_do_not_change_the_answer(small):
    p, tables, _ = small
    start, _ = scramble(3, 12, np.random.default_rng(2), "faces", tables.metric)
    one = optimal_cube(p, start, tables=tables, threads=1)
    two = optimal_cube(p, start, tables=tables, threads=2)
    assert one.moves == two.moves and one.nodes == two.nodes


def test_limits_are_honest(small):
    p, tables, _ = small
    length = 16 if tables.metric == "qtm" else 13
    start, _ = scramble(3, length, np.random.default_rng(4), "faces", tables.metric)
    full = optimal_cube(p, start, tables=tables, threads=2)
    for kwargs in ({"node_limit": 2000}, {"time_limit": 0.0}, {"stop_at": full.length}):
        r = optimal_cube(p, start, tables=tables, threads=2, **kwargs)
        assert r.status is Status.LIMIT and r.length is None, kwargs
        assert r.lower_bound <= full.length
    assert optimal_cube(p, start, tables=tables, stop_at=full.length).lower_bound == full.length


def test_canonical_rules_keep_one_spelling():
    """Quarter turns: U U stays, U' U' (the same) and U U U (a single turn) go."""
    t = cube_moves(3, "faces", "qtm")
    pair, triple = canonical_rules(t)
    u, ui = t.names.index("U"), t.names.index("U'")
    assert not pair[u, u] and pair[ui, ui] and pair[u, ui] and triple[u, u, u]
    # every two-move product is still spelled by some allowed pair
    products = {t.perms[a][t.perms[b]].tobytes() for a in range(t.num_moves) for b in range(t.num_moves)}
    allowed = {t.perms[a][t.perms[b]].tobytes() for a, b in zip(*np.nonzero(~pair))}
    identity = np.arange(t.num_positions).tobytes()
    singles = {p.tobytes() for p in t.perms}
    assert products - allowed <= singles | {identity}


def test_resumes_an_interrupted_build(monkeypatch, tmp_path, cube3_qtm_small):
    p, whole, _ = cube3_qtm_small  # the same table built in one go (shared with other tests)
    monkeypatch.setattr(prune, "CHECKPOINT_SECONDS", -1.0)  # a checkpoint after every layer
    seen = []

    def stop_after_layers(k):
        seen.append(k)
        if len(seen) == 8:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        prune.build(p.table, stop_after_layers, checkpoint=(tmp_path, "t"))
    entries = prune.CLASSES["slice"] * prune.NTWIST
    _, about = partial.read(tmp_path, "t", [(entries + 1) // 2], {"entries": entries})
    assert about["progress"]["depth"] == 6 and sum(about["progress"]["counts"]) == sum(seen[:7])
    done = []
    resumed, earlier = prune._build(p.table, done.append, "slice", (tmp_path, "t"), None)
    assert done[0] == sum(seen[:7])  # it started from the last whole layer written
    assert np.array_equal(resumed, unpack_nibbles(np.asarray(whole.data), len(resumed)))
    assert earlier == about["seconds"] > 0  # what the store adds to this run's seconds


@pytest.mark.parametrize(
    "progress",
    [{"depth": 0, "counts": [1]}, {"depth": 2, "counts": [1, 4]}, {"depth": 1, "counts": [1, -4]},
     {"depth": 1, "counts": [1, 0]}, {"depth": 1, "counts": [1, 10**12]}, {"depth": "1", "counts": [1, 4]}, 3],
)  # fmt: skip
def test_a_checkpoint_whose_layers_do_not_add_up_is_not_resumed(tmp_path, progress) -> None:
    entries = 1001
    dist = np.full(entries, prune.UNSEEN, np.uint8)
    dist[:5] = [0, 1, 1, 1, 1]
    about = {"entries": entries, "progress": progress, "seconds": 1.0}
    partial.write(tmp_path, "t", [dist], about, encode=lambda piece: pack_nibbles(np.minimum(piece, 15)))
    assert prune._read_checkpoint((tmp_path, "t"), entries) is None
    prune._write_checkpoint((tmp_path, "t"), dist, 1, [1, 4], 2.5)
    back, depth, counts, spent = prune._read_checkpoint((tmp_path, "t"), entries)
    assert np.array_equal(back, dist) and (depth, counts, spent) == (1, [1, 4], 2.5)


def test_a_damaged_table_is_rebuilt(small, tmp_path):
    p, tables, shared = small
    pdb_dir = tmp_path  # a copy is damaged: other tests read the shared one
    spec = prune.spec(p.table, tables.metric, "slice", pdb_dir)
    for suffix in (".bin", ".json"):
        shutil.copy(shared / f"{spec.name}{suffix}", pdb_dir / f"{spec.name}{suffix}")
    path = pdb_dir / f"{spec.name}.bin"
    with open(path, "r+b") as fh:
        fh.truncate(spec.nbytes // 2)
    said = []
    again = load(spec, pdb_dir, progress=False, log=said.append)
    assert said and "rebuilding" in said[0] and again.data.shape[0] == spec.nbytes


def test_registered_for_the_cube_and_refuses_others(small):
    p, tables, pdb_dir = small
    start, _ = scramble(3, 9, np.random.default_rng(8), "faces", tables.metric)
    r = solvers.solve(p, start, method="cube3-optimal", edge="slice", pdb_dir=pdb_dir)
    assert r.status is Status.OPTIMAL and r.solver == "ida*"
    assert solvers.get_method("cube3-optimal").applies(p)
    assert not solvers.get_method("cube3-optimal").applies(registry.get("cube3", moves="layers"))
    with pytest.raises(ValueError, match="faces move set"):
        optimal_cube(registry.get("cube2"), registry.get("cube2").goal, tables=tables)


def test_exact_ida_solves_the_cube_with_it(small, capsys):
    from exact import cli
    from exact.ida.__main__ import main as ida_main

    p, tables, pdb_dir = small
    argv = ["--puzzle", "cube3", "--metric", tables.metric, "--scramble", "R U F' D", "--json"]
    argv += ["--cube-table", "flipslice", "--threads", "1", "--pdb-dir", str(pdb_dir), "--no-progress"]
    assert cli.run(ida_main, argv) == cli.EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "optimal" and out["length"] == 4 and "flipslice" in out["settings"]["heuristic"]


def _partway(p, rows, left):
    """The file's cubes moved along their optimal solutions until ``left`` moves remain, with the
    rest of each solution (a subpath of an optimal path is optimal)."""
    starts, rests = [], []
    for row in rows:
        start = from_facelets(row["facelets_URFDLB"])
        moves = p.table.parse(row["optimal_solution"], start)
        starts.append(p.table.apply(start, moves[: len(moves) - left]))
        rests.append(p.table.format(moves[len(moves) - left :]))
    return starts, rests


def test_verify_certifies_the_deepcubea_solutions(tmp_path, cube3_qtm_small, capsys):
    """hybrid.verify --puzzle cube3 on a DeepCubeA-style file: the file's own optimal solutions
    are certified at their length; padded ones and kociemba's two-phase answers (in quarter
    turns) get verdicts with gaps."""
    from exact import cli
    from hybrid.verify import main as verify_main

    p, _, pdb_dir = cube3_qtm_small
    with open(shared_data("cube/deepcubea_cube3_qtm_1000.tsv")) as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))[:4]
    left = 11
    starts, rests = _partway(p, rows, left)
    instances = tmp_path / "cubes.tsv"
    lines = ["id\tfacelets_URFDLB\toptimal_qtm"]
    lines += [f"{r['id']}\t{p.format_state(s)}\t{left}" for r, s in zip(rows, starts)]
    instances.write_text("\n".join(lines) + "\n")
    padded = [f"{rest} U U'" if i % 2 else rest for i, rest in enumerate(rests)]
    solutions = tmp_path / "solutions.txt"
    solutions.write_text("\n".join(padded) + "\n")
    out = tmp_path / "out"
    argv = ["--puzzle", "cube3", "--instances", str(instances), "--solutions", str(solutions)]
    argv += ["--pdb-dir", str(pdb_dir), "--method-option", "edge=slice", "--out", str(out), "--no-progress"]
    assert cli.run(verify_main, argv) == cli.EXIT_OK
    certs = read_log(out / "certificates.jsonl")
    for i, c in enumerate(certs):
        assert c["verdict"] == ("suboptimal" if i % 2 else "optimal"), c
        assert c["gap"] == (2 if i % 2 else 0) and c["method"] == "auto"
        assert c["result"]["extra"]["exact"]["solver"] in ("ida*", "bfs")  # the optimal solver, or the quick BFS
    kociemba = pytest.importorskip("kociemba")
    htm = cube_moves(3, "faces", "htm")
    for start in starts:
        answer = kociemba.solve(p.format_state(start))  # two-phase, half-turn metric
        quarter = " ".join(f"{t[0]} {t[0]}" if t.endswith("2") else t for t in answer.split())
        assert is_solved(htm.apply(start, htm.parse(answer)), 3)
        r = verify_solution(p, start, quarter, pdb_dir=pdb_dir, edge="slice")
        assert r.verdict in ("optimal", "suboptimal") and r.length == left, (answer, r)
        assert r.gap == len(quarter.split()) - left


def test_verify_refuses_an_unknown_method_option(tmp_path):
    from exact import cli
    from hybrid.verify import main as verify_main

    instances = tmp_path / "one.tsv"
    instances.write_text(
        "id\tfacelets_URFDLB\n1\t" + registry.get("cube3").format_state(registry.get("cube3").goal) + "\n"
    )
    (tmp_path / "s.txt").write_text("\n")
    argv = ["--puzzle", "cube3", "--instances", str(instances), "--solutions", str(tmp_path / "s.txt")]
    assert cli.run(verify_main, [*argv, "--method-option", "colour=red"]) == cli.EXIT_BAD_INPUT


def test_the_inverse_cube_follows_the_facelets():
    """inverse_cubies and the kernel's step (inverse_step) against the facelet model: the inverse
    of a scramble is its reversed inverse moves, and a move premultiplies the inverse."""
    from exact.cube.optimal import _pieces, inverse_cubies, inverse_step

    p = registry.get("cube3", moves="faces", metric="htm")
    t = p.table

    class Moves:  # what inverse_step reads of the tables
        pieces = (lambda c: (c.corner_to, c.corner_twist, c.edge_to, c.edge_flip))(cubie_moves(t))

    rng = np.random.default_rng(3)
    for _ in range(20):
        seq = [int(x) for x in rng.integers(0, t.num_moves, 15)]
        undo = [int(t.inverse[m]) for m in reversed(seq)]
        inv = inverse_cubies(_pieces(t.apply(p.goal, seq)))
        assert np.array_equal(inv, _pieces(t.apply(p.goal, undo)))
        m = int(rng.integers(0, t.num_moves))
        stepped = inverse_step(inv[None], np.array([m]), Moves)[0]
        assert np.array_equal(stepped, _pieces(t.apply(p.goal, [int(t.inverse[m]), *undo])))


def test_each_move_lies_in_the_subgroup_of_its_axis(small):
    """U and D turns keep the first axis' coordinate solved, R and L the second's, F and B the
    third's; with the unsorted slice the half turns of the other faces too."""
    p, tables, _ = small
    names = p.table.names
    for m, name in enumerate(names):
        axes = {a for a in range(3) if tables.maxes[m] >> a & 1}
        own = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}[name[0]]
        assert own in axes
        assert axes == ({0, 1, 2} if name.endswith("2") else {own}), name  # "slice" is unsorted


def test_inverse_lookups_follow_the_axis_rules(small):
    """What the kernel relies on, checked against BFS: a move in axis a's subgroup leaves the
    inverse's lookup along a unchanged (it is inherited), and where that lookup equals the
    cube's distance no shortest solution starts with such a move (those children are skipped);
    where all three equal x >= 1, the distance is more than x."""
    from exact.cube.optimal import _inverse_raw, _pieces, inverse_cubies

    p, tables, _ = small
    t = p.table
    goals = p.goal[rotations(3)][:1]
    rng = np.random.default_rng(11)
    skipped = 0
    for length in range(1, 7):
        for _ in range(3):
            start, _ = scramble(3, length, rng, "faces", tables.metric)
            raw = _inverse_raw(tables, inverse_cubies(_pieces(start)))
            d = shortest_distance(t, start, goals, 8)
            if raw.min() == raw.max() >= 1:
                assert d > raw[0]
            for m in range(t.num_moves):
                child = t.apply(start, [m])
                kept = [a for a in range(3) if tables.maxes[m] >> a & 1]
                child_raw = _inverse_raw(tables, inverse_cubies(_pieces(child)))
                assert all(child_raw[a] == raw[a] for a in kept), (length, m)
                if any(raw[a] == d for a in kept):
                    skipped += 1
                    assert shortest_distance(t, child, goals, 8) >= d, (length, t.names[m])
    assert skipped > 50  # the rule is exercised, not vacuous
