"""The move table of the cubical sliding puzzle: guarded transpositions (see the package docstring)."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable

MAX_DIMENSION = 6


def check_dk(d: object, k: object) -> tuple[int, int]:
    """Validate the dimension ``d`` (1..6) and the face dimension ``k`` (1..d)."""
    for name, v in (("d", d), ("k", k)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise PuzzleoptError(f"{name}={v!r} must be a whole number")
    d, k = int(d), int(k)
    if not 1 <= d <= MAX_DIMENSION:
        raise PuzzleoptError(f"dimension d={d} must be from 1 to {MAX_DIMENSION}")
    if not 1 <= k <= d:
        raise PuzzleoptError(f"face dimension k={k} must be from 1 to d={d} (a ring slides within a k-face)")
    return d, k


def faces(d: int, k: int) -> list[np.ndarray]:
    """Every k-face of the d-cube as its sorted vertices, int64 ``(2^k,)`` each."""
    out = []
    for free in combinations(range(d), k):
        fixed = [i for i in range(d) if i not in free]
        for bits in range(1 << len(fixed)):
            base = sum(((bits >> j) & 1) << i for j, i in enumerate(fixed))
            verts = [base + sum(((s >> j) & 1) << i for j, i in enumerate(free)) for s in range(1 << k)]
            out.append(np.array(sorted(verts), dtype=np.int64))
    return out


def face_masks(d: int, k: int) -> list[tuple[int, int, int]]:
    """``(u, v, mask)`` for every slide: ``mask`` has a bit for each vertex of the face other than
    ``u`` (all must be empty, ``v`` among them). One entry per (u, v, face)."""
    out = []
    for face in faces(d, k):
        full = int(sum(1 << int(x) for x in face))
        for u in face.tolist():
            for v in face.tolist():
                if u != v:
                    out.append((u, v, full & ~(1 << u)))
    return out


def hypercube_moves(d: int, k: int) -> MoveTable:
    """The guarded move table of the ``(d, k)`` puzzle, rows sorted by ``(u, v)``.

    Args:
        d: Dimension of the cube (``P = 2^d`` vertices).
        k: Dimension of the faces rings slide in.

    Returns:
        A :class:`MoveTable` with ``M = 2^d * (2^k - 1) * C(d, k)`` rows; ``guard_pos`` lists the
        ``2^k - 1`` vertices of the face other than ``u`` (all must hold label 0).
    """
    d, k = check_dk(d, k)
    p = 1 << d
    slides = sorted(face_masks(d, k))
    perms = np.tile(np.arange(p, dtype=np.int64), (len(slides), 1))
    guard_pos = np.empty((len(slides), (1 << k) - 1), dtype=np.int64)
    names = []
    for row, (u, v, mask) in enumerate(slides):
        perms[row, u], perms[row, v] = v, u
        guard_pos[row] = [x for x in range(p) if (mask >> x) & 1]
        names.append(f"{u}>{v}")
    return MoveTable(
        names=tuple(names),
        perms=perms,
        guard_pos=guard_pos,
        guard_val=np.zeros_like(guard_pos),
        description=f"hypercube d={d} k={k}",
        metadata={"puzzle": "hypercube", "d": d, "k": k},
    )
