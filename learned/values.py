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
from learned.inference import CPU_CHUNK, FusedNet, fuse
from learned.int8 import CHUNK as INT8_CHUNK
from learned.int8 import Int8Net, quantize
from learned.nets import CostToGo

ValueFn = Callable[[np.ndarray], np.ndarray]

INPUT_SHARE = 20000
"""States whose network inputs are made at a time (one-hot inputs are wide): memory, not results."""

CALIBRATION_STATES = 8192
"""States of seeded random walks that fix an int8 network's activation scales (``precision="int8"``)."""


class NetHeuristic:
    """A network as a heuristic for search: float64 ``(B,)`` values of ``(B, P)`` states, 0 at
    goals and never negative. Not admissible (it is learned).

    Args:
        puzzle: The puzzle the network was trained on.
        net: The network (put in eval mode here).
        device: Torch device for evaluation.
        chunk: Largest batch sent to the network at once (``None``: on the CPU 20,000 in
            float32, :data:`learned.inference.CPU_CHUNK` in bfloat16 and
            :data:`learned.int8.CHUNK` in int8, the sizes that measured fastest; 2^20 on an
            accelerator, which wants them large).
        precision: ``"fp32"``, or ``"bf16"``: on the CPU the network fused by
            :func:`learned.inference.fuse` (batch norms folded, hidden layers in bfloat16), on a
            GPU bfloat16 autocast; or ``"int8"`` (CPU only): the network in 8-bit integers
            (:mod:`learned.int8`), its scales fixed on :data:`CALIBRATION_STATES` states of
            random walks (seeded: the same values in every run); or ``"auto"``: int8 where it
            pays (:func:`learned.runtime.int8_pays`), else bf16 where that pays
            (:func:`learned.runtime.bf16_pays`), else fp32. Measured on the 3x3's 4M network in
            ``docs/benchmarks/inference.md``.
    """

    admissible = False

    def __init__(
        self, puzzle: Puzzle, net: CostToGo, device: str = "cpu", chunk: int | None = None, precision: str = "fp32"
    ) -> None:
        from learned.runtime import check_precision

        self.puzzle = puzzle
        self.net = net.to(device).eval()
        self.device = device
        self.requested_chunk = None if chunk is None else max(1, int(chunk))
        self.precision = check_precision(precision, device, net.config.activation)
        self.name = "net"
        self.card: dict = {}  # the model card, where the network came from a file
        self._fused: tuple[tuple, FusedNet | Int8Net] | None = None

    def __getstate__(self) -> dict:
        # the fast network is remade on first use: an int8 one holds oneDNN's packed weights,
        # which do not pickle
        return {**self.__dict__, "_fused": None}

    @property
    def on_gpu(self) -> bool:
        return str(self.device).startswith("cuda")

    @property
    def chunk(self) -> int:
        """States per network call (``chunk`` as given, else the default for the device and precision)."""
        if self.requested_chunk is not None:
            return self.requested_chunk
        if self.on_gpu:
            return 2**20
        return {"bf16": CPU_CHUNK, "int8": INT8_CHUNK}.get(self.precision, 20000)

    def fused_net(self) -> FusedNet | Int8Net | None:
        """The fused network for bf16 or int8 on the CPU, rebuilt whenever the weights have
        changed (a training step or ``load_state_dict`` bumps their version counters)."""
        if self.on_gpu or self.precision not in ("bf16", "int8"):
            return None
        key = (str(self.device), self.precision, *(t._version for t in (*self.net.parameters(), *self.net.buffers())))
        if self._fused is None or self._fused[0] != key:
            bf16 = self.precision == "bf16"
            self._fused = (key, fuse(self.net, torch.bfloat16) if bf16 else quantize(self.net, self._calibration()))
        return self._fused[1]

    def _calibration(self) -> torch.Tensor:
        """Network inputs of :data:`CALIBRATION_STATES` states of non-backtracking random walks
        from the goal (seed 0), their lengths uniform in ``1..k_max``: the training walks' longest
        (the card's ``max_scramble``) where the card says, else the puzzle's default."""
        from learned.diffusion import default_k_max, walks

        k_max = self.card.get("davi", {}).get("max_scramble") or default_k_max(self.puzzle)
        rng = np.random.default_rng(0)
        states, _ = walks(self.puzzle, rng.integers(1, int(k_max) + 1, CALIBRATION_STATES), rng)
        return self.net.inputs(self.puzzle, states)

    @torch.inference_mode()
    def scores(self, x: torch.Tensor) -> torch.Tensor:
        """The network's raw values (float32 ``(B,)``, not clamped) of its inputs ``x`` on the
        device (:meth:`learned.nets.CostToGo.device_inputs`), ``chunk`` states a call."""
        fused = self.fused_net()
        kind, bf16 = "cuda" if self.on_gpu else "cpu", self.precision == "bf16"
        parts = []
        for c in torch.split(x, self.chunk):
            if fused is not None:
                parts.append(fused(c))
                continue
            with torch.autocast(kind, dtype=torch.bfloat16, enabled=bf16):
                parts.append(self.net(c).float())
        return torch.cat(parts) if parts else torch.zeros(0, device=x.device)

    @torch.inference_mode()
    def __call__(self, states: np.ndarray) -> np.ndarray:
        s = self.puzzle.states(states)
        out = np.empty(s.shape[0], dtype=np.float64)
        step = self.chunk * -(-INPUT_SHARE // self.chunk)  # whole chunks: no short call per share
        for i in range(0, s.shape[0], step):
            x = self.net.inputs(self.puzzle, s[i : i + step]).to(self.device)
            out[i : i + step] = self.scores(x).double().cpu().numpy()
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
