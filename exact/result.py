"""The one result type that every solver in puzzleopt returns.

A :class:`SolveResult` that carries moves is only ever made by :meth:`SolveResult.build`, which
replays the moves on the puzzle model and raises :class:`~exact.errors.ReplayError` if they do
not reach the goal. "Optimal" is accepted only with a lower bound equal to the length.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from exact.errors import ReplayError

if TYPE_CHECKING:
    from exact.puzzle import Puzzle


class Status(str, Enum):
    """How a solve ended."""

    OPTIMAL = "optimal"
    """A solution whose length equals a proven lower bound."""
    FEASIBLE = "feasible"
    """A solution, not proven optimal (``lower_bound`` holds what was proven)."""
    INFEASIBLE_WITHIN_HORIZON = "infeasible_within_horizon"
    """Proven: no solution of at most the horizon's length exists."""
    UNSOLVABLE = "unsolvable"
    """Proven: no solution exists at all."""
    LIMIT = "limit"
    """A time or node limit ended the search without a solution; ``lower_bound`` is proven."""

    @property
    def has_solution(self) -> bool:
        return self in (Status.OPTIMAL, Status.FEASIBLE)

    @property
    def exit_code(self) -> int:
        """The CLI exit code: 0 solved, 3 proven no solution (within the horizon), 4 limit."""
        return {
            Status.OPTIMAL: 0,
            Status.FEASIBLE: 0,
            Status.INFEASIBLE_WITHIN_HORIZON: 3,
            Status.UNSOLVABLE: 3,
            Status.LIMIT: 4,
        }[self]


@dataclass(frozen=True)
class SolveResult:
    """What a solver found, and what it proved.

    Attributes:
        puzzle: The puzzle's name (e.g. ``"cube3"``, ``"tiles15"``).
        start: Labels of the start state, length ``P``.
        moves: Move names of the solution, in order (empty without a solution).
        length: Number of moves, or ``None`` without a solution.
        status: See :class:`Status`.
        lower_bound: Proven lower bound on the optimal length (``None`` if nothing was proven).
        nodes: Search nodes, branch-and-bound nodes or conflicts, as the solver counts them.
        seconds: Wall-clock seconds of the solve.
        solver: Solver name (``"ida*"``, ``"highs"``, ``"cp-sat"``, ...).
        solver_version: Version string of the solver.
        settings: The settings the solver ran with (time limit, heuristic, horizon, ...).
        extra: Solver-specific facts (model size, timings, the scramble, ...).
        spec: The puzzle's identity (``{"name": registry key, **options}``, see
            :class:`exact.registry.Spec`) when the puzzle came from the registry, else ``None``;
            ``exact.registry.rebuild(result.spec)`` gives the puzzle back.
    """

    puzzle: str
    start: tuple[int, ...]
    moves: tuple[str, ...]
    length: int | None
    status: Status
    lower_bound: int | None = None
    nodes: int | None = None
    seconds: float = 0.0
    solver: str = ""
    solver_version: str = ""
    settings: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)
    spec: Mapping[str, Any] | None = None
    _replayed: bool = field(default=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        status = Status(self.status)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "start", tuple(int(v) for v in self.start))
        object.__setattr__(self, "moves", tuple(self.moves))
        if status.has_solution:
            if not self._replayed:
                raise ReplayError("a SolveResult with moves must be made by SolveResult.build, which replays them")
            if self.length != len(self.moves):
                raise ReplayError(f"length {self.length} but {len(self.moves)} moves")
            if self.lower_bound is not None and self.lower_bound > self.length:
                raise ReplayError(f"lower bound {self.lower_bound} exceeds the solution length {self.length}")
            if status is Status.OPTIMAL and self.lower_bound != self.length:
                raise ReplayError(
                    f"'optimal' needs a lower bound equal to the length {self.length}, got {self.lower_bound}"
                )
        elif self.moves or self.length is not None:
            raise ReplayError(f"status {status.value!r} carries no moves")

    @classmethod
    def recorder(
        cls,
        puzzle: Puzzle,
        start: np.ndarray,
        *,
        solver: str,
        solver_version: str,
        settings: Mapping[str, Any],
        since: float,
    ) -> Callable[..., SolveResult]:
        """A function ``done(moves, status, bound=None, nodes=None, extra=None)`` that builds this
        solver's results (through :meth:`build`, so they are replayed), timed from ``since``
        (a ``time.perf_counter()`` reading)."""

        def done(
            moves: Sequence[int] | Sequence[str],
            status: Status,
            bound: int | None = None,
            nodes: int | None = None,
            extra: Mapping[str, Any] | None = None,
        ) -> SolveResult:
            return cls.build(
                puzzle,
                start,
                moves,
                status,
                lower_bound=bound,
                nodes=nodes,
                seconds=time.perf_counter() - since,
                solver=solver,
                solver_version=solver_version,
                settings=settings,
                extra=extra,
            )

        return done

    @classmethod
    def build(
        cls,
        puzzle: Puzzle,
        start: np.ndarray,
        moves: Sequence[int] | Sequence[str],
        status: Status | str,
        *,
        lower_bound: int | None = None,
        nodes: int | None = None,
        seconds: float = 0.0,
        solver: str = "",
        solver_version: str = "",
        settings: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> SolveResult:
        """Replay ``moves`` (row indices of ``puzzle.table``) from ``start`` and make the result.

        Raises:
            ReplayError: the moves do not apply, or do not reach the goal (a solver bug).
        """
        status = Status(status)
        start = np.asarray(start)
        moves = [int(m) for m in moves]
        if status.has_solution:
            try:
                end = puzzle.table.apply(start, moves)
            except ValueError as exc:
                raise ReplayError(f"{solver or 'solver'}: its moves do not replay on {puzzle.name}: {exc}") from exc
            if not bool(puzzle.is_goal(end[None])[0]):
                raise ReplayError(
                    f"{solver or 'solver'}: moves {puzzle.table.format(moves)!r} do not reach the goal of {puzzle.name}"
                )
        elif moves:
            raise ReplayError(f"status {status.value!r} carries no moves")
        return cls(
            puzzle=puzzle.name,
            start=tuple(int(v) for v in start),
            moves=tuple(puzzle.table.names[m] for m in moves),
            length=len(moves) if status.has_solution else None,
            status=status,
            lower_bound=None if lower_bound is None else int(lower_bound),
            nodes=None if nodes is None else int(nodes),
            seconds=float(seconds),
            solver=solver,
            solver_version=solver_version,
            settings=dict(settings or {}),
            extra=dict(extra or {}),
            spec=None if (spec := getattr(puzzle, "spec", None)) is None else spec.to_dict(),
            _replayed=True,
        )

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], puzzle: Puzzle) -> SolveResult:
        """The result :meth:`to_dict` wrote, replayed on ``puzzle`` (a record read back from a
        file is checked like a fresh one; extra keys such as ``id`` are ignored)."""
        start = np.asarray(d["start"])
        moves = list(d.get("moves") or [])
        rows = puzzle.table.parse(moves, start) if moves else []
        return cls.build(
            puzzle, start, rows, d["status"], lower_bound=d.get("lower_bound"), nodes=d.get("nodes"),
            seconds=float(d.get("seconds") or 0.0), solver=d.get("solver", ""),
            solver_version=d.get("solver_version", ""), settings=d.get("settings"), extra=d.get("extra"),
        )  # fmt: skip

    @property
    def exit_code(self) -> int:
        return self.status.exit_code

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (status as its string value)."""
        d = asdict(self)
        d.pop("_replayed")
        d["status"] = self.status.value
        d["start"] = list(self.start)
        d["moves"] = list(self.moves)
        return d

    @property
    def proof(self) -> str:
        """What was proven, in words (the card's last line)."""
        b = self.lower_bound
        if self.status is Status.OPTIMAL:
            return f"optimal: no solution shorter than {self.length} moves exists (lower bound {b})"
        if self.status is Status.FEASIBLE:
            known = f"at least {b}" if b is not None else "not bounded"
            return f"a solution of {self.length} moves, not proven optimal (the optimum is {known})"
        if self.status is Status.INFEASIBLE_WITHIN_HORIZON:
            horizon = self.settings.get("horizon", "the horizon")
            return f"no solution of at most {horizon} move{'' if horizon == 1 else 's'} exists"
        if self.status is Status.UNSOLVABLE:
            why = self.extra.get("unsolvable")
            return "no solution exists" + (f": {why}" if why else "")
        why = self.extra.get("limit") if isinstance(self.extra.get("limit"), str) else None
        return (why or "a limit ended the search without a solution") + (
            f"; every solution has at least {b} moves" if b else ""
        )

    def __str__(self) -> str:
        moves = " ".join(self.moves) if self.moves else "-"
        facts = [f"bound {self.lower_bound}" if self.lower_bound is not None else ""]
        facts += [f"{self.nodes:,} nodes" if self.nodes is not None else "", f"{self.seconds:.2f} s", self.solver]
        head = f"{self.length} moves: {moves}" if self.status.has_solution else "no solution"
        return f"{self.puzzle}: {self.status.value}, {head} ({', '.join(f for f in facts if f)})"

    def _repr_html_(self) -> str:
        """A card for Jupyter: moves, status, bound, time, solver and what was proven."""
        from html import escape

        colour = {"optimal": "#1a7f37", "feasible": "#9a6700", "limit": "#cf222e"}.get(self.status.value, "#57606a")
        rows = [
            ("moves", " ".join(self.moves) if self.moves else "-"),
            ("length", "-" if self.length is None else str(self.length)),
            ("lower bound", "-" if self.lower_bound is None else str(self.lower_bound)),
            ("nodes", "-" if self.nodes is None else f"{self.nodes:,}"),
            ("time", f"{self.seconds:.3f} s"),
            ("solver", f"{self.solver} {self.solver_version}".strip() or "-"),
            ("settings", ", ".join(f"{k}={v}" for k, v in self.settings.items()) or "-"),
            ("proof", self.proof),
        ]
        body = "".join(
            f'<tr><th style="text-align:left;padding-right:1em">{escape(k)}</th><td>{escape(v)}</td></tr>'
            for k, v in rows
        )
        return (
            f'<div class="puzzleopt-result" style="border:1px solid #d0d7de;border-radius:6px;padding:8px;'
            f'display:inline-block"><div><b>{escape(self.puzzle)}</b> <span style="color:#fff;'
            f'background:{colour};border-radius:4px;padding:0 6px">{escape(self.status.value)}</span></div>'
            f"<table>{body}</table></div>"
        )

    def to_json(self, **more: Any) -> str:
        """One JSON object: the fields of :meth:`to_dict`, plus ``more`` (e.g. the scramble)."""
        d = self.to_dict()
        d.update(more)
        return json.dumps(d, default=json_default)


def json_default(obj: Any) -> Any:
    """``json.dumps``'s ``default``: numpy numbers and arrays, enums by value."""
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Enum):
        return obj.value
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")
