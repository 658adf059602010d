"""Every registered puzzle as a Gymnasium environment (the ``gym`` extra: ``pip install
puzzleopt[gym]``).

::

    import gymnasium
    import puzzleopt.gym  # registers puzzleopt/<name>-v0 for every registry name

    env = gymnasium.make("puzzleopt/cube2-v0", scramble_depth=8)
    obs, info = env.reset(seed=0)           # obs: the labels, uint8 (P,); info["optimal_distance"]
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

(``gymnasium.make("puzzleopt.gym:puzzleopt/cube2-v0")`` imports this module itself.)

An action is one of the puzzle's actions (:attr:`exact.puzzle.Puzzle.actions`); each step costs
-1. Where a move's guard rules it out (a tile that cannot slide), the step leaves the state as
it is, still costs -1 and says so (``info["illegal_action"]``); ``info["action_mask"]`` (int8,
1 where the action applies) lets an agent avoid them. An episode ends at the goal
(``terminated``) or after ``max_steps`` steps (``truncated``). ``reset(options={"state": s})``
starts from a given state (text or labels, checked), ``options={"scramble_depth": k}`` from a
random walk of k moves from the goal drawn with the environment's seeded generator.

``info["optimal_distance"]`` is the start's optimal distance (at reset) and the current state's
(each step) where an exact method gives it cheaply: the puzzle's complete distance table
(``optimal="auto"``, the default: the 8-puzzle, the 2x2x2, ...; the table is built once, within
``optimal_time_limit``: a table that does not build in time is not tried again, the distance is
left out and a warning says how to build it); with ``optimal="always"`` the exact method of
:func:`exact.solvers.solve` (``method="auto"``) solves each start at reset, within
``optimal_time_limit`` seconds (``None`` where it proves nothing in time); ``optimal="never"``
leaves it out. ``optimal_time_limit`` covers every set-up (tables built or loaded).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from exact import registry, solvers
from exact.errors import MissingExtra, PuzzleoptError, UnsolvableError
from exact.logs import get_logger
from exact.resources import MAX_SCRAMBLE

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as exc:  # one line naming the extra, not a bare ModuleNotFoundError
    raise MissingExtra("puzzleopt.gym", "gym") from exc

__all__ = ["PuzzleEnv", "env_id", "register_envs"]

_log = get_logger(__name__)

OPTIMAL = ("auto", "always", "never")


def env_id(name: str) -> str:
    """The Gymnasium id of registry puzzle ``name``: ``puzzleopt/<name>-v0``."""
    return f"puzzleopt/{name}-v0"


class PuzzleEnv(gymnasium.Env):
    """One registry puzzle as an environment (see the module docstring).

    Args:
        puzzle: the registry name (:func:`exact.registry.names`).
        scramble_depth: moves of the random walk that makes a start at reset (default 20).
        max_steps: steps before an episode is truncated (default 200).
        optimal: ``auto``, ``always`` or ``never`` (``info["optimal_distance"]``).
        optimal_time_limit: seconds for each exact solve under ``optimal="always"``.
        pdb_dir: where distance tables are kept (default: the user cache).
        render_mode: ``ansi`` (the state's text) or None.
        **options: the puzzle's options (``registry.get(puzzle, **options)``).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        puzzle: str = "cube2",
        scramble_depth: int = 20,
        max_steps: int = 200,
        optimal: str = "auto",
        optimal_time_limit: float | None = 10.0,
        pdb_dir: str | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if optimal not in OPTIMAL:
            raise PuzzleoptError(f"optimal={optimal!r}: use one of {', '.join(OPTIMAL)}")
        if render_mode not in (None, "ansi"):
            raise PuzzleoptError(f"render_mode={render_mode!r}: use 'ansi' or None")
        scramble_depth = _whole(scramble_depth, "scramble_depth", 0, MAX_SCRAMBLE)
        max_steps = _whole(max_steps, "max_steps", 1, None)
        self.puzzle = registry.get(puzzle, **options)
        self.scramble_depth, self.max_steps, self.render_mode = scramble_depth, max_steps, render_mode
        self.optimal, self.optimal_time_limit, self.pdb_dir = optimal, optimal_time_limit, pdb_dir
        p = self.puzzle
        self.action_space = spaces.Discrete(p.num_actions)
        self.observation_space = spaces.Box(0, p.num_labels - 1, shape=(p.num_positions,), dtype=np.uint8)
        self._state = np.asarray(p.goal, dtype=np.uint8)
        self._steps = 0
        self._table: bool | None = None  # whether the complete distance table answers (decided on first use)

    # ----------------------------------------------------------------- Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"state", "scramble_depth"}
        if unknown:
            raise PuzzleoptError(f"reset options {sorted(unknown)}: use 'state' or 'scramble_depth'")
        if "state" in options:
            self._state = self._given(options["state"])
        else:
            depth = _whole(options.get("scramble_depth", self.scramble_depth), "scramble_depth", 0, MAX_SCRAMBLE)
            self._state = self._scramble(depth)
        self._steps = 0
        return self._state.copy(), self._info(at_reset=True)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self.action_space.contains(action):
            raise PuzzleoptError(f"action {action!r} is not in 0..{self.puzzle.num_actions - 1}")
        row = int(self.puzzle.choose_rows(self._state[None])[0, int(action)])
        if row >= 0:
            self._state = self._state[self.puzzle.table.perms[row]]
        self._steps += 1
        terminated = bool(self.puzzle.solved(self._state))
        truncated = not terminated and self._steps >= self.max_steps
        info = self._info(at_reset=False)
        info["illegal_action"] = row < 0
        return self._state.copy(), -1.0, terminated, truncated, info

    def render(self) -> str | None:
        return self.puzzle.format_state(self._state) if self.render_mode == "ansi" else None

    # ----------------------------------------------------------------- helpers
    def action_mask(self) -> np.ndarray:
        """int8 ``(A,)``: 1 where the action applies to the current state."""
        mask: np.ndarray = (self.puzzle.choose_rows(self._state[None])[0] >= 0).astype(np.int8)
        return mask

    def _given(self, state: str | np.ndarray) -> np.ndarray:
        """A reset's ``state``, checked: a state of the puzzle that some moves solve (an episode
        from an unsolvable start could never terminate)."""
        p = self.puzzle
        labels = p.parse_state(state) if isinstance(state, str) else p.check_state(np.asarray(state))
        why = p.unsolvable(np.asarray(labels))
        if why is not None:
            raise UnsolvableError(f"reset option 'state': no moves solve it ({why}); give a solvable state")
        return np.asarray(labels, dtype=np.uint8)

    def _scramble(self, depth: int) -> np.ndarray:
        """A random walk of ``depth`` moves from the goal that does not end on it (where it can)."""
        for _ in range(100):
            state = self.puzzle.random_walk(1, depth, self.np_random)[0]
            if depth == 0 or not self.puzzle.solved(state):
                break
        return np.asarray(state, dtype=np.uint8)

    def _info(self, at_reset: bool) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_mask()}
        if self.optimal == "never" or (self.optimal == "always" and not at_reset and not self._tabled()):
            return info
        if self.optimal == "auto" and not self._tabled():
            return info
        distance = self._distance()
        if self.optimal == "auto" and not self._tabled():  # its table was refused just now: as ever after
            return info
        info["optimal_distance"] = distance
        return info

    def _tabled(self) -> bool:
        if self._table is None:
            self._table = solvers.get_method("table-walk").applies(self.puzzle)
        return self._table

    def _distance(self) -> int | None:
        tabled = self._tabled()
        limits = solvers.Limits(time=self.optimal_time_limit)  # the table's build included
        r = solvers.solve(self.puzzle, self._state, method="table-walk" if tabled else "auto", limits=limits,
                          pdb_dir=self.pdb_dir)  # fmt: skip
        if tabled and r.status.value == "limit":  # the table was not built in time: not asked again
            self._table = False
            _log.warning(
                "%s: its distance table was not built within optimal_time_limit=%s s, so info has no "
                "'optimal_distance'; build it once (python -m exact.solve --puzzle %s --method table-walk "
                "--scramble-length 1) or raise optimal_time_limit",
                self.puzzle.name, self.optimal_time_limit, self.puzzle.name,
            )  # fmt: skip
            return None
        return r.length if r.status.value == "optimal" else None


def register_envs() -> list[str]:
    """Register ``puzzleopt/<name>-v0`` for every registry puzzle (once); the ids."""
    ids = []
    for name in registry.names():
        ident = env_id(name)
        if ident not in gymnasium.registry:
            gymnasium.register(id=ident, entry_point=PuzzleEnv, kwargs={"puzzle": name})
        ids.append(ident)
    return ids


register_envs()


def _whole(value: Any, what: str, least: int, most: int | None) -> int:
    """``value`` checked as a whole number in ``least..most`` (``most`` None: no top)."""
    ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
    if not ok or value < least or (most is not None and value > most):
        span = f"in {least:,}..{most:,}" if most is not None else f">= {least}"
        raise PuzzleoptError(f"{what} must be a whole number {span}, got {value!r}")
    return int(value)
