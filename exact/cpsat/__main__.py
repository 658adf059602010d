"""``python -m exact.cpsat --size 3 --turns 10``: solve a cube scramble (or, with ``--puzzle``, any
registered puzzle's start) with CP-SAT.

Exit codes: 0 solved, 2 bad input, 3 proven infeasible within T, 4 limit reached without proof.
"""

import sys

from exact import cli
from exact.cli.models import CPSAT, main_for

main = main_for(
    "python -m exact.cpsat",
    "Shortest solution of an NxNxN cube (--size) or of any registered puzzle (--puzzle) by a CP-SAT model (OR-Tools).",
    CPSAT,
)

if __name__ == "__main__":
    sys.exit(cli.run(main))
