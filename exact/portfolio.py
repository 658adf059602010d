"""``method="auto"``: a cheap, honest portfolio of the registered methods.

A newcomer's first solve is ``Cube(3).apply("R U R' F").solve()``. Picking "the first method
that proves optimality" started the 1.67 GB optimal-solver table for a 4-move cube, silently,
and overran every limit. ``auto`` now runs, within one limit (set-up included):

0. **direct**: where the first proving method that fits has nothing large to build or load
   (:data:`DIRECT_BYTES`: Lights Out's algebra, the tiles' kernel, a small table), it runs
   first, as before, and the feasible step follows only if it found no solution. Otherwise:
1. **quick**: bidirectional BFS (``bfs``) with a small store (:data:`QUICK_STORED` states) and
   at most :data:`QUICK_SHARE` of the time. It proves short answers at once (the 3x3 scrambles of
   up to 8 quarter turns measured, in 0.1 s), proves unsolvable where a side runs dry, and
   otherwise leaves a proven lower bound (every shorter solution was ruled out);
2. **feasible**, under a time limit only: the first method that applies but proves nothing (a
   learned beam with the shipped network, FreeCell's own search), with :data:`FEASIBLE_SHARE` of
   the time left, so that a hard start still gets a solution within the limit;
3. **exact**: the first other method, in rank order, that proves optimality, is ready and
   whose set-up is cheap (:attr:`~exact.contract.Method.setups`): its tables are on disk or
   build within :data:`BUILD_BYTES`. A larger table is built only when asked for by name
   (``method="cube3-optimal"``) or with ``build_tables=True``; a method passed over is logged.
   With the feasible step's solution of ``L`` moves it runs with ``stop_at=L``: it proves that
   solution optimal or finds a shorter one, with the rest of the time.

The answer is the shortest solution found, ``optimal`` where a step proved a bound that reaches
its length, else ``feasible`` with the best proven bound; ``limit`` with that bound where no
step found one.

Every step's result is replayed (:meth:`SolveResult.build`), and the answer is rebuilt from the
best of them; ``extra["portfolio"]`` lists what each step did.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from exact.contract import Limits, Method, Setup
from exact.deadline import SetupLimit, deadline
from exact.logs import get_logger
from exact.options import Option
from exact.result import SolveResult, Status

log = get_logger(__name__)

QUICK = "bfs"
"""The quick step's method."""

QUICK_STORED = 200_000
"""States the quick BFS may hold (both sides together): about a second on a 3x3, which proves
the scrambles of up to 8 quarter turns it was measured on (2,390 nodes at 8 moves) and bounds the
rest."""

QUICK_SHARE = 0.25
"""The most of a time limit the quick step takes."""

FEASIBLE_SHARE = 0.6
"""The share of the time left that the feasible step gets, under a time limit, before the exact
step proves its solution optimal or finds a shorter one with the rest."""

DIRECT_BYTES = 32 * 2**20
"""An exact method whose tables are on disk and at most this large (or that has none) runs first,
before any quick BFS: it proves short and long answers alike at once (Lights Out's algebra, the
tiles' kernel, a small stored table)."""

MIN_STEP = 0.05
"""Seconds left below which no further step starts."""

BUILD_BYTES = 100 * 2**20
"""The largest table ``auto`` builds unasked (100 MiB)."""

OPTIONS = (
    Option("build_tables", "flag", False, "build a method's large tables (over 100 MB) when they are not on disk"),
)
"""``auto``'s own options, besides those it hands on to the methods that take them."""


def auto_method(candidates: list[Method]) -> Method:
    """The ``auto`` method over ``candidates`` (the methods that apply, in rank order)."""
    # each option once, as the first (best ranked) method that takes it declares it
    takes = tuple({o.name: o for m in reversed(candidates) for o in m.options}.values())

    def run(puzzle: Any, start: Any, limits: Limits, **options: Any) -> SolveResult:
        return run_portfolio(puzzle, start, limits, candidates, **options)

    return Method(
        "auto", applies=lambda p: True, proves=True, run=run, options=(*OPTIONS, *takes), goals=True,
        stored=any(m.stored for m in candidates), rank=0,
        description="A cheap portfolio: quick BFS, then the first proving method whose tables are cheap, then a "
        "feasible method; optimal only with a proof.",
    )  # fmt: skip


def run_portfolio(
    puzzle: Any, start: Any, limits: Limits, candidates: list[Method], *, stop_at: int | None = None,
    pdb_dir: Any = None, progress: bool = False, build_tables: bool = False, **options: Any,
) -> SolveResult:  # fmt: skip
    """The portfolio of the module docstring on one checked start."""
    since = time.perf_counter()
    common = {"stop_at": stop_at, "pdb_dir": pdb_dir, "progress": progress}
    steps: list[tuple[str, SolveResult]] = []
    quick = next((m for m in candidates if m.name == QUICK), None)
    feasible = next((m for m in candidates if not m.proves), None)
    exact = exact_step(candidates, puzzle, options, pdb_dir, build_tables)
    if exact.method is not None and exact.setup.stored and exact.setup.nbytes <= DIRECT_BYTES:
        # nothing to build and little to load (Lights Out's algebra, the tiles' kernel): it first
        r = _run_exact(exact, puzzle, start, _left(limits, since), common, options)
        steps += [("exact", r)] if r is not None else []
        if r is None or (not _settled(r, stop_at) and not r.status.has_solution):
            _feasible(feasible, puzzle, start, limits, since, steps, common, options, pdb_dir, share=1.0)
        return _answer(puzzle, start, steps, since)
    if quick is not None:
        budget = _share(limits, since, QUICK_SHARE)
        stored = min(QUICK_STORED, limits.stored or QUICK_STORED)
        given = _for(quick, common, options)
        depth = {"max_depth": min(stop_at - 1, given.get("max_depth", stop_at))} if stop_at else {}
        r = _run(quick, puzzle, start, Limits(time=budget, stored=stored), **{**given, **depth})
        steps.append(("quick", r))
        if _settled(r, stop_at):
            return _answer(puzzle, start, steps, since)
    found = _feasible(feasible, puzzle, start, limits, since, steps, common, options, pdb_dir, FEASIBLE_SHARE)
    if limits.time is None or (_left(limits, since).time or 0) > MIN_STEP:
        goal = {**common, "stop_at": stop_at or found}  # with a solution: prove it, or find a shorter one
        r = _run_exact(exact, puzzle, start, _left(limits, since), goal, options)
        steps += [("exact", r)] if r is not None else []
    return _answer(puzzle, start, steps, since)


def _feasible(
    method: Method | None, puzzle: Any, start: Any, limits: Limits, since: float, steps: list, common: dict,
    options: Mapping[str, Any], pdb_dir: Any, share: float,
) -> int | None:  # fmt: skip
    """The feasible step, under a time limit and where its set-up fits: the length it found."""
    if method is None or common.get("stop_at") or limits.time is None:
        return None
    budget = _left(limits, since, share)
    if (budget.time or 0) <= MIN_STEP or not _fits(method, puzzle, options, pdb_dir, budget):
        return None
    r = _run(method, puzzle, start, budget, **_for(method, common, options))
    steps.append(("feasible", r))
    return r.length if r.status.has_solution else None


def _run_exact(
    exact: Exact, puzzle: Any, start: Any, limits: Limits, common: dict, options: Mapping[str, Any]
) -> SolveResult | None:
    """The exact step (``None`` where there is none), said first where it passes over large
    tables or builds one."""
    for name, nbytes in exact.passed:
        log.info(
            "auto passes over %s: its table (%s) is not built and is larger than %s; name the method, or pass "
            "build_tables=True, to build it", name, _size(nbytes), _size(BUILD_BYTES),
        )  # fmt: skip
    if exact.method is None:
        return None
    if limits.time is not None and exact.setup.seconds > limits.time:
        log.info(
            "auto skips %s: its set-up (%s) takes about %.3g s, more than the %.3g s left", exact.method.name,
            exact.setup.words, exact.setup.seconds, limits.time,
        )  # fmt: skip
        return None
    if not exact.setup.stored:
        log.info(
            "auto: %s builds its table first (%s%s)", exact.method.name, _size(exact.setup.nbytes), _eta(exact.setup)
        )
    return _run(exact.method, puzzle, start, limits, **{**exact.setup.options, **_for(exact.method, common, options)})


def _run(method: Method, puzzle: Any, start: Any, limits: Limits, **options: Any) -> SolveResult:
    """One step, within its share of the time: a set-up that does not fit in it (a table, a
    network) ends the step as ``limit``, and the portfolio goes on with the others."""
    t0 = time.perf_counter()
    with deadline(limits.time):
        try:
            return method.run(puzzle, start, limits, **options)
        except SetupLimit as exc:
            return SolveResult.build(
                puzzle, start, [], Status.LIMIT, seconds=time.perf_counter() - t0, solver=method.name,
                extra={"limit": f"its set-up ({exc}) did not fit in its {limits.time:.2f} s"},
            )  # fmt: skip


def _fits(method: Method, puzzle: Any, options: Mapping[str, Any], pdb_dir: Any, limits: Limits) -> bool:
    """Whether ``method``'s set-up (the seconds it declares: a network to load) fits in ``limits``."""
    setups = method.setups(puzzle, dict(options), pdb_dir) if method.setups is not None else []
    need = min((s.seconds for s in setups), default=0.0)
    if limits.time is not None and need > limits.time:
        log.info("auto skips %s: its set-up takes about %.0f s, more than the %.1f s it would have", method.name,
                 need, limits.time)  # fmt: skip
        return False
    return True


@dataclass(frozen=True)
class Exact:
    """The exact step: its method (``None``: every proving method was passed over), the way it
    runs (:class:`~exact.contract.Setup`), and the methods ranked before it that were passed over
    for their large tables (name, bytes)."""

    method: Method | None
    setup: Setup
    passed: tuple[tuple[str, int], ...]


def exact_step(candidates: list[Method], puzzle: Any, options: Mapping[str, Any], pdb_dir: Any, build: bool) -> Exact:
    """The exact step's method and the set-up it runs with: of the proving methods whose set-up
    is stored or cheap, the best ranked (a set-up's own :attr:`~exact.contract.Setup.rank`, where
    it has one, in place of its method's; the first in candidate order among equals)."""
    passed: list[tuple[str, int]] = []
    ready: list[tuple[int, int, Method, Setup]] = []
    for m in candidates:
        if not m.proves or m.name == QUICK or not m.ready(dict(options)):
            continue
        # no set-up declared, or none for these options (a declared heuristic): nothing to build
        variants = (m.setups(puzzle, dict(options), pdb_dir) if m.setups is not None else []) or [Setup({}, 0, True)]
        chosen = next((v for v in variants if v.stored), None) or next(
            (v for v in variants if build or v.nbytes <= BUILD_BYTES), None
        )
        if chosen is None:
            passed.append((m.name, min(v.nbytes for v in variants)))
            continue
        ready.append((m.rank if chosen.rank is None else chosen.rank, len(ready), m, chosen))
    if not ready:
        return Exact(None, Setup({}, 0, True), tuple(passed))
    rank, _, method, setup = min(ready, key=lambda r: r[:2])
    return Exact(method, setup, tuple(p for p in passed if _rank(candidates, p[0]) < rank))


def _rank(candidates: list[Method], name: str) -> int:
    return next(m.rank for m in candidates if m.name == name)


def _for(method: Method, common: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The options ``method`` takes: the common ones, and those of ``options`` it names."""
    return {**common, **{k: v for k, v in options.items() if k in method.option_names}}


def _share(limits: Limits, since: float, share: float) -> float | None:
    if limits.time is None:
        return None
    return max(share * limits.time - (time.perf_counter() - since), 1e-3)


def _left(limits: Limits, since: float, share: float = 1.0) -> Limits:
    """``limits`` with ``share`` of the time that is left (at least a millisecond, so that a
    method sees a limit and not none)."""
    if limits.time is None:
        return limits
    left = limits.time - (time.perf_counter() - since)
    return Limits(time=max(share * left, 1e-3), nodes=limits.nodes, stored=limits.stored)


def _settled(r: SolveResult, stop_at: int | None) -> bool:
    """Whether ``r`` ends the portfolio: proven optimal or unsolvable, or (certifying a solution
    of ``stop_at`` moves) a solution shorter than it, or a bound that reaches it."""
    if r.status in (Status.OPTIMAL, Status.UNSOLVABLE):
        return True
    if stop_at is None:
        return False
    return (r.length is not None and r.length < stop_at) or (r.lower_bound or 0) >= stop_at


def _answer(puzzle: Any, start: Any, steps: list[tuple[str, SolveResult]], since: float) -> SolveResult:
    """The best of the steps' results, rebuilt (replayed) with the best proven bound."""
    if not steps:  # every step was passed over: no set-up fitted in the limit
        why = "auto started nothing: no method's set-up fitted in the limit (the log says which); allow more time"
        return SolveResult.build(puzzle, start, [], Status.LIMIT, seconds=time.perf_counter() - since, solver="auto",
                                 extra={"limit": why, "portfolio": []})  # fmt: skip
    done = [r for _, r in steps]
    unsolvable = next((r for r in done if r.status is Status.UNSOLVABLE), None)
    solved = [r for r in done if r.status.has_solution and r.length is not None]
    bound = max((r.lower_bound or 0 for r in done if r.status is not Status.UNSOLVABLE), default=0)
    best = unsolvable or (min(solved, key=lambda r: r.length or 0) if solved else done[-1])
    extra = {**dict(best.extra), "portfolio": [_step(name, r) for name, r in steps]}
    if best is unsolvable or not solved:
        status = best.status
        rows: list[int] = []
        bound_out = best.lower_bound if best is unsolvable else (bound or best.lower_bound)
    else:
        rows = puzzle.table.parse(" ".join(best.moves), start) if best.moves else []
        bound_out = min(max(bound, best.lower_bound or 0), len(rows))
        status = Status.OPTIMAL if bound_out == len(rows) else Status.FEASIBLE
    return SolveResult.build(
        puzzle, start, rows, status, lower_bound=bound_out, nodes=sum(r.nodes or 0 for r in done) or best.nodes,
        seconds=time.perf_counter() - since, solver=best.solver, solver_version=best.solver_version,
        settings=best.settings, extra=extra,
    )  # fmt: skip


def _step(name: str, r: SolveResult) -> dict[str, Any]:
    return {"step": name, "solver": r.solver, "status": r.status.value, "length": r.length,
            "lower_bound": r.lower_bound, "seconds": round(r.seconds, 3)}  # fmt: skip


def _size(nbytes: int) -> str:
    return f"{nbytes / 2**30:.2f} GB" if nbytes >= 2**30 else f"{nbytes / 2**20:.0f} MB"


def _eta(setup: Setup) -> str:
    return f", about {setup.seconds:.0f} s on 2 cores" if setup.seconds else ""
