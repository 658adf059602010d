"""The learned layer: Bellman targets, BWAS, DAVI training and resuming, weight files."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from exact import registry  # noqa: E402
from exact.bfs import distance_table  # noqa: E402
from exact.provenance import stamp  # noqa: E402
from exact.puzzles.tiles import TilesSpace  # noqa: E402
from exact.result import Status  # noqa: E402
from exact.tiles import manhattan  # noqa: E402
from learned.bwas import bwas  # noqa: E402
from learned.davi import CHECKPOINT, DaviConfig, train  # noqa: E402
from learned.nets import make_net, preset_config  # noqa: E402
from learned.train import main as train_main  # noqa: E402
from learned.values import NetHeuristic, bellman_targets  # noqa: E402
from learned.weights import WeightsError, load_model, save_model  # noqa: E402


@pytest.fixture(scope="module")
def eight():
    p = registry.get("tiles8")
    space = TilesSpace(3, 3)
    return p, space, distance_table(space, p.table, p.goal)


def test_bellman_targets_by_hand(eight) -> None:
    p, space, dist = eight
    one = p.table.apply(p.goal, p.table.parse("R", start=p.goal))  # one move from the goal
    two = p.table.apply(p.goal, p.table.parse("R D", start=p.goal))
    states = np.stack([p.goal, one, two])
    # J = 5 everywhere: the goal is 0, a state next to the goal is 1 + 0, the other 1 + 5
    five = bellman_targets(p, states, lambda s: np.full(len(s), 5.0))
    assert five.tolist() == [0.0, 1.0, 6.0]
    # J = the true distance: the target is the true distance
    true = lambda s: dist[space.rank(s)].astype(float)  # noqa: E731
    rng = np.random.default_rng(0)
    s = space.unrank(rng.integers(0, len(dist), 300))
    assert np.array_equal(bellman_targets(p, s, true), dist[space.rank(s)].astype(float))


@pytest.mark.parametrize("batch", [1, 7])
def test_bwas_with_zero_or_admissible_heuristic_is_optimal(eight, batch) -> None:
    p, space, dist = eight
    zero = lambda s: np.zeros(len(s))  # noqa: E731
    zero.admissible = True
    near = np.flatnonzero(dist <= 10)  # the zero heuristic expands everything up to the depth
    for s in space.unrank(np.random.default_rng(batch).choice(near, 6)):
        d = int(dist[space.rank(s[None])[0]])
        for h in (zero, manhattan(3, 3)):
            r = bwas(p, s, h, weight=1.0, batch=batch)
            assert r.status is Status.OPTIMAL and r.length == d and r.solver == "bwas"
        w = bwas(p, s, manhattan(3, 3), weight=0.5, batch=batch)
        assert w.length >= d
    far = space.unrank(np.random.default_rng(0).choice(np.flatnonzero(dist >= 24), 4))
    for s in far:  # with an admissible heuristic, far states too
        r = bwas(p, s, manhattan(3, 3), weight=1.0, batch=batch)
        assert r.status is Status.OPTIMAL and r.length == int(dist[space.rank(s[None])[0]])


def _bfs_length(p, start) -> int:
    # plain breadth-first search over the protocol, for short distances
    seen, layer, depth = {start.tobytes()}, start[None], 0
    while not p.is_goal(layer).any():
        children, ids = p.expand(layer)
        kids = children[ids >= 0]
        fresh = {k.tobytes(): k for k in kids if k.tobytes() not in seen}
        seen.update(fresh)
        layer, depth = np.stack(list(fresh.values())), depth + 1
    return depth


def test_bwas_on_the_2x2_equals_bfs() -> None:
    p = registry.get("cube2")
    zero = lambda s: np.zeros(len(s))  # noqa: E731
    zero.admissible = True
    for s in p.random_walk(5, 4, np.random.default_rng(3)):
        r = bwas(p, s, zero, weight=1.0, batch=50)
        assert r.status is Status.OPTIMAL and r.length == _bfs_length(p, s)


def _config(**kw) -> DaviConfig:
    base = dict(
        puzzle="tiles8",
        preset="tiny",
        steps=160,
        batch=300,
        max_scramble=12,
        check_every=40,
        threshold=0.2,
        eval_every=160,
        eval_depths=(4,),
        eval_states=200,
        log_every=20,
        lr_decay=1.0,
        checkpoint_seconds=3600,
    )
    base.update(kw)
    return DaviConfig(**base)


def test_short_training_lowers_the_loss_and_solves_more(tmp_path, eight) -> None:
    p, _, _ = eight
    from learned.values import greedy_solve_rate

    cfg = _config()
    net0 = make_net(preset_config("tiny", 9, 9), cfg.seed)
    before = greedy_solve_rate(p, NetHeuristic(p, net0), 4, 200, np.random.default_rng(1))
    out = train(cfg, tmp_path, progress=False)
    rows = (tmp_path / "log.csv").read_text().splitlines()[1:]
    first, last = float(rows[0].split(",")[2]), float(rows[-1].split(",")[2])
    assert last < first
    net, card = load_model(out["model"])
    after = greedy_solve_rate(p, NetHeuristic(p, net), 4, 200, np.random.default_rng(1))
    assert after > before + 0.3 and after >= 0.8, (before, after)
    assert card["puzzle"] == "tiles8" and card["trained_steps"] == 160
    assert (tmp_path / "curves.png").stat().st_size > 0


def test_interrupted_training_resumes_where_it_stopped(tmp_path) -> None:
    cfg = _config(steps=30, batch=100, eval_every=0)
    straight = train(cfg, tmp_path / "a", progress=False)

    def stop(step: int) -> None:
        if step == 12:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(cfg, tmp_path / "b", progress=False, on_step=stop)
    assert (tmp_path / "b" / CHECKPOINT).exists()
    resumed = train(cfg, tmp_path / "b", progress=False)
    assert resumed["steps"] == 30
    a, _ = load_model(straight["model"])
    b, _ = load_model(resumed["model"])
    for (k, x), y in zip(a.state_dict().items(), b.state_dict().values()):
        assert torch.allclose(x.float(), y.float(), atol=1e-4), k
    steps = [int(r.split(",")[0]) for r in (tmp_path / "b" / "log.csv").read_text().splitlines()[1:]]
    assert steps == sorted(set(steps)) and steps[-1] == 30


def test_a_network_with_nan_in_it_is_refused_at_load(tmp_path) -> None:
    """Issue 63: a diverged training's NaN weights, sealed as any other, loaded and answered NaN."""
    net = make_net(preset_config("tiny", 9, 9), 0)
    with torch.no_grad():
        next(net.parameters()).view(-1)[0] = float("nan")
    path = save_model(tmp_path / "nan.safetensors", net, {"puzzle": "tiles8"})
    with pytest.raises(WeightsError, match="NaN or infinite"):
        load_model(path)


def test_bad_weight_files_fail_clearly(tmp_path) -> None:
    net = make_net(preset_config("tiny", 9, 9), 0)
    path = save_model(tmp_path / "m.safetensors", net, {"puzzle": "tiles8"})
    net2, card = load_model(path)
    assert card == {"puzzle": "tiles8", "made_by": stamp()}  # the card, and who wrote it
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF  # a flipped bit in the last tensor
    (tmp_path / "flip.safetensors").write_bytes(bytes(data))
    with pytest.raises(WeightsError, match="damaged"):
        load_model(tmp_path / "flip.safetensors")
    (tmp_path / "cut.safetensors").write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(WeightsError, match="truncated"):
        load_model(tmp_path / "cut.safetensors")
    from safetensors.torch import save_file

    save_file({"w": torch.zeros(3)}, str(tmp_path / "foreign.safetensors"))
    with pytest.raises(WeightsError, match="not written by puzzleopt"):
        load_model(tmp_path / "foreign.safetensors")
    torch.save({"w": torch.zeros(3)}, tmp_path / "pickle.safetensors")  # a pickle is never loaded
    with pytest.raises(WeightsError):
        load_model(tmp_path / "pickle.safetensors")
    with pytest.raises(WeightsError, match="does not exist"):
        load_model(tmp_path / "missing.safetensors")
    assert issubclass(WeightsError, ValueError)


def test_train_cli(tmp_path, capsys) -> None:
    argv = ["--puzzle", "tiles8", "--preset", "tiny", "--steps", "20", "--batch", "100", "--max-scramble", "6"]
    argv += ["--eval-every", "20", "--eval-depths", "2", "--no-progress", "--out", str(tmp_path), "--json"]
    assert train_main(argv) == 0
    assert '"steps": 20' in capsys.readouterr().out
    assert train_main(argv[:-1]) == 0  # again: nothing left to train, the model is written again
    assert "20 steps" in capsys.readouterr().out
    from exact import cli

    assert cli.run(train_main, ["--puzzle", "tiles9"]) == 2
    assert "tiles9" in capsys.readouterr().err
    assert cli.run(train_main, ["--puzzle", "tiles8", "--preset", "huge", "--out", str(tmp_path / "x")]) == 2


def test_solve_and_evaluate_clis(tmp_path, capsys, eight) -> None:
    import json

    from exact import cli
    from learned.evaluate import main as evaluate_main
    from learned.solve import main as solve_main

    p, space, dist = eight
    argv = ["--puzzle", "tiles8", "--preset", "tiny", "--steps", "30", "--batch", "200", "--max-scramble", "8"]
    assert train_main(argv + ["--eval-every", "0", "--no-progress", "--out", str(tmp_path / "run")]) == 0
    model = str(tmp_path / "run" / "model.safetensors")
    capsys.readouterr()
    assert solve_main(["--puzzle", "tiles8", "--model", model, "--scramble", "R D L", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "feasible" and out["solver"] == "bwas" and out["length"] >= 1
    states = space.unrank(np.random.default_rng(4).choice(np.flatnonzero(dist <= 8), 3))
    lines = ["id\ttiles\toptimal_length"] + [
        f"{i}\t{' '.join(map(str, s))}\t{dist[space.rank(s[None])[0]]}" for i, s in enumerate(states)
    ]
    (tmp_path / "set.tsv").write_text("\n".join(lines) + "\n")
    argv = ["--puzzle", "tiles8", "--model", model, "--instances", str(tmp_path / "set.tsv"), "--no-progress"]
    assert evaluate_main(argv + ["--out", str(tmp_path / "eval"), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["instances"] == 3 and summary["solved"] == 3 and summary["with_known_optimum"] == 3
    assert {f.name for f in (tmp_path / "eval").iterdir()} >= {"results.jsonl", "summary.md", "lengths.png"}
    assert cli.run(solve_main, ["--puzzle", "tiles8", "--tiles", "1 2 3", "--model", model]) == 2
    assert cli.run(solve_main, ["--puzzle", "cube2", "--scramble", "R", "--model", model]) == 2  # a tiles8 model


def test_supervised_fit_learns_8_puzzle_distances(tmp_path, eight) -> None:
    from learned.supervised import FitConfig, fit_distances, label_states, load_dataset, save_dataset

    p, space, dist = eight
    rng = np.random.default_rng(0)
    states = space.unrank(rng.integers(0, len(dist), 3000))
    states, d = label_states(states, lambda s: int(dist[space.rank(s[None])[0]]), progress=False)
    path = save_dataset(tmp_path / "set.safetensors", p, states, d, "BFS distances")
    s2, d2 = load_dataset(path, p)
    assert np.array_equal(s2, states) and np.array_equal(d2, d)
    with pytest.raises(WeightsError):
        load_dataset(path, registry.get("cube2"))
    cfg = FitConfig(preset="tiny", epochs=8, batch=128, lr=3e-3)
    net, history = fit_distances(p, states, d, cfg, progress=False)
    # The output starts at the mean distance (so the first epoch is already near the variance);
    # learning the shape must then take the error well below what the mean alone gives.
    assert history[-1]["val_mse"] < 0.6 * float(np.var(d))


def test_killed_training_process_restarts_from_its_checkpoint(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "learned.train", "--puzzle", "tiles8", "--preset", "tiny", "--steps", "400"]
    cmd += ["--batch", "50", "--max-scramble", "6", "--eval-every", "0", "--checkpoint-seconds", "0"]
    cmd += ["--no-progress", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while not (out / CHECKPOINT).exists() and time.time() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGKILL)  # no chance to save: the last periodic checkpoint must do
    proc.wait()
    from learned.weights import read

    _, docs = read(out / CHECKPOINT, "checkpoint")  # never half-written
    stopped = docs["state"]["step"]
    assert 0 < stopped < 400
    done = subprocess.run(cmd + ["--json"], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '"steps": 400' in done.stdout
    steps = [int(r.split(",")[0]) for r in (out / "log.csv").read_text().splitlines()[1:]]
    assert steps == sorted(set(steps)) and steps[-1] == 400


@pytest.mark.parametrize("name", ["tiles8", "cube2", "tiles15", "cube3"])
def test_shipped_models_load_and_solve(name) -> None:
    from learned import load
    from learned.models import shipped

    assert name in shipped()
    p = registry.get(name)
    net, card = load(name)
    assert card["puzzle"] == name and card["trained_steps"] > 0
    h = NetHeuristic(p, net)
    for s in p.random_walk(5, 12, np.random.default_rng(2)):
        r = bwas(p, s, h, weight=0.6, batch=50, max_nodes=20000)
        assert r.status is Status.FEASIBLE and r.length <= 16  # replayed by SolveResult.build


def test_no_shipped_model_is_a_clear_error() -> None:
    from learned import load

    with pytest.raises(ValueError, match="no model is shipped for 'cube7'"):
        load("cube7")


def test_a_training_folder_in_use_is_refused(tmp_path) -> None:
    from filelock import FileLock

    from learned.davi import LOCK, TrainingBusyError

    with FileLock(tmp_path / LOCK):  # another holder (its own file descriptor, as another process has)
        with pytest.raises(TrainingBusyError, match="in use by another process"):
            train(_config(steps=2, batch=20, eval_every=0), tmp_path, progress=False)
    (tmp_path / LOCK).write_text("999999999")  # a lock file nobody holds (a killed run's): taken over
    assert train(_config(steps=2, batch=20, eval_every=0), tmp_path, progress=False)["steps"] == 2


def test_initial_weights_depend_on_the_seed_only() -> None:
    before = torch.random.get_rng_state()
    a, b, c = (make_net(preset_config("tiny", 9, 9), seed) for seed in (3, 3, 4))
    assert torch.equal(before, torch.random.get_rng_state())  # the global generator is untouched
    sa, sb, sc = a.state_dict(), b.state_dict(), c.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert any(not torch.equal(sa[k], sc[k]) for k in sa)
    assert sa["body.1.running_var"].eq(1).all() and sa["body.1.running_mean"].eq(0).all()


# Every registered puzzle; the hypercube is built from one of its instances.
LOADABLE = [(n, {}) for n in registry.names() if n != "hypercube"]
LOADABLE.append(("hypercube", {"instance": "d3-level0", "k": 1}))


@pytest.mark.parametrize(("key", "options"), LOADABLE, ids=[k for k, _ in LOADABLE])
def test_a_model_trained_on_a_registry_name_loads_back_under_it(tmp_path, key, options) -> None:
    from learned.nets import make_net, preset_config
    from learned.solve import load_heuristic
    from learned.weights import save_model

    p = registry.get(key, **options)
    net = make_net(preset_config("tiny", p.num_positions, p.num_labels), seed=0)
    path = save_model(tmp_path / "model.safetensors", net, {"puzzle": key})  # as learned.train writes it
    h = load_heuristic(p, path, key=key)
    assert h.card["puzzle"] == key and h.net.config.inputs == p.num_positions * p.num_labels
    other = "tiles8" if key != "tiles8" else "cube2"
    with pytest.raises(ValueError, match=f"trained on {key!r}"):
        load_heuristic(registry.get(other), path, key=other)
    nameless = save_model(tmp_path / "nameless.safetensors", net, {})
    with pytest.raises(ValueError, match="does not name its puzzle"):
        load_heuristic(p, nameless, key=key)


def _restamp(src, dst, **changes) -> None:
    """Copy a weights file with some metadata documents changed, tensors and sha256 untouched."""
    from safetensors import safe_open
    from safetensors.torch import save

    with safe_open(str(src), framework="pt") as fh:
        meta = dict(fh.metadata())
        tensors = {k: fh.get_tensor(k) for k in fh.keys()}
    meta.update(changes)
    dst.write_bytes(save(tensors, metadata=meta))


def test_an_edited_config_or_card_fails_like_a_changed_weight(tmp_path) -> None:
    import json

    net = make_net(preset_config("tiny", 9, 9), 0)
    path = save_model(tmp_path / "m.safetensors", net, {"puzzle": "tiles8"})
    config = net.config.to_dict()
    for name, change in [
        ("elu", {"config": json.dumps({**config, "activation": "elu"})}),
        ("nameless", {"card": json.dumps({})}),
        ("other", {"card": json.dumps({"puzzle": "cube2"})}),
    ]:
        _restamp(path, tmp_path / f"{name}.safetensors", **change)
        with pytest.raises(WeightsError, match="damaged or edited"):
            load_model(tmp_path / f"{name}.safetensors")


def test_a_forged_config_is_refused_before_allocation(tmp_path) -> None:
    """widths of 10^7 x 10^7 would ask for 400 TB; the shapes are checked on the meta device
    (the checksum is recomputed here, as a forger who knows the format would)."""
    import json

    from learned.weights import _digest

    net = make_net(preset_config("tiny", 9, 9), 0)
    path = save_model(tmp_path / "m.safetensors", net, {"puzzle": "tiles8"})
    huge = {**net.config.to_dict(), "widths": [10**7, 10**7]}
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as fh:
        meta = dict(fh.metadata())
        tensors = {k: fh.get_tensor(k) for k in fh.keys()}
    docs = {k: v for k, v in meta.items() if k not in ("format", "version", "kind", "sha256")}
    docs["config"] = json.dumps(huge, sort_keys=True)
    _restamp(path, tmp_path / "huge.safetensors", config=docs["config"], sha256=_digest(tensors, docs))
    with pytest.raises(WeightsError, match="do not fit the network"):
        load_model(tmp_path / "huge.safetensors")


def test_checkpoints_by_steps_and_a_note_when_nothing_is_left(tmp_path) -> None:
    from learned.davi import CHECKPOINT
    from learned.weights import read

    seen = {}

    def on_step(step: int) -> None:
        if (tmp_path / CHECKPOINT).exists():
            seen[step] = read(tmp_path / CHECKPOINT, "checkpoint")[1]["state"]["step"]

    cfg = _config(steps=7, batch=50, eval_every=0, checkpoint_seconds=1e9, checkpoint_steps=3)
    train(cfg, tmp_path, progress=False, on_step=on_step)
    assert seen[3] == 3 and seen[5] == 3 and seen[6] == 6  # every 3 steps, time or not
    again = train(_config(steps=5, batch=50, eval_every=0, checkpoint_steps=3), tmp_path, progress=False)
    assert again["steps"] == 7 and "at step 7, not below --steps 5" in again["note"]


def test_threads_and_device_are_set_by_the_commands(capsys) -> None:
    from exact import cli
    from learned.runtime import configure
    from learned.solve import main as solve_main

    before = torch.get_num_threads()
    try:
        assert configure("cpu", 1) == "cpu" and torch.get_num_threads() == 1
        assert configure("auto", 2) == ("cuda" if torch.cuda.is_available() else "cpu")
        assert torch.get_num_threads() == 2
        assert solve_main(["--puzzle", "tiles8", "--tiles", "1 2 0 3 4 5 6 7 8", "--threads", "1", "--json"]) == 0
        assert torch.get_num_threads() == 1
        assert cli.run(solve_main, ["--puzzle", "tiles8", "--tiles", "1 2 0 3 4 5 6 7 8", "--threads", "0"]) == 2
        assert "--threads: 0 must be at least 1" in capsys.readouterr().err
    finally:
        torch.set_num_threads(before)


def test_evaluate_flags_a_solution_shorter_than_the_files_optimum(tmp_path, capsys) -> None:
    import json

    from exact import cli
    from learned.evaluate import EXIT_CONTRADICTION
    from learned.evaluate import main as evaluate_main

    f = tmp_path / "set.tsv"
    f.write_text("id\ttiles\toptimal_length\nok\t1 0 2 3 4 5 6 7 8\t1\nwrong\t1 2 0 3 4 5 6 7 8\t5\n")
    argv = ["--puzzle", "tiles8", "--instances", str(f), "--no-progress", "--json", "--out", str(tmp_path / "r")]
    assert cli.run(evaluate_main, argv) == EXIT_CONTRADICTION
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert len(summary["contradictions"]) == 1 and "instance wrong: a 2-move solution" in summary["contradictions"][0]
    assert summary["mean_gap"] == 0  # the contradicted instance is left out of the gaps
    assert "contradiction: instance wrong" in captured.err
    assert "Contradictions" in (tmp_path / "r" / "summary.md").read_text()


def test_figures_leave_the_users_matplotlib_backend_alone() -> None:
    import matplotlib

    from exact.plots import histogram_png

    before = matplotlib.get_backend()
    try:
        matplotlib.use("svg")
        assert histogram_png([1, 2, 2, 3], "x", "t")[:4] == b"\x89PNG"
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)


def test_plots_are_figures_a_notebook_shows(tmp_path) -> None:
    from matplotlib.figure import Figure

    from exact.plots import histogram
    from learned.davi import LOG, curves_figure

    assert isinstance(histogram([1, 2, 2, 3], "x", "t"), Figure)
    train(_config(steps=2, batch=20, eval_every=0, log_every=1), tmp_path, progress=False)
    fig = curves_figure(tmp_path / LOG)
    assert isinstance(fig, Figure) and len(fig.axes) == 2


def test_a_damaged_training_log_is_named(tmp_path) -> None:
    from learned.davi import LOG

    train(_config(steps=2, batch=20, eval_every=0), tmp_path, progress=False)
    log = tmp_path / LOG
    log.write_text(log.read_text() + "x,1.0,0.5,0.001,0\n")  # a row no program wrote
    with pytest.raises(ValueError, match=r"training log .*log.csv is damaged \(ValueError"):
        train(_config(steps=3, batch=20, eval_every=0), tmp_path, progress=False)


SOKOBAN_LEVEL = "\n".join(["##########", "#@       #"] + ["# $.     #"] * 4 + ["#        #"] * 3 + ["##########"])


def _train_solve_argv(key: str, options: dict) -> tuple[list[str], list[str]]:
    """``--puzzle``/``--option`` flags and a start one move from the goal (Sokoban: a level)."""
    flags = ["--puzzle", key] + [x for k, v in options.items() for x in ("--option", f"{k}={json.dumps(v)}")]
    if key == "sokoban":
        return flags, ["--state", SOKOBAN_LEVEL]
    p = registry.get(key, **options)
    children = p.goal[p.table.perms]
    moved = p.table.applicable(p.goal[None])[0] & (children != p.goal).any(axis=1)  # hypercube: empty slides
    return flags, ["--scramble", p.table.format([int(np.flatnonzero(moved)[0])])]


@pytest.mark.parametrize("objective", ["davi", "diffusion"])
@pytest.mark.parametrize(("key", "options"), LOADABLE, ids=[k for k, _ in LOADABLE])
def test_every_puzzle_trains_then_solves_through_the_clis(tmp_path, capsys, key, options, objective) -> None:
    # learned.train writes the spec in the card; learned.solve --model builds the same puzzle from
    # the same flags and solves with it (a tiny run: two steps).
    from exact import cli
    from learned.solve import main as solve_main
    from learned.weights import load_model

    flags, start = _train_solve_argv(key, options)
    out = tmp_path / "run"
    preset = "tiny" if objective == "davi" else "resmlp-tiny"
    train = ["--preset", preset, "--steps", "2", "--batch", "20", "--max-scramble", "3", "--eval-every", "0"]
    assert train_main([*flags, *train, "--objective", objective, "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    model = out / "model.safetensors"
    _, card = load_model(model, "cpu")
    assert card["spec"] == registry.get(key, **options).spec.to_dict() == {"name": key, **options}
    assert card["objective"] == objective and card["command"].startswith("python -m learned.train --puzzle")
    assert solve_main([*flags, "--model", str(model), *start, "--json"]) == cli.EXIT_OK
    result = json.loads(capsys.readouterr().out)
    # a learned heuristic proves nothing: a solution, replayed, without a claim of optimality
    # unless the bound proves it (one move from the goal)
    assert result["status"] in (("feasible",) if key == "sokoban" else ("optimal", "feasible"))
    assert result["length"] >= 1 and len(result["moves"]) == result["length"]
    assert result["spec"] == card["spec"]


def test_a_model_of_other_options_is_refused_with_the_flags_to_give(tmp_path, capsys) -> None:
    from learned.solve import main as solve_main

    out = tmp_path / "run"
    train = ["--preset", "tiny", "--steps", "1", "--batch", "10", "--max-scramble", "2", "--eval-every", "0"]
    assert train_main(["--puzzle", "cube3", "--option", "metric=htm", *train, "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    model = str(out / "model.safetensors")
    with pytest.raises(
        ValueError, match=r"trained on cube3\(metric='htm'\), not cube3; give --puzzle cube3 --option metric=\"htm\""
    ):
        solve_main(["--puzzle", "cube3", "--model", model, "--scramble", "U", "--json"])
    # the checkpoint knows its options too: resuming with others is refused
    with pytest.raises(ValueError, match="with options"):
        train_main(["--puzzle", "cube3", *train, "--steps", "2", "--no-progress", "--out", str(out)])


def test_a_run_the_time_limit_ends_between_two_rows_logs_its_last_step(tmp_path) -> None:
    import csv

    from learned.davi import CURVES, LOG

    out = train(_config(steps=10**6, batch=20, eval_every=0, log_every=10**6), tmp_path, progress=False,
                time_limit=1.0)  # fmt: skip
    rows = list(csv.DictReader((tmp_path / LOG).open()))
    assert 0 < out["steps"] < 10**6 and [int(r["step"]) for r in rows] == [out["steps"]]
    assert (tmp_path / CURVES).exists()
