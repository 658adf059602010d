"""highspy and OR-Tools in one process: with highspy 1.15 this import pair fails (google/or-tools#5246)."""

from __future__ import annotations

import pytest


def test_highspy_and_ortools_solve_in_one_process() -> None:
    import highspy
    from ortools.sat.python import cp_model

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    x = h.addVariable(lb=0, ub=10)
    y = h.addVariable(lb=0, ub=10)
    h.addConstr(x + y >= 3)
    h.changeColIntegrality(x.index, highspy.HighsVarType.kInteger)
    h.minimize(2 * x + 3 * y)
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert abs(h.getInfo().objective_function_value - 6.0) < 1e-9

    m = cp_model.CpModel()
    a = m.new_int_var(0, 10, "a")
    b = m.new_int_var(0, 10, "b")
    m.add(a + b >= 3)
    m.minimize(2 * a + 3 * b)
    solver = cp_model.CpSolver()
    assert solver.solve(m) == cp_model.OPTIMAL
    assert solver.objective_value == 6


def test_pyomo_highs_through_the_contrib_interface() -> None:
    import pyomo.environ as pyo
    from pyomo.contrib.solver.common.factory import SolverFactory

    m = pyo.ConcreteModel()
    m.x = pyo.Var(within=pyo.NonNegativeIntegers, bounds=(0, 10))
    m.y = pyo.Var(within=pyo.NonNegativeIntegers, bounds=(0, 10))
    m.c = pyo.Constraint(expr=m.x + m.y >= 3)
    m.o = pyo.Objective(expr=2 * m.x + 3 * m.y)
    res = SolverFactory("highs").solve(m, time_limit=10, raise_exception_on_nonoptimal_result=False)
    assert abs(res.incumbent_objective - 6.0) < 1e-9


@pytest.mark.parametrize("first_threads", [2, 1])
def test_highs_solves_with_other_threads_after_a_run(first_threads: int) -> None:
    """HiGHS sizes one thread scheduler per process: a later run asking for another number of
    threads used to fail at once, and the MIP returned its incumbent as feasible, unsolved."""
    import highspy

    from exact import registry, solvers
    from exact.result import Status

    highspy.Highs.resetGlobalScheduler(True)  # whatever ran before, this run sizes the scheduler
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", first_threads)
    x = h.addVariable(lb=0, ub=10)
    h.changeColIntegrality(x.index, highspy.HighsVarType.kInteger)
    h.addConstr(x >= 2.5)
    h.minimize(x)
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    p = registry.get("tiles8")
    start = p.table.apply(p.goal, "R D R D L U")
    for threads in (1, 2, 1):
        res = solvers.solve(p, start, method="mip", horizon=6, split=False, threads=threads)
        assert res.status is Status.OPTIMAL, (threads, res.status, res.extra.get("termination"))
