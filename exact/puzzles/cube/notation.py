"""Cube move notation (WCA style for big cubes): names of turns and all their spellings.

A turn is ``(axis, layers, q)`` as in :mod:`exact.puzzles.cube.geometry`. Spellings:

* ``R U F`` (and ``L D B``): the outer layer; ``'`` anticlockwise, ``2`` half turn (``2'`` too).
* ``2R``, ``3R``, ...: the single k-th layer counted from R, turned like R.
* ``M`` (like L), ``E`` (like D), ``S`` (like F): the middle layer of an odd cube.
* ``Rw`` (= ``2Rw``, and lowercase ``r``): the outer two layers; ``3Rw``: the outer three; and so on.
* ``x`` (like R), ``y`` (like U), ``z`` (like F): the whole cube (also ``nRw`` for size n).

The first spelling returned by :func:`spellings` is the canonical name used in move tables.
"""

from __future__ import annotations

from functools import cache

from exact.errors import NotationError

Turn = tuple[int, int, int]
"""``(axis, layers bitmask, q)`` with q in 1..3 clockwise quarter turns seen from R/U/F."""

POS_FACE = ("R", "U", "F")
NEG_FACE = ("L", "D", "B")
SLICE = (("M", True), ("E", True), ("S", False))  # name, turns like the negative face
ROTATION = ("x", "y", "z")


def _suffixes(q: int) -> list[str]:
    return {1: [""], 2: ["2", "2'"], 3: ["'"]}[q % 4]


def _with(base: str, q: int) -> list[str]:
    return [base + s for s in _suffixes(q)]


def spellings(n: int, turn: Turn) -> list[str]:
    """Every accepted spelling of ``turn`` on an ``n`` cube, the canonical one first.

    Returns an empty list for layer sets that have no name (e.g. R and L together).
    """
    axis, layers, q = turn
    q %= 4
    if q == 0:
        return []
    full = (1 << n) - 1
    out: list[str] = []
    if layers == full:
        out += _with(ROTATION[axis], q)
        wide = [f"{n}{{}}w"] + (["{}w"] if n == 2 else [])
        for w in wide:
            out += _with(w.format(POS_FACE[axis]), q) + _with(w.format(NEG_FACE[axis]), 4 - q)
        if n == 2:
            out += _with(POS_FACE[axis].lower(), q) + _with(NEG_FACE[axis].lower(), 4 - q)
        return out
    bits = [k for k in range(n) if layers >> k & 1]
    contiguous = bits == list(range(bits[0], bits[-1] + 1))
    if not contiguous:
        return []
    depth = len(bits)
    if bits[-1] == n - 1:  # anchored at the positive face
        names = (
            [POS_FACE[axis]]
            if depth == 1
            else (
                [f"{POS_FACE[axis]}w", f"2{POS_FACE[axis]}w", POS_FACE[axis].lower()]
                if depth == 2
                else [f"{depth}{POS_FACE[axis]}w"]
            )
        )
        for name in names:
            out += _with(name, q)
    if bits[0] == 0:  # anchored at the negative face
        names = (
            [NEG_FACE[axis]]
            if depth == 1
            else (
                [f"{NEG_FACE[axis]}w", f"2{NEG_FACE[axis]}w", NEG_FACE[axis].lower()]
                if depth == 2
                else [f"{depth}{NEG_FACE[axis]}w"]
            )
        )
        for name in names:
            out += _with(name, 4 - q)
    if depth == 1 and 0 < bits[0] < n - 1:
        k = bits[0]
        from_pos, from_neg = n - k, k + 1
        slice_names: list[str] = []
        if n % 2 == 1 and k == n // 2:
            name, like_neg = SLICE[axis]
            slice_names = _with(name, 4 - q if like_neg else q)
        pos_names = _with(f"{from_pos}{POS_FACE[axis]}", q)
        neg_names = _with(f"{from_neg}{NEG_FACE[axis]}", 4 - q)
        out += slice_names + (pos_names + neg_names if from_pos <= from_neg else neg_names + pos_names)
    return out


def canonical_name(n: int, turn: Turn) -> str:
    """The canonical name of ``turn`` (raises if it has none)."""
    names = spellings(n, turn)
    if not names:
        raise NotationError(f"turn {turn} of a {n}x{n}x{n} cube has no name in standard notation")
    return names[0]


@cache
def all_spellings(n: int) -> dict[str, Turn]:
    """Map from every spelling of every nameable turn of an ``n`` cube to the turn."""
    sets = set()
    full = (1 << n) - 1
    for depth in range(1, n + 1):
        sets.add(full >> (n - depth) << (n - depth) & full)  # top ``depth`` layers
        sets.add((1 << depth) - 1)  # bottom ``depth`` layers
    sets.update(1 << k for k in range(n))
    out: dict[str, Turn] = {}
    for axis in range(3):
        for layers in sorted(sets):
            for q in (1, 2, 3):
                for s in spellings(n, (axis, layers, q)):
                    out.setdefault(s, (axis, layers, q))
    return out


def parse_turn(token: str, n: int) -> Turn:
    """Read one move token for an ``n`` cube.

    Raises:
        NotationError: quoting the token when it names no turn of this cube size.
    """
    turn = all_spellings(n).get(token)
    if turn is None:
        raise NotationError(
            f"{token!r} is not a move of the {n}x{n}x{n} cube in standard notation (e.g. R, U', F2, Rw, 2R, M, x)"
        )
    return turn
