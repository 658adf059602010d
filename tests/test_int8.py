"""The int8 network (learned.int8): near the float32 network's values, the same ranking, honest refusals."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from exact import registry  # noqa: E402
from exact.errors import PuzzleoptError  # noqa: E402
from learned.beam import beam_search, goal_ball  # noqa: E402
from learned.inference import fuse  # noqa: E402
from learned.int8 import int8_ops, quantize  # noqa: E402
from learned.runtime import check_precision  # noqa: E402
from learned.values import NetHeuristic  # noqa: E402
from tests.test_inference import _trained_looking  # noqa: E402

needs_int8 = pytest.mark.skipif(not int8_ops(), reason="this torch has no oneDNN int8 ops")


def _inputs(net, puzzle, n: int, depth: int, seed: int) -> torch.Tensor:
    return net.device_inputs(torch.from_numpy(puzzle.random_walk(n, depth, np.random.default_rng(seed))))


@needs_int8
@pytest.mark.parametrize("preset", ["resmlp-tiny", "tiny", "tiny-nobn"])
def test_an_int8_network_stays_near_float32(preset):
    # embedding-sum (label input) and one-hot (float input) networks, with and without batch norm
    p = registry.get("cube2")
    net = _trained_looking(preset, p, 3)
    calibration, x = _inputs(net, p, 512, 11, 0), _inputs(net, p, 256, 9, 1)
    with torch.inference_mode():
        want, got = net(x), quantize(net, calibration)(x)
    assert got.dtype == torch.float32 and got.shape == (256,)
    spread = float(want.max() - want.min())
    # 8-bit activations and weights: each layer off by about 1/255 of its range, over a few layers
    assert float((got - want).abs().max()) < 0.05 * spread
    assert float((got - want).abs().mean()) < 0.01 * spread


@needs_int8
def test_the_first_layer_is_off_by_no_more_than_its_output_rounding():
    # its weights are kept to about 14 bits: what is left is the uint8 output's half step
    p = registry.get("cube3")
    net = _trained_looking("resmlp-tiny", p, 4)
    x = _inputs(net, p, 256, 15, 2)
    q = quantize(net, x)
    acts: list = []
    with torch.inference_mode():
        fuse(net, torch.float32)(x, record=acts)
        got = q._dense(q._one_hot(x), 1.0, q.first).float() * q.first.out_scale
    assert float((got - acts[0]).abs().max()) <= 0.5 * q.first.out_scale * 1.02


@needs_int8
def test_an_int8_heuristic_gives_the_same_values_in_every_run():
    # its scales come from seeded walks, not from the states it is first asked about
    p = registry.get("cube2")
    net = _trained_looking("resmlp-tiny", p, 9)
    s = p.random_walk(300, 11, np.random.default_rng(4))
    first = NetHeuristic(p, net, precision="int8")
    a = first(s)
    assert np.array_equal(a, NetHeuristic(p, net, precision="int8")(s[::-1])[::-1])
    assert np.array_equal(a, first(s))
    # oneDNN's packed weights do not pickle; the heuristic does, and remakes them the same
    assert np.array_equal(pickle.loads(pickle.dumps(first))(s), a)


@needs_int8
def test_beam_search_with_an_int8_network_replays_its_solution():
    p = registry.get("cube2")
    net = _trained_looking("resmlp-tiny", p, 11)
    start = p.random_walk(1, 7, np.random.default_rng(6))[0]
    # an untrained network: the ball of radius 5 makes sure it arrives (the beam keeps every state
    # two moves out, one of which is within 5 of the goal)
    r = beam_search(p, start, NetHeuristic(p, net, precision="int8"), width=256, max_steps=40, ball=goal_ball(p, 5))
    assert r.status.value == "feasible"
    assert p.solved(p.table.apply(start, r.moves))


def test_int8_is_refused_off_the_cpu_and_for_elu_networks():
    with pytest.raises(PuzzleoptError, match="int8 runs on the CPU only"):
        check_precision("int8", "cuda")
    with pytest.raises(PuzzleoptError, match="int8 takes a ReLU network; this one has elu"):
        check_precision("int8", "cpu", "elu")
    if int8_ops():
        p = registry.get("cube2")
        net = _trained_looking("ann-distance", p, 1)
        with pytest.raises(PuzzleoptError, match="ReLU network"):
            quantize(net, _inputs(net, p, 16, 5, 0))


def test_auto_picks_int8_only_for_a_relu_network_on_a_cpu_with_amx_int8(monkeypatch):
    import learned.runtime as runtime

    monkeypatch.setattr(runtime, "_cpu_flags", lambda: "flags : avx512_bf16 amx_bf16 amx_int8")
    assert check_precision("auto", "cpu", "relu") == ("int8" if int8_ops() else "bf16")
    assert check_precision("auto", "cpu", "elu") == "bf16"
    assert check_precision("auto", "cuda", "relu") == "bf16"
    monkeypatch.setattr(runtime, "_cpu_flags", lambda: "flags : avx512_bf16")
    assert check_precision("auto", "cpu", "relu") == "bf16"
    monkeypatch.setattr(runtime, "_cpu_flags", lambda: "flags : avx2")
    assert check_precision("auto", "cpu", "relu") == "fp32"
    p = registry.get("cube2")  # a heuristic resolves auto with its network's activation
    monkeypatch.setattr(runtime, "_cpu_flags", lambda: "flags : amx_bf16 amx_int8")
    assert NetHeuristic(p, _trained_looking("ann-distance", p, 1), precision="auto").precision == "bf16"
