"""GA-FreeCell: Heineman's staged deepening (HSD) guided by heuristics evolved with a genetic algorithm.

After Elyasaf, Hauptman & Sipper, "GA-FreeCell: Evolving Solvers for the Game of FreeCell"
(GECCO 2011). Imports numpy and numba only (no torch). Conventions:

* Boards, moves and notation are :mod:`exact.puzzles.freecell`'s; a search works on a compact
  uint8 copy of the board (:mod:`exact.puzzles.freecell.kernels`) whose move generator and safe moves
  home are those of the board model (checked in the tests), with sequence moves.
* :mod:`learned.freecell.heuristics`: the nine features, each in [0, 1] and oriented as a cost
  (0 on the solved board); a heuristic is a weight vector over them. ``HSDH`` alone is the baseline.
* :func:`solve_hsd` (:mod:`learned.freecell.hsd`): staged deepening with a weight vector; returns
  a :class:`~exact.result.SolveResult` built by ``SolveResult.recorder`` (replayed), ``feasible``
  or ``limit`` (never ``unsolvable``: HSD proves nothing).
* :mod:`learned.freecell.ga`: the coevolutionary GA (seeded, resumable from a JSON checkpoint).
* :mod:`learned.freecell.weights`: weights files (JSON, versioned, checked on load); the shipped
  evolved weights are ``learned/freecell/weights/ga.json``.
* :mod:`learned.freecell.deals`: the fixed split of deals 1..32,000 into 1,000 test deals and
  1,000 training deals.
* ``python -m learned.freecell solve | evolve | bench`` (:mod:`learned.freecell.__main__`).
"""

from learned.freecell.deals import parse_deals, test_deals, training_deals
from learned.freecell.ga import GASettings, evolve
from learned.freecell.heuristics import HSDH, NAMES, features, heuristic
from learned.freecell.hsd import search_hsd, solve_hsd
from learned.freecell.weights import Weights, WeightsError, hsdh, load, save, shipped

__all__ = [
    "HSDH",
    "NAMES",
    "GASettings",
    "Weights",
    "WeightsError",
    "evolve",
    "features",
    "heuristic",
    "hsdh",
    "load",
    "parse_deals",
    "save",
    "search_hsd",
    "shipped",
    "solve_hsd",
    "test_deals",
    "training_deals",
]
