"""Certify a given (learned) solution: prove it optimal, find a shorter one, or say what is known.

A solution of length ``L`` is *optimal* when an exact method proves that nothing shorter than
``L`` exists; *suboptimal* when an exact method finds a shorter solution (the gap is ``L`` minus
the shortest length found, exact when that one is proven optimal); *unknown* when the budget ran
out first (with the lower bound proven so far). The exact method comes from the one registry of
:mod:`exact.solvers` (``auto``: the first registered method that applies and proves optimality;
every method gets ``stop_at=L``). The built-in ones, in order:

* ``table-walk``: a complete distance table of a puzzle's declared ranked space (the table is the
  proof): the 2x2x2 (stored, built once) and sliding-tile boards of at most 2,000,000 positions
  (the 8-puzzle: one BFS per process), :mod:`exact.tablewalk`;
* ``cube3-optimal``: the 3x3x3 with face turns (:mod:`exact.cube.optimal`: the symmetry-reduced
  flip-slice x twist table along three axes, on every thread);
* ``ida*``: IDA* on the sliding tiles (Manhattan distance with linear conflicts on boards of at
  most 9 cells, additive pattern databases with the mirror lookup on the 15- and 24-puzzle);
  these IDA* searches stop as soon as every threshold below ``L`` is exhausted; the thresholds
  step by 2 where every move flips a parity, so only ``L - 2`` is refuted;
* ``ida*`` also covers any puzzle with a declared heuristic (the pancakes' gap) or with labels
  that tell pieces apart (pattern databases over projections: the Pyraminx);
* ``lightsout``, ``hypercube``, ``sokoban``: the puzzles' own exact solvers;
* ``cp-sat``: the CP-SAT model with the horizon ``T = L - 1`` (any puzzle with a move table);
* ``bfs``: bidirectional BFS (unguarded tables), by name or where CP-SAT does not apply;
* ``mip``: the MIP as ``python -m exact.mip`` runs it (``pairs``, proven piece by piece) with
  ``T = L - 1``, by name only.

Every verdict is returned as the project's :class:`~exact.result.SolveResult` (its moves are the
best solution known, replayed; ``status`` is ``optimal`` only with the proof) with
``extra["verdict"]``, ``extra["method"]``, ``extra["given_length"]``, ``extra["gap"]`` and
``extra["exact"]`` (the exact solver's own result, as a dict).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from exact import solvers
from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.solvers import Limits
from exact.solvers import Method as SolverMethod


@dataclass(frozen=True)
class Budget:
    """What one certification may spend.

    Attributes:
        time_limit: Seconds for the exact method (``None``: no limit).
        node_limit: Expanded nodes (:class:`exact.solvers.Limits`; methods that count no nodes
            ignore it).
        pdb_dir: Where pattern databases and distance tables are kept (``None``: the user cache).
        progress: Show progress bars while a table is built.
        options: The method's own options (:attr:`exact.solvers.Method.options`, e.g. the 3x3x3's
            ``edge`` and ``threads``).
    """

    time_limit: float | None = None
    node_limit: int | None = None
    pdb_dir: str | Path | None = None
    progress: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def limits(self) -> Limits:
        return Limits(time=self.time_limit, nodes=self.node_limit)


@dataclass(frozen=True)
class Method:
    """A method of :mod:`exact.solvers` as certification uses it: :meth:`search` runs it with
    ``stop_at=L`` and returns a :class:`SolveResult` that holds a solution (of length at most
    ``L``, proven optimal or not) or a proven lower bound."""

    name: str
    method: SolverMethod

    def applies(self, puzzle: Puzzle) -> bool:
        return self.method.fits(puzzle)

    def search(self, puzzle: Puzzle, start: np.ndarray, L: int, budget: Budget) -> SolveResult:
        options = certify_options(self.method, budget.options)
        return solvers.solve(puzzle, start, method=self.name, limits=budget.limits, stop_at=L,
                             pdb_dir=budget.pdb_dir, progress=budget.progress, **options)  # fmt: skip


class Certified(SolveResult):
    """A certificate: the :class:`~exact.result.SolveResult` of :func:`verify_solution` (its
    moves the best solution known, replayed), shown verdict first: the given solution and its
    length, the best length, the gap, the bound and the method, in ``str()``, the Jupyter card
    and :meth:`to_dict`/``to_json``."""

    @property
    def verdict(self) -> str:
        """``optimal``, ``suboptimal`` or ``unknown``."""
        return str(self.extra.get("verdict"))

    @property
    def given(self) -> str:
        """The solution certified, in notation."""
        return str(self.extra.get("given", ""))

    @property
    def given_length(self) -> int:
        return int(self.extra.get("given_length", 0))

    @property
    def gap(self) -> int | None:
        """Given length minus the best length, where decided."""
        return self.extra.get("gap")

    def facts(self) -> list[tuple[str, str]]:
        """The certificate's lines, verdict first: ``(name, text)``."""
        gap = "-" if self.gap is None else f"{self.gap}{'' if self.extra.get('gap_exact') else ' (at least)'}"
        return [
            ("verdict", self.verdict),
            ("given", f"{self.given_length} moves: {self.given or '-'}"),
            ("best", f"{self.length} moves: {' '.join(self.moves) or '-'}"),
            ("gap", gap),
            ("lower bound", "-" if self.lower_bound is None else str(self.lower_bound)),
            ("method", f"{self.extra.get('method')} ({self.seconds:.2f} s)"),
        ]

    def __str__(self) -> str:
        f = dict(self.facts())
        return (
            f"{self.puzzle}: {f['verdict']}; given {f['given']}; best {f['best']}; gap {f['gap']}; "
            f"lower bound {f['lower bound']}; method {f['method']}"
        )

    def to_dict(self) -> dict[str, Any]:
        """The certificate's facts first, then the result's fields."""
        head = {"verdict": self.verdict, "given": self.given, "given_length": self.given_length,
                "best_length": self.length, "gap": self.gap, "method": self.extra.get("method")}  # fmt: skip
        return {**head, **super().to_dict()}

    def _repr_html_(self) -> str:
        from html import escape

        colour = {"optimal": "#1a7f37", "suboptimal": "#9a6700"}.get(self.verdict, "#57606a")
        body = "".join(
            f'<tr><th style="text-align:left;padding-right:1em">{escape(k)}</th><td>{escape(v)}</td></tr>'
            for k, v in self.facts()[1:]
        )
        return (
            f'<div class="puzzleopt-certificate" style="border:1px solid #d0d7de;border-radius:6px;padding:8px;'
            f'display:inline-block"><div><b>{escape(self.puzzle)}</b> <span style="color:#fff;background:{colour};'
            f'border-radius:4px;padding:0 6px">{escape(self.verdict)}</span></div><table>{body}</table></div>'
        )


def certify_options(method: SolverMethod, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked for ``method`` (:func:`exact.solvers.check_options`), less those that
    certification sets itself: the horizon (``stop_at``, from the solution's length), the table
    folder and progress (:class:`Budget`'s).

    Raises:
        PuzzleoptError: naming the option.
    """
    options = solvers.check_options(method, options)
    fixed = sorted({"horizon", "stop_at", "pdb_dir", "progress"} & set(options))
    if fixed:
        raise PuzzleoptError(
            f"--method-option {', '.join(fixed)}: certification sets the horizon from each solution's length "
            "(L - 1), and the table folder and progress itself; drop that option"
        )
    return options


def certifying_methods() -> list[Method]:
    """The registered methods that prove optimality, in preference order."""
    return [Method(m.name, m) for m in solvers.methods() if m.proves]


def choose_method(puzzle: Puzzle, name: str = "auto") -> Method:
    """The method named ``name``, or with ``"auto"`` the first registered one that applies and
    proves optimality (every method gets ``stop_at``, so the models have their horizon)."""
    m = solvers.choose(puzzle, name, {"stop_at": 1})
    if not m.proves:
        raise PuzzleoptError(f"method {name!r} does not prove optimality, so it cannot certify")
    return Method(m.name, m)


def given_rows(puzzle: Puzzle, start: np.ndarray, solution: str | Sequence[str] | Sequence[int]) -> list[int]:
    """The given solution as move rows, checked to solve ``start``.

    Raises:
        PuzzleoptError: A move is unknown or illegal where it is played, or the moves end
            elsewhere than the goal (the message quotes the solution and says where it ends).
    """
    table = puzzle.table
    if isinstance(solution, str):
        text = solution
    else:
        items = list(solution)
        text = table.format(items) if all(isinstance(m, (int, np.integer)) for m in items) else " ".join(items)
    rows = table.parse(text, start) if text.strip() else []
    end = table.apply(np.asarray(start), rows) if rows else np.asarray(start)
    if not puzzle.solved(end):
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise PuzzleoptError(
            f"the solution {shown!r} ({len(rows)} moves) does not solve the start: it ends in "
            f"{puzzle.format_state(end)}, not the goal; "
            "check that it belongs to this start and uses this puzzle's notation"
        )
    return rows


def verify_solution(
    puzzle: Puzzle,
    start: np.ndarray,
    solution: str | Sequence[str] | Sequence[int],
    *,
    method: str = "auto",
    budget: Budget | None = None,
) -> Certified:
    """Certify ``solution`` of ``start``: optimal, suboptimal (with a shorter one) or unknown.

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        solution: The solution to certify: notation, move names or move rows.
        method: ``"auto"`` (see the module docstring) or a registered method's name.
        budget: Time limit and table directory (default: no limit, the user cache).

    Returns:
        A :class:`SolveResult` whose moves are the best solution known (the given one unless a
        shorter one was found) and whose ``extra`` holds the verdict (see the module docstring).

    Raises:
        PuzzleoptError: The solution does not solve ``start``, or ``method`` does not apply.
    """
    budget = budget or Budget()
    start = np.asarray(start)
    t0 = time.perf_counter()
    rows = given_rows(puzzle, start, solution)
    chosen = choose_method(puzzle, method)
    L = len(rows)
    exact = (
        SolveResult.build(puzzle, start, [], Status.OPTIMAL, lower_bound=0, solver="none")
        if L == 0
        else chosen.search(puzzle, start, L, budget)
    )
    moves, bound = rows, exact.lower_bound or 0
    if exact.status.has_solution and exact.length < L:
        verdict = "suboptimal"
        moves = puzzle.table.parse(" ".join(exact.moves), start)
    elif bound >= L:  # the proof: the exact method's lower bound reaches L
        verdict, bound = "optimal", L
    else:
        verdict = "unknown"
    best = len(moves)
    bound = min(bound, best)
    extra = {
        "verdict": verdict,
        "method": chosen.name,
        "given": puzzle.table.format(rows),
        "given_length": L,
        "gap": L - best if verdict == "suboptimal" else (0 if verdict == "optimal" else None),
        "gap_exact": verdict == "optimal" or (verdict == "suboptimal" and exact.status is Status.OPTIMAL),
        "exact": exact.to_dict(),
    }
    return Certified.build(
        puzzle,
        start,
        moves,
        Status.OPTIMAL if bound == best else Status.FEASIBLE,
        lower_bound=bound,
        nodes=exact.nodes,
        seconds=time.perf_counter() - t0,
        solver=f"verify:{chosen.name}",
        solver_version=exact.solver_version,
        settings={"method": chosen.name, "time_limit": budget.time_limit, "node_limit": budget.node_limit},
        extra=extra,
    )


__all__ = [
    "Budget", "Certified", "Method", "certify_options", "certifying_methods", "choose_method", "given_rows",
    "verify_solution",
]  # fmt: skip
