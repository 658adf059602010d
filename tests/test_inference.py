"""The fused inference network (learned.inference): the same values as the network it came from."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from exact import registry  # noqa: E402
from learned.inference import fuse  # noqa: E402
from learned.nets import make_net, preset_config  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402


def _trained_looking(preset: str, puzzle, seed: int):
    """A network whose batch norms have non-trivial running statistics and affine parameters, so
    that a wrong fold shows."""
    net = make_net(preset_config(preset, puzzle.num_positions, puzzle.num_labels), seed)
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm1d):
                m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.3)
                m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
                m.weight.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
                m.bias.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
        net.out.bias.fill_(10.0)  # positive values: none clamped to 0 by the heuristic
    return net.eval()


@pytest.mark.parametrize("preset", ["resmlp-tiny", "tiny", "tiny-nobn", "ann-distance"])
def test_a_fused_network_in_float32_gives_the_networks_values(preset):
    p = registry.get("cube2")
    net = _trained_looking(preset, p, 3)
    x = net.device_inputs(torch.from_numpy(p.random_walk(64, 12, np.random.default_rng(0))))
    with torch.inference_mode():
        want = net(x)
        got = fuse(net, torch.float32)(x)
    assert got.dtype == torch.float32 and got.shape == (64,)
    assert torch.allclose(got, want, atol=1e-4, rtol=1e-4)


def test_a_fused_network_in_bfloat16_stays_near_float32():
    p = registry.get("cube3")
    net = _trained_looking("resmlp-tiny", p, 5)
    x = torch.from_numpy(p.random_walk(256, 20, np.random.default_rng(1)))
    with torch.inference_mode():
        want, got = net(x), fuse(net, torch.bfloat16)(x)
    assert got.dtype == torch.float32
    # bfloat16 keeps 8 bits of mantissa: hidden values off by about 2^-8 relative, summed over layers
    assert float((got - want).abs().max()) < 0.05 * float(want.abs().max()) + 0.05
    plain = fuse(net, torch.bfloat16)
    plain.mkldnn = False  # torch's separate ops: what runs where oneDNN's fused ones are missing
    with torch.inference_mode():
        other = plain(x)
    assert float((other - want).abs().max()) < 0.05 * float(want.abs().max()) + 0.05


def test_the_heuristic_refuses_a_stale_fused_network_after_the_weights_change():
    p = registry.get("cube2")
    net = _trained_looking("resmlp-tiny", p, 7)
    h = NetHeuristic(p, net, precision="bf16")
    s = p.random_walk(32, 9, np.random.default_rng(2))
    before = h(s)
    with torch.no_grad():
        net.out.bias.add_(5.0)  # as an optimizer step would: in place
    after = h(s)
    goal = p.is_goal(s)
    assert np.allclose(after[~goal], before[~goal] + 5.0, atol=0.1)


@pytest.mark.parametrize("precision", ["bf16", "int8"])
def test_bf16_and_int8_heuristics_rank_states_as_fp32_does(precision):
    from learned.int8 import int8_ops

    if precision == "int8" and not int8_ops():
        pytest.skip("this torch has no oneDNN int8 ops")
    p = registry.get("cube2")
    net = _trained_looking("resmlp-tiny", p, 9)
    s = p.random_walk(500, 11, np.random.default_rng(4))
    a = NetHeuristic(p, net, precision="fp32")(s)
    b = NetHeuristic(p, net, precision=precision)(s)
    assert np.corrcoef(a, b)[0, 1] > 0.99
