"""Minimum presses as a MIP (parity by an integer slack), solved by HiGHS through Pyomo.

The model (``N = R * C`` cells, ``S(i)`` the presses that toggle cell ``i``)::

    min  sum_j x[j]
    s.t. sum_{j in S(i)} x[j] = light[i] + 2 k[i]     for every cell i
         x[j] in {0, 1},  k[i] in {0, .., floor((|S(i)| - light[i]) / 2)}

A board outside the column space of the press matrix makes the model infeasible: ``unsolvable``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pyomo.environ as pyo

from exact.mip.adapters import PyomoSolver
from exact.puzzles.lightsout import LightsOutPuzzle, check_shape, lights_to_state
from exact.puzzles.lightsout.board import neighbourhood
from exact.result import SolveResult, Status

# The objective is an integer, but HiGHS stops at its default relative gap (1e-4): with a zero gap
# "optimal" is always a proof.
_DEFAULT_OPTIONS = {"highs": {"mip_rel_gap": 0.0}}


def build_lightsout_mip(rows: int, cols: int | None, lights: np.ndarray) -> pyo.ConcreteModel:
    """The minimum-presses MIP of one board (a pure builder: no solver is called).

    Args:
        rows: Board rows.
        cols: Board columns (``None``: ``rows``).
        lights: 0/1 or bool ``(rows, cols)`` or ``(rows * cols,)``.

    Returns:
        A ``ConcreteModel`` with binaries ``x[r, c]`` (press cell ``(r, c)``), integers
        ``k[r, c]`` (half the toggles beyond the light's parity), one constraint ``parity[r, c]``
        per cell and the objective ``presses`` (their sum, minimised).
    """
    rows, cols = check_shape(rows, cols)
    b = np.asarray(lights).astype(bool).reshape(rows, cols)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    covers = {(r, c): [divmod(j, cols) for j in neighbourhood(r * cols + c, rows, cols)] for r, c in cells}
    m = pyo.ConcreteModel(name=f"lightsout {rows}x{cols}")
    m.cells = pyo.Set(initialize=cells, dimen=2, ordered=True)
    m.x = pyo.Var(m.cells, domain=pyo.Binary)

    def k_bounds(_, r, c):
        return 0, (len(covers[r, c]) - int(b[r, c])) // 2

    m.k = pyo.Var(m.cells, domain=pyo.NonNegativeIntegers, bounds=k_bounds)

    def parity(model, r, c):
        return sum(model.x[q] for q in covers[r, c]) == int(b[r, c]) + 2 * model.k[r, c]

    m.parity = pyo.Constraint(m.cells, rule=parity)
    m.presses = pyo.Objective(expr=sum(m.x[q] for q in cells), sense=pyo.minimize)
    return m


def solve_lightsout_mip(
    puzzle: LightsOutPuzzle,
    lights: np.ndarray,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    verbose: bool = False,
    solver: str = "highs",
    solver_options: dict[str, Any] | None = None,
) -> SolveResult:
    """Minimum presses by the MIP of :func:`build_lightsout_mip`, through Pyomo (HiGHS by default).

    Args:
        puzzle: The board.
        lights: bool ``(rows, cols)`` (see :meth:`LightsOutPuzzle.lights` for other forms).
        time_limit: Seconds for the solver (``None``: no limit).
        threads: Solver threads.
        verbose: Show the solver log.
        solver: A Pyomo solver name (see :class:`exact.mip.solve.PyomoSolver`).
        solver_options: Solver options by name, over the defaults (HiGHS: ``mip_rel_gap = 0``).

    Returns:
        ``optimal`` (the solver proved it), ``feasible`` (the limit hit with a solution; the bound
        is the solver's, rounded up), ``unsolvable`` (the model proven infeasible; with HiGHS,
        confirmed without presolve) or ``limit``.
    """
    t0 = time.perf_counter()
    b = puzzle.lights(lights)
    run = PyomoSolver.named(solver)
    options = {**_DEFAULT_OPTIONS.get(solver, {}), **(solver_options or {})}
    settings = {"method": "mip", "time_limit": time_limit, "threads": threads, "solver_options": options}
    done = SolveResult.recorder(
        puzzle, lights_to_state(b), solver=solver, solver_version=run.version(), settings=settings, since=t0
    )
    model = build_lightsout_mip(puzzle.rows, puzzle.cols, b)
    build_seconds = time.perf_counter() - t0
    kw = {"time_limit": time_limit, "threads": threads, "verbose": verbose}
    outcome = run.solve(model, options=options, **kw)
    if outcome.infeasible and solver == "highs" and options.get("presolve") != "off":
        # "Unsolvable" is final, and HiGHS 1.14's presolve once called a feasible model infeasible
        # (docs/mip.md), so the claim is confirmed on a fresh model without presolve.
        model = build_lightsout_mip(puzzle.rows, puzzle.cols, b)
        outcome = run.solve(model, options={**options, "presolve": "off"}, **kw)
    bound = None if outcome.bound is None else max(0, math.ceil(outcome.bound - 1e-6))
    extra = {
        "build_seconds": build_seconds,
        "solve_seconds": time.perf_counter() - t0 - build_seconds,
        "termination": outcome.termination,
        "model": {"binaries": len(model.x), "integers": len(model.k), "constraints": len(model.parity)},
    }
    if outcome.has_solution:
        moves = [i for i, q in enumerate(model.cells) if round(pyo.value(model.x[q])) == 1]
        if outcome.optimal or (bound is not None and bound >= len(moves)):
            return done(moves, Status.OPTIMAL, len(moves), outcome.nodes, extra)
        return done(moves, Status.FEASIBLE, bound, outcome.nodes, extra)
    if outcome.infeasible:
        # The model is bounded (binaries and bounded integers), so "infeasible or unbounded" is infeasible.
        proof = "the parity model proven infeasible" + (", with and without presolve" if solver == "highs" else "")
        return done([], Status.UNSOLVABLE, None, outcome.nodes, {**extra, "proof": proof})
    return done([], Status.LIMIT, bound, outcome.nodes, extra)
