"""Perfect ranking of permutations, partial permutations and orientation vectors.

Ranks are int64 and *lexicographic*: ranking the sequences of a set in lexicographic order gives
``0, 1, 2, ...``. All kernels are numba functions over a batch; the public wrappers check shapes,
dtypes and values and accept one item (1-D input, scalar rank) or a batch.

* Permutations of ``n`` elements (``n <= 20``, since ``20! < 2**63``): Lehmer code in factorial base.
* Partial permutations: the cells ``x[0..k-1]`` (distinct, in ``0..n-1``) of ``k`` distinct items
  among ``n`` cells, ``n! / (n-k)!`` ranks. Digit ``i`` is ``x[i]`` minus the number of earlier
  items in a smaller cell, in base ``n - i``. A permutation is the case ``k = n``.
* Orientation vectors of length ``L`` in base ``b`` whose digits sum to ``total`` mod ``b`` (cube
  twists and flips): the last digit follows from the others, so the rank is the first ``L - 1``
  digits read as a base-``b`` number, ``b ** (L-1)`` ranks.

The row-level kernels (``partial_rank_row``, ``partial_unrank_row``) are numba functions that
other kernels (pattern databases, :mod:`exact.puzzles.tiles.space`) call directly.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import DTypeLike

from exact.errors import PuzzleoptError, StateError

_INT64_MAX = np.iinfo(np.int64).max


# ---------------------------------------------------------------------------------------- kernels
@njit(cache=True)
def partial_rank_row(x, n):  # pragma: no cover - numba
    """Rank of one partial permutation ``x`` (k distinct cells of ``0..n-1``); int64."""
    k = x.shape[0]
    r = np.int64(0)
    for i in range(k):
        xi = np.int64(x[i])
        d = xi
        for j in range(i):
            if np.int64(x[j]) < xi:
                d -= 1
        r = r * (n - i) + d
    return r


@njit(cache=True)
def partial_unrank_row(r, n, out, digits, chosen):  # pragma: no cover - numba
    """Write the partial permutation of rank ``r`` into ``out`` (length k).

    ``digits`` and ``chosen`` are int64 scratch buffers of length at least k; ``chosen`` ends up
    holding the k cells in increasing order, which callers use to find the free cells.
    """
    k = out.shape[0]
    for i in range(k - 1, -1, -1):
        base = n - i
        digits[i] = r % base
        r //= base
    for i in range(k):
        v = digits[i]
        # The digits[i]-th free cell: step over every taken cell at or below the candidate.
        j = 0
        while j < i and chosen[j] <= v:
            v += 1
            j += 1
        for t in range(i, j, -1):
            chosen[t] = chosen[t - 1]
        chosen[j] = v
        out[i] = v


@njit(cache=True)
def _partial_rank_batch(x, n, out):  # pragma: no cover - numba
    for b in range(x.shape[0]):
        out[b] = partial_rank_row(x[b], n)


@njit(cache=True)
def _partial_unrank_batch(ranks, n, out):  # pragma: no cover - numba
    k = out.shape[1]
    digits = np.empty(max(k, 1), np.int64)
    chosen = np.empty(max(k, 1), np.int64)
    for b in range(ranks.shape[0]):
        partial_unrank_row(ranks[b], n, out[b], digits, chosen)


@njit(cache=True)
def _first_bad_partial(x, n):  # pragma: no cover - numba
    """Index of the first row with a value outside ``0..n-1`` or a repeated value, else -1."""
    k = x.shape[1]
    for b in range(x.shape[0]):
        for i in range(k):
            v = np.int64(x[b, i])
            if v < 0 or v >= n:
                return b
            for j in range(i):
                if np.int64(x[b, j]) == v:
                    return b
    return -1


@njit(cache=True)
def _parity_batch(p, out):  # pragma: no cover - numba
    n = p.shape[1]
    stamp = np.zeros(n, np.int64)
    for b in range(p.shape[0]):
        cycles = 0
        for i in range(n):
            if stamp[i] != b + 1:
                cycles += 1
                j = i
                while stamp[j] != b + 1:
                    stamp[j] = b + 1
                    j = np.int64(p[b, j])
        out[b] = (n - cycles) & 1


@njit(cache=True)
def _orientation_rank_batch(o, base, out):  # pragma: no cover - numba
    length = o.shape[1]
    for b in range(o.shape[0]):
        r = np.int64(0)
        for i in range(length - 1):
            r = r * base + np.int64(o[b, i])
        out[b] = r


@njit(cache=True)
def _orientation_unrank_batch(ranks, base, total, out):  # pragma: no cover - numba
    length = out.shape[1]
    for b in range(ranks.shape[0]):
        r = ranks[b]
        s = np.int64(0)
        for i in range(length - 2, -1, -1):
            d = r % base
            out[b, i] = d
            s += d
            r //= base
        out[b, length - 1] = (total - s) % base


# ---------------------------------------------------------------------------------------- counts
def partial_permutation_count(n: int, k: int) -> int:
    """``n! / (n-k)!``: the number of ways to place ``k`` distinct items in ``n`` cells."""
    n, k = _nonneg("n", n), _nonneg("k", k)
    if k > n:
        raise PuzzleoptError(f"partial permutation: k = {k} items do not fit in n = {n} cells; need k <= n")
    return math.perm(n, k)


def orientation_count(length: int, base: int) -> int:
    """``base ** (length - 1)``: orientation vectors of ``length`` digits with a fixed sum."""
    length, base = _nonneg("length", length), _nonneg("base", base)
    if length < 1 or base < 1:
        raise PuzzleoptError(f"orientation: need length >= 1 and base >= 1, got length={length}, base={base}")
    return base ** (length - 1)


# ---------------------------------------------------------------------------------------- wrappers
def partial_permutation_rank(positions: np.ndarray, n: int, *, check: bool = True) -> np.ndarray:
    """Lexicographic rank of partial permutations.

    Args:
        positions: Integer array ``(B, k)`` or ``(k,)``: ``positions[b, i]`` is the cell of item
            ``i``; the cells of a row are distinct and in ``0..n-1``. uint8 and int64 are used
            as they are; other integer dtypes are converted to int64.
        n: Number of cells.
        check: Validate the values (skip only for input known to be valid, in hot loops).

    Returns:
        int64 ``(B,)`` (or a 0-d array for 1-D input) in ``0 .. n!/(n-k)! - 1``.

    Raises:
        StateError: a row has a value out of range or a repeated value (the row is quoted).
        PuzzleoptError: ``n!/(n-k)!`` does not fit in int64.
    """
    x, single = _int_rows("positions", positions)
    _rank_limit(n, x.shape[1])
    if check:
        bad = int(_first_bad_partial(x, n))
        if bad >= 0:
            raise StateError(
                f"partial permutation row {bad} {x[bad].tolist()} must hold {x.shape[1]} distinct cells in 0..{n - 1}"
            )
    out = np.empty(x.shape[0], np.int64)
    _partial_rank_batch(x, n, out)
    return out[0, ...] if single else out


def partial_permutation_unrank(ranks: np.ndarray | int, n: int, k: int, *, dtype: DTypeLike = np.uint8) -> np.ndarray:
    """Inverse of :func:`partial_permutation_rank`.

    Args:
        ranks: int array ``(B,)`` or a scalar, each in ``0 .. n!/(n-k)! - 1``.
        n: Number of cells.
        k: Number of items.
        dtype: Output dtype (uint8 needs ``n <= 256``).

    Returns:
        ``(B, k)`` (or ``(k,)`` for a scalar rank) of ``dtype``: the cell of each item.
    """
    count = _rank_limit(n, k)
    r, single = _rank_array(ranks, count)
    out = np.empty((r.shape[0], k), dtype=_out_dtype(dtype, n))
    _partial_unrank_batch(r, n, out)
    return out[0] if single else out


def permutation_rank(perms: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Lexicographic (Lehmer code) rank of permutations of ``0..n-1``, ``n <= 20``.

    Args:
        perms: Integer array ``(B, n)`` or ``(n,)``, each row a permutation of ``0..n-1``.
        check: Validate the rows.

    Returns:
        int64 ``(B,)`` (0-d for 1-D input) in ``0 .. n! - 1``.
    """
    x, _ = _int_rows("perms", perms)
    return partial_permutation_rank(perms, x.shape[1], check=check)


def permutation_unrank(ranks: np.ndarray | int, n: int, *, dtype=np.uint8) -> np.ndarray:
    """Inverse of :func:`permutation_rank`: uint8 (default) ``(B, n)``, or ``(n,)`` for a scalar."""
    return partial_permutation_unrank(ranks, n, n, dtype=dtype)


def permutation_parity(perms: np.ndarray, *, check: bool = True) -> np.ndarray:
    """Parity of permutations: 0 for even, 1 for odd.

    Args:
        perms: Integer array ``(B, n)`` or ``(n,)``, each row a permutation of ``0..n-1`` (any
            ``n``; no size limit).
        check: Validate the rows.

    Returns:
        int64 ``(B,)`` (0-d for 1-D input).
    """
    x, single = _int_rows("perms", perms)
    if check:
        _check_permutations(x)
    out = np.empty(x.shape[0], np.int64)
    _parity_batch(x, out)
    return out[0, ...] if single else out


def orientation_rank(orients: np.ndarray, base: int, *, total: int = 0, check: bool = True) -> np.ndarray:
    """Rank of orientation vectors whose digits sum to ``total`` mod ``base``.

    Args:
        orients: Integer array ``(B, L)`` or ``(L,)`` with digits in ``0..base-1``.
        base: The base ``b`` (3 for cube corner twists, 2 for edge flips).
        total: Required digit sum mod ``base``.
        check: Validate digits and sums.

    Returns:
        int64 ``(B,)`` (0-d for 1-D input) in ``0 .. base**(L-1) - 1``.
    """
    o, single = _int_rows("orients", orients)
    count = orientation_count(o.shape[1], base)
    if count > _INT64_MAX:
        raise PuzzleoptError(f"orientation: {base}**{o.shape[1] - 1} ranks do not fit in int64")
    if check and o.size:
        o64 = o.astype(np.int64)
        bad = np.flatnonzero(((o64 < 0) | (o64 >= base)).any(axis=1) | (o64.sum(axis=1) % base != total % base))
        if bad.size:
            b = int(bad[0])
            raise StateError(
                f"orientation row {b} {o[b].tolist()} must have digits in 0..{base - 1} "
                f"summing to {total % base} mod {base}"
            )
    out = np.empty(o.shape[0], np.int64)
    _orientation_rank_batch(o, base, out)
    return out[0, ...] if single else out


def orientation_unrank(
    ranks: np.ndarray | int, length: int, base: int, *, total: int = 0, dtype=np.uint8
) -> np.ndarray:
    """Inverse of :func:`orientation_rank`: ``(B, length)`` of ``dtype`` (``(length,)`` for a scalar)."""
    count = orientation_count(length, base)
    if count > _INT64_MAX:
        raise PuzzleoptError(f"orientation: {base}**{length - 1} ranks do not fit in int64")
    r, single = _rank_array(ranks, count)
    out = np.empty((r.shape[0], length), dtype=_out_dtype(dtype, base))
    _orientation_unrank_batch(r, base, total % base, out)
    return out[0] if single else out


# ---------------------------------------------------------------------------------------- checks
def _nonneg(what: str, v: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
        raise PuzzleoptError(f"{what} must be a non-negative integer, got {v!r}")
    return int(v)


def _rank_limit(n: int, k: int) -> int:
    count = partial_permutation_count(n, k)
    if count - 1 > _INT64_MAX:
        raise PuzzleoptError(f"partial permutation: {n}!/{n - k}! = {count} ranks do not fit in int64")
    return count


def _int_rows(what: str, a: np.ndarray) -> tuple[np.ndarray, bool]:
    x = np.asarray(a)
    if x.dtype.kind not in "iu":
        raise StateError(f"{what} must be an integer array, got dtype {x.dtype}")
    if x.ndim not in (1, 2):
        raise StateError(f"{what} must have shape (k,) or (B, k), got {x.shape}")
    single = x.ndim == 1
    if single:
        x = x[None]
    # Two dtypes only, so numba compiles (and caches) two specialisations per kernel.
    if x.dtype != np.uint8:
        x = x.astype(np.int64, copy=False)
    return np.ascontiguousarray(x), single


def _rank_array(ranks: np.ndarray | int, count: int) -> tuple[np.ndarray, bool]:
    r = np.asarray(ranks)
    if r.dtype.kind not in "iu":
        raise StateError(f"ranks must be integers, got dtype {r.dtype}")
    if r.ndim > 1:
        raise StateError(f"ranks must be a scalar or have shape (B,), got {r.shape}")
    single = r.ndim == 0
    r = np.ascontiguousarray(r.reshape(-1).astype(np.int64))
    if r.size and (r.min() < 0 or r.max() >= count):
        bad = r[(r < 0) | (r >= count)][0]
        raise StateError(f"rank {int(bad)} is out of range 0..{count - 1}")
    return r, single


def _out_dtype(dtype, largest: int) -> np.dtype:
    dt = np.dtype(dtype)
    if dt.kind not in "iu":
        raise PuzzleoptError(f"output dtype must be an integer dtype, got {dt}")
    if largest - 1 > np.iinfo(dt).max:
        raise PuzzleoptError(f"values up to {largest - 1} do not fit in {dt}; pass dtype=np.int64")
    return dt


def _check_permutations(x: np.ndarray) -> None:
    n = x.shape[1]
    if x.size == 0:
        return
    ok = np.sort(x, axis=1) == np.arange(n)
    bad = np.flatnonzero(~ok.all(axis=1))
    if bad.size:
        b = int(bad[0])
        raise StateError(f"row {b} {x[b].tolist()} is not a permutation of 0..{n - 1}")


class PermutationSpace:
    """All permutations of ``0 .. n - 1`` ranked by :func:`permutation_rank` (an
    :class:`exact.bfs.RankedSpace` of ``n!`` states, e.g. the pancake stacks)."""

    def __init__(self, n: int) -> None:
        self.n, self.size = n, math.factorial(n)

    def rank(self, states: np.ndarray) -> np.ndarray:
        return permutation_rank(np.asarray(states))

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        return permutation_unrank(np.asarray(ranks), self.n)
