"""The H48 coordinates (exact/cube/h48.py): H48's 3,393 corner classes under the 48 symmetries,
and a coordinate that commutes with conjugation on random cubes (so the classes are well made)."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from exact.cube.h48 import (
    COCSEP_CLASSES,
    E_SLICE,
    M_SLICE,
    NCOCSEP,
    NESEP,
    cocsep_classes,
    cocsep_cubies,
    cocsep_of,
    esep_of,
    h0_distances,
    h0_entry,
    h0_index,
    h0_tables,
    sym48,
)
from exact.cube.symmetry import conjugate_cubies, symmetry_of


def _random_cubies(rng, n):
    cp = np.array([rng.permutation(8) for _ in range(n)])
    co = rng.integers(0, 3, (n, 8))
    co[:, 7] = (-co[:, :7].sum(axis=1)) % 3
    ep = np.array([rng.permutation(12) for _ in range(n)])
    eo = rng.integers(0, 2, (n, 12))
    eo[:, 11] = eo[:, :11].sum(axis=1) % 2
    return cp, co, ep, eo


def test_the_48_symmetries_are_distinct_and_close_under_products() -> None:
    s = sym48()
    keys = {m.tobytes() for m in s}
    assert len(keys) == 48 and all((a @ b).tobytes() in keys for a in s for b in s)


def test_cocsep_round_trips_and_has_h48_s_3393_classes() -> None:
    values = np.arange(NCOCSEP)
    assert np.array_equal(cocsep_of(*cocsep_cubies(values)), values)
    k = cocsep_classes()
    assert len(k.rep) == COCSEP_CLASSES == 3393
    assert np.array_equal(k.image[k.sym, values], k.rep[k.cls])  # each value's symmetry reaches its rep
    assert np.array_equal(k.rep, np.sort(k.rep)) and (k.rep[k.cls] <= values).all()


def test_the_coordinate_of_a_conjugate_is_the_conjugate_of_the_coordinate() -> None:
    """On random cubes (not the representatives the classes were built from), for every symmetry:
    the corner coordinate is a function of the coset, so conjugation acts on it."""
    cp, co, ep, eo = _random_cubies(np.random.default_rng(0), 500)
    k = cocsep_classes()
    before = cocsep_of(cp, co)
    for s, matrix in enumerate(sym48()):
        ncp, nco, _, _ = conjugate_cubies(cp, co, ep, eo, symmetry_of(matrix))
        assert np.array_equal(cocsep_of(ncp, nco), k.image[s, before]), s


def test_esep_numbers_the_slice_separations_one_to_one() -> None:
    """Every way to place the E edges, then the M edges among the other slots, gets its own value
    in 0 .. 34649."""
    rows = []
    for e_slots in combinations(range(12), 4):
        rest = [s for s in range(12) if s not in e_slots]
        for m_places in combinations(range(8), 4):
            ep = np.empty(12, dtype=np.int64)
            ep[list(e_slots)] = E_SLICE
            m_slots = [rest[i] for i in m_places]
            ep[m_slots] = M_SLICE
            ep[[s for s in rest if s not in m_slots]] = (0, 2, 4, 6)
            rows.append(ep)
    assert np.array_equal(np.sort(esep_of(np.array(rows))), np.arange(NESEP))
    assert esep_of(np.arange(12)[None])[0] == esep_of(np.array([[2, 3, 0, 1, 6, 7, 4, 5, 11, 10, 9, 8]]))[0]


def test_half_turns_stay_in_the_target_group_and_quarter_turns_leave_it() -> None:
    from exact import registry
    from exact.puzzles.cube.cubies import read_cubies

    p = registry.get("cube3", moves="faces", metric="htm")
    solved = (cocsep_of(np.arange(8)[None], np.zeros((1, 8), np.int64))[0], esep_of(np.arange(12)[None])[0])
    for moves, inside in (("U2 R2 F2 D2 L2 B2 R2 U2", True), ("U", False), ("R", False), ("F2 U'", False)):
        c = read_cubies(p.table.apply(p.goal, p.table.parse(moves, start=p.goal)), 3)
        here = (cocsep_of(c.corner_perm[None], c.corner_ori[None])[0], esep_of(c.edge_perm[None])[0])
        assert (here == solved) == inside, moves


@pytest.fixture(scope="module", params=["htm", "qtm"])
def h0(request):
    from exact import registry

    p = registry.get("cube3", moves="faces", metric=request.param)
    return p, h0_tables(p.table)


def _raw_distances(t, depth: int) -> dict[int, int]:
    """Distances of raw (cocsep, esep) pairs up to ``depth``, by BFS without symmetry."""
    start = cocsep_of(np.arange(8)[None], np.zeros((1, 8), np.int64))[0] * NESEP + esep_of(np.arange(12)[None])[0]
    seen = {int(start): 0}
    frontier = np.array([start])
    for d in range(1, depth + 1):
        v, e = frontier // NESEP, frontier % NESEP
        kids = np.unique((t.cocsep_mv[v].astype(np.int64) * NESEP + t.esep_mv[e]).ravel())
        kids = np.array([k for k in kids.tolist() if k not in seen], dtype=np.int64)
        seen.update(dict.fromkeys(kids.tolist(), d))
        frontier = kids
    return seen


def test_the_h0_table_equals_breadth_first_search_on_the_raw_coordinates(h0) -> None:
    """Every raw pair within 5 moves has its distance in the symmetry-reduced table, and the table
    has no other entry that near."""
    _, t = h0
    depth = 5
    raw = _raw_distances(t, depth)
    table = h0_distances(t, max_depth=depth)
    k = t.classes
    keys = np.array(list(raw), dtype=np.int64)
    idx = np.array([h0_entry(v, e, k.cls, k.sym, t.esep_conj, t.stab) for v, e in zip(keys // NESEP, keys % NESEP)])
    assert np.array_equal(table[idx], np.array(list(raw.values())))
    assert (table <= depth).sum() == len(np.unique(idx))


def test_the_h0_index_is_the_same_for_a_cube_and_its_48_conjugates(h0) -> None:
    _, t = h0
    cp, co, ep, eo = _random_cubies(np.random.default_rng(3), 300)
    base = h0_index(t, cp, co, ep)
    for matrix in sym48():
        ncp, nco, nep, _ = conjugate_cubies(cp, co, ep, eo, symmetry_of(matrix))
        assert np.array_equal(h0_index(t, ncp, nco, nep), base)
