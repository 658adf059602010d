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

Every verdict is a :class:`Certificate`, its own typed result: the verdict, the given solution and
its length, the best length, the gap and the bound lead its printed line, its card and its
record; its :attr:`~Certificate.result` is the best solution known as a
:class:`~exact.result.SolveResult` (replayed; ``optimal`` only with the proof, the exact
method's own result in its ``extra["exact"]``). :func:`verify_solution` takes the same
:class:`~exact.solvers.Limits` and options as :func:`exact.solvers.solve` and solves through it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from exact import solvers
from exact.errors import PuzzleoptError
from exact.provenance import stamp
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from exact.solvers import Limits, Method

VERDICTS = ("optimal", "suboptimal", "unknown", "no_solution", "invalid")
"""Every verdict a certificate can hold."""
NO_SOLUTION = "no_solution"  # the learned solver found none, so there is nothing to certify
INVALID = "invalid"  # the learned "solution" does not solve its start (a wrong answer, counted)


@dataclass(frozen=True)
class Certificate:
    """What is known about a given solution: the verdict first, then lengths, gap and bound.

    Attributes:
        verdict: ``optimal``, ``suboptimal``, ``unknown``; in a set of instances also
            ``no_solution`` (the learned solver found none) or ``invalid`` (the given moves do
            not solve the start; ``reason`` says why).
        given: The solution certified, in notation (``None`` without one).
        given_length: Its length.
        best_length: Length of the best solution known (shorter than the given one when
            ``suboptimal``).
        gap: ``given_length - best_length`` where decided (exact when ``gap_exact``).
        method: The exact method that certified it.
        lower_bound: Proven lower bound on the optimal length.
        gap_exact: Whether the best solution known is proven optimal.
        certify_seconds: Seconds the certification took.
        id: The instance's id in its file (``None`` for one solution).
        known_optimal: The optimal length the instance file gives, if any.
        learned_seconds: Seconds the learned solver took (``None`` for given solutions).
        reason: Why an ``invalid`` solution is wrong.
        spec: The puzzle's identity (``{"name": registry key, **options}``).
        result: The best solution known, replayed (``None`` for ``no_solution``/``invalid``).
        made_by: The puzzleopt version and commit that certified it
            (:func:`exact.provenance.stamp`; as read back for a certificate from a file).
    """

    verdict: str
    given: str | None
    given_length: int | None
    best_length: int | None
    gap: int | None
    method: str | None
    lower_bound: int | None = None
    gap_exact: bool = False
    certify_seconds: float = 0.0
    id: str | None = None
    known_optimal: int | None = None
    learned_seconds: float | None = None
    reason: str | None = None
    spec: Mapping[str, Any] | None = None
    result: SolveResult | None = None
    made_by: Mapping[str, str] = field(default_factory=stamp)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise PuzzleoptError(f"verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")

    # the best solution, as a result reads it
    @property
    def moves(self) -> tuple[str, ...]:
        """The best solution known."""
        return () if self.result is None else self.result.moves

    @property
    def length(self) -> int | None:
        return self.best_length

    @property
    def status(self) -> Status | None:
        """The best solution's status: ``optimal`` only with the proof."""
        return None if self.result is None else self.result.status

    @property
    def puzzle(self) -> str:
        if self.result is not None:
            return self.result.puzzle
        return str((self.spec or {}).get("name", "?"))

    def contradiction(self) -> str | None:
        """Why this certificate contradicts the file's optimal length, or ``None`` if it does not."""
        k = self.known_optimal
        if k is None or self.verdict in (NO_SOLUTION, INVALID):
            return None
        if self.lower_bound is not None and self.lower_bound > k:
            return f"instance {self.id}: proven lower bound {self.lower_bound} exceeds the known optimum {k}"
        if self.best_length is not None and self.best_length < k:
            return f"instance {self.id}: a {self.best_length}-move solution beats the known optimum {k}"
        if self.gap_exact and self.best_length != k:
            return f"instance {self.id}: proven optimum {self.best_length}, the file says {k}"
        return None

    def facts(self) -> list[tuple[str, str]]:
        """The certificate's lines, verdict first: ``(name, text)``."""
        gap = "-" if self.gap is None else f"{self.gap}{'' if self.gap_exact else ' (at least)'}"
        given = "-" if self.given_length is None else f"{self.given_length} moves: {self.given or '-'}"
        best = "-" if self.best_length is None else f"{self.best_length} moves: {' '.join(self.moves) or '-'}"
        return [
            ("verdict", self.verdict + (f" ({self.reason})" if self.reason else "")),
            ("given", given),
            ("best", best),
            ("gap", gap),
            ("lower bound", "-" if self.lower_bound is None else str(self.lower_bound)),
            ("method", f"{self.method or '-'} ({self.certify_seconds:.2f} s)"),
        ]

    def __str__(self) -> str:
        f = dict(self.facts())
        return (
            f"{self.puzzle}: {f['verdict']}; given {f['given']}; best {f['best']}; gap {f['gap']}; "
            f"lower bound {f['lower bound']}; method {f['method']}"
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict, verdict first; ``result`` as :meth:`SolveResult.to_dict` writes it."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["result"] = None if self.result is None else self.result.to_dict()
        d["spec"] = None if self.spec is None else dict(self.spec)
        d["made_by"] = dict(self.made_by)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], puzzle: Puzzle) -> Certificate:
        """The certificate :meth:`to_dict` wrote, its best solution replayed on ``puzzle``
        (:func:`check_certificate` checks the rest against the instance)."""
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in d.items() if k in known}
        d["made_by"] = dict(d.get("made_by") or {})  # unknown for a record written before it was kept
        result = d.get("result")
        return cls(**{**d, "result": None if result is None else SolveResult.from_dict(result, puzzle)})

    def to_json(self) -> str:
        import json

        from exact.result import json_default

        return json.dumps(self.to_dict(), default=json_default)

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


def certify_options(method: Method, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked for ``method`` (:func:`exact.solvers.check_options`), less the horizon,
    which certification sets itself (``stop_at``, from the solution's length).

    Raises:
        PuzzleoptError: naming the option.
    """
    options = solvers.check_options(method, options)
    fixed = sorted({"horizon", "stop_at"} & set(options))
    if fixed:
        raise PuzzleoptError(
            f"--method-option {', '.join(fixed)}: certification sets the horizon from each solution's length "
            "(L - 1); drop that option"
        )
    return options


def certifying_methods() -> list[Method]:
    """The registered methods that prove optimality, in preference order."""
    return [m for m in solvers.methods() if m.proves]


def choose_method(puzzle: Puzzle, name: str = "auto") -> Method:
    """The method named ``name``, or with ``"auto"`` the first registered one that applies and
    proves optimality (every method gets ``stop_at``, so the models have their horizon)."""
    m = solvers.choose(puzzle, name, {"stop_at": 1})
    if not m.proves:
        raise PuzzleoptError(f"method {name!r} does not prove optimality, so it cannot certify")
    return m


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
        rows_given = [int(m) for m in items if isinstance(m, (int, np.integer))]
        text = table.format(rows_given) if len(rows_given) == len(items) else " ".join(str(m) for m in items)
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
    limits: Limits | None = None,
    pdb_dir: str | Path | None = None,
    progress: bool = False,
    **options: Any,
) -> Certificate:
    """Certify ``solution`` of ``start``: optimal, suboptimal (with a shorter one) or unknown.

    Args:
        puzzle: The puzzle.
        start: The start state ``(P,)``.
        solution: The solution to certify: notation, move names or move rows.
        method: ``"auto"`` (see the module docstring) or a registered method's name.
        limits: What the exact method may spend (:class:`~exact.solvers.Limits`; default none).
        pdb_dir: Where pattern databases and distance tables are kept (default: the user cache).
        progress: Progress bars while a table builds.
        options: The method's own options (:attr:`exact.solvers.Method.options`).

    Returns:
        The :class:`Certificate`; its :attr:`~Certificate.result` holds the best solution known
        (the given one unless a shorter one was found).

    Raises:
        PuzzleoptError: The solution does not solve ``start``, ``method`` does not apply, or an
            option is not the method's.
    """
    start = np.asarray(start)
    t0 = time.perf_counter()
    rows = given_rows(puzzle, start, solution)
    chosen = choose_method(puzzle, method)
    options = certify_options(chosen, options)
    L = len(rows)
    exact = (
        SolveResult.build(puzzle, start, [], Status.OPTIMAL, lower_bound=0, solver="none")
        if L == 0
        else solvers.solve(
            puzzle, start, method=chosen.name, limits=limits, stop_at=L, pdb_dir=pdb_dir, progress=progress, **options
        )  # fmt: skip
    )
    moves, bound = rows, exact.lower_bound or 0
    if exact.status.has_solution and exact.length is not None and exact.length < L:
        verdict = "suboptimal"
        moves = puzzle.table.parse(" ".join(exact.moves), start)
    elif bound >= L:  # the proof: the exact method's lower bound reaches L
        verdict, bound = "optimal", L
    else:
        verdict = "unknown"
    best = len(moves)
    bound = min(bound, best)
    limits = limits or Limits()
    result = SolveResult.build(
        puzzle, start, moves, Status.OPTIMAL if bound == best else Status.FEASIBLE, lower_bound=bound,
        nodes=exact.nodes, seconds=time.perf_counter() - t0, solver=f"verify:{chosen.name}",
        solver_version=exact.solver_version, settings={"method": chosen.name, "limits": asdict(limits)},
        extra={"exact": exact.to_dict()},
    )  # fmt: skip
    spec = getattr(puzzle, "spec", None)
    exact_gap = verdict == "optimal" or (verdict == "suboptimal" and exact.status is Status.OPTIMAL)
    return Certificate(
        verdict, puzzle.table.format(rows), L, best, L - best if verdict != "unknown" else None, chosen.name,
        lower_bound=bound, gap_exact=exact_gap, certify_seconds=result.seconds,
        spec=None if spec is None else spec.to_dict(), result=result,
    )  # fmt: skip


__all__ = [
    "INVALID", "NO_SOLUTION", "VERDICTS", "Certificate", "certify_options", "certifying_methods", "choose_method",
    "given_rows", "verify_solution",
]  # fmt: skip


CERTIFICATE_FORMAT = "puzzleopt-certificate/3"
"""The record format of ``certificates.jsonl`` (``python -m hybrid.verify --out``; :mod:`exact.resultlog`)."""


def certificate_from_record(puzzle: Puzzle) -> Callable[[dict[str, Any], tuple[Any, ...]], Certificate]:
    """Certificates read back from a log, each re-checked against its task ``(Instance, start,
    given moves or None)``: the given solution replayed, the best one replayed from the same
    start, and the verdict, bound and gap consistent with them."""

    def back(d: dict[str, Any], task: tuple[Any, ...]) -> Certificate:
        item, start, given = task
        c = Certificate.from_dict({k: v for k, v in d.items() if k != "input"}, puzzle)  # replays its result
        if str(c.id) != str(item.id) or (given is not None and c.given != given):
            raise PuzzleoptError("it certifies another instance or solution")
        if c.verdict == NO_SOLUTION:
            if c.given is not None or c.result is not None:
                raise PuzzleoptError("'no_solution' with a solution")
            return c
        if c.verdict == INVALID:
            try:
                given_rows(puzzle, start, c.given or "")
            except PuzzleoptError:
                return c
            raise PuzzleoptError("its solution is called invalid, but it solves its start")
        _check_decided(c, len(given_rows(puzzle, start, c.given or "")), start)
        return c

    return back


def _check_decided(c: Certificate, given_length: int, start: np.ndarray) -> None:
    """Raise unless an optimal/suboptimal/unknown certificate agrees with its replayed result."""
    r = c.result
    if r is None:
        raise PuzzleoptError(f"its verdict {c.verdict!r} comes without a result")
    if not np.array_equal(np.asarray(r.start), np.asarray(start).astype(np.int64)):
        raise PuzzleoptError("its result starts elsewhere than its instance")
    if (c.given_length, c.best_length, c.lower_bound) != (given_length, r.length, r.lower_bound):
        raise PuzzleoptError("its lengths or bound are not those of its solutions")
    if c.verdict == "optimal":
        ok = r.status is Status.OPTIMAL and r.length == given_length and c.gap == 0
    elif c.verdict == "suboptimal":
        ok = r.length is not None and r.length < given_length and c.gap == given_length - r.length
    else:
        ok = r.length == given_length and (r.lower_bound or 0) < given_length and c.gap is None
    if not ok:
        raise PuzzleoptError(f"its verdict {c.verdict!r} does not follow from its bound and lengths")
