"""The diffusion objective (issue 43): the embedding-sum network, the trainer's objective, its
defaults and the walks made on a torch device."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from exact import registry
from exact.bfs import distance_table
from exact.errors import PuzzleoptError
from learned.davi import CHECKPOINT, DaviConfig, train, walk_seed
from learned.diffusion import TorchWalks, default_k_max, diffusion_batch
from learned.nets import make_net, preset_config
from learned.weights import load_model


def test_the_embedding_sum_is_the_dense_layer_on_the_one_hot_vector():
    p = registry.get("cube2")
    emb = make_net(preset_config("resmlp-tiny", p.num_positions, p.num_labels), 3).eval()
    dense = make_net(preset_config("resmlp-tiny", p.num_positions, p.num_labels).__class__(
        p.num_positions * p.num_labels, (64, 32), 1), 3).eval()  # fmt: skip
    state = {k: v for k, v in emb.state_dict().items()}
    first = state.pop("body.0.weight")
    state["body.0.weight"] = first.T.contiguous()  # (P*K, w) rows -> Linear's (w, P*K)
    dense.load_state_dict(state)
    s = p.random_walk(50, 9, np.random.default_rng(0))
    with torch.no_grad():
        a, b = emb(emb.inputs(p, s)), dense(dense.inputs(p, s))
    assert emb.inputs(p, s).dtype == torch.uint8 and torch.allclose(a, b, atol=1e-5)


@pytest.mark.parametrize(("name", "opts", "k"), [("cube3", {}, 26), ("cube2", {}, 14), ("tiles15", {}, 80),
                                                 ("pancake", {"n": 20}, 32), ("pancake", {"n": 9}, 10)])  # fmt: skip
def test_the_longest_walk_defaults_to_gods_number_or_a_bound(name, opts, k):
    assert default_k_max(registry.get(name, **opts)) == k


def test_without_a_known_diameter_it_is_measured_or_asked_for(monkeypatch):
    p = registry.get("tiles8")
    monkeypatch.setattr(type(p), "diameter", property(lambda self: None))
    assert default_k_max(p) == 31  # by breadth-first search: Reinefeld's number
    with pytest.raises(PuzzleoptError, match="give the longest walk with --max-scramble"):
        default_k_max(p, limit=1000)


def test_the_labels_are_uniform_and_bound_the_distance():
    p = registry.get("pancake", n=7)
    space = p.ranked_space()
    dist = distance_table(space, p.table, p.goal[None])
    for make in (lambda: diffusion_batch(p, 4000, 8, np.random.default_rng(2)),
                 lambda: tuple(x.numpy() for x in TorchWalks(p, "cpu", 2).batch(4000, 8, 0))):  # fmt: skip
        states, labels = make()
        d = dist[space.rank(states)]
        counts = np.bincount(labels.astype(int), minlength=9)[1:]
        assert counts.min() >= 450 and (d <= labels).all() and (d[labels == 2] == 2).all()  # flips never undone


def test_where_every_move_applies_a_walk_applies_only_the_chosen_move():
    import learned.diffusion as d

    p = registry.get("cube2")
    assert d.moves_always_apply(p) and not d.moves_always_apply(registry.get("tiles8"))
    rng = np.random.default_rng(5)
    s = p.random_walk(3000, 6, rng)
    last = rng.integers(-1, p.table.num_moves, size=3000)
    kids, moved = d._gather_step(p, s, last, rng)
    inverse = np.asarray(p.table.inverse)
    assert (moved >= 0).all() and not (moved[last >= 0] == inverse[last[last >= 0]]).any()
    assert (kids == s[np.arange(3000)[:, None], p.table.perms[moved]]).all()
    counts = np.bincount(moved[last == 0], minlength=p.table.num_moves)
    assert counts[inverse[0]] == 0 and (np.delete(counts, inverse[0]) > 0).all()


def test_walks_on_a_device_are_reproducible_per_step():
    p = registry.get("cube3")
    w = TorchWalks(p, "cpu", 5)
    a, b, c = w.batch(100, 26, 3), w.batch(100, 26, 3), w.batch(100, 26, 4)
    assert torch.equal(a[0], b[0]) and not torch.equal(a[0], c[0])
    assert TorchWalks.applies(p) and not TorchWalks.applies(registry.get("tiles8"))


def _config(**kw) -> DaviConfig:
    base = dict(puzzle="tiles8", preset="resmlp-tiny", objective="diffusion", steps=60, batch=200, eval_every=0,
                max_scramble=12, lr=3e-3)  # fmt: skip
    return DaviConfig(**{**base, **kw})


def test_diffusion_training_learns_the_walk_lengths_and_resumes(tmp_path):
    cfg = _config()
    straight = train(cfg, tmp_path / "a", progress=False)
    assert straight["target_updates"] == 0 and straight["loss"] < 20  # labels 1..12: a constant scores ~12

    def stop(step: int) -> None:
        if step == 25:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(cfg, tmp_path / "b", progress=False, on_step=stop)
    assert (tmp_path / "b" / CHECKPOINT).exists()
    resumed = train(cfg, tmp_path / "b", progress=False)
    a, card = load_model(straight["model"])
    b, _ = load_model(resumed["model"])
    for (k, x), y in zip(a.state_dict().items(), b.state_dict().values()):
        assert torch.allclose(x.float(), y.float(), atol=1e-4), k
    assert card["objective"] == "diffusion" and card["states_seen"] == 60 * 200 and card["davi"]["max_scramble"] == 12
    with pytest.raises(ValueError, match="objective 'diffusion'; this run asks for .* objective 'davi'"):
        train(_config(objective="davi"), tmp_path / "b", progress=False)


def test_diffusion_then_davi_starts_from_the_diffusion_network(tmp_path):
    first = train(_config(steps=5), tmp_path / "d", progress=False)
    tuned = _config(objective="davi", steps=1, lr=1e-12, init_from=first["model"])
    out = train(tuned, tmp_path / "t", progress=False)
    a, _ = load_model(first["model"])
    b, _ = load_model(out["model"])
    assert torch.allclose(a.out.weight, b.out.weight, atol=1e-6)
    card = load_model(out["model"])[1]  # the card counts the diffusion network's states too
    assert card["states_seen_before"] == 5 * 200 and card["started_from"]["objective"] == "diffusion"
    again = train(_config(objective="davi", steps=1, lr=1e-12, init_from=out["model"]), tmp_path / "u", progress=False)
    assert load_model(again["model"])[1]["states_seen_before"] == 5 * 200 + 1 * 200
    with pytest.raises(ValueError, match="--init-from .* is not preset 'tiny'"):
        train(_config(objective="davi", preset="tiny", init_from=first["model"]), tmp_path / "x", progress=False)


def test_a_network_trained_on_draws_new_states(tmp_path, monkeypatch):
    """Steps count from 0 again when a run trains on from a network: its states must not be its
    parent's once more (they were, for the chain of issue 68's runs 4 and 5)."""
    import learned.diffusion

    firsts: list[np.ndarray] = []

    def recording(puzzle, n, k_max, rng):
        states, labels = diffusion_batch(puzzle, n, k_max, rng)
        firsts.append(states)
        return states, labels

    monkeypatch.setattr(learned.diffusion, "diffusion_batch", recording)
    parent = train(_config(steps=1), tmp_path / "a", progress=False)
    child = train(_config(steps=1, init_from=parent["model"]), tmp_path / "b", progress=False)
    assert not np.array_equal(firsts[0], firsts[1])
    card = load_model(child["model"])[1]
    assert card["data_seed"] == walk_seed(0, 200) != 0 and load_model(parent["model"])[1]["data_seed"] == 0
    assert walk_seed(0, 200) != walk_seed(0, 400) and walk_seed(3, 0) == 3


def test_a_time_limit_ends_training_with_a_model(tmp_path):
    out = train(_config(steps=10**6), tmp_path / "t", progress=False, time_limit=1.0)
    assert 0 < out["steps"] < 10**6 and load_model(out["model"])[1]["trained_steps"] == out["steps"]


def test_adam_state_carries_training_on_across_runs(tmp_path):
    from learned.adam import FILE, export_adam
    from learned.weights import WeightsError, read

    first = train(_config(steps=5), tmp_path / "a", progress=False)
    assert export_adam(tmp_path / "a" / CHECKPOINT, tmp_path / "adam").name == FILE
    on = train(_config(steps=1, init_from=first["model"], init_optimizer=tmp_path / "adam"), tmp_path / "b",
               progress=False)  # fmt: skip
    tensors, _ = read(tmp_path / "b" / CHECKPOINT, "checkpoint")
    assert float(tensors["opt.0.step"]) == 6  # Adam went on from step 5, not afresh
    card = load_model(on["model"])[1]
    assert card["adam_from"]["step"] == 5 and card["states_seen_total"] == 6 * 200
    other = train(_config(steps=2, seed=1), tmp_path / "c", progress=False)
    with pytest.raises(WeightsError, match="belongs to another network"):
        train(_config(steps=1, init_from=other["model"], init_optimizer=tmp_path / "adam"), tmp_path / "d",
              progress=False)  # fmt: skip
    with pytest.raises(ValueError, match="--init-optimizer needs --init-from"):
        _config(init_optimizer=tmp_path / "adam")
