"""A fuzz of the notebook API, run as its own process by ``tests/test_api_fuzz.py`` (so that a
crash of the interpreter, a SIGSEGV from a kernel that got a state it was never meant to see,
fails that test instead of killing the test runner).

Every call takes odd values of every kind; the only exceptions allowed are the documented ones:
:class:`~exact.errors.PuzzleoptError` (bad input, a ``ValueError``) and ``TypeError`` naming the
argument. Anything else, a hang or a crash fails. ``python tests/fuzz_api.py --examples N``.
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from exact.errors import PuzzleoptError
from puzzleopt import Cube, LightsOut, Pancake, Pyraminx, State, Tiles

ODD = [
    None, 0, 1, -1, 3, 10**9, 2**70, 1.7, math.nan, math.inf, True, False, "", " ", "R", "R U R'", "x", "seed",
    "False", "maybe", "0", "1 2 3", "U" * 54, b"R", [], [0], [1.7], [None], ["R", 1],
    [0] * 9, [0] * 24, [0] * 36, [0] * 54,
    list(range(9)), list(range(8, -1, -1)), [1, 0, 2, 3, 4, 5, 6, 7, 8], np.arange(9), np.zeros(54, dtype=np.uint8),
    np.array([0.5] * 9), {"a": 1}, (1, 2), object(),
]  # fmt: skip
odd = st.sampled_from(ODD) | st.integers(-5, 300) | st.text(max_size=12) | st.lists(st.integers(-2, 60), max_size=60)

# small puzzles only: a fuzzed solve must end within its limit, and never build the 3x3's table
SMALL = [("tiles8", {}), ("cube2", {}), ("pancake", {"n": 5}), ("pancake", {"n": 4, "burnt": True}),
         ("lightsout", {"rows": 3}), ("pyraminx", {"tips": False}), ("pyraminx", {})]  # fmt: skip
METHODS = st.sampled_from(["auto", "ida", "bfs", "cpsat", "mip", "bogus", "bwas", None, 3, ""])


def _allowed(call) -> None:
    try:
        call()
    except (PuzzleoptError, TypeError):
        pass


def _small(i: int) -> State:
    name, opts = SMALL[i % len(SMALL)]
    return State(name, **opts)


@given(st.data())
def fuzz(data) -> None:
    kind = data.draw(st.integers(0, 16))
    a, b = data.draw(odd), data.draw(odd)
    small = data.draw(st.sampled_from(ODD) | st.integers(-2, 4))  # a horizon: a large one is a large model
    s = _small(data.draw(st.integers(0, 20)))
    calls = {
        0: lambda: State(data.draw(st.sampled_from(["cube3", "tiles8", "pyraminx", "pancake", "lightsout", a])), b),
        1: lambda: Cube(a, moves=b),
        2: lambda: Tiles(a),
        3: lambda: LightsOut(a, b),
        4: lambda: Pancake(a, burnt=b),
        5: lambda: Pyraminx(a),
        6: lambda: Cube.from_facelets(a),
        7: lambda: Tiles.from_board(a),
        8: lambda: s.apply(a),
        9: lambda: s.scramble(a, b),
        10: lambda: s.certify(a, method="bfs", time_limit=2),
        11: lambda: s.animate(a, seconds=b),
        12: lambda: s.scramble(4, 1).solve(method=data.draw(METHODS), time_limit=2),
        13: lambda: s.meets(a),
        14: lambda: s.scramble(3, 0).solve(goal=a, time_limit=2),
        15: lambda: s.to_cpsat(small),
        16: lambda: s.to_pyomo(small, formulation=b),
    }
    _allowed(calls[kind])
    # a state built from odd labels must be a state: solving it ends within its limit, or refuses
    try:
        t = State(SMALL[kind % len(SMALL)][0], a, **SMALL[kind % len(SMALL)][1])
    except (PuzzleoptError, TypeError):
        return
    method = data.draw(METHODS)
    more = {"horizon": 3} if method in ("cpsat", "mip") else {}
    _allowed(lambda: t.solve(method=method, time_limit=2, **more))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=200)
    args = p.parse_args(argv)
    # no shrinking: a failing call is shown as drawn (shrinking reruns slow solves many times)
    settings(max_examples=args.examples, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
             phases=[Phase.explicit, Phase.generate], report_multiple_bugs=False)(fuzz)()  # fmt: skip
    print(f"{args.examples} examples: no exception but the documented ones, no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
