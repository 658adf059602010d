"""Lights Out's three methods, for puzzles that declare ``lights``: GF(2) elimination, a parity
MIP and CP-SAT. Each takes a state, lights or a lights string."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from exact.contract import Limits
from exact.deadline import left
from exact.options import SEED, THREADS, VERBOSE, Option
from exact.result import SolveResult
from exact.solvers import register_method


def _solver(module: str, function: str, doc: str) -> Callable[..., SolveResult]:
    def run(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, threads=1, **options):
        solve = getattr(importlib.import_module(module), function)  # gf2 never imports Pyomo
        return solve(puzzle, puzzle.lights(start), time_limit=left(limits.time), threads=threads, **options)

    run.__doc__ = doc
    return run


_gf2 = _solver(
    "exact.lightsout.gf2", "solve_gf2", "Lights Out by Gaussian elimination over GF(2), the solution coset enumerated."
)
_mip = _solver(
    "exact.lightsout.mip",
    "solve_lightsout_mip",
    "Lights Out as a parity MIP (integer slack) solved by HiGHS via Pyomo.",
)
_cpsat = _solver(
    "exact.lightsout.cpsat", "solve_lightsout_cpsat", "Lights Out with one XOR per cell, presses minimised by CP-SAT."
)


# forwarded to the solve functions, whose defaults these are (tests/test_method_registry.py checks)
_THREADS = THREADS.with_default(1, "the solver's threads")
register_method("lightsout", _gf2, needs="lights", options=(_THREADS, VERBOSE), rank=40)
register_method(
    "lightsout-mip", _mip, needs="lights", rank=41, options=(
        _THREADS, VERBOSE, Option("solver", "text", "highs", "the Pyomo solver (HiGHS; cbc, glpk where installed)"),
        Option("solver_options", "object", None, "options passed to the solver as they are (a dict)"),
    ),
)  # fmt: skip
register_method("lightsout-cpsat", _cpsat, needs="lights", options=(_THREADS, VERBOSE, SEED), rank=42)
