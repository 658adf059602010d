"""What the IDA* driver (:func:`exact.ida.solve.deepen`) needs of a resumable search kernel.

A kernel runs the bounded depth-first search of one IDA* iteration for a budget of generated
nodes and returns ``FOUND``, ``EXHAUSTED`` (the iteration is over) or ``PAUSED`` (the budget is
spent; calling it again resumes where it stopped).
"""

from __future__ import annotations

import numpy as np

FOUND, EXHAUSTED, PAUSED = 0, 1, 2


class ResumableSearch:
    """What the IDA* driver (:func:`exact.ida.solve.deepen`) needs of a search: the arrays of the
    depth-first search, ``root_h``, :meth:`restart`, ``run(bound, budget)`` and ``moves()``."""

    depth: np.ndarray
    tried: np.ndarray
    path: np.ndarray
    acc: np.ndarray
    """``acc[0]``: least pruned ``f`` of the iteration; ``acc[1]``: nodes expanded so far."""
    root_h: int
    parity: int | None = None
    """The parity of every solution's length where the puzzle fixes it (the driver then skips
    thresholds of the other parity), else ``None``."""

    def _stack(self, rows: int) -> None:
        self.depth = np.zeros(1, dtype=np.int64)
        self.tried = np.zeros(rows, dtype=np.int64)
        self.path = np.zeros(rows, dtype=np.int64)
        # acc[0]: the least f pruned in this iteration; acc[1]: nodes expanded in the whole run
        self.acc = np.array([np.iinfo(np.int64).max, 0], dtype=np.int64)

    def restart(self) -> None:
        """Begin a new iteration (the search is back at the root after an exhausted one)."""
        self.depth[0] = 0
        self.tried[0] = 0
        self.acc[0] = np.iinfo(np.int64).max
        self.acc[1] += 1  # the root is expanded once per iteration
