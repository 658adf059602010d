"""The types of the one solver contract (:mod:`exact.solvers`): :class:`Limits`, :class:`Method`
and the :class:`OwnSolver` protocol."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from exact.errors import PuzzleoptError
from exact.options import COMMON, Option
from exact.result import SolveResult


@dataclass(frozen=True)
class Limits:
    """What one solve may spend (see the module docstring); ``None`` is no limit."""

    time: float | None = None
    nodes: int | None = None
    stored: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and (
            isinstance(self.time, bool)  # True is 1 to Python, but no user means "one second" by it
            or not (isinstance(self.time, (int, float, np.integer, np.floating)) and math.isfinite(self.time))
            or self.time <= 0
        ):
            raise PuzzleoptError(f"Limits.time must be a number of seconds > 0, or None; got {self.time!r}")
        for name in ("nodes", "stored"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1):
                raise PuzzleoptError(f"Limits.{name} must be a whole number >= 1, or None; got {v!r}")


@runtime_checkable
class OwnSolver(Protocol):
    """A puzzle that names the registered method solving it (FreeCell, Sokoban): its states are
    not (only) label vectors of a move table, so the generic methods do not apply to it."""

    own_method: str


@dataclass(frozen=True)
class Setup:
    """What a method builds before it searches, one way of running it (:attr:`Method.setups`).

    Attributes:
        options: The method options this way runs with (a cube table's ``{"edge": "slice"}``).
        nbytes: The tables it needs, in bytes.
        stored: Whether they are on disk already (then loading them is the whole set-up).
        seconds: About how long the set-up takes on 2 cores: loading what is stored, building
            the rest, at each table family's measured rate
            (:func:`exact.pdb.store.setup_estimate`; ``docs/benchmarks/setup_rates.md``).
        what: A set-up that is not tables, in words (numba's first compile of its kernels:
            :func:`exact.kernels.compile_setup`); empty for tables.
        rank: Where set, this way's rank among the methods ``auto`` may run, in place of its
            method's (:attr:`Method.rank`): a way measured faster than better-ranked methods
            (a large stored table) goes before them.
    """

    options: Mapping[str, Any]
    nbytes: int
    stored: bool
    seconds: float = 0.0
    what: str = ""
    rank: int | None = None

    @property
    def words(self) -> str:
        """The set-up in words, for the log line said before it starts and for a refusal."""
        tables = f"{'loading' if self.stored else 'building'} {self.nbytes / 1e6:,.1f} MB of tables"
        return " and ".join(w for w in (tables if self.nbytes or not self.what else "", self.what) if w)


@dataclass(frozen=True)
class Method:
    """A registered way to solve.

    Attributes:
        name: Registry name (``"ida"``, ``"cp-sat"``, ...).
        applies: Whether it can solve a puzzle (cheap: builds nothing).
        proves: Whether a solution it returns without a limit is proven optimal.
        run: ``run(puzzle, start, limits, **options) -> SolveResult``.
        options: The options ``run`` accepts besides the common ``stop_at``, ``pdb_dir`` and
            ``progress`` (:data:`exact.options.COMMON`), each declared once here
            (:class:`exact.options.Option`: name, kind, default, help); ``run`` takes each as a
            keyword with the declared default.
        description: One line for ``--help`` and the docs.
        ready: Whether the given options are enough to run (the models need a horizon);
            ``method="auto"`` passes over a method that is not ready.
        goals: Whether it honours a partial goal (:mod:`exact.goals`); one that does not never
            applies to a puzzle that has one.
        stored: Whether it keeps to :attr:`Limits.stored` (states held at once); a stored limit
            given to one that does not is refused, not ignored.
        nodes: Whether it keeps to :attr:`Limits.nodes` (nodes expanded); one that counts no
            nodes (the models, linear algebra, a table walk) runs without that limit.
        needs: A capability the puzzle must declare (:func:`capabilities`: ``"cube3-coordinates"``,
            ``"korf-tiles"``, ...) for a puzzle's own kernel; ``None`` for the generic engines. A
            method name may be registered once generic and once per capability: the variant whose
            capability a puzzle declares is the one it gets (the tiles' kernel for ``ida*``).
        rank: Preference for ``method="auto"`` and the order of listings (lower first).
        setups: ``setups(puzzle, options, pdb_dir) -> [Setup, ...]``: the ways it can run and
            what each builds first, best first, for ``auto`` to pass over a method whose tables
            are large and not built (:mod:`exact.portfolio`); ``None``: nothing large to build.
        extra: The optional extra it needs (a key of :data:`exact.errors.EXTRAS`), if any.
        installed: Whether that extra is installed (cheap: imports nothing); a method named
            without it fails with :class:`~exact.errors.MissingExtra`, which says how to install it.
    """

    name: str
    applies: Callable[[Any], bool]
    proves: bool
    run: Callable[..., SolveResult] = field(repr=False)
    options: tuple[Option, ...] = ()
    description: str = ""
    ready: Callable[[Mapping[str, Any]], bool] = field(default=lambda options: True, repr=False)
    goals: bool = False
    stored: bool = False
    nodes: bool = False
    needs: str | None = None
    rank: int = 100
    setups: Callable[[Any, Mapping[str, Any], Any], list[Setup]] | None = field(default=None, repr=False)
    extra: str | None = None
    installed: Callable[[], bool] = field(default=lambda: True, repr=False)

    def __post_init__(self) -> None:
        if self.needs is not None:  # applies means applies: the capability first, then the method's own test
            object.__setattr__(self, "applies", _needing(self.needs, self.applies))

    @property
    def limits(self) -> tuple[str, ...]:
        """The :class:`Limits` fields it keeps to: ``time`` always, ``nodes`` and ``stored`` as
        declared (the commands offer ``--node-limit``/``--stored-limit`` for these)."""
        return ("time",) + ("nodes",) * self.nodes + ("stored",) * self.stored

    @property
    def option_names(self) -> tuple[str, ...]:
        """The names of :attr:`options`, in their order."""
        return tuple(o.name for o in self.options)

    def option(self, name: str) -> Option | None:
        """The declaration of option ``name`` (the common ones included), or ``None``."""
        return next((o for o in (*COMMON, *self.options) if o.name == name), None)

    def fits(self, puzzle: Any) -> bool:
        """Whether it applies to ``puzzle``, partial goal included."""
        partial = getattr(puzzle, "partial_goal", None) is not None
        return (self.goals or not partial) and self.applies(puzzle)


def _needing(capability: str, applies: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def test(puzzle: Any) -> bool:
        return capability in capabilities(puzzle) and applies(puzzle)

    return test


def capabilities(puzzle: Any) -> frozenset[str]:
    """What a puzzle declares its own kernels can do (:attr:`exact.puzzle.Puzzle.capabilities`):
    methods that need one of them (:attr:`Method.needs`) apply by it, not by the puzzle's name."""
    return frozenset(getattr(puzzle, "capabilities", ()))


def table_puzzle(puzzle: Any) -> bool:
    """A puzzle of the batched protocol (a move table and a goal state), not an :class:`OwnSolver`."""
    return not isinstance(puzzle, OwnSolver) and hasattr(puzzle, "table") and hasattr(puzzle, "goal")


def single_goal(puzzle: Any) -> bool:
    """Whether ``is_goal`` is "equals the goal state" (checked on the goal's neighbours too)."""
    children, _ = puzzle.expand(puzzle.goal[None])
    same = (children[0] == puzzle.goal).all(axis=1)
    return bool(np.array_equal(puzzle.is_goal(children[0]), same))


def everywhere(puzzle: Any) -> bool:
    """``applies`` for a method whose capability (:attr:`Method.needs`) says it all."""
    return True
