"""A trained :class:`learned.nets.CostToGo` in 8-bit integers for the CPU (oneDNN, static scales).

Every hidden layer runs as one oneDNN int8 matrix product (``onednn::qlinear_pointwise``, what
torch's compiler emits for a quantized CPU model) whose bias, ReLU, residual addition and
requantization happen inside the product: the activations stay uint8 from the input to the output
layer, with no separate pass over them. Weights are int8 with one scale per output unit; each
activation has one scale, fixed beforehand from calibration states (its largest value there over
255). The output layer runs in float32.

The input is the one-hot vector as uint8 (an embedding-sum network's first layer is that
product, exactly). Its weights are kept to about 14 bits: each is split into an int8 part and an
int8 remainder 127 times finer, and the input carries the one-hot vector twice, as 127 and as 1,
so one product adds both.

Measured on the 3x3's 4M network (``resmlp-gpu``) on two cores of an Intel Xeon with AMX
(``docs/benchmarks/inference.md``, ``python benchmarks/inference.py``): 1.83 times the states per
second of the fused bfloat16 network (:mod:`learned.inference`) on an idle machine and 1.75 times
with both cores busy, each at its best chunk; its values further from
float32's (max 0.30, mean 0.035, against bfloat16's 0.086 and 0.0097). On DeepCubeA's first 20
cubes at W = 65,536 the beam found solutions of the same lengths as with bfloat16
(``docs/benchmarks/learned_cube3.md``, section ``int8``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from exact.errors import PuzzleoptError
from learned.inference import FusedNet, fuse
from learned.nets import CostToGo

FINE = 127
"""How much finer the first layer's remainder weights are than its main ones."""

CHUNK = 16384
"""States per call of an int8 network on the CPU. ``docs/benchmarks/inference.md``: with both cores
busy 74,200 states/s against 63,028 at 8,192 (82,495 at 32,768); idle 109,190 against 117,701 at
8,192, the best there: near the best either way, and the machine is usually busy."""


def int8_ops() -> bool:
    """Whether this torch has oneDNN's int8 linear ops (CPU builds with oneDNN, torch >= 2.2)."""
    ops = getattr(torch.ops, "onednn", None)
    return (
        torch.backends.mkldnn.is_available() and ops is not None
        and hasattr(ops, "qlinear_pointwise") and hasattr(ops, "qlinear_prepack")
    )  # fmt: skip


def why_not_int8(device: str, activation: str | None) -> str | None:
    """Why a network of ``activation`` (``None``: not known yet) cannot run in int8 on
    ``device``, in one line; ``None`` where it can."""
    if str(device) != "cpu":
        return f"int8 runs on the CPU only, not on {device!r}; use bf16 there"
    if activation not in (None, "relu"):
        return f"int8 takes a ReLU network; this one has {activation}: use bf16 or fp32"
    if not int8_ops():
        return "int8 needs torch's oneDNN int8 ops (a CPU torch >= 2.2); use bf16 or fp32"
    return None


@dataclass(frozen=True)
class QLayer:
    """One int8 layer: ``y = relu(in_scale * w_scale * (q_x @ q_w.T) + bias)``, stored as uint8
    ``round(y / out_scale)``.

    Attributes:
        packed: The int8 weights ``(out, in)`` packed by ``onednn::qlinear_prepack``.
        w_scale: float32 ``(out,)``: each output unit's weight scale.
        w_zero: int64 ``(out,)``: zeros (the weights are symmetric).
        bias: float32 ``(out,)``.
        out_scale: The output's scale (its calibration maximum over 255).
    """

    packed: torch.Tensor
    w_scale: torch.Tensor
    w_zero: torch.Tensor
    bias: torch.Tensor
    out_scale: float


def _split(w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``w`` ``(out, in)`` as ``(q, r, scale)``: int8-valued ``q`` at ``scale`` (per row) and the
    remainder ``r``, int8-valued at ``scale / FINE``: ``w ~ scale * (q + r / FINE)``."""
    scale = (w.abs().amax(dim=1) / 127).clamp_min(torch.finfo(torch.float32).tiny)
    q = torch.round(w / scale[:, None]).clamp(-127, 127)
    r = torch.round((w - q * scale[:, None]) * FINE / scale[:, None]).clamp(-127, 127)
    return q, r, scale


def _packed(q: torch.Tensor) -> torch.Tensor:
    return torch.ops.onednn.qlinear_prepack(q.to(torch.int8).contiguous(), None)


def _qlayer(weight: torch.Tensor, bias: torch.Tensor, out_scale: float, group: int = 0) -> QLayer:
    """``weight`` ``(out, in)`` quantized per output unit. ``group > 0``: the first layer, ~14-bit:
    each run of ``group`` input columns followed by its remainder columns (the layout of
    :meth:`Int8Net._one_hot`), the scale that of the remainders."""
    q, r, scale = _split(weight.float())
    if group:
        out = len(q)
        q, scale = torch.stack([q.view(out, -1, group), r.view(out, -1, group)], dim=2).reshape(out, -1), scale / FINE
    zero = torch.zeros(len(scale), dtype=torch.int64)
    return QLayer(_packed(q), scale.float(), zero, bias.float(), out_scale)


def _output(weight: torch.Tensor, bias: torch.Tensor) -> QLayer:
    """The output layer ``(1, in)`` as two int8 units, the weights and their remainders (each
    at its own scale, bias on the first): their sum is the value, to ~14 bits."""
    q, r, scale = _split(weight.float())
    both = torch.cat([q, r])
    return QLayer(_packed(both), torch.cat([scale, scale / FINE]).float(), torch.zeros(2, dtype=torch.int64),
                  torch.cat([bias.float(), torch.zeros(1)]), 1.0)  # fmt: skip


class Int8Net:
    """A network's forward pass in int8 (see the module docstring); made by :func:`quantize`.

    ``net(x)``: the network's input (:meth:`learned.nets.CostToGo.device_inputs`: label states
    ``(B, P)`` or the one-hot float32 ``(B, P * K)``) -> float32 ``(B,)``.
    """

    def __init__(self, labels: int, first: QLayer, plain: list[QLayer], blocks: list[tuple[QLayer, QLayer]],
                 out: QLayer) -> None:  # fmt: skip
        self.labels, self.first, self.plain, self.blocks, self.out = labels, first, plain, blocks, out
        eye = torch.eye(max(labels, 1), dtype=torch.uint8)
        self.rows = torch.cat([eye * FINE, eye], dim=1)  # label k -> (FINE * e_k, e_k)

    def _one_hot(self, x: torch.Tensor) -> torch.Tensor:
        """uint8: the one-hot vector as 127s and as 1s: per position ``(127 e_k, e_k)`` for label
        states, ``(127 x, x)`` for a one-hot input."""
        if self.labels:  # one gather of 2K bytes per position
            return torch.index_select(self.rows, 0, x.reshape(-1).int()).view(x.shape[0], -1)
        hot = x.to(torch.uint8)
        return torch.cat([hot * FINE, hot], dim=1)

    @staticmethod
    def _dense(x: torch.Tensor, x_scale: float, layer: QLayer) -> torch.Tensor:
        return torch.ops.onednn.qlinear_pointwise(
            x, x_scale, 0, layer.packed, layer.w_scale, layer.w_zero, layer.bias,
            layer.out_scale, 0, torch.uint8, "relu", [], "",
        )  # fmt: skip

    @staticmethod
    def _dense_add(x: torch.Tensor, x_scale: float, layer: QLayer, skip: torch.Tensor, skip_scale: float):
        # "sum" accumulates into ``skip``'s buffer: the caller never reads ``skip`` again
        return torch.ops.onednn.qlinear_pointwise.binary(
            x, x_scale, 0, layer.packed, layer.w_scale, layer.w_zero, skip, layer.bias,
            layer.out_scale, 0, torch.uint8, skip_scale, 0, "sum", 1.0, "relu", [], "",
        )  # fmt: skip

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        h, scale = self._dense(self._one_hot(x), 1.0, self.first), self.first.out_scale
        for layer in self.plain:
            h, scale = self._dense(h, scale, layer), layer.out_scale
        for one, two in self.blocks:
            a = self._dense(h, scale, one)
            h, scale = self._dense_add(a, one.out_scale, two, h, scale), two.out_scale
        o = self.out
        both = torch.ops.onednn.qlinear_pointwise(
            h, scale, 0, o.packed, o.w_scale, o.w_zero, o.bias, 1.0, 0, torch.float32, "none", [], ""
        )  # fmt: skip
        return both.sum(dim=1)


def quantize(net: CostToGo, calibration: torch.Tensor) -> Int8Net:
    """``net`` (in eval mode) as an :class:`Int8Net`, each activation's scale its largest value
    on ``calibration`` (network inputs, e.g. states of the random walks it was trained on).

    Raises:
        PuzzleoptError: the network is not made of ReLU layers, is not on the CPU, or this torch
            lacks oneDNN's int8 ops.
    """
    why = why_not_int8(next(net.parameters()).device.type, net.config.activation)
    if why is not None:
        raise PuzzleoptError(f"precision {why}")
    f32 = fuse(net, torch.float32)
    acts: list[torch.Tensor] = []
    with torch.inference_mode():
        f32(calibration, record=acts)
    scales = [max(float(a.max()), 1e-6) / 255 for a in acts]
    return _assemble(net, f32, scales)


def _assemble(net: CostToGo, f32: FusedNet, scales: list[float]) -> Int8Net:
    """The :class:`Int8Net` of the float32 fused ``f32`` with one output scale per hidden layer."""
    layers = list(f32.plain) + [layer for block in f32.blocks for layer in block]
    if f32.embed is not None:
        table, bias = f32.embed[1]
        first = _qlayer(table.t(), bias, scales[0], group=net.config.labels)
    else:
        weight, bias = layers.pop(0)
        first = _qlayer(weight, bias, scales[0], group=weight.shape[1])
    rest = [_qlayer(w, b, s) for (w, b), s in zip(layers, scales[1:], strict=True)]
    plain_n = len(f32.plain) - (f32.embed is None)
    plain, flat = rest[:plain_n], rest[plain_n:]
    blocks = [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
    return Int8Net(net.config.labels, first, plain, blocks, _output(*f32.out))
