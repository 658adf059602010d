"""Ring configurations as integers, and their children, vectorised.

A configuration is coded as ``sum_i pos[i] << (d * i)``: ring ``i`` (label ``i + 1``) on vertex
``pos[i]``; ``d * R`` bits, at most 36 for the puzzles of the paper (``d = 6`` would need 6 rings
or fewer to fit in 63 bits). Children come from per-vertex slide lists built from the move table,
so the search and the table cannot disagree about the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.hypercube.puzzle import HypercubePuzzle


@dataclass(frozen=True)
class RingSpace:
    """The slides of a ``(d, k)`` puzzle with ``R`` rings, ready for batched expansion.

    Attributes:
        d, rings: Dimension and number of rings.
        dest: int64 ``(2^d, J)``: the vertices a ring on ``u`` may slide to, ``-1`` padding.
        mask: int64 ``(2^d, J)``: bit set of the face vertices that must be empty for that slide.
        row: int64 ``(2^d, J)``: the move-table row of the slide.
    """

    d: int
    rings: int
    dest: np.ndarray
    mask: np.ndarray
    row: np.ndarray

    @classmethod
    def of(cls, puzzle: HypercubePuzzle) -> RingSpace:
        d, r = puzzle.d, puzzle.num_rings
        if d * r > 62:
            raise PuzzleoptError(f"{puzzle.name}: {r} rings on a {d}-cube need {d * r} bits; at most 62 are supported")
        t = puzzle.table
        p = t.num_positions
        per: list[list[tuple[int, int, int]]] = [[] for _ in range(p)]
        for m in range(t.num_moves):
            moved = np.flatnonzero(t.perms[m] != np.arange(p))
            u, v = (int(x) for x in moved)
            # the row's guard names every face vertex but the ring's own: that tells u from v
            if u in t.guard_pos[m]:
                u, v = v, u
            per[u].append((v, int(sum(1 << int(g) for g in t.guard_pos[m] if g >= 0)), m))
        width = max(len(x) for x in per)
        dest = np.full((p, width), -1, dtype=np.int64)
        mask = np.zeros((p, width), dtype=np.int64)
        row = np.full((p, width), -1, dtype=np.int64)
        for u, slides in enumerate(per):
            for j, (v, mk, m) in enumerate(slides):
                dest[u, j], mask[u, j], row[u, j] = v, mk, m
        return cls(d, r, dest, mask, row)

    def encode(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)`` codes of states ``(B, 2^d)`` (labels 0 empty, 1..R rings)."""
        s = np.asarray(states)
        code = np.zeros(s.shape[0], dtype=np.int64)
        for i in range(self.rings):
            b, v = np.nonzero(s == i + 1)
            if len(b) != s.shape[0]:
                raise PuzzleoptError(f"every state must hold ring label {i + 1} exactly once")
            code[b] |= v.astype(np.int64) << (self.d * i)
        return code

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """uint8 ``(B, 2^d)`` states of ``codes``."""
        pos = self.positions(codes)
        out = np.zeros((len(codes), 1 << self.d), dtype=np.uint8)
        for i in range(self.rings):
            out[np.arange(len(codes)), pos[:, i]] = i + 1
        return out

    def positions(self, codes: np.ndarray) -> np.ndarray:
        """int64 ``(B, R)``: the vertex of each ring."""
        shifts = self.d * np.arange(self.rings, dtype=np.int64)
        return (np.asarray(codes, dtype=np.int64)[:, None] >> shifts) & ((1 << self.d) - 1)

    def next_layer(self, frontier: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The configurations one slide from ``frontier`` that ``seen`` (sorted) does not hold.

        Returns:
            ``(codes, parent, row)``: the new codes, sorted and distinct, the index in
            ``frontier`` of a parent of each and the row that reaches it from there.
        """
        child, parent, row = self.children(frontier)
        at = np.searchsorted(seen, child)
        new = (at >= len(seen)) | (seen[np.minimum(at, len(seen) - 1)] != child)
        codes, first = np.unique(child[new], return_index=True)
        return codes, parent[new][first], row[new][first]

    def children(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every legal slide from each configuration.

        Returns:
            ``(child, parent, row)``, int64 ``(E,)`` each: the child's code, the index of its
            parent in ``codes`` and the move-table row taken.
        """
        codes = np.asarray(codes, dtype=np.int64)
        pos = self.positions(codes)
        occ = np.bitwise_or.reduce(np.int64(1) << pos, axis=1) if self.rings else np.zeros(len(codes), np.int64)
        out_c, out_p, out_r = [], [], []
        for i in range(self.rings):
            u = pos[:, i]
            dest, mask = self.dest[u], self.mask[u]  # (B, J)
            ok = (dest >= 0) & ((occ[:, None] & mask) == 0)
            b, j = np.nonzero(ok)
            shift = self.d * i
            out_c.append(codes[b] - (u[b] << shift) + (dest[b, j] << shift))
            out_p.append(b)
            out_r.append(self.row[u[b], j])
        if not out_c:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty
        return np.concatenate(out_c), np.concatenate(out_p), np.concatenate(out_r)


def check_start(puzzle: HypercubePuzzle, start: np.ndarray) -> tuple[RingSpace, np.ndarray, int, int]:
    """Check ``start`` against ``puzzle`` (the same rings as its target, one vertex each).

    Returns:
        The puzzle's :class:`RingSpace`, the start as uint8 ``(2^d,)`` and the codes of the start
        and of the target.
    """
    if not isinstance(puzzle, HypercubePuzzle):
        raise PuzzleoptError(f"puzzle must be a HypercubePuzzle, got {type(puzzle).__name__}")
    s = np.asarray(start)
    if s.shape != (puzzle.num_positions,) or sorted(s[s > 0].tolist()) != list(range(1, puzzle.num_rings + 1)):
        raise PuzzleoptError(
            f"{puzzle.name}: the start must put each of the {puzzle.num_rings} rings on one vertex of the "
            f"{puzzle.d}-cube, as the target does (uint8 of shape ({puzzle.num_positions},)); got {s.tolist()}"
        )
    space = RingSpace.of(puzzle)
    s = s.astype(np.uint8)
    return space, s, int(space.encode(s[None])[0]), int(space.encode(puzzle.goal[None])[0])
