"""One Santa 2023 puzzle in the batched :class:`~exact.puzzle.Puzzle` protocol: its type's moves,
its own solution state, and a goal test that allows its wildcards."""

from __future__ import annotations

import numpy as np

from exact.errors import StateError
from exact.puzzle import Goal, Puzzle
from exact.puzzles.santa.instances import Instance, table


class SantaPuzzle(Puzzle):
    """Puzzle ``instance`` of Santa 2023 (:func:`exact.puzzles.santa.instances`).

    States are label numbers (:meth:`Instance.encoded`): uint8, or uint16 for the puzzles with
    more than 256 labels (ids 283, 391, 395). A state is solved when at most
    ``instance.wildcards`` positions differ from the solution state.

    Args:
        instance: The puzzle.

    Attributes:
        instance: The :class:`~exact.puzzles.santa.instances.Instance`.
        start: Its initial state.
        wildcards: Positions that may differ at the end.
    """

    def __init__(self, instance: Instance) -> None:
        start, goal = instance.encoded()
        labels = int(goal.max()) + 1
        # Puzzle keeps uint8 goals; three puzzles have more labels, so the goal is set wider below
        super().__init__(f"santa {instance.id} ({instance.type})", table(instance.type), goal % 256, labels)
        dtype = np.uint8 if labels <= 256 else np.uint16
        self.goal = goal.astype(dtype)
        self.goal.setflags(write=False)
        self.start = start.astype(dtype)
        self.instance = instance
        self.wildcards = instance.wildcards

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        s = self.states(states)
        out: np.ndarray = (s != self.goal).sum(axis=1) <= self.wildcards
        return out

    def solved_prefix(self, rows: list[int]) -> list[int]:
        """The shortest prefix of ``rows`` after which the puzzle is solved (its wildcards allowed:
        an answer may end early), or ``rows`` itself."""
        if not self.wildcards:
            return rows
        state = self.start
        perms = np.asarray(self.table.perms)
        for k, r in enumerate(rows):
            if int((state != self.goal).sum()) <= self.wildcards:
                return rows[:k]
            state = state[perms[r]]
        return rows

    def goal_spec(self, start: np.ndarray | None = None) -> Goal:
        if self.wildcards:
            raise StateError(f"{self.name}: its goal allows {self.wildcards} wildcards, which the models do not state")
        return Goal(state=self.goal)

    def check_state(self, state: object) -> np.ndarray:
        s = np.asarray(state)
        if s.shape != (self.num_positions,) or sorted(s.tolist()) != sorted(self.goal.tolist()):
            raise StateError(f"{self.name}: a state holds the solution's {self.num_positions} labels in some order")
        return s.astype(self.goal.dtype)


__all__ = ["SantaPuzzle"]
