"""``build_mip``: one entry point to every MIP formulation, from the move table alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pyomo.environ as pyo

from exact.errors import PuzzleoptError
from exact.mip import seed, tight
from exact.movetable import MoveTable
from exact.puzzle import Goal
from exact.timeindexed import check_horizon, check_start


@dataclass(frozen=True)
class Formulation:
    """A MIP formulation: its builder, how an objective bound bounds the length, and how to read
    the move of each step from a solved model."""

    name: str
    build: Callable[..., pyo.ConcreteModel]
    length_bound: Callable[[float], int]
    chosen_moves: Callable[[pyo.ConcreteModel, int], list]
    summary: str
    reduce_frame: bool = True


FORMULATIONS = {
    "tight": Formulation(
        "tight",
        tight.build_tight,
        tight.length_bound,
        tight.chosen_moves,
        "binary moves, label flow along arcs, done chain, symmetry breaking",
    ),
    "pairs": Formulation(
        "pairs",
        partial(tight.build_tight, moves_per_step=2),
        tight.length_bound,
        tight.chosen_moves,
        "the tight model with two moves per step (the LP sees each pair of consecutive moves)",
    ),
    "seed": Formulation(
        "seed",
        seed.build_seed,
        seed.length_bound,
        seed.chosen_moves,
        "the case study's big-M model, constraints (1)-(12)",
        reduce_frame=False,
    ),
}


def formulation(name: str) -> Formulation:
    """The formulation called ``name`` (raises with the known names)."""
    if name not in FORMULATIONS:
        raise PuzzleoptError(f"formulation {name!r} is unknown: use one of {', '.join(FORMULATIONS)}")
    return FORMULATIONS[name]


def build_mip(
    table: MoveTable,
    start: np.ndarray,
    goal_test: Goal | np.ndarray,
    T: int,
    formulation: str = "tight",
    num_labels: int | None = None,
    max_moves: int | None = None,
    links: Sequence[tuple[tuple[int, int], tuple[int, int]]] = (),
) -> pyo.ConcreteModel:
    """A time-indexed MIP whose optimum is a shortest move sequence of at most ``T`` moves.

    A pure function: it reads the table and returns a new Pyomo model; nothing is solved.

    Args:
        table: The move table (any puzzle whose moves are guarded permutations).
        start: Labels of the start state, int ``(P,)``.
        goal_test: A :class:`~exact.puzzle.Goal`, or one goal state ``(P,)``.
        T: The horizon (most moves allowed).
        formulation: ``"tight"`` (default), ``"pairs"`` (the tight model over steps of two
            moves) or ``"seed"`` (see ``docs/mip.md``).
        num_labels: Labels ``K`` (default: the largest label in start or goal, plus one).
        max_moves: If given, also require at most this many moves (a cutoff from a known
            solution: the model is then infeasible exactly when that solution is optimal).
        links: Label links of pieces (tight formulation; see :func:`exact.timeindexed.piece_links`).

    Returns:
        A ``pyomo.environ.ConcreteModel`` with variables ``y[m, t]`` for the moves.
    """
    T = check_horizon(T)
    goal = goal_test if isinstance(goal_test, Goal) else Goal(state=np.asarray(goal_test))
    if num_labels is None:
        highest = [np.max(start)] + ([np.max(goal.state)] if goal.state is not None else [])
        num_labels = int(max(highest)) + 1
    s = check_start(table, start, num_labels)
    return FORMULATIONS[formulation_name(formulation)].build(table, s, goal, T, num_labels, max_moves, links)


def formulation_name(name: str) -> str:
    return formulation(name).name


def model_size(model: pyo.ConcreteModel) -> dict[str, int]:
    """Variables, binaries/integers and constraints of a model (fixed variables not counted)."""
    variables = [v for v in model.component_data_objects(pyo.Var, active=True) if not v.fixed]
    return {
        "variables": len(variables),
        "integer_variables": sum(1 for v in variables if v.is_integer()),
        "constraints": sum(1 for _ in model.component_data_objects(pyo.Constraint, active=True)),
    }
