"""A trained :class:`learned.nets.CostToGo` rewritten for fast inference on the CPU.

torch's bfloat16 autocast casts every layer's weights on every call, leaves each batch norm as a
separate pass over the activations and computes the output layer in bfloat16 (scores rounded to
1/8 of a move near 20). :func:`fuse` folds each eval-mode batch norm into the layer before it
(exact algebra: ``BN(Wx + b) = (sW)x + s(b - mean) + beta``), casts the folded weights once, runs
the hidden layers in that dtype and the output layer in float32. The values are those of the
network up to the dtype's rounding.

Measured on the 3x3's 4M network (``resmlp-gpu``) on two cores of an Intel Xeon with AMX
(``docs/benchmarks/inference.md``, ``python benchmarks/inference.py``): at 8,192 states a call
the fused network scored 1.42 times the states per second of autocast at its best chunk on an
idle machine, 1.97 times with both cores busy; its values were within 0.086 of float32's, where
autocast's were within 0.131. The chunk matters: smaller calls keep a layer's activations in the
cores' caches, larger ones wait less on busy cores (:data:`CPU_CHUNK`).
"""

from __future__ import annotations

import torch
from torch import nn

from learned.nets import CostToGo, EmbeddingSum, _Residual

CPU_CHUNK = 8192
"""States per call of a fused network on the CPU: the best of the chunks measured on an idle
machine, and near the best with both cores busy (``docs/benchmarks/inference.md``)."""

Layer = tuple[torch.Tensor, torch.Tensor]


def _folded(layer: nn.Module, norm: nn.Module) -> Layer:
    """``(weight (out, in), bias (out,))`` of ``layer`` followed by ``norm`` in eval mode."""
    if isinstance(layer, EmbeddingSum):
        weight, bias = layer.weight.detach().t(), layer.bias.detach()
    else:
        weight, bias = layer.weight.detach(), layer.bias.detach()
    if isinstance(norm, nn.BatchNorm1d):
        scale = norm.weight.detach() / torch.sqrt(norm.running_var + norm.eps)
        weight, bias = weight * scale[:, None], (bias - norm.running_mean) * scale + norm.bias.detach()
    return weight, bias


def _mkldnn_ops(dtype: torch.dtype, device: torch.device, activation: str) -> bool:
    """Whether oneDNN's fused linear ops (``mkldnn::_linear_pointwise``, what torch's compiler
    emits for a frozen CPU model) can run the layers: bf16 on a CPU torch built with oneDNN, ReLU,
    and a CPU whose oneDNN takes bf16 (on one without AVX-512 it cannot build the primitive and
    raises; torch's own bf16 layers, used then, emulate it)."""
    ops = getattr(torch.ops, "mkldnn", None)
    return (
        dtype == torch.bfloat16 and device.type == "cpu" and activation == "relu"
        and torch.backends.mkldnn.is_available() and ops is not None and hasattr(ops, "_linear_pointwise")
        and bool(getattr(ops, "_is_mkldnn_bf16_supported", lambda: True)())
    )  # fmt: skip


class FusedNet:
    """A network's forward pass with folded batch norms, hidden layers in ``dtype``.

    ``fused(x)``: the network's input (:meth:`learned.nets.CostToGo.device_inputs`) -> float32
    ``(B,)``. Made by :func:`fuse`. Where :func:`_mkldnn_ops` allows, each layer's ReLU (and a
    residual block's addition) runs inside oneDNN's matrix product instead of as its own pass.
    """

    def __init__(self, activation: str, embed: tuple[torch.Tensor, Layer] | None, plain: list[Layer],
                 blocks: list[tuple[Layer, Layer]], out: Layer, dtype: torch.dtype) -> None:  # fmt: skip
        self.embed, self.plain, self.blocks, self.out, self.dtype = embed, plain, blocks, out, dtype
        self.act = torch.relu_ if activation == "relu" else nn.functional.elu_
        self.mkldnn = _mkldnn_ops(dtype, out[0].device, activation)

    def _dense_act(self, h: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        if self.mkldnn:
            return torch.ops.mkldnn._linear_pointwise(h, weight, bias, "relu", [], "")
        return self.act(nn.functional.linear(h, weight, bias))

    def _dense_add(self, h: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        if self.mkldnn:
            return torch.ops.mkldnn._linear_pointwise.binary(h, skip, weight, bias, "add")
        return nn.functional.linear(h, weight, bias).add_(skip)

    def __call__(self, x: torch.Tensor, record: list[torch.Tensor] | None = None) -> torch.Tensor:
        """The values of inputs ``x``; ``record``, where given, gets every hidden activation
        in order (the embedding's, each plain layer's, then each block's two)."""
        keep = (lambda h: record.append(h) or h) if record is not None else (lambda h: h)  # noqa: E731
        if self.embed is not None:
            offsets, (table, bias) = self.embed
            h = keep(self.act(nn.functional.embedding_bag(x.long() + offsets, table, mode="sum") + bias))
        else:
            h = x.to(self.dtype)
        for weight, bias in self.plain:
            h = keep(self._dense_act(h, weight, bias))
        for (w1, b1), (w2, b2) in self.blocks:
            h = keep(self.act(self._dense_add(keep(self._dense_act(h, w1, b1)), w2, b2, h)))
        weight, bias = self.out
        return nn.functional.linear(h.float(), weight, bias).squeeze(-1)


def fuse(net: CostToGo, dtype: torch.dtype = torch.bfloat16) -> FusedNet:
    """``net`` (in eval mode: batch norms by their running statistics, no dropout) as a
    :class:`FusedNet` whose hidden layers run in ``dtype``, on ``net``'s device."""
    cast = lambda layer: (layer[0].to(dtype).contiguous(), layer[1].to(dtype))  # noqa: E731
    mods = [m for m in net.body if not isinstance(m, nn.Dropout)]
    embed, plain, blocks = None, [], []
    for i, m in enumerate(mods):
        if isinstance(m, EmbeddingSum):
            table, bias = cast(_folded(m, mods[i + 1]))
            embed = (m.offsets, (table.t().contiguous(), bias))
        elif isinstance(m, nn.Linear):
            plain.append(cast(_folded(m, mods[i + 1])))
        elif isinstance(m, _Residual):  # linear, norm, activation, linear, norm
            b = list(m.body)
            blocks.append((cast(_folded(b[0], b[1])), cast(_folded(b[3], b[4]))))
    out = (net.out.weight.detach().float(), net.out.bias.detach().float())
    return FusedNet(net.config.activation, embed, plain, blocks, out, dtype)
