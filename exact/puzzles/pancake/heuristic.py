"""The gap heuristic for unburnt pancakes (Helmert 2010, "Landmark heuristics for the pancake
problem").

A *gap* is a pair of neighbouring slots whose pancakes differ in size by more than one; the
plate counts as pancake ``n + 1`` under the bottom slot. A flip changes only the neighbourhood
at the spatula, so it removes at most one gap: the number of gaps is admissible and consistent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit


@njit(cache=True)
def gap_value(state, n):  # pragma: no cover - numba
    """Gaps of one unburnt state (uint8 ``(n,)``, labels 0..n-1; the plate is label n)."""
    gaps = 0
    for i in range(n):
        below = n if i == n - 1 else state[i + 1]
        d = np.int64(state[i]) - np.int64(below)
        if d > 1 or d < -1:
            gaps += 1
    return np.int64(gaps)


@njit(cache=True)
def _gap_kernel(state, args):  # pragma: no cover - numba
    return gap_value(state, args[0].shape[0])


@dataclass(frozen=True)
class GapHeuristic:
    """The gap heuristic of unburnt stacks of ``n`` pancakes (see the module docstring).

    Follows :class:`exact.heuristic.Heuristic`: ``__call__`` on a batch, and ``kernel`` for the
    numba IDA* (:mod:`exact.ida.generic`).
    """

    n: int
    name: str = "gap"
    admissible: bool = True
    consistent: bool = True

    def __call__(self, states: np.ndarray) -> np.ndarray:
        s = np.atleast_2d(np.asarray(states)).astype(np.int64)
        below = np.concatenate([s[:, 1:], np.full((s.shape[0], 1), self.n)], axis=1)
        return (np.abs(s - below) > 1).sum(axis=1).astype(np.int64)

    @property
    def kernel(self) -> tuple:
        return _gap_kernel, (np.zeros(self.n, dtype=np.int64),)
