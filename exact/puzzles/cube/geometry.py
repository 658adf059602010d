"""Sticker geometry of the NxNxN cube: where each facelet sits in space, and layer turns.

Coordinates (doubled so that they are integers): ``x`` points to R, ``y`` to U, ``z`` to F; a
cubie centre has coordinates in ``{-(n-1), -(n-3), ..., n-1}``. A sticker is its cubie centre plus
the outward normal of its face. The facelet order (index ``f*n*n + r*n + c``) is described in
:mod:`exact.puzzles.cube`.

A turn is ``(axis, layers, q)``: ``axis`` 0/1/2 = x/y/z, ``layers`` a bitmask of layer indices
``k`` counted from the negative side (L, D, B) at coordinate ``2k - (n-1)``, and ``q`` quarter
turns clockwise as seen from the positive face (R, U, F).
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from exact.errors import PuzzleoptError

FACES = "URFDLB"
"""Face order of facelet strings (the kociemba package's)."""

NORMALS = np.array([(0, 1, 0), (1, 0, 0), (0, 0, 1), (0, -1, 0), (-1, 0, 0), (0, 0, -1)], dtype=np.int64)
"""Outward normal of each face, in :data:`FACES` order."""

# Clockwise quarter turn seen from the positive end of each axis (R, U, F directions).
_CW = {
    0: np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], dtype=np.int64),  # R: (x, y, z) -> (x, z, -y)
    1: np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]], dtype=np.int64),  # U: (x, y, z) -> (-z, y, x)
    2: np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], dtype=np.int64),  # F: (x, y, z) -> (y, -x, z)
}


@cache
def stickers(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Cubie centre and normal of every facelet.

    Args:
        n: Cube size (n >= 2).

    Returns:
        ``(centres, normals)``, both int64 of shape ``(6*n*n, 3)``, in facelet order.
    """
    a = n - 1
    idx = np.arange(n)
    rr, cc = np.meshgrid(idx, idx, indexing="ij")
    rr, cc = rr.ravel(), cc.ravel()
    up = a - 2 * rr  # row 0 at the top of the face
    lr = -a + 2 * cc  # column 0 at the left of the face
    full = np.full_like(rr, a)
    per_face = {
        "U": (lr, full, -a + 2 * rr),  # seen from above, B at the top
        "R": (full, up, a - 2 * cc),
        "F": (lr, up, full),
        "D": (lr, -full, a - 2 * rr),  # seen from below, F at the top
        "L": (-full, up, -a + 2 * cc),
        "B": (a - 2 * cc, up, -full),
    }
    centres = np.concatenate([np.stack(per_face[f], axis=1) for f in FACES]).astype(np.int64)
    normals = np.repeat(NORMALS, n * n, axis=0)
    for arr in (centres, normals):
        arr.setflags(write=False)
    return centres, normals


@cache
def _index(n: int) -> dict[tuple[int, ...], int]:
    centres, normals = stickers(n)
    return {tuple(c) + tuple(v): i for i, (c, v) in enumerate(zip(centres.tolist(), normals.tolist()))}


def turn_perm(n: int, axis: int, layers: int, q: int) -> np.ndarray:
    """The facelet permutation of one turn (``new_state = state[perm]``).

    Args:
        n: Cube size.
        axis: 0, 1, 2 for x, y, z.
        layers: Bitmask of turned layers, bit ``k`` = layer at coordinate ``2k - (n-1)``.
        q: Quarter turns clockwise seen from the positive face, 0..3.

    Returns:
        int64 array of shape ``(6*n*n,)``.
    """
    centres, normals = stickers(n)
    index = _index(n)
    rot = np.linalg.matrix_power(_CW[axis], q % 4)
    layer_of = (centres[:, axis] + (n - 1)) // 2
    moving = ((layers >> layer_of) & 1).astype(bool)
    perm = np.arange(6 * n * n, dtype=np.int64)
    new_c = centres[moving] @ rot.T
    new_v = normals[moving] @ rot.T
    src = np.flatnonzero(moving)
    dest = [index[tuple(c) + tuple(v)] for c, v in zip(new_c.tolist(), new_v.tolist())]
    perm[dest] = src  # the sticker at src moves to dest
    return perm


def _symmetry_matrices() -> np.ndarray:
    """The 48 signed permutation matrices, in the order :data:`SYMMETRY_MATRICES` documents."""
    diag = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=np.int64)  # (x, y, z) -> (z, x, y)
    mirror = np.diag([-1, 1, 1]).astype(np.int64)
    first = [np.linalg.matrix_power(diag, k) for k in range(3)]
    first = [*first, *(mirror @ a for a in first)]
    seen = {a.tobytes() for a in first}
    rest = []
    for perm in itertools.permutations(range(3)):
        for signs in np.ndindex(2, 2, 2):
            a = np.zeros((3, 3), np.int64)
            a[np.arange(3), perm] = [1 - 2 * s for s in signs]
            if a.tobytes() not in seen:
                seen.add(a.tobytes())
                rest.append(a)
    out = np.stack(first + rest)
    out.setflags(write=False)
    return out


SYMMETRY_MATRICES = _symmetry_matrices()
"""int64 ``(48, 3, 3)``: every rotation and reflection that maps the cube onto itself. The identity
comes first, then the rotations by a third and two thirds of a turn about the URF-DBL diagonal
(which move every axis onto another), the left-right mirror and the mirror after each of those
two rotations; the other 42 follow in a fixed order."""


@cache
def _symmetry_action(n: int, matrix_bytes: bytes) -> tuple[np.ndarray, np.ndarray]:
    a = np.frombuffer(matrix_bytes, dtype=np.int64).reshape(3, 3)
    centres, normals = stickers(n)
    index = _index(n)
    try:
        sigma = np.array(
            [index[tuple(c) + tuple(v)] for c, v in zip((centres @ a.T).tolist(), (normals @ a.T).tolist())], np.int64
        )
    except KeyError:
        raise PuzzleoptError(f"matrix {a.tolist()} does not map the cube onto itself") from None
    face_of = {tuple(v): f for f, v in enumerate(NORMALS.tolist())}
    cmap = np.array([face_of[tuple(v)] for v in (NORMALS @ a.T).tolist()], np.int64)
    for arr in (sigma, cmap):
        arr.setflags(write=False)
    return sigma, cmap


def symmetry_action(n: int, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What a symmetry of space does to the facelets and colours of the ``n x n x n`` cube.

    Args:
        n: Cube size.
        matrix: int ``(3, 3)``, a rotation or reflection that maps the cube onto itself (one of
            :data:`SYMMETRY_MATRICES`).

    Returns:
        ``(sigma, cmap)``: int64 ``(6*n*n,)``, the facelet each facelet goes to, and int64
        ``(6,)``, the colour (face) each colour becomes. Read-only.

    Raises:
        PuzzleoptError: The matrix does not map the cube onto itself (a ValueError).
    """
    return _symmetry_action(n, np.ascontiguousarray(matrix, dtype=np.int64).tobytes())
