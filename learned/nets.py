"""Cost-to-go networks: DeepCubeA's residual network and the ANN-distance regression net.

One class, :class:`CostToGo`, configured by a :class:`NetConfig`; the papers' sizes are presets.
The input is the puzzle's one-hot encoding (:meth:`exact.puzzle.Puzzle.encode`, float32
``(B, P * K)``), the output one float per state, the estimated number of moves to the goal.

* DeepCubeA (``"paper"``): two fully connected layers of 5000 and 1000 units, four residual blocks
  of two 1000-unit layers, batch norm and ReLU after each layer, one linear output.
* ANN-distance (``"ann-distance"``): layers of 1024, 1024, 512, 128 and 64 units with batch norm,
  ELU and dropout, one linear output; no residual blocks.
* ``"small"``: DeepCubeA's shape at a size a CPU trains in minutes (the shipped models).
* CayleyPy's ResMLPs (Chervov et al. 2025), whose first layer is an *embedding sum*: the network
  takes the states themselves (integer ``(B, P)``) and adds one learned vector per (position,
  label), which is what a dense layer on the one-hot vector computes, at ``P`` lookups a state
  instead of a ``P * K``-wide product. ``"resmlp-cpu"`` is their small setting (1024, 256, one
  residual block; trained on two CPU cores), ``"resmlp-gpu"`` their 4M-parameter one (700, 643,
  four residual blocks).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np
import torch
from torch import nn

from exact.errors import PuzzleoptError

ACTIVATIONS = {"relu": nn.ReLU, "elu": nn.ELU}


@dataclass(frozen=True)
class NetConfig:
    """The shape of a :class:`CostToGo` network.

    Attributes:
        inputs: Input width (``P * K`` of the puzzle's one-hot encoding).
        widths: Widths of the plain fully connected layers, in order.
        res_blocks: Residual blocks after them, each two layers of ``widths[-1]`` units.
        activation: ``"relu"`` or ``"elu"``.
        batch_norm: Batch norm after each hidden layer.
        dropout: Dropout probability after each plain layer (0 for none).
        labels: ``0``: the input is the one-hot vector (float32 ``(B, inputs)``). ``K > 0``: the
            input is the states (integer ``(B, inputs / K)``, labels ``0..K-1``) and the first
            layer is an embedding sum over (position, label).
    """

    inputs: int
    widths: tuple[int, ...] = (5000, 1000)
    res_blocks: int = 4
    activation: str = "relu"
    batch_norm: bool = True
    dropout: float = 0.0
    labels: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "widths", tuple(int(w) for w in self.widths))
        if self.labels < 0 or (self.labels and self.inputs % self.labels):
            raise PuzzleoptError(
                f"network shape inputs={self.inputs}, labels={self.labels}: labels must be 0 (one-hot input) or "
                "divide the input width (positions x labels)"
            )
        if self.inputs < 1 or not self.widths or min(self.widths) < 1 or self.res_blocks < 0:
            raise PuzzleoptError(
                f"network shape inputs={self.inputs}, widths={list(self.widths)}, res_blocks={self.res_blocks}: "
                "give a positive input width, at least one positive layer width and res_blocks >= 0"
            )
        if self.activation not in ACTIVATIONS:
            raise PuzzleoptError(f"activation {self.activation!r} is unknown; use one of {', '.join(ACTIVATIONS)}")
        if not 0.0 <= self.dropout < 1.0:
            raise PuzzleoptError(f"dropout {self.dropout} must be in [0, 1)")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["widths"] = list(self.widths)
        return d


@dataclass(frozen=True)
class Preset:
    """A named network shape, for any input width."""

    widths: tuple[int, ...]
    res_blocks: int
    activation: str = "relu"
    batch_norm: bool = True
    dropout: float = 0.0
    embed: bool = False
    about: str = field(default="", compare=False)

    def config(self, positions: int, labels: int) -> NetConfig:
        """The shape for a puzzle of ``positions`` positions and ``labels`` labels."""
        return NetConfig(
            positions * labels, self.widths, self.res_blocks, self.activation, self.batch_norm, self.dropout,
            labels if self.embed else 0,
        )  # fmt: skip


PRESETS = {
    "paper": Preset((5000, 1000), 4, about="DeepCubeA: 5000, 1000, four residual blocks of 1000"),
    "small": Preset((1000, 300), 2, about="DeepCubeA's shape, CPU-sized: 1000, 300, two residual blocks of 300"),
    "tiny": Preset((128, 64), 1, about="for tests: 128, 64, one residual block of 64"),
    "tiny-nobn": Preset(
        (128, 64),
        1,
        batch_norm=False,
        about="tiny without batch norm: data-parallel training (DDP) then equals one process's, up to rounding",
    ),
    "ann-distance": Preset(
        (1024, 1024, 512, 128, 64),
        0,
        activation="elu",
        dropout=0.1,
        about="ANN-distance: 1024, 1024, 512, 128, 64, ELU, batch norm, dropout",
    ),
    "resmlp-cpu": Preset(
        (1024, 256),
        1,
        embed=True,
        about="CayleyPy's small ResMLP, for two CPU cores: embedding sum, 1024, 256, one residual block of 256",
    ),
    "resmlp-gpu": Preset(
        (700, 643),
        4,
        embed=True,
        about="CayleyPy's 4M-parameter ResMLP: embedding sum, 700, 643, four residual blocks of 643",
    ),
    "resmlp-tiny": Preset((64, 32), 1, embed=True, about="for tests: embedding sum, 64, 32, one residual block"),
}


def preset_config(name: str, positions: int, labels: int) -> NetConfig:
    """The :class:`NetConfig` of preset ``name`` for a puzzle of ``positions`` positions and
    ``labels`` labels."""
    if name not in PRESETS:
        raise PuzzleoptError(f"network preset {name!r} is unknown; use one of {', '.join(PRESETS)}")
    return PRESETS[name].config(positions, labels)


class EmbeddingSum(nn.Module):
    """A dense layer on the one-hot vector, computed as a sum of looked-up rows.

    ``forward(states)``: integer ``(B, P)`` -> float32 ``(B, width)``, equal to
    ``Linear(P * K, width)`` applied to the one-hot encoding of ``states``.
    """

    def __init__(self, positions: int, labels: int, width: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.empty(positions * labels, width))
        self.bias = nn.Parameter(torch.empty(width))
        self.labels = labels
        self.register_buffer("offsets", torch.arange(positions) * labels, persistent=False)

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        return nn.functional.embedding_bag(states.long() + self.offsets, self.weight, mode="sum") + self.bias


class _Residual(nn.Module):
    def __init__(self, width: int, act: type[nn.Module], batch_norm: bool) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(width, width),
            nn.BatchNorm1d(width) if batch_norm else nn.Identity(),
            act(),
            nn.Linear(width, width),
            nn.BatchNorm1d(width) if batch_norm else nn.Identity(),
        )
        self.act = act()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(x + self.body(x))


class CostToGo(nn.Module):
    """A cost-to-go network (see the module docstring).

    Args:
        config: Its shape.
    """

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config
        act = ACTIVATIONS[config.activation]
        layers: list[nn.Module] = []
        width = config.inputs
        for i, w in enumerate(config.widths):
            first = EmbeddingSum(width // config.labels, config.labels, w) if i == 0 and config.labels else None
            layers += [first or nn.Linear(width, w), nn.BatchNorm1d(w) if config.batch_norm else nn.Identity(), act()]
            if config.dropout:
                layers.append(nn.Dropout(config.dropout))
            width = w
        layers += [_Residual(width, act, config.batch_norm) for _ in range(config.res_blocks)]
        self.body = nn.Sequential(*layers)
        self.out = nn.Linear(width, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """float32 ``(B, inputs)`` (one-hot input) or integer ``(B, P)`` (embedding sum) -> float32 ``(B,)``."""
        return self.out(self.body(x)).squeeze(-1)

    def inputs(self, puzzle, states: np.ndarray) -> torch.Tensor:
        """The network's input for ``(B, P)`` states of ``puzzle``, on the CPU: the one-hot
        encoding (float32 ``(B, P * K)``), or the states themselves (uint8 ``(B, P)``) for an
        embedding-sum network."""
        if self.config.labels:
            return torch.from_numpy(np.ascontiguousarray(puzzle.states(states), dtype=np.uint8))
        return torch.from_numpy(puzzle.encode(states))

    def device_inputs(self, states: torch.Tensor) -> torch.Tensor:
        """:meth:`inputs` of a tensor of states ``(B, P)`` already on the network's device."""
        if self.config.labels:
            return states
        k = self.config.inputs // states.shape[1]
        return nn.functional.one_hot(states.long(), k).reshape(states.shape[0], -1).float()


def make_net(config: NetConfig, seed: int) -> CostToGo:
    """A freshly initialised network whose initial weights depend on ``seed`` only.

    The layers are made on the meta device (no memory, no random draws) and then initialised
    from a private ``torch.Generator`` as PyTorch's defaults would (Kaiming-uniform weights and
    uniform biases for linear layers; ones and zeros for batch norm), so torch's global random
    state is neither read nor set.
    """
    with torch.device("meta"):
        net = CostToGo(config)
    net = net.to_empty(device="cpu")
    gen = torch.Generator().manual_seed(int(seed))
    with torch.no_grad():
        for module in net.modules():
            if isinstance(module, nn.Linear):
                nn.init.kaiming_uniform_(module.weight, a=math.sqrt(5), generator=gen)
                bound = 1.0 / math.sqrt(module.in_features)
                nn.init.uniform_(module.bias, -bound, bound, generator=gen)
            elif isinstance(module, EmbeddingSum):  # as the dense layer it stands for
                bound = 1.0 / math.sqrt(module.weight.shape[0])
                nn.init.uniform_(module.weight, -bound, bound, generator=gen)
                nn.init.uniform_(module.bias, -bound, bound, generator=gen)
                module.offsets.copy_(torch.arange(module.offsets.numel()) * module.labels)
            elif isinstance(module, nn.BatchNorm1d):
                module.reset_parameters()
    return net
