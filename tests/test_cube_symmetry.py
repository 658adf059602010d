"""The 3x3x3's symmetries: conjugation at cubie level agrees with facelets, maps moves onto moves,
keeps distances; the UD coordinates' conjugation tables agree with the cube; Kociemba's 64,430
flip-slice classes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import registry
from exact.cube.coords import coordinates
from exact.cube.symmetry import (
    UD16,
    URF,
    conjugate_cubies,
    conjugate_moves,
    conjugate_state,
    flipslice_classes,
    flipslice_conj,
    symmetry_of,
    twist_conj,
)
from exact.puzzles.cube.cubies import read_cubies

ALL = [*UD16, URF, URF @ URF]


def _puzzle(metric="htm"):
    return registry.get("cube3", moves="faces", metric=metric)


def _random(p, rng, n=40):
    return p.table.apply(p.goal, [int(m) for m in rng.integers(0, p.table.num_moves, n)])


def test_the_sixteen_are_a_group_that_keeps_the_ud_axis():
    keys = {a.tobytes() for a in UD16}
    assert len(keys) == 16
    for a in UD16:
        assert abs(a[1, 1]) == 1  # y stays on the y axis
        for b in UD16:
            assert (a @ b).tobytes() in keys


@pytest.mark.parametrize("metric", ["htm", "qtm"])
@given(seed=st.integers(0, 2**32 - 1), g=st.integers(0, len(ALL) - 1))
@settings(max_examples=40, deadline=None)
def test_conjugation_is_an_automorphism(metric, seed, g):
    p = _puzzle(metric)
    sym = symmetry_of(ALL[g])
    rng = np.random.default_rng(seed)
    x = _random(p, rng)
    assert np.array_equal(conjugate_state(p.goal, sym), p.goal)
    image = conjugate_moves(p.table, sym)
    assert sorted(image.tolist()) == list(range(p.table.num_moves))
    for m in rng.integers(0, p.table.num_moves, 5):
        left = conjugate_state(p.table.apply(x, int(m)), sym)
        assert np.array_equal(left, p.table.apply(conjugate_state(x, sym), int(image[m])))
    # cubie-level conjugation is the facelet-level one
    c = read_cubies(x, 3)
    got = conjugate_cubies(c.corner_perm[None], c.corner_ori[None], c.edge_perm[None], c.edge_ori[None], sym)
    want = read_cubies(conjugate_state(x, sym), 3)
    for a, b in zip(got, (want.corner_perm, want.corner_ori, want.edge_perm, want.edge_ori)):
        assert np.array_equal(a[0], b)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_coordinate_conjugation_tables_match_the_cube(seed):
    p = _puzzle()
    x = _random(p, np.random.default_rng(seed))
    c = coordinates(x)
    raw = c["slice"] * 2048 + c["flip"]
    for g, a in enumerate(UD16):
        d = coordinates(conjugate_state(x, symmetry_of(a)))
        assert twist_conj()[c["twist"], g] == d["twist"]
        assert flipslice_conj()[raw, g] == d["slice"] * 2048 + d["flip"]


def test_flipslice_classes():
    k = flipslice_classes()
    assert len(k.rep) == 64430  # Kociemba's count of flip-slice classes under the 16 symmetries
    raw = np.arange(len(k.cls))
    assert np.array_equal(flipslice_conj()[raw, k.sym], k.rep[k.cls])
    assert np.array_equal(k.cls[k.rep], np.arange(len(k.rep)))
