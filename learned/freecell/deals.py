"""The fixed split of Microsoft's deals 1..32,000 into test and training deals.

One permutation of 1..32,000 drawn from ``numpy.random.default_rng(SPLIT_SEED)``: its first 1,000
deals are the test deals (the benchmark's; never trained on), the next 1,000 the training deals
(GA-FreeCell, like the paper, trains on 1,000 deals). Deal 11982, the one deal of the 32,000 that
has no solution, is left out of the training deals (it teaches nothing); it is in neither set as drawn.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError

SPLIT_SEED = 9
NUM_DEALS = 32_000
NUM_TEST = 1_000
NUM_TRAIN = 1_000
UNSOLVABLE = (11982,)


@cache
def _split() -> tuple[tuple[int, ...], tuple[int, ...]]:
    perm = np.random.default_rng(SPLIT_SEED).permutation(NUM_DEALS) + 1
    test = tuple(sorted(int(d) for d in perm[:NUM_TEST]))
    rest = [int(d) for d in perm[NUM_TEST:] if int(d) not in UNSOLVABLE]
    train = tuple(sorted(rest[:NUM_TRAIN]))
    return test, train


def test_deals() -> tuple[int, ...]:
    """The 1,000 test deals, ascending."""
    return _split()[0]


def training_deals() -> tuple[int, ...]:
    """The 1,000 training deals, ascending (none of them a test deal)."""
    return _split()[1]


def parse_deals(spec: str) -> list[int]:
    """Deal numbers from a command line value: ``"test"``, ``"train"``, or ranges and numbers
    separated by commas (``"1-1000"``, ``"1,617,11982"``, ``"1-10,20-30"``).

    Raises:
        PuzzleoptError: naming the part that cannot be read.
    """
    spec = spec.strip()
    if spec == "test":
        return list(test_deals())
    if spec in ("train", "training"):
        return list(training_deals())
    out: list[int] = []
    for part in spec.split(","):
        lo, dash, hi = part.strip().partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise PuzzleoptError(
                f"--deals {spec!r}: cannot read {part.strip()!r}; give deal numbers and ranges separated by commas, "
                "e.g. '1-1000' or '1,617,11982', or 'test' / 'train' for the fixed split"
            ) from None
        if not 1 <= a <= b:
            raise PuzzleoptError(f"--deals {spec!r}: the range {part.strip()!r} is empty or below 1")
        out.extend(range(a, b + 1))
    return out
