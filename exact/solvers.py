"""One solver contract: :class:`Limits`, the registry of :class:`Method` s and :func:`solve`.

Every exact method is called the same way::

    solve(puzzle, start, method="auto", limits=Limits(time=60), **options) -> SolveResult

and returns the project's one :class:`~exact.result.SolveResult` (replayed before it is
returned; ``optimal`` only with a proof; a limit ends as ``limit`` with the bound proven so far).

:class:`Limits` has one meaning per field, for every method:

* ``time``: seconds of wall clock for the solve;
* ``nodes``: nodes *expanded* (a node whose children were generated); methods that count no
  nodes (the MIP, CP-SAT, linear algebra) ignore it and say so in ``settings``;
* ``stored``: states held in memory at once (search nodes, BFS frontiers).

Each method declares which puzzles it ``applies`` to and whether it ``proves`` optimality.
``method="auto"`` is a portfolio (:mod:`exact.portfolio`): a quick bidirectional BFS, then the
first method that proves optimality and whose tables are cheap (the puzzles' fast
specialisations first), then a method that finds a solution without a proof; ``hybrid.certify``,
the command lines and the benchmarks all pick their methods here. Options a method does not know
are an error that names them.

Puzzles whose states are not label vectors of a move table (FreeCell's boards) or whose solver
needs more than the table (Sokoban's levels) declare it through :class:`OwnSolver`, a protocol:
a method applies to them because of what they declare, not because of their names.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from typing import Any

from exact.contract import Limits, Method, OwnSolver, Setup, everywhere
from exact.deadline import SetupLimit, deadline
from exact.errors import MissingExtra, PuzzleoptError
from exact.invariants import checked_start, unsolvable_result
from exact.logs import get_logger
from exact.options import COMMON as OPTIONS_EVERY_METHOD_TAKES
from exact.result import SolveResult, Status

logger = get_logger(__name__)

__all__ = [
    "ALIASES", "COMMON", "Limits", "Method", "OwnSolver", "Setup", "choose", "get_method", "methods",
    "register_method", "solve", "variants",
]  # fmt: skip


COMMON = tuple(o.name for o in OPTIONS_EVERY_METHOD_TAKES)
"""Options every method takes: ``stop_at=L`` (stop once no solution shorter than ``L`` remains to
be found: the proof a given solution of length ``L`` is optimal; methods that cannot stop there
search on), ``pdb_dir`` (where tables are kept) and ``progress`` (bars while tables build)."""

_METHODS: dict[str, list[Method]] = {}
"""Name -> its variants: at most one generic (``needs=None``) and one per capability."""

BUILTIN_MODULES = (
    "exact.tablewalk", "exact.cube.methods", "exact.tiles.methods", "exact.ida.methods", "exact.lightsout.methods",
    "exact.hypercube.methods", "exact.sokoban.methods", "exact.goals", "exact.cpsat.methods", "exact.bidirectional",
    "exact.mip.methods", "exact.freecell.methods",
)  # fmt: skip
"""The modules whose import registers the built-in methods (each with ``register_method`` lines
beside its code, as Fast Downward's plugins do); their ``rank`` s, not this order, rank them."""


def register_method(method: Method | str, run: Callable[..., SolveResult] | None = None, **fields: Any) -> Method:
    """Add a method: a new name, or a variant of a registered name for a capability it lacks.

    Called as ``register_method(name, run, needs=..., options=(...), rank=...)`` beside the code
    (the fields of :class:`Method`; ``applies`` defaults to "every puzzle that has ``needs``",
    ``proves`` to True and ``description`` to the first paragraph of ``run``'s docstring), or with
    a ready :class:`Method`.

    Returns:
        The registered :class:`Method`.

    Raises:
        PuzzleoptError: the name is taken for the same capability.
    """
    if not isinstance(method, Method):
        if run is None:
            raise TypeError(f"register_method({method!r}, run, ...): give the function that runs the method")
        fields.setdefault("applies", everywhere)
        fields.setdefault("proves", True)
        fields.setdefault("description", _first_paragraph(run.__doc__ or ""))
        method = Method(method, run=run, **fields)
    variants = _METHODS.setdefault(method.name, [])
    if any(m.needs == method.needs for m in variants):
        what = "generic" if method.needs is None else f"for capability {method.needs!r}"
        raise PuzzleoptError(f"method {method.name!r} ({what}) is already registered")
    variants.append(method)
    variants.sort(key=lambda m: m.needs is None)  # a puzzle's own kernel before the generic engine
    return method


def _first_paragraph(doc: str) -> str:
    return " ".join(doc.strip().split("\n\n")[0].split())


def _ranked() -> list[list[Method]]:
    _load_builtins()
    return sorted(_METHODS.values(), key=lambda vs: min(m.rank for m in vs))


def _variant(variants: list[Method], puzzle: Any) -> Method | None:
    return next((m for m in variants if m.fits(puzzle)), None)


def methods(puzzle: Any = None) -> list[Method]:
    """All registered methods in preference order (one per name: the generic variant, else the
    first), or the variant of each that applies to ``puzzle``."""
    if puzzle is None:
        return [vs[-1] for vs in _ranked()]
    return [m for vs in _ranked() if (m := _variant(vs, puzzle)) is not None]


def variants(name: str) -> list[Method]:
    """Every variant registered under ``name`` (its own kernels' first, the generic last)."""
    return list(_METHODS[get_method(name).name])


ALIASES = {"ida": "ida*", "cpsat": "cp-sat"}
"""Short method names every entry point accepts beside the registry's own."""


def get_method(name: str, puzzle: Any = None) -> Method:
    """The method registered under ``name`` (or its short name, :data:`ALIASES`): its variant for
    ``puzzle`` where one applies, else the generic one (or the first)."""
    _load_builtins()
    name = ALIASES.get(name, name)
    if name not in _METHODS:
        raise PuzzleoptError(f"unknown method {name!r}; known methods: {', '.join(m.name for m in methods())}")
    variants = _METHODS[name]
    return (_variant(variants, puzzle) if puzzle is not None else None) or variants[-1]


def choose(puzzle: Any, name: str = "auto", options: Mapping[str, Any] | None = None) -> Method:
    """The method ``name`` if it applies to ``puzzle``; ``"auto"`` is the portfolio of the methods
    that apply (:mod:`exact.portfolio`), where one of them proves optimality and has what it
    needs among ``options`` (the models need a horizon)."""
    if name == "auto":
        from exact.portfolio import auto_method

        candidates = methods(puzzle)
        if not any(m.proves and m.ready(dict(options or {})) for m in candidates):
            raise PuzzleoptError(f"no registered method proves optimality on {_name(puzzle)}; name one with method=")
        return auto_method(candidates)
    method = get_method(name, puzzle)
    if method.extra is not None and not method.installed():
        raise MissingExtra(f"method {name!r}", method.extra)
    if not method.fits(puzzle):
        known = [m.name for m in methods(puzzle)]
        raise PuzzleoptError(
            f"method {name!r} does not apply to {_name(puzzle)}; use 'auto' or one of {', '.join(known)}"
        )
    return method


def solve(
    puzzle: Any, start: Any, *, method: str = "auto", limits: Limits | None = None, **options: Any
) -> SolveResult:
    """Solve ``start`` with a registered method (see the module docstring).

    Args:
        puzzle: A registry puzzle (or a puzzle that declares :class:`OwnSolver`).
        start: The start: a state ``(P,)``, or what the puzzle's own method takes.
        method: A method name, or ``"auto"``.
        limits: Time, expanded nodes, stored states (default: none).
        options: ``stop_at``, ``pdb_dir``, ``progress`` and the method's own (see
            :attr:`Method.options`).

    Returns:
        The method's result; ``unsolvable`` at once, without a search, where the puzzle's
        invariant rules the goal out (:func:`exact.invariants.checked_start`).

    Raises:
        PuzzleoptError: the method does not apply, an option is unknown to it, or ``start`` is
            no state of the puzzle.
    """
    since = time.perf_counter()
    chosen = choose(puzzle, method, options)
    options = check_options(chosen, options)
    limits = _kept_to(chosen, puzzle, limits or Limits())
    start, why = checked_start(puzzle, start)
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver=chosen.name, since=since)
    way = _first_setup(chosen, puzzle, options)
    if (refused := _setup_refused(way, limits, since)) is not None:
        return SolveResult.build(
            puzzle, start, [], Status.LIMIT, seconds=time.perf_counter() - since, solver=chosen.name,
            settings={"time_limit": limits.time}, extra={"limit": refused},
        )  # fmt: skip
    with deadline(None if limits.time is None else limits.time - (time.perf_counter() - since)):
        try:
            return _from_the_call(chosen.run(puzzle, start, limits, **options), since)
        except SetupLimit as exc:
            why = (
                f"the set-up ({exc}) did not fit in the {limits.time:g} s limit; nothing was searched. Build the "
                "tables once (python -m exact.pdb build, or a solve without a limit), or allow more time"
            )
            return SolveResult.build(
                puzzle, start, [], Status.LIMIT, seconds=time.perf_counter() - since, solver=chosen.name,
                settings={"time_limit": limits.time}, extra={"limit": why},
            )  # fmt: skip


def _first_setup(method: Method, puzzle: Any, options: Mapping[str, Any]) -> Setup | None:
    """The set-up ``method`` declares for these options (:attr:`Method.setups`, the first way:
    the one it runs), stated in the log before it starts; ``None`` where it builds nothing."""
    ways = [] if method.setups is None else method.setups(puzzle, options, options.get("pdb_dir"))
    if not ways or ways[0].seconds <= 0:
        return None
    logger.info("%s on %s: set-up %s, about %.3g s on 2 cores", method.name, getattr(puzzle, "name", puzzle),
                ways[0].words, ways[0].seconds)  # fmt: skip
    return ways[0]


def _setup_refused(way: Setup | None, limits: Limits, since: float) -> str | None:
    """Why a method is not started at all under ``limits``: its set-up ``way`` takes longer, by
    its own estimate, than the time left, or no time is left at all; ``None`` where it may start.
    A build stopped at the deadline is work thrown away, and some (a 1.67 GB table's first phase)
    cannot stop in time."""
    if limits.time is None:
        return None
    left_s = limits.time - (time.perf_counter() - since)
    if way is None or way.seconds <= left_s:  # a set-up that does not fit says so, with what to do
        if left_s > 0:
            return None
        return f"the {limits.time:.3g} s limit was spent before the method started (choosing it, checking the start)"
    from exact.kernels import COMPILING

    once = [("build the tables once (python -m exact.pdb build, or a solve without a limit)", bool(way.nbytes)),
            ("run it once without a limit (then numba has its kernels cached)", COMPILING in way.what)]  # fmt: skip
    return (
        f"its set-up ({way.words}, about {way.seconds:.3g} s on 2 cores) did not fit in the {left_s:.3g} s "
        f"left of the {limits.time:.3g} s limit: it was not started. "
        + ", or ".join(["Allow more time"] + [hint for hint, applies in once if applies])
    )


def _from_the_call(result: SolveResult, since: float) -> SolveResult:
    """``result`` with its seconds counted from the call: a method's own clock starts after the
    checks and lazy imports before it (whole seconds, for the MIP's first Pyomo import)."""
    elapsed = time.perf_counter() - since
    return dataclasses.replace(result, seconds=elapsed) if result.seconds < elapsed else result


def _kept_to(method: Method, puzzle: Any, limits: Limits) -> Limits:
    """``limits``, refused where ``method`` cannot keep to one of them (a stored-state limit)."""
    if limits.stored is not None and not method.stored:
        keeps = ", ".join(m.name for m in methods(puzzle) if m.stored) or "none here"
        raise PuzzleoptError(
            f"method {method.name!r} cannot keep to a limit on stored states (--stored-limit); drop it, or use a "
            f"method that can ({keeps})"
        )
    return limits


def check_options(method: Method, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked for ``method``: each one it declares (:attr:`Method.options`, and the
    common ones), each value read as its declared kind (:meth:`exact.options.Option.read`: yes/no
    flags strictly, counts whole, text from a command line as the kind asks).

    Returns:
        The options, each value as its kind.

    Raises:
        PuzzleoptError: naming an option ``method`` does not take, or a value of the wrong kind.
    """
    declared = {o.name: o for o in (*OPTIONS_EVERY_METHOD_TAKES, *method.options)}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        raise PuzzleoptError(
            f"method {method.name!r} takes no option {', '.join(unknown)}; its options: {', '.join(declared)}"
        )
    return {k: declared[k].read(v, f"method {method.name!r}") for k, v in options.items()}


def _name(puzzle: Any) -> str:
    return getattr(puzzle, "name", type(puzzle).__name__)


_loaded = False


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib

        for module in BUILTIN_MODULES:
            importlib.import_module(module)
        _load_plugins()


PLUGINS = "puzzleopt.methods"
"""The entry-point group through which other packages add methods (``learned`` adds ``beam`` and
``bwas``): each entry point names a module whose import registers its methods, as the built-in
modules do. Their ranks come after the built-ins', so ``method="auto"`` still prefers those."""


def _load_plugins() -> None:
    """Import the installed packages' ``puzzleopt.methods`` entry points."""
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group=PLUGINS), key=lambda e: e.name):
        try:
            ep.load()
        except ImportError as exc:  # a plugin whose own needs are missing adds nothing, and says why
            get_logger(__name__).warning("methods of %s not loaded: %s", ep.value, exc)
