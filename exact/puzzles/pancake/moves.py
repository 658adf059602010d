"""The pancake move table (conventions in :mod:`exact.puzzles.pancake`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.options import flag

PANCAKE_NUMBERS = (0, 1, 3, 4, 5, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19)
"""The diameter of the unburnt stack of ``n`` pancakes, ``n = 1 .. 17`` (OEIS A058986)."""

BURNT_PANCAKE_NUMBERS = (1, 4, 6, 8, 10, 12, 14, 15, 17, 18, 19, 21)
"""The diameter of the burnt stack of ``n`` pancakes, ``n = 1 .. 12`` (OEIS A078941)."""

MAX_PANCAKES = 255


def check_size(n: object, burnt: bool = False) -> int:
    """``n`` as an int, checked: at least 2 pancakes (1 burnt), at most a uint8 label's worth."""
    least = 1 if burnt else 2
    top = MAX_PANCAKES // 2 if burnt else MAX_PANCAKES
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not least <= int(n) <= top:
        raise PuzzleoptError(f"pancakes: n must be an integer from {least} to {top}, got {n!r}")
    return int(n)


def pancake_moves(n: int, burnt: bool = False) -> MoveTable:
    """The flips of a stack of ``n`` pancakes: rows ``f2 .. fn`` (``f1 .. fn`` when burnt).

    Every row is a self-inverse permutation (no guards); ``axis`` is ``None`` (no two flips of
    different sizes commute in general).
    """
    burnt = flag(burnt, "pancake option burnt")
    return _table(check_size(n, burnt), burnt)


@cache
def _table(n: int, burnt: bool) -> MoveTable:
    names, perms = [], []
    for k in range(1 if burnt else 2, n + 1):
        if burnt:
            perm = np.arange(2 * n, dtype=np.int64)
            for i in range(k):
                j = k - 1 - i  # slot i receives the pancake of slot j, turned over
                perm[2 * i], perm[2 * i + 1] = 2 * j + 1, 2 * j
        else:
            perm = np.arange(n, dtype=np.int64)
            perm[:k] = perm[:k][::-1]
        names.append(f"f{k}")
        perms.append(perm)
    return MoveTable(
        names=tuple(names),
        perms=np.stack(perms),
        description=f"{'burnt ' if burnt else ''}pancakes n={n}",
        metadata={"puzzle": "pancake", "n": n, "burnt": burnt},
    )
