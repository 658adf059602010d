"""Solve and certify a :class:`puzzleopt.states.State`.

:func:`solve` is :func:`exact.solvers.solve` with notebook defaults: ``time_limit`` and
``node_limit`` as keywords, the short names ``"ida"`` and ``"cpsat"``, the learned methods
``"beam"`` and ``"bwas"`` (registered by :mod:`learned.methods`; the ``learned`` extra), and, for the
time-indexed models (``"mip"``, ``"cp-sat"``) without a ``horizon``, the length of the state's
:attr:`~puzzleopt.states.State.path`, whose inverse is their incumbent (``hint``): a solution of
that length, so the models prove the optimum within it, as ``python -m exact.mip`` does with a
scramble.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from exact import solvers
from exact.errors import PuzzleoptError
from exact.horizon import from_scramble
from exact.result import SolveResult

if TYPE_CHECKING:
    from exact.puzzle import Goal, Puzzle
    from hybrid.certify import Certificate

ALIASES = solvers.ALIASES
"""Short method names accepted beside the registry's own (:data:`exact.solvers.ALIASES`)."""

METHODS = ("auto", *ALIASES)
"""Method names besides those of :func:`exact.solvers.methods` (which lists the learned ``"beam"``
and ``"bwas"`` where the ``learned`` extra is installed)."""


class StateLike(Protocol):
    """What :func:`solve` and :func:`certify` read of a state; :class:`puzzleopt.states.State`
    has it (a protocol, so that this module and the states' import no one another for types)."""

    @property
    def puzzle(self) -> Puzzle: ...

    @property
    def labels(self) -> np.ndarray: ...

    @property
    def path(self) -> tuple[str, ...] | None: ...

    @property
    def start(self) -> Any: ...

    def _rows(self, moves: Any, what: str) -> list[int]: ...


def solve(
    state: StateLike,
    method: str = "auto",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    goal: str | Goal | None = None,
    **options: Any,
) -> SolveResult:
    """Solve ``state`` (see the module docstring).

    Args:
        state: The start.
        method: ``"auto"`` (the first registered method that proves optimality), a registry
            name (``exact.solvers.methods()``: ``"beam"`` and ``"bwas"`` among them), ``"ida"`` or ``"cpsat"``.
        time_limit: Seconds (``None``: none); a limit ends as ``limit`` with the proven bound.
        node_limit: Expanded nodes, for the searches that count them.
        goal: A partial goal instead of the solved state (:func:`exact.goals.with_goal`: a
            :class:`~exact.puzzle.Goal` of allowed labels, or text the puzzle reads, such as a
            cube's ``"cross"``, ``"f2l"``, ``"cross+pair-FR"`` or a facelet mask). ``"auto"`` then
            runs IDA* on the pieces the goal fixes; ``"mip"`` and ``"cp-sat"`` take any mask.
        options: The method's own options (``horizon=``, ``formulation=``, ``threads=``, ...; for
            ``"beam"``: ``model=``, ``width=``, ``ball=``, ``quality=``; ``"bwas"``: ``model=``, ``weight=``,
            ``batch=``, ``quality=``).

    Raises:
        PuzzleoptError: the method does not apply, an option is unknown to it, or a model
            method has no horizon (name ``horizon=T``, or reach the state with ``apply``).
    """
    if not hasattr(state, "puzzle") or not hasattr(state, "labels"):
        raise PuzzleoptError(f"solve takes a puzzleopt State (e.g. Cube(3).apply(...)), got {type(state).__name__}")
    name = ALIASES.get(method, method)
    puzzle = state.puzzle
    if goal is not None:
        from exact.goals import with_goal

        puzzle = with_goal(puzzle, goal)
    if name != "auto":  # a model's horizon and incumbent from the state's path, as the commands do
        chosen = solvers.choose(puzzle, name)
        options.update(from_scramble(puzzle, chosen, state.path, options, "horizon=T, or build the state with apply()"))
    own = getattr(puzzle, "own_method", None)
    if name == "auto" and own is not None and not any(m.proves for m in solvers.methods(puzzle)):
        name = own  # FreeCell: its own solver finds a solution or proves there is none, not the shortest
    limits = solvers.Limits(time=time_limit, nodes=node_limit)
    return solvers.solve(puzzle, state.start, method=name, limits=limits, **options)


def certify(
    state: StateLike,
    solution: str | Sequence[str],
    method: str = "auto",
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    **options: Any,
) -> Certificate:
    """Certify ``solution`` of ``state``: proven optimal, suboptimal with a shorter one, or
    unknown within the limits (:func:`hybrid.certify.verify_solution`): a
    :class:`~hybrid.certify.Certificate`, verdict first."""
    from exact.solvers import Limits
    from hybrid.certify import verify_solution

    if not hasattr(state, "puzzle") or not hasattr(state, "labels"):
        raise TypeError(f"certify takes a puzzleopt State and a solution, got {type(state).__name__}")
    state._rows(solution, "certify")  # a wrong type or an unknown move fails here, by name
    limits = Limits(time=time_limit, nodes=node_limit)
    return verify_solution(
        state.puzzle, state.labels, solution, method=ALIASES.get(method, method), limits=limits, **options
    )
