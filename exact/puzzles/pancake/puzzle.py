"""The pancake puzzle in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

import re

import numpy as np

from exact.errors import StateError
from exact.options import flag
from exact.puzzle import Puzzle
from exact.puzzles.pancake.heuristic import GapHeuristic
from exact.puzzles.pancake.moves import BURNT_PANCAKE_NUMBERS, PANCAKE_NUMBERS, check_size, pancake_moves
from exact.ranking import PermutationSpace

TABLED = 9
"""The most unburnt pancakes that get a complete distance table (``9! = 362,880`` states)."""


class PancakePuzzle(Puzzle):
    """A stack of ``n`` pancakes (conventions in :mod:`exact.puzzles.pancake`).

    Args:
        n: Number of pancakes (default 10).
        burnt: Burnt pancakes (each has a side that must end down).

    Attributes:
        n: Number of pancakes.
        burnt: Whether they are burnt.
    """

    def __init__(self, n: int = 10, burnt: bool = False) -> None:
        self.burnt = flag(burnt, "pancake option burnt")
        self.n = check_size(n, self.burnt)
        p = 2 * self.n if self.burnt else self.n
        name = f"{'burnt-' if self.burnt else ''}pancake{self.n}"
        super().__init__(name, pancake_moves(self.n, self.burnt), np.arange(p), num_labels=p)

    def __repr__(self) -> str:
        return f"PancakePuzzle({self.n}, burnt={self.burnt})"

    @property
    def diameter(self) -> int:
        """The pancake number where it is known (:data:`PANCAKE_NUMBERS`,
        :data:`BURNT_PANCAKE_NUMBERS`), else the proven upper bound: ``18n/11`` for unburnt stacks
        (Chitturi et al. 2009), ``2n - 2`` for burnt ones (Cohen and Blum 1995)."""
        known = BURNT_PANCAKE_NUMBERS if self.burnt else PANCAKE_NUMBERS
        if self.n <= len(known):
            return known[self.n - 1]
        return 2 * self.n - 2 if self.burnt else (18 * self.n) // 11

    def heuristics(self) -> dict:
        """The gap heuristic for unburnt stacks (:class:`~exact.puzzles.pancake.heuristic.GapHeuristic`)."""
        return {} if self.burnt else {"gap": lambda: GapHeuristic(self.n)}

    def ranked_space(self):
        """Unburnt stacks of at most :data:`TABLED` pancakes: every permutation, ranked by its
        Lehmer code (``n!`` states), for a complete distance table. ``None`` otherwise."""
        return PermutationSpace(self.n) if not self.burnt and self.n <= TABLED else None

    def stack(self, state: np.ndarray) -> np.ndarray:
        """int64 ``(n,)``: the pancakes from the top, sizes 1..n, negative when burnt side up."""
        s = self.states(state)[0].astype(np.int64)
        if not self.burnt:
            return s + 1
        up = s[0::2]
        return np.where(up % 2 == 0, up // 2 + 1, -(up // 2 + 1))

    def from_stack(self, stack, text: str | None = None) -> np.ndarray:
        """The state of a stack (sizes from the top, ``-`` burnt side up), checked.

        Raises:
            StateError: not each size ``1..n`` exactly once, or a sign on unburnt pancakes.
        """
        shown = text if text is not None else " ".join(str(int(v)) for v in stack)
        v = np.asarray(stack, dtype=np.int64).ravel()
        sizes = np.abs(v)
        if v.size != self.n or not np.array_equal(np.sort(sizes), np.arange(1, self.n + 1)):
            raise StateError(f"{self.name}: a stack lists each pancake 1..{self.n} once from the top, got {shown!r}")
        if not self.burnt:
            if (v < 0).any():
                raise StateError(f"{self.name}: '-' marks a burnt side, but these pancakes are not burnt: {shown!r}")
            return (v - 1).astype(np.uint8)
        up = 2 * (sizes - 1) + (v < 0)
        state = np.empty(2 * self.n, dtype=np.uint8)
        state[0::2] = up
        state[1::2] = up ^ 1  # the other face of the same pancake
        return state

    def format_state(self, state: np.ndarray) -> str:
        """The stack from the top, e.g. ``"3 -1 2"``."""
        return " ".join(str(int(v)) for v in self.stack(state))

    def parse_state(self, text: str) -> np.ndarray:
        """Read a stack written by :meth:`format_state` (whitespace or commas between)."""
        if not isinstance(text, str):
            raise StateError(f"{self.name}: a stack is given as text, e.g. '3 1 2'; got {type(text).__name__}")
        tokens = text.replace(",", " ").split()
        values = []
        for t in tokens:
            if not re.fullmatch(r"[+-]?[0-9]+", t):
                shown = text if len(text) <= 200 else text[:197] + "..."
                raise StateError(
                    f"{self.name}: {t[:40]!r} is not a pancake size (1..{self.n}, '-' burnt side up) in {shown!r}"
                )
            values.append(int(t))
        if any(t.startswith("-0") or t == "0" for t in tokens):
            raise StateError(f"{self.name}: pancakes are numbered from 1, got {text!r}")
        return self.from_stack(values, text)

    def random_states(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """uint8 ``(n, P)``: stacks uniform over all ``n!`` (burnt: ``n! 2^n``) orders; every
        stack can be sorted."""
        out = np.empty((n, self.num_positions), dtype=np.uint8)
        for b in range(n):
            order = rng.permutation(self.n) + 1
            if self.burnt:
                order = order * np.where(rng.random(self.n) < 0.5, -1, 1)
            out[b] = self.from_stack(order)
        return out
