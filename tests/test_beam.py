"""The diffusion objective's walks and the batched beam search (issue 43, first pieces)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry, solvers
from exact.bfs import distance_table
from exact.errors import PuzzleoptError
from exact.result import Status
from learned.beam import beam_search, goal_states, state_hashes
from learned.diffusion import diffusion_batch, walks

PUZZLES = [("tiles8", {}), ("cube2", {"moves": "faces", "metric": "qtm"}), ("pancake", {"n": 6}), ("pyraminx", {})]


@pytest.mark.parametrize(("name", "opts"), PUZZLES)
def test_walks_never_undo_their_last_move_and_their_labels_are_their_lengths(name, opts):
    p = registry.get(name, **opts)
    rng = np.random.default_rng(5)
    depths = rng.integers(0, 12, size=40)
    states, moves = walks(p, depths, rng)
    inverse = np.asarray(p.table.inverse)
    for s, m, d in zip(states, moves, depths):
        taken = [int(x) for x in m if x >= 0]
        assert len(taken) == d and (m[d:] == -1).all()
        assert all(inverse[a] != b for a, b in zip(taken, taken[1:])), taken
        assert np.array_equal(p.table.apply(p.goal, taken), s)
    batch, labels = diffusion_batch(p, 64, 9, np.random.default_rng(1))
    assert batch.shape == (64, p.num_positions) and labels.min() >= 1 and labels.max() <= 9
    assert labels.dtype == np.float32 and len(set(labels.tolist())) > 3


def test_walks_are_reproducible_from_the_seed():
    p = registry.get("cube2", moves="faces", metric="qtm")
    a = diffusion_batch(p, 32, 11, np.random.default_rng(3))
    b = diffusion_batch(p, 32, 11, np.random.default_rng(3))
    assert all(np.array_equal(x, y) for x, y in zip(a, b))


def _perfect(puzzle):
    space = puzzle.ranked_space()
    dist = distance_table(space, puzzle.table, puzzle.goal[None])
    return lambda states: dist[space.rank(np.asarray(states))].astype(np.float64)


def test_a_beam_with_a_perfect_heuristic_finds_optimal_lengths():
    p = registry.get("tiles8")
    h = _perfect(p)
    rng = np.random.default_rng(9)
    for start in p.random_walk(8, 30, rng):
        best = solvers.solve(p, start, method="bfs")
        for width in (1, 16):
            r = beam_search(p, start, h, width=width, max_steps=60)
            assert r.status is Status.FEASIBLE and r.length == best.length, (width, r, best)


def test_any_heuristic_gives_replayed_solutions_or_an_honest_limit():
    p = registry.get("cube2", moves="faces", metric="qtm")
    rng = np.random.default_rng(2)
    noise = lambda states: np.random.default_rng(len(states)).random(len(states))  # noqa: E731
    for start in p.random_walk(4, 8, rng):
        r = beam_search(p, start, noise, width=256, max_steps=40)
        assert r.status in (Status.FEASIBLE, Status.LIMIT)
        if r.status is Status.FEASIBLE:  # built by SolveResult.build: replayed to the goal
            assert p.solved(p.table.apply(start, p.table.parse(" ".join(r.moves), start)))
    assert beam_search(p, p.goal, noise).status is Status.OPTIMAL
    odd = registry.get("tiles8").parse_state("0 2 1 3 4 5 6 7 8")
    assert beam_search(registry.get("tiles8"), odd, noise).status is Status.UNSOLVABLE
    assert beam_search(p, p.random_walk(1, 9, rng)[0], noise, width=2, max_steps=2).status is Status.LIMIT


def _poor(p):
    """A poor heuristic of each state alone (the same value in every call): the items out of place
    and as much noise."""

    def h(states: np.ndarray) -> np.ndarray:
        s = np.asarray(states)
        return (s != p.goal).sum(axis=1) + (state_hashes(s) % np.uint64(1000)).astype(np.float64) / 100

    return h


@pytest.mark.parametrize(("name", "opts"), [("pancake", {"n": 9}), ("pancake", {"n": 6, "burnt": True})])
def test_the_beam_from_the_inverse_too_returns_the_shorter_of_the_two_ways(name, opts):
    p = registry.get(name, **opts)
    ways, h = set(), _poor(p)
    for start in p.random_walk(12, 14, np.random.default_rng(5)):
        both = beam_search(p, start, h, width=8, max_steps=40, inverse=True)
        one = beam_search(p, start, h, width=8, max_steps=40)
        back = beam_search(p, p.inverse_state(start), h, width=8, max_steps=40)
        lengths = [r.length for r in (one, back) if r.status is Status.FEASIBLE]
        assert both.length == (min(lengths) if lengths else None), (one, back, both)
        if both.status is Status.FEASIBLE:
            rows = [p.actions.index(m) for m in both.moves]  # the moves as they replay on the start
            assert p.solved(p.table.apply(start, rows)) and both.settings["inverse"] is True
            ways.add(both.extra["way"])
            if both.extra["way"] == "inverse":  # the other way's moves, reversed and inverted
                assert rows == p.table.undoing([p.actions.index(m) for m in back.moves])
    assert ways == {"start", "inverse"}  # both branches ran


def test_the_two_way_beam_with_a_perfect_heuristic_is_optimal_and_refused_where_no_inverse():
    p = registry.get("pancake", n=7)
    h = _perfect(p)
    for start in p.random_walk(6, 11, np.random.default_rng(4)):
        r = beam_search(p, start, h, width=4, max_steps=30, inverse=True)
        assert r.status is Status.FEASIBLE and r.length == solvers.solve(p, start, method="bfs").length
    tiles = registry.get("tiles8")
    with pytest.raises(PuzzleoptError, match="tiles8 defines no inverse state"):
        beam_search(tiles, tiles.random_walk(1, 9, np.random.default_rng(1))[0], _poor(tiles), inverse=True)
    cube2 = registry.get("cube2", moves="faces", metric="qtm")  # solved held any way: 24 goals
    with pytest.raises(PuzzleoptError, match="has 24 goal states"):
        beam_search(cube2, cube2.table.apply(cube2.goal, "R U"), _poor(cube2), inverse=True)


def _near(p, depth: int, noise: float):
    """The exact distance within ``depth`` moves (``depth + 1`` beyond), plus up to ``noise`` of
    noise of each state alone: good enough to solve short scrambles, poor enough to err."""
    from learned.beam import goal_ball

    known = goal_ball(p, depth)

    def h(states: np.ndarray) -> np.ndarray:
        d = known.lookup(states).astype(np.float64)
        d[d < 0] = depth + 1
        return d + (state_hashes(np.asarray(states)) % np.uint64(1000)).astype(np.float64) * noise / 1000

    return h


def test_the_beam_from_symmetric_starts_returns_the_shortest_of_every_way():
    from learned.beam import goal_ball

    p = registry.get("cube3")
    h, ball, syms = _near(p, 5, 3.3), goal_ball(p, 2), p.symmetries()
    kw = {"width": 8, "max_steps": 12, "ball": ball}
    ways = set()
    for start in p.random_walk(10, 7, np.random.default_rng(2)):
        every = beam_search(p, start, h, **kw, inverse=True, symmetries=2)
        back = p.inverse_state(start)
        tries = [start, back] + [syms[k].apply(x) for k in (1, 2) for x in (start, back)]
        lengths = [r.length for r in (beam_search(p, x, h, **kw) for x in tries) if r.status is Status.FEASIBLE]
        assert every.length == (min(lengths) if lengths else None), (lengths, every)
        assert every.settings["symmetries"] == 2 and every.settings["inverse"] is True
        if every.status is Status.FEASIBLE:
            assert p.solved(p.table.apply(start, [p.actions.index(m) for m in every.moves]))
            ways.add(every.extra["way"])
    assert ways == {"start", "inverse", "symmetry 1", "symmetry 2", "symmetry 1 of the inverse",
                    "symmetry 2 of the inverse"}  # fmt: skip


def test_with_a_length_parity_later_beams_stop_a_layer_sooner_for_the_same_answers(monkeypatch):
    from learned.beam import goal_ball

    p = registry.get("cube3")
    h, ball = _near(p, 5, 3.3), goal_ball(p, 2)
    kw = {"width": 8, "max_steps": 12, "ball": ball, "inverse": True, "symmetries": 2}
    starts = p.random_walk(12, 7, np.random.default_rng(2))
    with_parity = [beam_search(p, s, h, **kw) for s in starts]
    monkeypatch.setattr(p, "length_parity", lambda state: None)
    without = [beam_search(p, s, h, **kw) for s in starts]
    assert [r.moves for r in with_parity] == [r.moves for r in without]
    saved = [b.nodes - a.nodes for a, b in zip(with_parity, without, strict=True)]
    assert min(saved) >= 0 and sum(saved) > 0, saved


def test_symmetric_starts_need_no_single_goal_and_are_refused_where_the_puzzle_has_none():
    cube2 = registry.get("cube2", moves="faces", metric="qtm")  # 24 goal states: no inverse, but conjugates
    h, syms = _near(cube2, 4, 2.0), cube2.symmetries()
    for start in cube2.random_walk(6, 6, np.random.default_rng(3)):
        r = beam_search(cube2, start, h, width=4, max_steps=12, symmetries=3)
        alone = [beam_search(cube2, syms[k].apply(start), h, width=4, max_steps=12) for k in range(4)]
        assert r.length == min(a.length for a in alone if a.status is Status.FEASIBLE)
        assert cube2.solved(cube2.table.apply(start, [cube2.actions.index(m) for m in r.moves]))
    tiles = registry.get("tiles8")
    start = tiles.random_walk(1, 9, np.random.default_rng(1))[0]
    with pytest.raises(PuzzleoptError, match="tiles8 has 0 symmetries besides the identity"):
        beam_search(tiles, start, _poor(tiles), symmetries=1)
    with pytest.raises(PuzzleoptError, match="cube2 has 47 symmetries besides the identity"):
        beam_search(cube2, cube2.table.apply(cube2.goal, "R U"), h, symmetries=48)
    for bad in (-1, True, 1.5):
        with pytest.raises(PuzzleoptError, match="beam symmetries must be a whole number"):
            beam_search(cube2, cube2.table.apply(cube2.goal, "R U"), h, symmetries=bad)


def test_state_hashes_tell_states_apart():
    p = registry.get("tiles8")
    states = p.random_walk(500, 20, np.random.default_rng(0))
    uniq = np.unique(states, axis=0)
    assert len(np.unique(state_hashes(uniq))) == len(uniq)
    assert np.array_equal(state_hashes(states[:3]), state_hashes(states[:3].copy()))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 40), st.integers(0, 70), st.sampled_from([np.uint8, np.int64]), st.integers(0, 2**32 - 1))
def test_state_hashes_are_the_linear_form_mod_2_64(rows, cols, dtype, seed):
    """The column-at-a-time hash is the documented random linear form (stored balls depend on it)."""
    from learned.beam_parts import HASH_SEED

    lo = -(2**40) if dtype is np.int64 else 0
    hi = 2**40 if dtype is np.int64 else 255
    states = np.random.default_rng(seed).integers(lo, hi, size=(rows, cols), endpoint=True).astype(dtype)
    weights = np.random.default_rng(HASH_SEED).integers(1, 2**63, size=cols, dtype=np.uint64) | 1
    with np.errstate(over="ignore"):
        want = (states.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    assert state_hashes(states).dtype == np.uint64 and np.array_equal(state_hashes(states), want)


def test_a_goal_ball_built_in_chunks_is_the_same_ball(monkeypatch):
    from learned import beam_parts

    p = registry.get("cube2", moves="faces", metric="qtm")
    whole = beam_parts.goal_ball(p, 4)
    monkeypatch.setattr(beam_parts, "BALL_CHUNK", 7)
    parts = beam_parts.goal_ball(p, 4)
    assert np.array_equal(whole.keys, parts.keys) and np.array_equal(whole.dist, parts.dist)
    # the 2x2's QTM counts (1, 6, 27, 120, 534 with one corner fixed) for each of its 24 solved states
    assert np.bincount(whole.dist).tolist() == [24 * n for n in (1, 6, 27, 120, 534)]
    with pytest.raises(PuzzleoptError, match="exceeds 100 states"):
        beam_parts.goal_ball(p, 4, max_states=100)


@pytest.mark.parametrize(("name", "opts"), PUZZLES[:2])
def test_the_goal_ball_gives_exact_remainders(name, opts):
    from learned.beam import _descend, goal_ball

    p = registry.get(name, **opts)
    ball = goal_ball(p, 5)
    rng = np.random.default_rng(4)
    for s in p.random_walk(30, rng.integers(0, 9, size=30), rng):
        best = solvers.solve(p, s, method="bfs")
        d = int(ball.lookup(s[None])[0])
        assert d == (best.length if best.length <= 5 else -1), (d, best.length)
        assert ball.lookup_keys(state_hashes(s[None])).tolist() == [d]
        if d >= 0:
            way = _descend(p, s, ball)
            assert len(way) == d and p.solved(p.table.apply(s, way))


def test_a_wider_ball_never_lengthens_the_beam_s_solution():
    """The beam is the same until it meets a ball: the state it meets at radius d had an
    ancestor within d + k, k layers earlier, so a wider ball meets no later and gives no longer
    a solution (here, with a poor heuristic, often a shorter one)."""
    from learned.beam import goal_ball

    p = registry.get("tiles8")
    balls = [goal_ball(p, d) for d in (2, 4, 6)]
    exact = _perfect(p)
    noisy = lambda states: exact(states) + 20 * np.random.default_rng(len(states)).random(len(states))  # noqa: E731
    rng = np.random.default_rng(12)
    shorter = 0
    for start in p.random_walk(12, 40, rng):
        if p.solved(start):
            continue
        runs = [beam_search(p, start, noisy, width=8, max_steps=200, ball=b) for b in balls]
        assert all(r.status is Status.FEASIBLE for r in runs)
        lengths, nodes = [r.length for r in runs], [r.nodes for r in runs]
        assert lengths == sorted(lengths, reverse=True) and nodes == sorted(nodes, reverse=True), (lengths, nodes)
        shorter += lengths[-1] < lengths[0]
    assert shorter >= 2  # the wider balls did shorten some: the test can tell


def test_a_beam_that_meets_the_ball_ends_there():
    from learned.beam import goal_ball

    p = registry.get("cube2", moves="faces", metric="qtm")
    ball = goal_ball(p, 4)
    noise = lambda states: np.random.default_rng(len(states)).random(len(states))  # noqa: E731
    rng = np.random.default_rng(8)
    for start in p.random_walk(3, 14, rng):
        r = beam_search(p, start, noise, width=512, max_steps=40, ball=ball)
        assert r.status is Status.FEASIBLE and r.extra["from_ball"] >= 1
    near = p.random_walk(1, 3, rng)[0]
    r = beam_search(p, near, noise, ball=ball)
    assert r.length == solvers.solve(p, near, method="bfs").length and r.extra["met_at"] == 0


def _manhattan(p):
    home = np.argsort(p.goal)

    def h(states):
        s = np.asarray(states)
        out = np.zeros(len(s))
        for t in range(1, p.num_labels):
            at = np.argmax(s == t, axis=1)
            out += abs(at // 3 - home[t] // 3) + abs(at % 3 - home[t] % 3)
        return out

    return h


def test_restarts_with_banned_states_solve_what_one_stagnant_beam_does_not():
    p = registry.get("tiles8")
    starts = p.random_walk(20, 40, np.random.default_rng(4))
    once = [beam_search(p, s, _manhattan(p), width=1, max_steps=60) for s in starts]
    again = [beam_search(p, s, _manhattan(p), width=1, max_steps=60, restarts=30, patience=6) for s in starts]
    solved = [sum(r.status is Status.FEASIBLE for r in rs) for rs in (once, again)]
    assert solved[1] > solved[0], solved
    assert any(r.extra["restarts"] > 0 for r in again if r.status is Status.FEASIBLE)
    stuck = next(r for r in again if r.status is Status.LIMIT)
    assert 0 < stuck.extra["restarts"] <= 30 and stuck.extra["banned"] > 0  # then a limit, or nothing left unbanned


def test_beam_and_bwas_are_registered_methods_of_the_one_contract(capsys):
    from exact.cli import run
    from exact.solve import main as solve_main
    from puzzleopt import Cube

    names = [m.name for m in solvers.methods(registry.get("cube3"))]
    assert "beam" in names and "bwas" in names
    assert run(solve_main, ["--list-methods"]) == 0
    listed = capsys.readouterr().out
    assert "beam: finds a solution." in listed and "bwas: finds a solution." in listed
    r = Cube(3).apply("R U F' L").solve(method="beam", width=64)
    assert r.status is Status.FEASIBLE and r.solver == "beam" and r.length == 4
    p = registry.get("tiles8")
    start = p.random_walk(1, 20, np.random.default_rng(2))[0]
    for method, options in (("beam", {"width": 128, "ball": 4}), ("bwas", {"weight": 0.8})):
        r = solvers.solve(p, start, method=method, **options)
        assert r.status is Status.FEASIBLE and r.solver == method and r.lower_bound is None
    with pytest.raises(ValueError, match="method 'beam' takes no option weight"):
        solvers.solve(p, start, method="beam", weight=1.0)
    with pytest.raises(ValueError, match="method 'beam' does not apply"):
        Cube(3).apply("R U").solve(method="beam", goal="cross")


def test_learned_solve_takes_the_search_and_its_width_from_the_card(tmp_path, capsys):
    import json

    from learned.davi import DaviConfig, train
    from learned.solve import main as solve_main
    from learned.weights import load_model, save_model

    cfg = DaviConfig(puzzle="tiles8", preset="resmlp-tiny", objective="diffusion", steps=2, batch=50, eval_every=0)
    run = train(cfg, tmp_path / "run", progress=False)
    net, card = load_model(run["model"])
    card["search"] = {"method": "beam", "beam": {"default": "fast", "fast": {"width": 32, "ball": 3}}}
    save_model(tmp_path / "m.safetensors", net, card)
    argv = ["--puzzle", "tiles8", "--model", str(tmp_path / "m.safetensors"), "--scramble", "R D L D R", "--json"]
    assert solve_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solver"] == "beam" and out["settings"]["width"] == 32 and out["settings"]["ball"] == 3
    assert solve_main([*argv, "--method", "bwas"]) == 0
    assert json.loads(capsys.readouterr().out)["solver"] == "bwas"
    with pytest.raises(PuzzleoptError, match="tiles8 defines no inverse state"):
        solve_main([*argv, "--inverse"])
    from learned.int8 import int8_ops

    for precision in ["fp32", "bf16"] + (["int8"] if int8_ops() else []):  # each a replayed solution
        assert solve_main([*argv, "--precision", precision]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["status"] == "feasible" and out["settings"]["precision"] == precision


def test_learned_solve_and_the_card_turn_the_inverse_beam_on_and_off(tmp_path, capsys):
    import json

    from learned.davi import DaviConfig, train
    from learned.solve import main as solve_main
    from learned.weights import load_model, save_model

    cfg = DaviConfig(puzzle="pancake", options={"n": 7}, preset="resmlp-tiny", objective="diffusion", steps=2,
                     batch=50, eval_every=0)  # fmt: skip
    net, card = load_model(train(cfg, tmp_path / "run", progress=False)["model"])
    card["search"] = {"method": "beam", "beam": {"fast": {"width": 16, "ball": 2, "inverse": True}}}
    save_model(tmp_path / "m.safetensors", net, card)
    argv = ["--puzzle", "pancake", "--option", "n=7", "--model", str(tmp_path / "m.safetensors"), "--json",
            "--scramble", "f4 f7 f3 f6 f2 f5"]  # fmt: skip
    assert solve_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "feasible" and out["settings"]["inverse"] is True and out["extra"]["way"] in {
        "start", "inverse"
    }  # fmt: skip
    assert solve_main([*argv, "--no-inverse"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "inverse" not in out["settings"] and "way" not in out["extra"]
    with pytest.raises(PuzzleoptError, match="--inverse is not an option of --method bwas; drop it"):
        solve_main([*argv, "--method", "bwas", "--inverse"])


def test_learned_solve_and_the_card_turn_the_symmetric_beams_on_and_off(tmp_path, capsys):
    import json

    from learned.davi import DaviConfig, train
    from learned.solve import main as solve_main
    from learned.weights import load_model, save_model

    cfg = DaviConfig(puzzle="cube2", preset="resmlp-tiny", objective="diffusion", steps=2, batch=50, eval_every=0)
    net, card = load_model(train(cfg, tmp_path / "run", progress=False)["model"])
    card["search"] = {"method": "beam", "beam": {"fast": {"width": 16, "ball": 3, "symmetries": 2}}}
    save_model(tmp_path / "m.safetensors", net, card)
    argv = ["--puzzle", "cube2", "--model", str(tmp_path / "m.safetensors"), "--json", "--scramble", "R U F' R"]
    assert solve_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "feasible" and out["settings"]["symmetries"] == 2 and out["extra"]["way"] in {
        "start", "symmetry 1", "symmetry 2"
    }  # fmt: skip
    assert solve_main([*argv, "--symmetries", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "symmetries" not in out["settings"] and "way" not in out["extra"]
    with pytest.raises(PuzzleoptError, match="--symmetries is not an option of --method bwas; drop it"):
        solve_main([*argv, "--method", "bwas", "--symmetries", "1"])


@pytest.mark.parametrize(("name", "opts"), [("cube3", {}), ("cube2", {}), ("pancake", {"n": 9})])
def test_the_beam_on_a_torch_device_takes_the_steps_the_numpy_beam_takes(name, opts):
    from learned.beam import cached_goal_ball
    from learned.nets import make_net, preset_config
    from learned.values import NetHeuristic

    p = registry.get(name, **opts)
    net = make_net(preset_config("resmlp-tiny", p.num_positions, p.num_labels), 1)
    with torch.no_grad():
        net.out.bias.fill_(50.0)  # untrained, but positive: no values clamped to 0, so no ties to break
    h = NetHeuristic(p, net, chunk=7)  # the searches must agree step for step, scoring in chunks
    ways = (False, True) if len(goal_states(p)) == 1 else (False,)  # the 2x2's 24 goals refuse inverse
    for ball, inverse in itertools.product((None, cached_goal_ball(p, 2)), ways):
        for s in p.random_walk(4, 9, np.random.default_rng(3)):
            kw = {"width": 16, "max_steps": 30, "ball": ball, "restarts": 2, "patience": 4, "inverse": inverse,
                  "symmetries": min(int(ball is not None), len(p.symmetries()) - 1)}  # fmt: skip
            a, b = beam_search(p, s, h, **kw), beam_search(p, s, h, **kw, device="cpu")
            assert (a.status, a.moves, a.nodes, a.extra) == (b.status, b.moves, b.nodes, b.extra)
    with pytest.raises(ValueError, match="make the heuristic on 'meta'"):
        beam_search(p, p.random_walk(1, 5, np.random.default_rng(0))[0], h, width=4, device="meta")
    with pytest.raises(ValueError, match="moves always apply"):
        t8 = registry.get("tiles8")
        start = t8.random_walk(1, 5, np.random.default_rng(0))[0]
        beam_search(t8, start, NetHeuristic(t8, make_net(preset_config("resmlp-tiny", 9, 9), 1)), device="cpu")


def test_a_large_goal_ball_is_stored_read_back_and_rebuilt_when_damaged(tmp_path, monkeypatch):
    from learned import ballstore
    from learned.beam import goal_ball

    p = registry.get("cube2")
    monkeypatch.setattr(ballstore, "STORE_FROM", 1000)
    fresh = goal_ball(p, 4)
    first = ballstore.stored_goal_ball(p, 4, tmp_path)
    (stored,) = tmp_path.glob("ball-cube2-d4-*.bin")
    again = ballstore.stored_goal_ball(p, 4, tmp_path)
    for ball in (first, again):
        assert ball.depth == 4 and np.array_equal(ball.keys, fresh.keys) and np.array_equal(ball.dist, fresh.dist)
    data = bytearray(stored.read_bytes())
    data[-1] = 9  # a distance beyond the radius (and a sha256 that no longer holds)
    stored.write_bytes(bytes(data))
    assert np.array_equal(ballstore.stored_goal_ball(p, 4, tmp_path).dist, fresh.dist)
    assert np.array_equal(ballstore.stored_goal_ball(p, 1, tmp_path).keys, goal_ball(p, 1).keys)
    assert len(list(tmp_path.glob("ball-*.bin"))) == 1  # the small ball is not stored


def test_a_stored_ball_that_fails_its_audit_is_rebuilt(tmp_path):
    from learned import ballstore
    from learned.beam import goal_ball

    p = registry.get("cube2")
    ball = goal_ball(p, 2)
    data = np.concatenate([ball.keys.astype("<u8").view(np.uint8), ball.dist])
    assert ballstore._audit(p, 2, data) is None
    wrong = data.copy()
    wrong[8 * len(ball.keys) :] = 1  # no state at distance 0
    assert "distance-0" in ballstore._audit(p, 2, wrong)
    assert "sorted" in ballstore._audit(p, 2, np.concatenate([data[8:16], data[:8], data[16:]]))


def test_a_layer_the_last_ones_pace_says_would_pass_the_time_limit_is_not_started():
    import time

    def slow(states: np.ndarray) -> np.ndarray:  # 1 ms a state scored (about 0.9 s a layer), no direction
        time.sleep(0.001 * len(states))
        return np.zeros(len(states))

    p = registry.get("cube3")
    start = p.random_walk(1, 20, np.random.default_rng(4))[0]
    t0 = time.perf_counter()
    r = beam_search(p, start, slow, width=60, time_limit=2.0)
    took = time.perf_counter() - t0
    assert r.status is Status.LIMIT and took <= 2.0 + 0.1 and r.nodes > 60  # not a layer (0.9 s) past it
