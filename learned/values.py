"""Cost-to-go values of states: the network as a batched heuristic, and the Bellman target.

Everything works through the batched puzzle protocol (:class:`exact.puzzle.Puzzle`): ``expand``
for children, ``is_goal`` for the goal, ``encode`` for the network's input. Nothing here knows
which puzzle it runs on.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

from exact.puzzle import Puzzle
from learned.nets import CostToGo

ValueFn = Callable[[np.ndarray], np.ndarray]


class NetHeuristic:
    """A network as a heuristic for search: float64 ``(B,)`` values of ``(B, P)`` states, 0 at
    goals and never negative. Not admissible (it is learned).

    Args:
        puzzle: The puzzle the network was trained on.
        net: The network (put in eval mode here).
        device: Torch device for evaluation.
        chunk: Largest batch sent to the network at once (``None``: 20,000 on the CPU, where
            larger batches do not run faster, 2^20 on an accelerator, which wants them large).
        precision: ``"fp32"``, or ``"bf16"``: bfloat16 autocast (measured on the 3x3's 4M network,
            two cores with bf16 instructions: 3.0 times the states per second, values within
            0.11 of fp32's; ``docs/benchmarks/learned_cube3.md``), or ``"auto"``: bf16 where it
            pays (:func:`learned.runtime.bf16_pays`).
    """

    admissible = False

    def __init__(
        self, puzzle: Puzzle, net: CostToGo, device: str = "cpu", chunk: int | None = None, precision: str = "fp32"
    ) -> None:
        from learned.runtime import check_precision

        self.puzzle = puzzle
        self.net = net.to(device).eval()
        self.device = device
        self.chunk = int(chunk) if chunk is not None else 20000 if str(device) == "cpu" else 2**20
        self.precision = check_precision(precision, device)
        self.name = "net"
        self.card: dict = {}  # the model card, where the network came from a file

    @torch.inference_mode()
    def __call__(self, states: np.ndarray) -> np.ndarray:
        s = self.puzzle.states(states)
        out = np.empty(s.shape[0], dtype=np.float64)
        kind = "cuda" if str(self.device).startswith("cuda") else "cpu"
        for i in range(0, s.shape[0], self.chunk):
            x = self.net.inputs(self.puzzle, s[i : i + self.chunk]).to(self.device)
            with torch.autocast(kind, dtype=torch.bfloat16, enabled=self.precision == "bf16"):
                out[i : i + self.chunk] = self.net(x).double().cpu().numpy()
        np.maximum(out, 0.0, out=out)
        out[self.puzzle.is_goal(s)] = 0.0
        return out


def child_costs(puzzle: Puzzle, states: np.ndarray, value: ValueFn) -> tuple[np.ndarray, np.ndarray]:
    """``1 + J(child)`` for each action of each state (``J = 0`` at goal children, ``inf`` where the
    action does not apply), and the children.

    Returns:
        float64 ``(B, A)`` costs and the children ``(B, A, P)``.
    """
    children, rows = puzzle.expand(states)
    b, a, p = children.shape
    flat = children.reshape(b * a, p)
    j = np.where(puzzle.is_goal(flat), 0.0, np.asarray(value(flat), dtype=np.float64)).reshape(b, a)
    return np.where(rows >= 0, 1.0 + j, np.inf), children


def bellman_targets(puzzle: Puzzle, states: np.ndarray, value: ValueFn) -> np.ndarray:
    """DeepCubeA's one-step lookahead target: 0 for a goal, else ``min over children of
    (1 + J(child))`` with ``J = 0`` at goal children.

    Args:
        puzzle: The puzzle.
        states: ``(B, P)``.
        value: ``J``: float ``(N,)`` for ``(N, P)`` states (e.g. the target network).

    Returns:
        float64 ``(B,)``.
    """
    s = puzzle.states(states)
    out = child_costs(puzzle, s, value)[0].min(axis=1)
    out[puzzle.is_goal(s)] = 0.0
    return out


def greedy_solve_rate(
    puzzle: Puzzle, value: ValueFn, depth: int, n: int, rng: np.random.Generator, max_steps: int | None = None
) -> float:
    """Share of ``n`` states scrambled ``depth`` moves that the greedy policy (always the child
    of least ``1 + J``) solves within ``max_steps`` moves (default ``2 * depth + 2``)."""
    s = puzzle.random_walk(n, depth, rng)
    solved = puzzle.is_goal(s)
    for _ in range(max_steps if max_steps is not None else 2 * depth + 2):
        live = np.flatnonzero(~solved)
        if not live.size:
            break
        costs, children = child_costs(puzzle, s[live], value)
        s[live] = children[np.arange(live.size), costs.argmin(axis=1)]
        solved[live] = puzzle.is_goal(s[live])
    return float(solved.mean())
