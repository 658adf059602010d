"""puzzleopt's hybrid layer: exact solvers certify learned solutions, networks bound MIP horizons.

:func:`verify_solution` certifies one given solution (:mod:`hybrid.verify`).
"""

from hybrid.verify import METHODS, Budget, choose_method, verify_solution

__all__ = ["METHODS", "Budget", "choose_method", "verify_solution"]
