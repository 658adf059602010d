"""The memory helpers of the table kernels: huge-page copies, the software prefetch, the
compare-and-swap, kernels without reference counts and the inlined max/min."""

import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numba import njit, prange
from numba.core.errors import NumbaError

from exact.memory import borrowed, compare_exchange, huge_full, huge_pages, imax, imin, prefetch


@njit(cache=False)
def _sum_with_prefetch(a, idx):
    for i in idx:
        prefetch(a, i)
    total = 0
    for i in idx:
        if 0 <= i < a.shape[0]:
            total += a[i]
    return total


def test_prefetch_changes_nothing_and_never_faults():
    a = np.arange(1, 1001, dtype=np.uint8)
    idx = np.array([0, 7, 999, 500, 1_000_000_000, -5], dtype=np.int64)
    assert _sum_with_prefetch(a, idx) == int(a[[0, 7, 999, 500]].astype(np.int64).sum())
    assert _sum_with_prefetch(np.arange(10, dtype=np.int32), np.array([3, 4], np.int64)) == 7


def test_prefetch_refuses_what_it_cannot_address():
    @njit(cache=False)
    def two_d(a):
        prefetch(a, 0)

    with pytest.raises(Exception, match="prefetch"):
        two_d(np.zeros((2, 2)))


@pytest.mark.parametrize("n", [1000, (1 << 26) + 3])
def test_huge_pages_gives_an_equal_read_only_array(n):
    a = np.arange(n, dtype=np.uint8).reshape(-1, 1) if n < 2000 else np.arange(n, dtype=np.uint8)
    out = huge_pages(a)
    assert out.shape == a.shape and out.dtype == a.dtype
    assert np.array_equal(out, a)
    if a.nbytes >= 1 << 26:
        assert not out.flags.writeable
        with pytest.raises(ValueError):
            out[0] = 1


@pytest.mark.parametrize(("n", "dtype"), [(1000, np.uint8), ((1 << 26) + 3, np.uint8), ((1 << 24) + 1, np.int32)])
def test_huge_full_gives_a_writable_filled_array(n, dtype):
    out = huge_full(n, 7, dtype)
    assert out.shape == (n,) and out.dtype == dtype and out.flags.writeable
    assert int(out.min()) == int(out.max()) == 7
    out[-1] = 3
    assert out[-1] == 3 and out[0] == 7


@njit(cache=False, parallel=True)
def _count_up(a, per_thread):
    for _ in prange(4):
        for i in range(per_thread):
            j = i % a.shape[0]
            held = a[j]
            while True:
                seen = compare_exchange(a, j, held, held + 1)
                if seen == held:
                    break
                held = seen


def test_compare_exchange_swaps_only_on_a_match_and_loses_no_update():
    @njit(cache=False)
    def twice(u):
        return compare_exchange(u, 1, 0, 7), compare_exchange(u, 1, 0, 9)

    u = np.zeros(3, np.uint8)
    assert twice(u) == (0, 7) and u.tolist() == [0, 7, 0]
    a = np.zeros(5, np.int64)
    _count_up(a, 50_000)  # four threads race on five counters
    assert a.tolist() == [40_000] * 5


def _row_sums(a, out):
    for d in range(a.shape[0]):
        row = a[d]  # a view: no reference taken in a borrowed kernel
        out[d] = imax(row[:2].sum(), imin(row[2], row[3]))


def test_a_borrowed_kernel_reads_and_writes_through_views():
    kernel = borrowed(_row_sums)
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    out = np.zeros(3, np.int64)
    kernel(a, out)
    assert out.tolist() == [max(r[0] + r[1], min(r[2], r[3])) for r in a.tolist()]
    assert sys.getrefcount(a) == 2  # none taken or leaked


def _allocates(n):
    return np.zeros(n, np.int64)


def test_a_borrowed_kernel_cannot_allocate():
    with pytest.raises(NumbaError):
        borrowed(_allocates)(3)


@njit(cache=False)
def _extremes(a, b):
    return imax(a, b), imin(a, b)


@given(st.integers(-(2**62), 2**62), st.integers(-(2**62), 2**62))
def test_imax_imin_agree_with_the_builtins(a, b):
    assert _extremes(a, b) == (max(a, b), min(a, b))
