"""puzzleopt's hybrid layer: exact solvers certify learned solutions, networks bound MIP horizons.

:func:`verify_solution` certifies one given solution (:mod:`hybrid.certify`), :func:`certify_many`
a set of them matched by id (:mod:`hybrid.many`);
``python -m hybrid.verify`` certifies a file of instances (:mod:`hybrid.verify`);
:func:`solve_with_learned_horizon` runs an exact solver with the horizon and incumbent of a
learned solution (:mod:`hybrid.horizon`; torch is imported only when it is called).
"""

from hybrid.certify import Certificate, certifying_methods, choose_method, verify_solution
from hybrid.horizon import solve_with_learned_horizon
from hybrid.many import certify_many

__all__ = [
    "Certificate",
    "certify_many",
    "certifying_methods",
    "choose_method",
    "solve_with_learned_horizon",
    "verify_solution",
]
