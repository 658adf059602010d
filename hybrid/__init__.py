"""puzzleopt's hybrid layer: exact solvers certify learned solutions, networks bound MIP horizons.

:func:`verify_solution` certifies one given solution (:mod:`hybrid.certify`), :func:`certify_many`
a set of them matched by id (:mod:`hybrid.many`);
``python -m hybrid.verify`` certifies a file of instances (:mod:`hybrid.verify`);
a network bounds a model's horizon through :func:`exact.horizon.solve_at_method_horizon` with a
learned method (``"bwas"``, ``"beam"``): the one horizon route of every entry point.
"""

from hybrid.certify import Certificate, certifying_methods, choose_method, verify_solution
from hybrid.many import certify_many

__all__ = [
    "Certificate",
    "certify_many",
    "certifying_methods",
    "choose_method",
    "verify_solution",
]
