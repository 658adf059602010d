"""Partial goals that no state meets are ``unsolvable`` before any search, by every method
(issue 63; :mod:`exact.reachable`).

The audit's masks (all edges with one flipped, with and without the centres named; all corners
with one twisted; colours no piece has; a wrong centre) were answered "no solution within T
moves (proven)" by the models, or refused by IDA*, where no solution exists at all. The
property tests draw masks on the 2x2x2: of states a few moves from the start (solvable: every
method gives BFS's distance), and of a state with one corner twisted, named all but a few
stickers of one other corner (unsolvable: the only state the mask leaves is not a cube, which
the facelet rules say on their own; with the last corner left free it is solvable again).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exact import registry, solvers
from exact.goals import with_goal
from exact.puzzle import Goal
from exact.reachable import piece_orbits, position_orbits
from exact.result import Status

SOLVED3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


def _swap(text: str, *cycle: int) -> str:
    """``text`` with the letters at ``cycle`` moved one place along it (a flip, a twist)."""
    out = list(text)
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        out[b] = text[a]
    return "".join(out)


def _keep(text: str, where) -> str:
    return "".join(c if where(i) else "." for i, c in enumerate(text))


EDGE, CORNER, CENTRE = (1, 3, 5, 7), (0, 2, 6, 8), (4,)
AFTER_U = "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB"
FLIPPED = _swap(SOLVED3, 7, 19)  # UF flipped in place
TWISTED = _swap(SOLVED3, 8, 9, 20)  # URF turned in place
AUDIT_MASKS = {
    "all edges, one flipped, centres named": _keep(FLIPPED, lambda i: i % 9 in EDGE + CENTRE),
    "all edges, one flipped, centres as dots": _keep(FLIPPED, lambda i: i % 9 in EDGE),
    "all corners, one twisted": _keep(TWISTED, lambda i: i % 9 in CORNER),
    "colours no piece has": "." * 8 + "UD" + "." * 10 + "F" + "." * 33,
    "one piece in two places": "".join(
        a if i in (8, 9, 20) else b if i in (6, 18, 38) else "." for i, (a, b) in enumerate(zip(SOLVED3, AFTER_U))
    ),  # URF at home and, as a U turn carries it, at UFL
    "a wrong centre": "." * 4 + "R" + "." * 49,
}


@pytest.mark.parametrize("mask", list(AUDIT_MASKS.values()), ids=list(AUDIT_MASKS))
@pytest.mark.parametrize("metric", ["qtm", "htm"])
def test_the_audits_unreachable_masks_are_unsolvable_by_every_method(mask, metric):
    p = with_goal(registry.get("cube3", moves="faces", metric=metric), mask)
    start = p.table.apply(p.goal, "R U F")
    why = p.unsolvable(start)
    assert why is not None and "cannot be reached" in why
    for m in solvers.methods(p):
        if not m.proves:
            continue
        r = solvers.solve(p, start, method=m.name, **({"horizon": 4} if m.name in ("cp-sat", "mip") else {}))
        assert r.status is Status.UNSOLVABLE and r.extra["unsolvable"] == why and r.nodes in (None, 0), m.name


@pytest.mark.parametrize("module", ["exact.solve", "exact.ida", "exact.mip", "exact.cpsat"])
def test_every_command_says_unsolvable_for_a_wrong_centre(module, capsys):
    from exact import cli
    from tests.test_bad_input import _main_of

    argv = {
        "exact.solve": ["--puzzle", "cube3", "--scramble", "R", "--method", "cp-sat", "--horizon", "4"],
        "exact.ida": ["--puzzle", "cube3", "--scramble", "R"],
        "exact.mip": ["--size", "3", "--scramble", "R", "--turns", "4", "--no-split"],
        "exact.cpsat": ["--size", "3", "--scramble", "R", "--turns", "4"],
    }[module]
    code = cli.run(_main_of(module), [*argv, "--goal", AUDIT_MASKS["a wrong centre"]])
    out = capsys.readouterr().out
    assert code == cli.EXIT_NO_SOLUTION and "unsolvable" in out and "cannot be reached" in out, out
    assert "within" not in out, out


def test_reachable_masks_are_not_called_unsolvable():
    p = registry.get("cube3", moves="faces", metric="qtm")
    start = p.table.apply(p.goal, "R U F' D")
    for mask in ("cross", "f2l", "cross+pair-FR", _keep(SOLVED3, lambda i: i % 9 in EDGE), SOLVED3):
        assert with_goal(p, mask).unsolvable(start) is None, mask
    # the flipped edge left free: the last edge takes the flip the others need, so it is reachable;
    # one of its stickers named fixes that flip, and it is not
    loose = _keep(FLIPPED, lambda i: i % 9 in EDGE and i not in (7, 19))
    assert with_goal(p, loose).unsolvable(start) is None
    assert "add up to" in with_goal(p, _keep(FLIPPED, lambda i: i % 9 in EDGE and i != 19)).unsolvable(start)


def test_the_invariants_are_read_from_the_moves():
    faces = piece_orbits(registry.get("cube3", moves="faces"))
    layers = piece_orbits(registry.get("cube3", moves="layers"))
    assert [len(s) for s in faces.slots] == [8, 12] and faces.twist_kept == (True, True)
    assert faces.parity_kept == ((0, 1),)  # a face quarter turn: a 4-cycle of corners and one of edges
    assert layers.parity_kept == ()  # a slice turn moves edges and centres, not corners
    cube2 = piece_orbits(registry.get("cube2"))
    assert cube2.twist_kept == (True,) and cube2.parity_kept == ()
    centres = position_orbits(registry.get("cube3").table.perms)
    assert [int(centres[c]) for c in (4, 13, 22)] == [4, 13, 22]  # face turns move no centre


# ------------------------------------------------------------------ the 2x2x2, against BFS
CUBE2 = registry.get("cube2")
CORNERS2 = [tuple(int(q) for q in s) for s in CUBE2.pieces()]


def _bfs_distance(puzzle, start: np.ndarray, allowed: np.ndarray, depth: int) -> int | None:
    """The fewest moves from ``start`` to a state ``allowed`` accepts, by BFS to ``depth``."""
    perms = puzzle.table.perms
    layer = np.asarray(start)[None]
    seen = {layer[0].tobytes()}
    for d in range(depth + 1):
        if allowed[np.arange(layer.shape[1]), layer.astype(np.int64)].all(axis=1).any():
            return d
        nxt = layer[:, perms].reshape(-1, layer.shape[1])
        fresh = [s for s in np.unique(nxt, axis=0) if s.tobytes() not in seen]
        seen.update(s.tobytes() for s in fresh)
        layer = np.array(fresh)
    return None


def _mask(state: np.ndarray, keep: np.ndarray) -> Goal:
    allowed = np.ones((CUBE2.num_positions, CUBE2.num_labels), dtype=bool)
    allowed[keep] = False
    allowed[keep, state[keep].astype(np.int64)] = True
    return Goal(allowed=allowed)


def _proving(puzzle, horizon: int):
    for m in solvers.methods(puzzle):
        if m.proves:
            yield m.name, ({"horizon": horizon} if m.name in ("cp-sat", "mip") else {})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 3), share=st.floats(0.1, 1.0))
def test_random_masks_of_nearby_states_get_bfs_distance_from_every_method(seed, moves, share):
    rng = np.random.default_rng(seed)
    t = CUBE2.table
    start = t.apply(CUBE2.goal, rng.integers(0, t.num_moves, 8).tolist())
    target = t.apply(start, rng.integers(0, t.num_moves, moves).tolist())
    keep = np.flatnonzero(rng.random(CUBE2.num_positions) < share)
    g = with_goal(CUBE2, _mask(target, keep), label="mask")
    truth = _bfs_distance(CUBE2, start, g.partial_goal.allowed, moves)
    assert truth is not None and g.unsolvable(start) is None
    for name, more in _proving(g, 3):
        r = solvers.solve(g, start, method=name, **more)
        assert r.status is Status.OPTIMAL and r.length == truth, (name, r)


def _is_cube(state: np.ndarray) -> bool:
    from exact.errors import StateError

    try:
        CUBE2.check_state(state)
    except StateError:
        return False
    return True


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), shown=st.integers(0, 3))
def test_random_masks_of_a_twisted_state_are_unsolvable_exactly_when_no_cube_meets_them(seed, shown):
    rng = np.random.default_rng(seed)
    t = CUBE2.table
    start = t.apply(CUBE2.goal, rng.integers(0, t.num_moves, 8).tolist())
    target = np.asarray(t.apply(start, rng.integers(0, t.num_moves, 3).tolist())).copy()
    twisted, last = rng.choice(len(CORNERS2), 2, replace=False)
    a, b, c = CORNERS2[twisted]
    target[[a, b, c]] = target[[c, a, b]]  # one corner turned in place: no cube shows this
    assert not _is_cube(target)  # the puzzle's own rules, the oracle: the full state is no cube
    free = list(CORNERS2[last][shown:])  # ``shown`` stickers of one other corner named, the rest free
    keep = np.array([q for q in range(CUBE2.num_positions) if q not in free])
    g = with_goal(CUBE2, _mask(target, keep), label="mask")
    why = g.unsolvable(start)
    if shown == 0:  # that corner's turn is free: it takes the turn the others need, and a cube results
        assert why is None
        x, y, z = CORNERS2[last]
        turns = [target.copy() for _ in range(3)]
        turns[1][[x, y, z]], turns[2][[x, y, z]] = target[[z, x, y]], target[[y, z, x]]
        assert sum(_is_cube(s) for s in turns) == 1
        return
    # one sticker of the last corner fixes its turn: the only state the mask leaves is the twisted one
    assert why is not None and ("add up to" in why if shown < 3 else "twisted corner" in why), why
    for name, more in _proving(g, 2):
        r = solvers.solve(g, start, method=name, **more)
        assert r.status is Status.UNSOLVABLE and r.extra["unsolvable"] == why, name
