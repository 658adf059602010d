"""The MIP's options, declared once (:data:`OPTIONS`: name, kind, default, help, as the ``mip``
method registers them and every command generates its flags from them) and carried as one value
(:class:`MipOptions`) into :func:`exact.mip.solve_mip`. tests/test_method_registry.py checks that
the class's defaults are the declarations'."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from exact.options import HINT, HORIZON, THREADS, VERBOSE, Option

FORMULATION_NAMES = ("tight", "pairs", "seed")  # exact.mip.build.FORMULATIONS, without importing Pyomo

OPTIONS = (
    HORIZON,
    HINT,
    Option("hint_source", "text", None, "where the hint came from, as the proof reports it (e.g. the scramble's "
           "inverse)"),
    Option("formulation", "text", "pairs", "the model: tight, pairs (steps of two moves, the fastest measured on "
           "cubes; docs/mip.md) or seed", FORMULATION_NAMES),
    Option("split", "flag", True, "prove the bound piece by piece, splitting on the first moves (HiGHS, tight or "
           "pairs); false: the whole model in one solver run"),
    Option("incumbent", "text", "bfs", "how the split finds its first solution, or one shorter than the hint: "
           "bidirectional BFS (bfs) or the split MIP itself (mip)", ("bfs", "mip")),
    THREADS.with_default(None, "worker processes of the split, one HiGHS thread each (unset: none, the pieces run "
                         "one after another in this process); with split false, HiGHS threads (unset: 1)"),
    Option("solver", "text", "highs", "a Pyomo solver name (e.g. cbc where installed; the split needs highs)"),
    Option("piece_time_limit", "seconds", 10.0, "seconds of one piece of the split before it is split again on one "
           "more move"),
    Option("confirm_infeasible", "flag", False, "accept HiGHS's infeasibility claims only when HiGHS without "
           "presolve agrees (slower; docs/mip.md, 'Infeasibility claims')"),
    VERBOSE,
    Option("write_model", "text", None, "also write the model to this .lp or .mps file (whole-model runs)"),
    Option("solver_options", "object", None, "options handed to the solver as they are (HiGHS option names)"),
    Option("piece_links", "flag", False, "add the piece links (T9) to the tight formulation"),
    Option("executor", "object", None, "where the split's pieces run: processes, in-process, ray or an "
           "exact.executor.Executor (unset: threads worker processes where threads > 1, else this process)"),
)  # fmt: skip
"""The ``mip`` method's options (``horizon``, ``hint`` and ``hint_source`` are the run's; the rest are
:class:`MipOptions`' fields)."""


@dataclass(frozen=True)
class MipOptions:
    """How :func:`exact.mip.solve_mip` builds and proves: the ``mip`` method's options
    (:data:`OPTIONS` says what each means) less the run's own (horizon, hint, time limit).

    Attributes:
        formulation: ``"tight"``, ``"pairs"`` or ``"seed"``.
        split: Prove piece by piece (HiGHS with ``tight`` or ``pairs``).
        incumbent: ``"bfs"`` or ``"mip"``.
        threads: Worker processes of the split; HiGHS threads of a whole-model run (``None``: 1).
        solver: A Pyomo solver name.
        piece_time_limit: Seconds of one piece before it is split again.
        confirm_infeasible: Re-check HiGHS's infeasibility claims without presolve.
        verbose: Show the solver's log (whole-model runs).
        write_model: Also write the model to this ``.lp``/``.mps`` file.
        solver_options: Handed to the solver as they are.
        piece_links: Add the piece links (T9) to the tight formulation.
        executor: Where the split's pieces run (:func:`exact.mip.split.split_executor`).
    """

    formulation: str = "pairs"
    split: bool = True
    incumbent: str = "bfs"
    threads: int | None = None
    solver: str = "highs"
    piece_time_limit: float = 10.0
    confirm_infeasible: bool = False
    verbose: bool = False
    write_model: str | None = None
    solver_options: dict[str, Any] | None = None
    piece_links: bool = False
    executor: Any = None

    @classmethod
    def of(cls, options: dict[str, Any]) -> MipOptions:
        """The fields among ``options`` (a method's keywords), the rest left at their defaults."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in options.items() if k in names})

    @property
    def workers(self) -> int:
        """The threads or worker processes asked for (unset: 1)."""
        return 1 if self.threads is None else self.threads

    @property
    def splits(self) -> bool:
        """Whether the split proves: asked, and possible (HiGHS, a formulation that splits)."""
        return self.split and self.formulation != "seed" and self.solver == "highs"


__all__ = ["FORMULATION_NAMES", "OPTIONS", "MipOptions"]
