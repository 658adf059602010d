"""The MIP's solver adapters: Pyomo solvers by name (:class:`PyomoSolver`), HiGHS runs through
highspy (:func:`quiet_highs`, :func:`run_highs`, from :mod:`exact.mip.highs`) and the re-check of infeasibility claims.

HiGHS keeps one thread scheduler per process, sized by the first run; a later run that asks for
another number of threads fails at once ("the scheduler has already been initialized"), which
Pyomo reports as termination ``unknown``: a whole-model solve with one thread after a run with
two then returned its incumbent as ``feasible`` without solving. Every HiGHS run here starts
with :func:`fresh_scheduler`, and a run HiGHS refuses raises.
"""

from __future__ import annotations

import io
import math
import tempfile
from typing import Any

import pyomo.environ as pyo

from exact.errors import PuzzleoptError
from exact.mip.highs import fresh_scheduler, quiet_highs, run_highs

# Time-limit option names of the legacy Pyomo solver interfaces (seconds).
_LEGACY_TIME_OPTION = {
    "cbc": "seconds",
    "glpk": "tmlim",
    "cplex": "timelimit",
    "gurobi": "TimeLimit",
    "scip": "limits/time",
}
_LEGACY_THREAD_OPTION = {"cbc": "threads", "cplex": "threads", "gurobi": "Threads"}


def confirm_infeasible(model: pyo.ConcreteModel, time_limit: float | None, threads: int, verbose: bool) -> bool:
    """Whether HiGHS without presolve also finds ``model`` infeasible (within the time left)."""
    import highspy

    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/model.mps"
        model.write(path)
        h = highspy.Highs()
        h.setOptionValue("output_flag", verbose)
        h.readModel(path)
    h.setOptionValue("presolve", "off")
    h.setOptionValue("threads", threads)
    h.setOptionValue("mip_lp_solver", "ipm")
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    run_highs(h)
    return h.getModelStatus() == highspy.HighsModelStatus.kInfeasible


class SolverOutcome:
    """How one solver run ended: its termination, whether a solution was loaded into the model,
    whether it is proven optimal or the model proven infeasible, the objective bound and nodes."""

    def __init__(
        self,
        termination: str,
        has_solution: bool,
        optimal: bool,
        infeasible: bool,
        bound: float | None,
        nodes: int | None,
    ) -> None:
        self.termination, self.has_solution, self.optimal = termination, has_solution, optimal
        self.infeasible, self.bound, self.nodes = infeasible, bound, nodes


class PyomoSolver:
    """A Pyomo solver by name: the new interface where it has the solver, else the classic one."""

    def __init__(self, name: str, new: Any | None, legacy: Any | None) -> None:
        self.name, self._new, self._legacy = name, new, legacy

    @classmethod
    def named(cls, name: str) -> PyomoSolver:
        from pyomo.contrib.solver.common.factory import SolverFactory as NewFactory

        if name in NewFactory:
            new = NewFactory(name)
            if new.available():
                return cls(name, new, None)
        from pyomo.common.log import LoggingIntercept

        try:
            # Pyomo logs an unknown name with a traceback; the error below says it in one line.
            with LoggingIntercept(io.StringIO(), "pyomo"):
                legacy = pyo.SolverFactory(name)
                ok = legacy is not None and legacy.available(exception_flag=False)
        except Exception:  # noqa: BLE001 - Pyomo raises many kinds for unknown names
            ok = False
        if not ok:
            raise PuzzleoptError(
                f"solver {name!r} is not known to Pyomo or not installed; use 'highs' (installed "
                "with puzzleopt) or install the solver (e.g. Debian's coinor-cbc for 'cbc')"
            )
        return cls(name, None, legacy)

    def version(self) -> str:
        try:
            v = (self._new or self._legacy).version()
        except Exception:  # noqa: BLE001
            return "unknown"
        return ".".join(str(x) for x in v) if isinstance(v, tuple) else str(v)

    def solve(
        self,
        model: pyo.ConcreteModel,
        *,
        time_limit: float | None,
        threads: int,
        verbose: bool,
        options: dict[str, Any],
    ) -> SolverOutcome:
        if self._new:
            return self._solve_new(model, time_limit, threads, verbose, options)
        return self._solve_legacy(model, time_limit, threads, verbose, options)

    def _solve_new(self, model, time_limit, threads, verbose, options) -> SolverOutcome:
        from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

        if self.name == "highs":
            fresh_scheduler()
        res = self._new.solve(
            model,
            time_limit=time_limit,
            threads=threads,
            tee=verbose,
            raise_exception_on_nonoptimal_result=False,
            load_solutions=False,
            solver_options=dict(options),
        )
        tc = res.termination_condition
        if self.name == "highs" and tc == TerminationCondition.unknown:
            # HiGHS refused to run (an error, not a limit): never report the incumbent as its result
            raise RuntimeError("HiGHS ended without solving (termination unknown); run with verbose to see why")
        has = res.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal)
        if has:
            res.solution_loader.load_vars()
        nodes = getattr(res.extra_info, "mip_node_count", None)
        bound = res.objective_bound if res.objective_bound is not None and math.isfinite(res.objective_bound) else None
        return SolverOutcome(
            tc.name,
            has,
            has and tc == TerminationCondition.convergenceCriteriaSatisfied,
            tc in (TerminationCondition.provenInfeasible, TerminationCondition.infeasibleOrUnbounded),
            bound,
            None if nodes is None or nodes < 0 else int(nodes),
        )

    def _solve_legacy(self, model, time_limit, threads, verbose, options) -> SolverOutcome:
        from pyomo.opt import SolverStatus, TerminationCondition

        opt = self._legacy
        if time_limit is not None and self.name in _LEGACY_TIME_OPTION:
            opt.options[_LEGACY_TIME_OPTION[self.name]] = time_limit
        if self.name in _LEGACY_THREAD_OPTION:
            opt.options[_LEGACY_THREAD_OPTION[self.name]] = threads
        for key, value in options.items():
            opt.options[key] = value
        res = opt.solve(model, tee=verbose, load_solutions=False)
        tc = res.solver.termination_condition
        has = len(res.solution) > 0 and res.solver.status in (
            SolverStatus.ok,
            SolverStatus.aborted,
            SolverStatus.warning,
        )
        if has:
            model.solutions.load_from(res)
        lb = res.problem.lower_bound
        bound = float(lb) if lb is not None and math.isfinite(float(lb)) else None
        optimal = has and tc == TerminationCondition.optimal
        return SolverOutcome(str(tc), has, optimal, tc == TerminationCondition.infeasible, bound, None)


__all__ = ["PyomoSolver", "SolverOutcome", "confirm_infeasible", "fresh_scheduler", "quiet_highs", "run_highs"]
