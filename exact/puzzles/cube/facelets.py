"""Facelet strings (the kociemba package's format, for every n) and cube validation."""

from __future__ import annotations

import math

import numpy as np

from exact.errors import FaceletError
from exact.puzzles.cube.cubies import centre_facelets, check_invariants, check_wings, read_cubies
from exact.puzzles.cube.geometry import FACES
from exact.puzzles.cube.state import rotations


def _where(i: int, n: int) -> str:
    f, rc = divmod(i, n * n)
    r, c = divmod(rc, n)
    return f"position {i + 1} (face {FACES[f]}, row {r + 1}, column {c + 1})"


def _check_colors(colors: str) -> str:
    if len(colors) != 6 or len(set(colors)) != 6:
        raise FaceletError(f"colors={colors!r} must be 6 distinct letters, one per face in URFDLB order")
    return colors


def to_facelets(state: np.ndarray, colors: str = FACES) -> str:
    """The facelet string of a state: ``6*n*n`` letters, faces in URFDLB order, rows top to bottom.

    Args:
        state: Colours ``(6*n*n,)`` (0..5 = the colours of faces U R F D L B when solved).
        colors: The letter for each colour (default: the face letters, as kociemba).
    """
    colors = _check_colors(colors)
    s = np.asarray(state)
    n = math.isqrt(s.size // 6) if s.ndim == 1 else 0
    if s.ndim != 1 or n < 2 or 6 * n * n != s.size or s.min(initial=0) < 0 or s.max(initial=0) > 5:
        raise FaceletError(f"a cube state must be 6*n*n colours 0..5 (n >= 2), got shape {s.shape}")
    return "".join(colors[int(v)] for v in s)


def from_facelets(text: str, colors: str = FACES) -> np.ndarray:
    """Read and validate a facelet string.

    Whitespace is ignored, so an unfolded net can be pasted. Checks, each with its own message:
    length (``6*n*n``), unknown letters, colour counts, centres (odd n), every corner (and for
    odd n every middle edge) a real piece appearing once, corner twist, edge flip and permutation
    parity; for n >= 4 also that no wing is flipped in place (inner centres are only counted).

    Args:
        text: e.g. ``"UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"``.
        colors: The letter of each colour, in URFDLB order.

    Returns:
        uint8 ``(6*n*n,)`` colours.

    Raises:
        FaceletError: naming what is wrong, and where.
    """
    colors = _check_colors(colors)
    raw = "".join(str(text).split())
    size = len(raw)
    n = math.isqrt(size // 6)
    if n < 2 or 6 * n * n != size:
        raise FaceletError(
            f"facelet string has {size} letters; a cube needs 6*n*n letters (24 for 2x2x2, 54 for 3x3x3, 96 for 4x4x4)"
        )
    index = {c: i for i, c in enumerate(colors)}
    for i, ch in enumerate(raw):
        if ch not in index:
            raise FaceletError(f"unknown colour letter {ch!r} at {_where(i, n)} of {raw!r}; use the letters {colors}")
    state = np.array([index[c] for c in raw], dtype=np.uint8)
    counts = np.bincount(state, minlength=6)
    bad = [f"{colors[c]} appears {counts[c]} times" for c in range(6) if counts[c] != n * n]
    if bad:
        raise FaceletError(f"wrong colour counts in {raw!r}: {', '.join(bad)}; each colour must appear {n * n} times")
    validate(state, n, colors)
    return state


def validate(state: np.ndarray, n: int, colors: str = FACES) -> None:
    """Check that a colour state is a cube that turns can reach (see :func:`from_facelets`)."""
    s = np.asarray(state)
    if n % 2 == 1:
        cen = s[centre_facelets(n)]
        match = [r for r in rotations(n) if np.array_equal(s[r][centre_facelets(n)], np.arange(6))]
        if not match:
            shown = "".join(colors[int(c)] for c in cen)
            raise FaceletError(
                f"centre colours {shown} (faces URFDLB) are not those of a cube: each colour must be on one centre, "
                "with U opposite D, R opposite L and F opposite B in the right handedness"
            )
        s = s[match[0]]  # turn the whole cube so that its centres are home
    check_invariants(read_cubies(s, n, colors))
    check_wings(s, n, colors)
