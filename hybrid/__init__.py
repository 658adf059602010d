"""puzzleopt's hybrid layer: exact solvers certify learned solutions, networks bound MIP horizons.

:func:`verify_solution` certifies one given solution (:mod:`hybrid.certify`);
``python -m hybrid.verify`` certifies a file of instances (:mod:`hybrid.verify`).
"""

from hybrid.certify import METHODS, Budget, choose_method, verify_solution

__all__ = ["METHODS", "Budget", "choose_method", "verify_solution"]
