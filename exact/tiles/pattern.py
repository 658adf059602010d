"""Tile patterns: which tiles a pattern database tracks, and the perfect ranking of its states.

Conventions (sliding tiles, :mod:`exact.puzzles.tiles`): Korf's goal, tile ``v`` home at cell
``v``, the blank (0) at cell 0. A pattern is a tuple of distinct non-blank tiles. Its *table*
is indexed by the cells of the pattern tiles, ranked as a partial permutation
(:func:`exact.ranking.partial_permutation_rank`, items in the pattern's order): ``n!/(n-k)!``
entries. The builder's states add the blank as a last item: ``n!/(n-k-1)!`` states, and
because the blank is the last digit of the rank, the table entry of a state is
``rank // (n - k)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from exact.errors import PuzzleoptError
from exact.ranking import partial_permutation_rank


@dataclass(frozen=True)
class TilePattern:
    """The tiles one additive pattern database tracks.

    Attributes:
        rows, cols: Board shape.
        tiles: Distinct tiles in ``1 .. rows*cols - 1``, in ranking order.
    """

    rows: int
    cols: int
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        if self.rows < 2 or self.cols < 2:
            raise PuzzleoptError(f"tile pattern: board {self.rows}x{self.cols} needs both sides >= 2")
        bad = [t for t in self.tiles if not 1 <= int(t) < n]
        if bad or len(set(self.tiles)) != len(self.tiles) or not self.tiles:
            raise PuzzleoptError(
                f"tile pattern {list(self.tiles)}: give distinct tiles from 1 to {n - 1}"
                " (the blank 0 is never in a pattern)"
            )

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def entries(self) -> int:
        """Table entries: ``n! / (n - k)!``."""
        return math.perm(self.cells, len(self.tiles))

    @property
    def states(self) -> int:
        """Builder states (pattern tiles and the blank): ``n! / (n - k - 1)!``."""
        return math.perm(self.cells, len(self.tiles) + 1)

    @property
    def name(self) -> str:
        return f"tiles{self.cells - 1}-" + ".".join(str(t) for t in self.tiles)

    def positions(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B, k)``: the cell of each pattern tile in each state ``(B, n)``."""
        s = np.atleast_2d(np.asarray(states))
        where = np.argsort(s, axis=1)  # where[b, v] = cell of tile v
        return where[:, list(self.tiles)].astype(np.int64)

    def rank(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)``: the table index of each state ``(B, n)``."""
        return partial_permutation_rank(self.positions(states), self.cells, check=False)


def check_partition(rows: int, cols: int, groups: list[tuple[int, ...]]) -> list[TilePattern]:
    """Patterns of an additive set: disjoint groups (they need not cover every tile)."""
    seen: set[int] = set()
    out = []
    for g in groups:
        p = TilePattern(rows, cols, tuple(int(t) for t in g))
        if seen & set(p.tiles):
            raise PuzzleoptError(f"additive patterns must be disjoint: tiles {sorted(seen & set(p.tiles))} repeat")
        seen |= set(p.tiles)
        out.append(p)
    return out
