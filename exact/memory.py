"""Memory for table lookups in numba hot loops: huge pages, a software prefetch, kernels that
count no references.

A search over a table of gigabytes misses the caches on nearly every lookup. Two things make those
misses cheaper: 2 MB pages, so that the page-table walk is not a second miss
(:func:`huge_pages`), and asking for every index a kernel already knows before it reads any of
them (:func:`prefetch`), so that the misses overlap rather than wait in turn.

Two more costs of numba code that looks free (measured on :mod:`exact.cube.h48solve`, one thread,
6 of Tronto's 17-move cubes, the two versions alternated in one process, 2026-11-29):

- Every view (``a[d]``, ``c[16:28]``) and every unpacked tuple of arrays takes and drops a
  reference, an atomic add through a call, which numba's pruning removes only within simple
  branches: 7.6% of the samples were in ``NRT_incref``/``NRT_decref``. A kernel that allocates
  nothing and keeps no array past its return needs none: :func:`borrowed` compiles it without
  reference counts (5.88 -> 4.74 s).
- The built-in ``max``/``min`` of two integers is a call to a separately compiled overload that
  LLVM does not inline: :func:`imax`/:func:`imin` are inlined (6.43 -> 6.18 s).
"""

from __future__ import annotations

import mmap

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


def huge_pages(a: np.ndarray) -> np.ndarray:
    """A read-only copy of ``a`` in memory the kernel is asked to back with 2 MB pages (Linux
    transparent huge pages, ``madvise``), where the platform offers them and ``a`` is large;
    else ``a``. The search's lookups land on random pages, and with 4 kB pages nearly every one
    misses the TLB (measured on the 1.67 GB tables of :mod:`exact.cube.optimal`, two threads:
    cube r4 14.5 -> 12.7 s, DeepCubeA cube 2 7.1 -> 5.7 s)."""
    if not hasattr(mmap, "MADV_HUGEPAGE") or a.nbytes < 1 << 26:
        return a
    buf = mmap.mmap(-1, a.nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    buf.madvise(mmap.MADV_HUGEPAGE)
    out = np.frombuffer(buf, dtype=a.dtype).reshape(a.shape)
    flat, src = out.reshape(-1), a.reshape(-1)
    for i in range(0, len(flat), 1 << 26):  # in slices: a memory-mapped source is paged in once
        flat[i : i + (1 << 26)] = src[i : i + (1 << 26)]
    out.flags.writeable = False
    return out


def huge_full(n: int, value: int, dtype=np.uint8) -> np.ndarray:
    """A writable ``(n,)`` array of ``value`` in memory the kernel is asked to back with 2 MB pages,
    as :func:`huge_pages` (where the platform offers them and the array is large; else plain
    ``np.full``): for the tables a build writes at random places."""
    nbytes = n * np.dtype(dtype).itemsize
    if not hasattr(mmap, "MADV_HUGEPAGE") or nbytes < 1 << 26:
        return np.full(n, value, dtype=dtype)
    buf = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    buf.madvise(mmap.MADV_HUGEPAGE)
    out = np.frombuffer(buf, dtype=dtype)
    out[:] = value
    return out


def borrowed(fn):
    """``@borrowed``: ``numba.njit(cache=True)`` without reference counting (numba's ``_nrt=False``),
    for hot kernels that only read and write arrays their callers hold: such a kernel may make
    views but allocates no array (numba refuses to compile one that does) and returns none."""
    return njit(cache=True, _nrt=False)(fn)


@njit(cache=True, inline="always")
def imax(a, b):  # pragma: no cover - numba
    """The larger of two numbers, inlined (the built-in ``max`` is a call in numba code)."""
    return a if a > b else b


@njit(cache=True, inline="always")
def imin(a, b):  # pragma: no cover - numba
    """The smaller of two numbers, inlined (the built-in ``min`` is a call in numba code)."""
    return a if a < b else b


# The intrinsic is named for its pointer type: typed pointers until LLVM 16, opaque from 17 on.
_PREFETCH = "llvm.prefetch.p0" if binding.llvm_version_info[0] >= 17 else "llvm.prefetch.p0i8"


@intrinsic
def prefetch(typingctx, arr, idx):
    """``prefetch(arr, i)`` in numba code: ask the CPU to bring ``arr[i]`` (``arr`` 1-d, ``i`` an
    integer) into the caches and go on at once. Returns nothing; an index out of range is
    harmless (LLVM's ``llvm.prefetch``: a read, kept in every cache level; never faults)."""
    if not isinstance(arr, types.Array) or arr.ndim != 1 or not isinstance(idx, types.Integer):
        return None
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, _PREFETCH)
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def compare_exchange(typingctx, arr, idx, expected, new):
    """``compare_exchange(arr, i, expected, new)`` in numba code: atomically, where ``arr[i]``
    holds ``expected`` it becomes ``new``; returns what ``arr[i]`` held (``== expected``: the
    swap happened). ``arr`` is 1-d of integers; no bounds check. Threads that lower entries of
    one shared table with it lose no update (LLVM's ``cmpxchg``, monotonic order: the threads
    need each swap whole, not an order between swaps)."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and isinstance(arr.dtype, types.Integer)):
        return None
    if not all(isinstance(t, types.Integer) for t in (idx, expected, new)):
        return None
    sig = arr.dtype(arr, idx, expected, new)

    def codegen(context, builder, signature, args):
        aryty, _, ety, nty = signature.args
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        old = context.cast(builder, args[2], ety, aryty.dtype)
        val = context.cast(builder, args[3], nty, aryty.dtype)
        pair = builder.cmpxchg(ptr, old, val, "monotonic", "monotonic")
        return builder.extract_value(pair, 0)

    return sig, codegen
