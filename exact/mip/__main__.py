"""``python -m exact.mip --size 3 --turns 8``: solve a cube scramble (or, with ``--puzzle``, any
registered puzzle's start) with the time-indexed MIP.

Exit codes: 0 solved, 2 bad input, 3 proven infeasible within T, 4 limit reached without proof.
"""

import sys

from exact import cli
from exact.cli.models import MIP, main_for

main = main_for(
    "python -m exact.mip",
    "Shortest solution of an NxNxN cube (--size) or of any registered puzzle (--puzzle) "
    "by a time-indexed MIP (Pyomo + HiGHS).",
    MIP,
)

if __name__ == "__main__":
    sys.exit(cli.run(main))
