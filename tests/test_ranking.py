"""Ranking of permutations, partial permutations and orientation vectors (exact.ranking)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact import ranking
from exact.errors import PuzzleoptError, StateError

FAST = settings(max_examples=60, deadline=None)


@st.composite
def partial_perms(draw, max_n: int = 20):
    """(n, k, rows): a batch of partial permutations of k items in n cells with n!/(n-k)! < 2**63."""
    n = draw(st.integers(1, max_n))
    k = draw(st.integers(0, n))
    seeds = draw(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=8))
    rows = np.array([np.random.default_rng(s).permutation(n)[:k] for s in seeds], dtype=np.int64).reshape(len(seeds), k)
    return n, k, rows


# ------------------------------------------------------------------------------- exhaustive, small
@pytest.mark.parametrize(("n", "k"), [(1, 1), (4, 4), (5, 2), (6, 3), (6, 0), (7, 1)])
def test_partial_ranks_are_lexicographic_and_dense(n, k):
    rows = np.array(list(itertools.permutations(range(n), k)), dtype=np.int64).reshape(math.perm(n, k), k)
    assert len(rows) == ranking.partial_permutation_count(n, k) == math.perm(n, k)
    r = ranking.partial_permutation_rank(rows, n)
    assert r.dtype == np.int64
    np.testing.assert_array_equal(r, np.arange(len(rows)))
    back = ranking.partial_permutation_unrank(np.arange(len(rows)), n, k)
    assert back.dtype == np.uint8
    np.testing.assert_array_equal(back, rows)


def test_permutation_rank_known_values():
    assert int(ranking.permutation_rank(np.arange(20))) == 0
    assert int(ranking.permutation_rank(np.arange(20)[::-1])) == math.factorial(20) - 1
    np.testing.assert_array_equal(ranking.permutation_unrank(5, 3), [2, 1, 0])
    assert ranking.permutation_unrank(np.array([0, 1]), 3).shape == (2, 3)


@pytest.mark.parametrize(("length", "base", "total"), [(4, 3, 0), (5, 2, 0), (3, 3, 2), (1, 3, 1)])
def test_orientation_exhaustive(length, base, total):
    rows = np.array(list(itertools.product(range(base), repeat=length)), dtype=np.int64)
    rows = rows[rows.sum(axis=1) % base == total]
    r = ranking.orientation_rank(rows, base, total=total)
    assert len(rows) == ranking.orientation_count(length, base)
    np.testing.assert_array_equal(r, np.arange(len(rows)))  # product order is lexicographic
    np.testing.assert_array_equal(ranking.orientation_unrank(r, length, base, total=total), rows)


# ------------------------------------------------------------------------------- properties
@FAST
@given(partial_perms())
def test_partial_bijection(case):
    n, k, rows = case
    r = ranking.partial_permutation_rank(rows, n)
    assert ((r >= 0) & (r < math.perm(n, k))).all()
    np.testing.assert_array_equal(ranking.partial_permutation_unrank(r, n, k, dtype=np.int64), rows)
    distinct_rows = len({tuple(x) for x in rows.tolist()})
    assert len(set(r.tolist())) == distinct_rows
    # uint8 input gives the same ranks as int64 input
    np.testing.assert_array_equal(ranking.partial_permutation_rank(rows.astype(np.uint8), n), r)


@FAST
@given(st.integers(1, 20), st.lists(st.integers(0, 2**62), min_size=1, max_size=8))
def test_rank_of_unrank_is_identity(n, raw):
    count = math.factorial(n)
    r = np.array([x % count for x in raw], dtype=np.int64)
    perms = ranking.permutation_unrank(r, n)
    assert (np.sort(perms, axis=1) == np.arange(n)).all()
    np.testing.assert_array_equal(ranking.permutation_rank(perms), r)


@FAST
@given(st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_parity_matches_inversion_count(n, seed):
    perms = np.random.default_rng(seed).permuted(np.tile(np.arange(n), (6, 1)), axis=1)
    inversions = [sum(p[i] > p[j] for i in range(n) for j in range(i + 1, n)) for p in perms.tolist()]
    np.testing.assert_array_equal(ranking.permutation_parity(perms), np.array(inversions) % 2)


@FAST
@given(st.integers(1, 12), st.integers(2, 4), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_orientation_bijection(length, base, total, seed):
    count = ranking.orientation_count(length, base)
    r = np.random.default_rng(seed).integers(0, count, size=10)
    o = ranking.orientation_unrank(r, length, base, total=total)
    assert ((o.astype(np.int64).sum(axis=1) - total) % base == 0).all()
    np.testing.assert_array_equal(ranking.orientation_rank(o, base, total=total), r)


# ------------------------------------------------------------------------------- bad input
def test_bad_input_is_rejected_with_the_row():
    with pytest.raises(StateError, match=r"\[1, 1, 2\]"):
        ranking.permutation_rank(np.array([[0, 1, 2], [1, 1, 2]]))
    with pytest.raises(StateError, match="0..4"):
        ranking.partial_permutation_rank(np.array([0, 5]), 5)
    with pytest.raises(StateError, match="out of range"):
        ranking.partial_permutation_unrank(np.array([20]), 5, 2)
    with pytest.raises(StateError, match="integer"):
        ranking.permutation_rank(np.array([0.0, 1.0]))
    with pytest.raises(PuzzleoptError, match="int64"):
        ranking.permutation_rank(np.arange(21))
    with pytest.raises(PuzzleoptError, match="k <= n"):
        ranking.partial_permutation_count(3, 4)
    with pytest.raises(StateError, match="summing"):
        ranking.orientation_rank(np.array([1, 1, 0]), 3)
    with pytest.raises(StateError, match="not a permutation"):
        ranking.permutation_parity(np.array([0, 0, 1]))
    with pytest.raises(PuzzleoptError, match="dtype=np.int64"):
        ranking.partial_permutation_unrank(0, 300, 1)
