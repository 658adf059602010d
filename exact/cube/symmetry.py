"""Symmetries of the 3x3x3 that keep the U-D axis, and conjugation by them.

A symmetry is a rotation or reflection ``A`` of space that maps the cube onto itself (an integer
3x3 matrix, :mod:`exact.puzzles.cube.geometry`'s axes). Conjugating a state ``X`` by it moves
every sticker to its image and recolours it by the image of its face:

    ``new[sigma[p]] = cmap[X[p]]``

so the solved cube stays solved and the turn ``m`` becomes the turn whose facelet permutation is
``sigma . m . sigma^-1`` (a face turn again; a reflection reverses its direction). Conjugation is
an automorphism of the cube group that maps the face-move set onto itself, so a state and its
conjugates are equally far from solved in either metric.

The 16 symmetries that map the U-D axis onto itself (``UD16``: powers of a quarter turn about U,
a half turn about F, the left-right mirror) keep the twist, and the flip together with the
UD-slice, as functions of themselves (:func:`twist_conj`, :func:`flipslice_conj`): the U/D
stickers stay U/D, and the reference stickers of the slice edges change together. The rotation
``URF`` (``x -> y -> z -> x``) and its square bring the R-L and F-B axes onto U-D, which lets a
table over U-D coordinates be read along all three axes.

At cubie level (:mod:`exact.puzzles.cube.cubies`: ``perm[s]`` the piece in slot ``s``) a
symmetry maps slot ``s`` to slot ``to[s]`` and piece ``p`` to piece ``to[p]``; with ``k0[s]`` the
place in slot ``to[s]`` of the image of slot ``s``'s reference facelet and ``e = det A``,

    ``perm'[to[s]] = to[perm[s]]``,  ``ori'[to[s]] = k0[s] + e * ori[s] - k0[perm[s]]`` (mod 3 or 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from exact.cube.coords import (
    SIZES,
    flip_cubies,
    flip_of,
    slice_cubies,
    slice_of,
    slicesorted_cubies,
    slicesorted_of,
    twist_cubies,
    twist_of,
)
from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.cubies import corner_slots, edge_slots
from exact.puzzles.cube.geometry import symmetry_action

_U4 = np.array([[0, 0, -1], [0, 1, 0], [1, 0, 0]], dtype=np.int64)  # a clockwise quarter turn about U
_F2 = np.diag([-1, -1, 1]).astype(np.int64)  # a half turn about F
_LR = np.diag([-1, 1, 1]).astype(np.int64)  # the mirror that swaps L and R
URF = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]], dtype=np.int64)
"""The rotation ``(x, y, z) -> (z, x, y)`` about the URF-DBL diagonal (R-L goes to U-D)."""


def _ud16() -> np.ndarray:
    out = []
    for c in range(2):
        for b in range(2):
            for a in range(4):
                out.append(
                    np.linalg.matrix_power(_U4, a) @ np.linalg.matrix_power(_F2, b) @ np.linalg.matrix_power(_LR, c)
                )
    return np.stack(out)


UD16 = _ud16()
"""int64 ``(16, 3, 3)``: the symmetries that keep the U-D axis (identity first)."""


@dataclass(frozen=True)
class Symmetry:
    """One symmetry's action on facelets and on cubies.

    Attributes:
        matrix: int64 ``(3, 3)``.
        sigma: int64 ``(54,)``: the facelet each facelet goes to.
        cmap: int64 ``(6,)``: the colour each colour becomes.
        corner_to, corner_k0, edge_to, edge_k0: int64 ``(8,)``, ``(12,)``: see the module docstring.
        det: +1 (rotation) or -1 (reflection).
    """

    matrix: np.ndarray
    sigma: np.ndarray
    cmap: np.ndarray
    corner_to: np.ndarray
    corner_k0: np.ndarray
    edge_to: np.ndarray
    edge_k0: np.ndarray
    det: int


def _slot_action(sigma: np.ndarray, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    where = {frozenset(row.tolist()): i for i, row in enumerate(slots)}
    to = np.empty(len(slots), np.int64)
    k0 = np.empty(len(slots), np.int64)
    for s, row in enumerate(slots):
        image = sigma[row]
        t = where[frozenset(image.tolist())]
        to[s] = t
        k0[s] = int(np.flatnonzero(slots[t] == image[0])[0])
    return to, k0


@cache
def symmetry(matrix_bytes: bytes) -> Symmetry:
    """The action of the symmetry whose matrix has these bytes (use :func:`symmetry_of`)."""
    a = np.frombuffer(matrix_bytes, dtype=np.int64).reshape(3, 3)
    sigma, cmap = symmetry_action(3, a)
    ct, ck = _slot_action(sigma, corner_slots(3))
    et, ek = _slot_action(sigma, edge_slots(3))
    for arr in (ct, ck, et, ek):
        arr.setflags(write=False)
    return Symmetry(a.copy(), sigma, cmap, ct, ck, et, ek, int(round(np.linalg.det(a))))


def symmetry_of(matrix: np.ndarray) -> Symmetry:
    """The action of a symmetry given by its integer matrix ``(3, 3)``."""
    return symmetry(np.ascontiguousarray(matrix, dtype=np.int64).tobytes())


def conjugate_state(states: np.ndarray, sym: Symmetry) -> np.ndarray:
    """Facelet states ``(..., 54)`` conjugated by ``sym`` (same dtype)."""
    s = np.asarray(states)
    inv = np.argsort(sym.sigma)
    return sym.cmap[s[..., inv]].astype(s.dtype)


def conjugate_moves(table: MoveTable, sym: Symmetry) -> np.ndarray:
    """int64 ``(M,)``: the move each move of a 3x3x3 face-move table becomes under ``sym``."""
    return table.conjugated(sym.sigma)


def conjugate_cubies(cp, co, ep, eo, sym: Symmetry):
    """Cubie arrays ``(B, 8)``/``(B, 12)`` (slot-indexed, int64) conjugated by ``sym``."""
    out = []
    for perm, ori, to, k0, mod in (
        (cp, co, sym.corner_to, sym.corner_k0, 3),
        (ep, eo, sym.edge_to, sym.edge_k0, 2),
    ):
        perm, ori = np.asarray(perm, np.int64), np.asarray(ori, np.int64)
        new_perm = np.empty_like(perm)
        new_ori = np.empty_like(ori)
        new_perm[:, to] = to[perm]
        new_ori[:, to] = (k0 + sym.det * ori - k0[perm]) % mod
        out += [new_perm, new_ori]
    return tuple(out)


@cache
def twist_conj() -> np.ndarray:
    """int16 ``(2187, 16)``: the twist of a cube conjugated by each of :data:`UD16`."""
    tw = np.arange(SIZES["twist"])
    co = twist_cubies(tw)
    cp = np.broadcast_to(np.arange(8), co.shape)
    ep = np.broadcast_to(np.arange(12), (len(tw), 12))
    out = np.empty((len(tw), len(UD16)), np.int16)
    for g, a in enumerate(UD16):
        _, co2, _, _ = conjugate_cubies(cp, co, ep, np.zeros_like(ep), symmetry_of(a))
        out[:, g] = twist_of(co2)
    out.setflags(write=False)
    return out


EDGES = ("slice", "slicesorted")
"""The edge coordinates a flip-slice value can pair with the flip: the slice edges' slots, or
their slots and order."""


def _edge_coord(edge: str):
    if edge not in EDGES:
        raise PuzzleoptError(f"unknown flip-slice edge coordinate {edge!r}; use one of {', '.join(EDGES)}")
    return (slice_cubies, slice_of) if edge == "slice" else (slicesorted_cubies, slicesorted_of)


@cache
def flipslice_conj(edge: str = "slice") -> np.ndarray:
    """int32 ``(2048 * S, 16)``: the raw flip-slice (``slice * 2048 + flip``, ``slice`` the
    ``edge`` coordinate, ``S`` its size) of a cube conjugated by each of :data:`UD16`.

    Every symmetry here maps the slice edges among themselves and gives the four the same
    reference change, so the new flip depends on the old one and on which slots hold slice edges.
    """
    cubies_of, of = _edge_coord(edge)
    nf, ns = SIZES["flip"], SIZES[edge]
    eo = flip_cubies(np.arange(nf))
    ep = cubies_of(np.arange(ns))
    zeros = np.zeros((1, 8), np.int64)
    out = np.empty((ns, nf, len(UD16)), np.int32)
    for g, a in enumerate(UD16):
        sym = symmetry_of(a)
        if len(set(sym.edge_k0[8:].tolist())) != 1 or set(sym.edge_to[8:].tolist()) != {8, 9, 10, 11}:
            raise PuzzleoptError("a UD symmetry treats the slice edges unlike each other: a bug in UD16")
        # The new flip is the old one moved slot to slot (pieces at home: the k0 terms cancel),
        # xor a mask that depends on the slice alone; both parts are linear in the bits.
        _, _, ep2, mask = conjugate_cubies(zeros, zeros, ep, np.zeros_like(ep), sym)
        _, _, _, moved = conjugate_cubies(zeros, zeros, np.broadcast_to(np.arange(12), eo.shape), eo, sym)
        out[:, :, g] = (of(ep2) * nf)[:, None] + (flip_of(mask)[:, None] ^ flip_of(moved)[None, :])
    out = out.reshape(ns * nf, len(UD16))
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class FlipSliceClasses:
    """The flip-slice values up to the 16 UD symmetries.

    Attributes:
        edge: The edge coordinate paired with the flip (:data:`EDGES`).
        rep: int32 ``(C,)``: each class's least raw value (sorted).
        cls: int32 ``(2048 * S,)``: the class of each raw value.
        sym: int8 ``(2048 * S,)``: a symmetry ``g`` (index into :data:`UD16`) that maps the raw
            value onto its representative: ``flipslice_conj(edge)[raw, g] == rep[cls[raw]]``.
    """

    edge: str
    rep: np.ndarray
    cls: np.ndarray
    sym: np.ndarray


@cache
def flipslice_classes(edge: str = "slice") -> FlipSliceClasses:
    """The classes of flip-slice values: 64,430 with the slice's slots, 1,523,864 with their
    order too (Kociemba's counts)."""
    conj = flipslice_conj(edge)
    least = conj.min(axis=1)
    rep, cls = np.unique(least, return_inverse=True)
    sym = np.argmax(conj == least[:, None], axis=1).astype(np.int8)
    out = FlipSliceClasses(edge, rep.astype(np.int32), cls.astype(np.int32), sym)
    for arr in (out.rep, out.cls, out.sym):
        arr.setflags(write=False)
    return out
