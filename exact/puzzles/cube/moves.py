"""Move tables of the NxNxN cube for the three move sets and two metrics."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.geometry import turn_perm
from exact.puzzles.cube.notation import Turn, all_spellings, canonical_name

MOVE_SETS = ("faces", "layers", "wide")
METRICS = ("qtm", "htm")
MAX_N = 40

# Face order of the tables: U R F D L B, as (axis, layer index from the negative side is 0 or n-1).
_FACE_TURNS = ((1, True), (0, True), (2, True), (1, False), (0, False), (2, False))


def check_size(n: object) -> int:
    """Validate a cube size (an int from 2 to :data:`MAX_N`)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 2 <= int(n) <= MAX_N:
        raise PuzzleoptError(f"cube size n={n!r} is not supported: use an integer from 2 to {MAX_N}")
    return int(n)


def _qs(metric: str, negative: bool) -> tuple[int, ...]:
    # Clockwise as seen from the named face first, then the half turn, then anticlockwise.
    order = (1, 2, 3) if metric == "htm" else (1, 3)
    return tuple((4 - q) % 4 if negative else q for q in order)


def _turns(n: int, moves: str, metric: str) -> list[Turn]:
    full = (1 << n) - 1
    top = lambda d: full >> (n - d) << (n - d) & full  # noqa: E731
    bottom = lambda d: (1 << d) - 1  # noqa: E731
    turns: list[Turn] = []
    for axis, positive in _FACE_TURNS:
        turns += [(axis, top(1) if positive else bottom(1), q) for q in _qs(metric, not positive)]
    if moves == "layers":
        for axis in (0, 1, 2):
            for k in range(1, n - 1):
                negative = n % 2 == 1 and k == n // 2 and axis in (0, 1) or k < (n - 1) / 2
                turns += [(axis, 1 << k, q) for q in _qs(metric, negative)]
    elif moves == "wide":
        for depth in range(2, n):
            for axis, positive in _FACE_TURNS:
                turns += [(axis, top(depth) if positive else bottom(depth), q) for q in _qs(metric, not positive)]
        for axis in (0, 1, 2):
            turns += [(axis, full, q) for q in _qs(metric, False)]
    return turns


@cache
def cube_moves(n: int, moves: str = "faces", metric: str = "qtm") -> MoveTable:
    """The move table of the ``n x n x n`` cube.

    Args:
        n: Cube size, 2 or more.
        moves: ``"faces"``: the six outer faces (12 moves in QTM, 18 in HTM). ``"layers"``: every
            one of the ``3n`` layers (for n = 3 including the slices M, E, S; 6n moves in QTM).
            ``"wide"``: the faces, the wide turns ``Rw``, ``3Rw``, ... up to ``n-1`` layers, and the
            whole-cube rotations ``x``, ``y``, ``z``.
        metric: ``"qtm"`` (quarter turns only; the default, as everywhere in puzzleopt) or ``"htm"``
            (half turns count as one move).

    Returns:
        A :class:`~exact.movetable.MoveTable` over the ``6*n*n`` facelets (order in
        :mod:`exact.puzzles.cube`), with ``axis`` and ``layer`` set. Aliases accept every other
        spelling of a move in the table, half turns as two quarter turns in QTM, and block turns
        as their single layers where the table has those (``Rw`` = ``R 2R`` in ``"layers"``).

    Raises:
        PuzzleoptError: for an unsupported size, move set or metric.
    """
    n = check_size(n)
    if moves not in MOVE_SETS:
        raise PuzzleoptError(f"cube move set {moves!r} is unknown: use one of {', '.join(MOVE_SETS)}")
    if metric not in METRICS:
        raise PuzzleoptError(f"cube metric {metric!r} is unknown: use 'qtm' (quarter turns) or 'htm' (half turns)")
    turns = _turns(n, moves, metric)
    index = {t: i for i, t in enumerate(turns)}
    names = [canonical_name(n, t) for t in turns]
    perms = np.stack([turn_perm(n, *t) for t in turns])
    aliases: dict[str, tuple[int, ...]] = {}
    for token, (axis, layers, q) in all_spellings(n).items():
        if token in names:
            continue
        seq = _decompose(index, names, axis, layers, q, n)
        if seq is not None:
            aliases[token] = seq
    return MoveTable(
        names=tuple(names),
        perms=perms,
        axis=np.array([t[0] for t in turns]),
        layer=np.array([t[1] for t in turns]),
        aliases=aliases,
        description=f"cube{n} {moves} {metric}",
        metadata={"puzzle": "cube", "n": n, "moves": moves, "metric": metric, "faces": "URFDLB"},
    )


def _decompose(
    index: dict[Turn, int], names: list[str], axis: int, layers: int, q: int, n: int
) -> tuple[int, ...] | None:
    """Rows that make up a turn: itself, or its half turn as two quarters, or layer by layer."""

    def one(layers: int) -> tuple[int, ...] | None:
        if (axis, layers, q) in index:
            return (index[(axis, layers, q)],)
        if q == 2:
            quarters = [index[(axis, layers, k)] for k in (1, 3) if (axis, layers, k) in index]
            if quarters:
                # Prefer the quarter turn named without a prime: "L2" reads as "L L", not "L' L'".
                quarters.sort(key=lambda i: names[i].endswith("'"))
                return (quarters[0],) * 2
        return None

    whole = one(layers)
    if whole is not None:
        return whole
    seq: tuple[int, ...] = ()
    for k in range(n):
        if layers >> k & 1:
            part = one(1 << k)
            if part is None:
                return None
            seq += part
    return seq
