"""Cube pattern databases (Korf 1997): corners, and two sets of six edges, for the 3x3x3.

Pieces are tracked piece by piece: ``pos[i]`` is the slot of piece ``i`` and ``ori[i]`` its twist
(corners: 0..2, edges: 0..1), in the slot and piece order of :mod:`exact.puzzles.cube.cubies`
(kociemba's). A move sends the piece in slot ``s`` to slot ``to[m, s]`` and adds
``twist[m, s]`` to its orientation; both are read off the facelet move table
(:func:`cubie_moves`), so the same code serves QTM and HTM.

A pattern is a set of ``k`` pieces of one kind. Its rank is the rank of their slots as a partial
permutation, times ``base ** free``, plus their orientations as digits (``free = k - 1`` for all
eight corners, whose last twist follows from the others; ``k`` otherwise). Tables: the corners
``8! * 3^7 = 88,179,840`` entries, six edges ``12!/6! * 2^6 = 42,577,920``, each 4 bits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.cubies import cubie_moves
from exact.ranking import partial_rank_row, partial_unrank_row


@dataclass(frozen=True)
class CubePattern:
    """``pieces`` of one kind (``"corners"`` or ``"edges"``) under one metric."""

    kind: str
    pieces: tuple[int, ...]
    metric: str

    @property
    def slots(self) -> int:
        return 8 if self.kind == "corners" else 12

    @property
    def base(self) -> int:
        return 3 if self.kind == "corners" else 2

    @property
    def free(self) -> int:
        return len(self.pieces) - 1 if len(self.pieces) == self.slots else len(self.pieces)

    @property
    def entries(self) -> int:
        return math.perm(self.slots, len(self.pieces)) * self.base**self.free

    @property
    def name(self) -> str:
        return f"cube3-{self.metric}-{self.kind}-" + ".".join(str(p) for p in self.pieces)


KORF = ((("corners", tuple(range(8)))), ("edges", tuple(range(6))), ("edges", tuple(range(6, 12))))


def korf_patterns(metric: str) -> list[CubePattern]:
    """Korf's three tables: the corners, edges 0-5 and edges 6-11."""
    return [CubePattern(kind, pieces, metric) for kind, pieces in KORF]


@njit(cache=True)
def pattern_rank(pos, ori, pieces, slots, base, free):  # pragma: no cover - numba
    """Rank of the pieces' slots (as :func:`partial_rank_row` would rank them) and orientations.

    Read straight from ``pos`` with no scratch array: this runs once per node of the search.
    """
    k = pieces.shape[0]
    r = np.int64(0)
    for i in range(k):
        xi = pos[pieces[i]]
        d = np.int64(xi)
        for j in range(i):
            if pos[pieces[j]] < xi:
                d -= 1
        r = r * (slots - i) + d
    for i in range(free):
        r = r * base + ori[pieces[i]]
    return r


@njit(cache=True)
def _expand_layer(dist, depth, k, slots, base, free, to, tw):  # pragma: no cover - numba
    """Mark every unseen neighbour of the states at ``depth`` with ``depth + 1``; count them."""
    moves = to.shape[0]
    cells = np.empty(k, np.int64)
    digits = np.empty(k, np.int64)
    chosen = np.empty(k, np.int64)
    ori = np.empty(k, np.int64)
    ncells = np.empty(k, np.int64)
    nori = np.empty(k, np.int64)
    scale = base**free
    found = 0
    for r in range(dist.shape[0]):
        if dist[r] != depth:
            continue
        partial_unrank_row(r // scale, slots, cells, digits, chosen)
        rest = r % scale
        total = 0
        for i in range(free - 1, -1, -1):
            ori[i] = rest % base
            rest //= base
            total += ori[i]
        if free < k:
            ori[k - 1] = (base - total % base) % base
        for m in range(moves):
            for i in range(k):
                ncells[i] = to[m, cells[i]]
                nori[i] = (ori[i] + tw[m, cells[i]]) % base
            nr = partial_rank_row(ncells, slots)
            for i in range(free):
                nr = nr * base + nori[i]
            if dist[nr] == 255:
                dist[nr] = depth + 1
                found += 1
    return found


def build_cube_pattern(pattern: CubePattern, table: MoveTable, advance=None) -> np.ndarray:
    """The distances of ``pattern`` (uint8 ``(pattern.entries,)``) by BFS from the solved cube."""
    cm = cubie_moves(table)
    to, tw = (cm.corner_to, cm.corner_twist) if pattern.kind == "corners" else (cm.edge_to, cm.edge_flip)
    dist = np.full(pattern.entries, 255, dtype=np.uint8)
    k = len(pattern.pieces)
    home = np.array(pattern.pieces, dtype=np.int64)  # piece i home in slot i, untwisted
    dist[int(partial_rank_row(home, pattern.slots)) * pattern.base**pattern.free] = 0
    if advance is not None:
        advance(1)
    depth = 0
    while True:
        found = _expand_layer(dist, depth, k, pattern.slots, pattern.base, pattern.free, to, tw)
        if advance is not None:
            advance(int(found))
        if not found:
            break
        depth += 1
    if (dist == 255).any():  # pragma: no cover - every placement is reachable
        raise PuzzleoptError(f"{pattern.name}: some placements were never reached")
    return dist


def cube_walk_violation(
    pattern: CubePattern,
    values_at: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    walks: int = 256,
    steps: int = 20,
) -> str | None:
    """Whether a cube pattern table (``values_at(indices)``, e.g. :meth:`Table.values
    <exact.pdb.store.Table.values>`) gives a state more than a known path costs.

    Random walks of face turns (the pattern's metric) from the solved cube are played in cubie
    space; after ``k`` turns the table's value must be at most ``k`` (the walk played backwards is
    a path of ``k`` moves), and 0 when solved. A true table always passes; one whose values were
    scaled or shifted (with its sha256 recomputed) fails within a few steps.

    Returns:
        ``None``, or one line saying which value broke the bound.
    """
    from exact.moves import cube_moves

    cm = cubie_moves(cube_moves(3, "faces", pattern.metric))
    to, tw = (cm.corner_to, cm.corner_twist) if pattern.kind == "corners" else (cm.edge_to, cm.edge_flip)
    pieces = np.array(pattern.pieces, dtype=np.int64)

    def values(pos: np.ndarray, ori: np.ndarray) -> np.ndarray:
        args = (pieces, pattern.slots, pattern.base, pattern.free)
        return values_at(np.array([pattern_rank(p, o, *args) for p, o in zip(pos, ori)])).astype(np.int64)

    pos = np.tile(np.arange(pattern.slots, dtype=np.int64), (walks, 1))
    ori = np.zeros_like(pos)
    if (start := int(values(pos[:1], ori[:1])[0])) != 0:
        return f"pattern table {pattern.name}: the solved cube has value {start}, not 0"
    for step in range(1, steps + 1):
        m = rng.integers(0, to.shape[0], size=walks)[:, None]
        ori = (ori + tw[m, pos]) % pattern.base
        pos = to[m, pos]
        v = values(pos, ori)
        if (over := np.flatnonzero(v > step)).size:
            return (
                f"pattern table {pattern.name}: value {int(v[over[0]])} for a cube {step} turns from solved; "
                "the table is damaged or forged"
            )
    return None
