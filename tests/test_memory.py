"""The memory helpers of the table kernels: huge-page copies, the software prefetch and the
compare-and-swap."""

import numpy as np
import pytest
from numba import njit, prange

from exact.memory import compare_exchange, huge_pages, prefetch


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
