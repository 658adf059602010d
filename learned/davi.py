"""Deep approximate value iteration (DAVI), as DeepCubeA trains its cost-to-go network.

Each step draws ``batch`` states by scrambling the goal ``k`` times, ``k`` uniform in
``1..max_scramble``; computes the Bellman target of each with the *target* network
(:func:`learned.values.bellman_targets`); and takes one Adam step on the mean squared error. Every
``check_every`` steps the target network is replaced by the trained one if the mean loss of the
last ``check_every`` steps (at most 100 of them) is below ``threshold``. The learning rate decays
as ``lr * lr_decay ** step``.

Training lives in one folder: ``checkpoint.safetensors`` (network, target, Adam state, random
generator and counters; written atomically every ``checkpoint_seconds``, at the end and on
Ctrl-C), ``log.csv`` (one row per ``log_every`` steps: loss, target updates, greedy solve rates),
``curves.png`` and, at the end, ``model.safetensors`` with its card. Starting again on the same
folder resumes from the checkpoint: the result is the same as an uninterrupted run would give up
to floating-point noise, since the random generator's state is saved too.
"""

from __future__ import annotations

import copy
import csv
import dataclasses
import functools
import io
import json
import math
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import torch
from filelock import FileLock, Timeout

from exact import registry
from exact.atomic import write_chunks
from exact.batch import rebuilt
from exact.errors import PuzzleoptError
from exact.plots import new_figure, png_bytes
from exact.progress import bar as progress_bar
from exact.puzzle import Puzzle
from learned.adam import load_adam
from learned.nets import CostToGo, make_net, preset_config
from learned.values import NetHeuristic, bellman_targets, greedy_solve_rate
from learned.weights import WeightsError, load_into, load_model, read, save_model, write

OBJECTIVES = ("davi", "diffusion")
DAVI_MAX_SCRAMBLE = 30
CHECKPOINT = "checkpoint.safetensors"
LOCK = ".lock"
MODEL = "model.safetensors"
LOG = "log.csv"
CURVES = "curves.png"


@dataclass(frozen=True)
class DaviConfig:
    """Settings of a DAVI run (the defaults are DeepCubeA's where the paper gives them).

    Attributes:
        puzzle: Registry name (``cube2``, ``tiles8``, ...).
        options: The puzzle's options (``registry.get(puzzle, **options)``; JSON values), e.g.
            ``{"n": 12}`` for the pancakes. The model card stores the spec they make.
        preset: Network preset (:data:`learned.nets.PRESETS`).
        steps: Training steps in all.
        batch: States per step (DeepCubeA: 10,000).
        max_scramble: ``K``: scramble depths are uniform in ``1..K`` (DAVI's default 30; DeepCubeA
            used 30 for the cube and 500 for the tiles). The diffusion objective's default is
            :func:`learned.diffusion.default_k_max` (God's number where known). ``None``: the
            objective's default, fixed when training starts (:meth:`resolved`).
        lr, lr_decay: Adam's learning rate and its decay per step.
        check_every: ``C``: steps between checks for a target update.
        threshold: Loss under which the target network is updated.
        eval_every: Steps between greedy solve-rate checks (0: never).
        eval_depths: Scramble depths of those checks.
        eval_states: States per depth in those checks.
        log_every: Steps per row of ``log.csv``.
        checkpoint_seconds: Seconds between checkpoints.
        checkpoint_steps: Steps between checkpoints (whichever of the two comes first); a kill
            that gives no chance to save (SIGKILL, power loss) loses at most this much work.
        seed: Seed of the network's initial weights and of every random draw (the training
            states of a run that trains on from a network draw from :func:`walk_seed`'s).
        device: Torch device (``cpu``, ``cuda``).
        shards: ``1``: each step's states come from the run's one random generator (saved in
            the checkpoint). ``k > 1``: the batch is ``k`` shards of ``batch / k`` states, shard
            ``i`` of step ``t`` drawn from ``default_rng([s, t, i])`` (``s`` :func:`walk_seed`'s) with its Bellman
            targets, so that the shards can be made anywhere (an executor's workers, Ray,
            ``torch.distributed`` ranks: :mod:`learned.distributed`) and the run is the same
            wherever they are made.
        objective: ``"davi"`` (Bellman targets from the target network) or ``"diffusion"``
            (CayleyPy's: regress the length of a non-backtracking walk from the goal; no target
            network, one forward and backward pass per state; :mod:`learned.diffusion`).
        init_from: A model file (:func:`learned.weights.load_model`) whose weights start the run
            instead of fresh ones: ``"diffusion then DAVI"`` fine-tunes a diffusion network with
            DAVI. Its shape must be the preset's.
        amp: Train in bfloat16 autocast on a GPU (ignored on the CPU).
        init_optimizer: With ``init_from``: a folder of Adam's moments for that network
            (:func:`learned.adam.export_adam`), so the run goes on from the one that made it
            instead of starting Adam afresh.
    """

    puzzle: str
    options: dict = field(default_factory=dict)
    preset: str = "small"
    steps: int = 10000
    batch: int = 10000
    max_scramble: int | None = None
    lr: float = 1e-3
    lr_decay: float = 0.9999993
    check_every: int = 5000
    threshold: float = 0.05
    eval_every: int = 1000
    eval_depths: tuple[int, ...] = (1, 2, 4, 8, 16)
    eval_states: int = 100
    log_every: int = 100
    checkpoint_seconds: float = 300.0
    checkpoint_steps: int = 500
    seed: int = 0
    device: str = "cpu"
    shards: int = 1
    objective: str = "davi"
    init_from: str | None = None
    amp: bool = False
    init_optimizer: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "eval_depths", tuple(int(d) for d in self.eval_depths))
        for name in ("init_from", "init_optimizer"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, str(getattr(self, name)))
        if self.init_optimizer is not None and self.init_from is None:
            raise PuzzleoptError("--init-optimizer needs --init-from: the network its Adam moments belong to")
        if self.objective not in OBJECTIVES:
            known = ", ".join(OBJECTIVES)
            raise PuzzleoptError(f"training objective {self.objective!r} is unknown; use one of {known}")
        if self.max_scramble is not None and int(self.max_scramble) < 1:
            raise PuzzleoptError(f"setting max_scramble={self.max_scramble} (--max-scramble) must be at least 1")
        for name in ("steps", "batch", "check_every", "log_every", "checkpoint_steps", "shards"):
            if int(getattr(self, name)) < 1:
                raise PuzzleoptError(f"DAVI setting {name}={getattr(self, name)} must be at least 1")
        if self.eval_every < 0 or self.eval_states < 1:
            raise PuzzleoptError(
                f"DAVI evaluation: eval_every={self.eval_every} must be >= 0 and eval_states={self.eval_states} >= 1"
            )
        if self.batch % self.shards:
            raise PuzzleoptError(f"DAVI batch {self.batch} must be a multiple of shards={self.shards} (equal shards)")
        if any(d < 1 for d in self.eval_depths):
            shown = ",".join(map(str, self.eval_depths))
            raise PuzzleoptError(f"DAVI eval_depths (--eval-depths) {shown!r}: each depth must be at least 1")
        if not math.isfinite(self.threshold) or self.threshold < 0:
            raise PuzzleoptError(f"DAVI threshold (--threshold) {self.threshold} must be a finite number >= 0")
        if self.seed < 0:
            raise PuzzleoptError(f"DAVI seed (--seed) {self.seed} must be a whole number >= 0")
        if not self.lr > 0 or not 0 < self.lr_decay <= 1 or not self.checkpoint_seconds >= 0:
            raise PuzzleoptError(
                f"DAVI settings lr={self.lr}, lr_decay={self.lr_decay}, checkpoint_seconds={self.checkpoint_seconds}: "
                "need lr > 0, 0 < lr_decay <= 1, checkpoint_seconds >= 0"
            )

    def to_dict(self) -> dict:
        d = asdict(self)
        d["eval_depths"] = list(self.eval_depths)
        return d

    def resolved(self, puzzle: Puzzle) -> DaviConfig:
        """This config with ``max_scramble`` fixed: as given, or the objective's default."""
        if self.max_scramble is not None:
            return self
        from learned.diffusion import default_k_max

        k = default_k_max(puzzle) if self.objective == "diffusion" else DAVI_MAX_SCRAMBLE
        return dataclasses.replace(self, max_scramble=k)

    @classmethod
    def from_dict(cls, d: dict) -> DaviConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class _Run:
    puzzle: Puzzle
    net: CostToGo
    target: CostToGo
    opt: torch.optim.Optimizer
    rng: np.random.Generator
    step: int = 0
    updates: int = 0
    seconds: float = 0.0
    lineage: dict = field(default_factory=dict)  # for the card: what the --init-from network had seen
    data_seed: int = 0  # of the training states: see walk_seed


def walk_seed(seed: int, states_before: int) -> int:
    """The seed of a run's training states: ``seed`` for a network trained from scratch, else one
    drawn from ``(seed, states_before)``.

    A run that trains on from a network (``--init-from``) counts its steps from 0 again; were its
    states drawn from ``seed`` alone, it would see its parent's states once more, step for step,
    and the states its card counts would not be new ones. Each network of a chain has seen more
    states than its parent, so each draws its own.

    Args:
        seed: The run's seed (``--seed``).
        states_before: The states the starting network and its ancestors were trained on.

    Returns:
        A seed in ``[0, 2**32)``.
    """
    if states_before == 0:
        return int(seed)
    return int(np.random.SeedSequence([int(seed), int(states_before)]).generate_state(1)[0])


def _fresh(config: DaviConfig) -> _Run:
    puzzle = registry.get(config.puzzle, **config.options)
    net_config = preset_config(config.preset, puzzle.num_positions, puzzle.num_labels)
    net = make_net(net_config, config.seed)
    lineage = {}
    if config.init_from:
        start, card = load_model(config.init_from)
        if start.config != net_config:
            raise PuzzleoptError(
                f"--init-from {config.init_from}: its network ({start.config}) is not preset {config.preset!r}'s "
                f"({net_config}); give the preset it was trained with"
            )
        net.load_state_dict(start.state_dict())
        lineage = _lineage(card)
    elif config.objective == "diffusion":  # start at the mean label: the first steps learn the shape, not the scale
        with torch.no_grad():
            net.out.bias.fill_((config.max_scramble + 1) / 2)
    net = net.to(config.device)
    target = copy.deepcopy(net)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr)
    if config.init_optimizer:
        lineage["adam_from"] = {"folder": config.init_optimizer, "step": load_adam(opt, net, config.init_optimizer)}
    data_seed = walk_seed(config.seed, lineage.get("states_seen_before", 0))
    return _Run(puzzle, net, target, opt, np.random.default_rng(data_seed), lineage=lineage, data_seed=data_seed)


def _save_checkpoint(folder: Path, config: DaviConfig, run: _Run) -> None:
    tensors = {f"net.{k}": v for k, v in run.net.state_dict().items()}
    tensors.update({f"target.{k}": v for k, v in run.target.state_dict().items()})
    opt = run.opt.state_dict()
    for idx, st in opt["state"].items():
        for key, val in st.items():
            tensors[f"opt.{idx}.{key}"] = val if torch.is_tensor(val) else torch.tensor(val)
    state = {
        "step": run.step,
        "target_updates": run.updates,
        "seconds": run.seconds,
        "rng": run.rng.bit_generator.state,
        "davi": config.to_dict(),
        "param_groups": opt["param_groups"],
    }
    write(folder / CHECKPOINT, tensors, "checkpoint", {"config": run.net.config.to_dict(), "state": state})


def _load_checkpoint(folder: Path, config: DaviConfig) -> _Run:
    path = folder / CHECKPOINT
    tensors, docs = read(path, "checkpoint")
    state = docs.get("state")
    davi = state.get("davi", {}) if isinstance(state, dict) else {}
    theirs = (davi.get("puzzle"), davi.get("options", {}))
    if theirs != (config.puzzle, config.options):
        raise WeightsError(
            f"checkpoint {path} is for puzzle {theirs[0]!r} with options {theirs[1]}, not {config.puzzle!r} with "
            f"{config.options}: use another --out"
        )
    saved = DaviConfig.from_dict(state["davi"])
    if (saved.preset, saved.seed, saved.objective) != (config.preset, config.seed, config.objective):
        raise WeightsError(
            f"checkpoint {path} was made with preset {saved.preset!r}, seed {saved.seed}, objective "
            f"{saved.objective!r}; this run asks for preset {config.preset!r}, seed {config.seed}, objective "
            f"{config.objective!r}: use another --out folder or the same settings"
        )
    run = _fresh(config)
    load_into(run.net, _strip(tensors, "net."), path)
    load_into(run.target, _strip(tensors, "target."), path)
    opt_state: dict = {}
    for name, val in tensors.items():
        if name.startswith("opt."):
            _, idx, key = name.split(".", 2)
            opt_state.setdefault(int(idx), {})[key] = val.to(config.device) if key != "step" else val
    run.opt.load_state_dict({"state": opt_state, "param_groups": state["param_groups"]})
    run.rng.bit_generator.state = state["rng"]
    run.step, run.updates, run.seconds = int(state["step"]), int(state["target_updates"]), float(state["seconds"])
    return run


def _strip(tensors: dict, prefix: str) -> dict:
    return {k[len(prefix) :]: v for k, v in tensors.items() if k.startswith(prefix)}


def _log_columns(config: DaviConfig) -> list[str]:
    return ["step", "seconds", "loss", "lr", "target_updates"] + [f"greedy_{d}" for d in config.eval_depths]


def _keep_log(folder: Path, config: DaviConfig, upto: int) -> None:
    """Drop log rows past the checkpoint (written after it, before an interrupt)."""
    path = folder / LOG
    cols = _log_columns(config)
    rows = []
    if path.exists():
        try:
            with path.open(newline="") as fh:
                rows = [r for r in csv.DictReader(fh) if int(r["step"]) <= upto]
        except (ValueError, KeyError, TypeError, csv.Error) as exc:
            raise PuzzleoptError(
                f"training log {path} is damaged ({exc.__class__.__name__}: {exc}); delete it (the checkpoint "
                "is kept, only the curve's past rows are lost) or use another --out"
            ) from None
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols)
    w.writeheader()
    w.writerows(rows)
    write_chunks(path, [buf.getvalue().encode()])


def train(
    config: DaviConfig,
    folder: str | Path,
    *,
    progress: bool = True,
    on_step: Callable[[int], None] | None = None,
    executor=None,
    command: str | None = None,
    time_limit: float | None = None,
) -> dict:
    """Train (or resume training) in ``folder``; returns a summary (steps, seconds, last loss,
    target updates, the last greedy solve rates, the model path).

    ``time_limit`` (seconds of this call) ends the run early, as if ``steps`` were reached: the
    model is written from the step it got to. ``on_step(step)`` is called after each step (tests
    use it to interrupt a run). With
    ``config.shards > 1``, ``executor`` (:mod:`exact.executor`; default in-process) makes the
    shards of each step's batch; the target network goes to its workers once per update.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(folder):
        return _train(config, folder, progress, on_step, executor, command=command, time_limit=time_limit)


class TrainingBusyError(PuzzleoptError):
    """Another process is training in the same folder."""


@contextmanager
def _locked(folder: Path):
    """Hold ``folder/.lock`` while training: two runs in one folder would overwrite each other's
    checkpoints. The lock is an OS file lock (``filelock``), so the test and the taking are one
    step (two processes cannot both get it) and a killed process's lock goes with it."""
    lock = FileLock(folder / LOCK)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise TrainingBusyError(
            f"training folder {folder} is in use by another process (it holds {folder / LOCK}); wait for it, "
            "stop it, or use another --out"
        ) from None
    try:
        yield
    finally:
        lock.release()


def _train(
    config: DaviConfig, folder: Path, progress: bool, on_step, executor=None, rank=None, command: str | None = None,
    time_limit: float | None = None,
) -> dict:  # fmt: skip
    """The training loop; ``rank`` is ``(rank, world)`` under ``torch.distributed`` (the model
    wrapped in DDP, this rank's shards only, files written by rank 0)."""
    # the limit covers the set-up (the puzzle, the checkpoint) and never starts a step that the
    # last one's duration says would end past it
    stop_at = math.inf if time_limit is None else time.perf_counter() + time_limit
    config = config.resolved(registry.get(config.puzzle, **config.options))
    run = _load_checkpoint(folder, config) if (folder / CHECKPOINT).exists() else _fresh(config)
    lead = rank is None or rank[0] == 0
    if lead:
        _keep_log(folder, config, run.step)
    puzzle, net, target = run.puzzle, run.net, run.target
    model = net
    if rank is not None:
        model = torch.nn.parallel.DistributedDataParallel(net)
    shards = Shards(config, puzzle, executor, rank, run.data_seed)
    target.eval()
    loss_fn = torch.nn.MSELoss()
    batch = _batches(config, puzzle, net, target, shards, run.data_seed)
    amp = config.amp and str(config.device).startswith("cuda")

    recent: list[float] = []
    last_greedy: dict[int, float] = {}
    last_save, last_save_step = time.perf_counter(), run.step
    note = None
    if run.step >= config.steps:
        note = (
            f"the checkpoint in {folder} is at step {run.step}, not below --steps {config.steps}: nothing was "
            f"trained, and the model written is the checkpoint's (step {run.step}); raise --steps to train on"
        )
    t_start = time.perf_counter() - run.seconds
    bar = progress_bar(
        progress and lead,
        total=config.steps,
        initial=run.step,
        desc=f"{config.objective} {config.puzzle}",
        unit="step",
    )
    logged = run.step
    try:
        took = 0.0
        while run.step < config.steps and time.perf_counter() + took < stop_at:
            began = time.perf_counter()
            lr, loss = _step(run, model, batch, loss_fn, config, amp)
            took = time.perf_counter() - began
            recent = (recent + [_mean_over_ranks(loss, rank)])[-100:]
            due_check = config.objective == "davi" and run.step % config.check_every == 0
            if due_check and float(np.mean(recent)) < config.threshold:
                target.load_state_dict(net.state_dict())
                run.updates += 1
            evaluate = lead and config.eval_every and (run.step % config.eval_every == 0 or run.step == config.steps)
            if evaluate:
                heur = NetHeuristic(puzzle, net, config.device)
                rng = np.random.default_rng([config.seed, run.step])
                last_greedy = {
                    d: greedy_solve_rate(puzzle, heur, d, config.eval_states, rng) for d in config.eval_depths
                }
            run.seconds = time.perf_counter() - t_start
            if lead and (run.step % config.log_every == 0 or evaluate or run.step == config.steps):
                logged = _log_row(folder, config, run, recent, lr, last_greedy if evaluate else None)
            bar.update(1)
            bar.set_postfix(loss=f"{np.mean(recent):.4f}", updates=run.updates, refresh=False)
            due = run.step - last_save_step >= config.checkpoint_steps
            if lead and (due or time.perf_counter() - last_save >= config.checkpoint_seconds):
                _save_checkpoint(folder, config, run)
                last_save, last_save_step = time.perf_counter(), run.step
            if on_step is not None:
                on_step(run.step)
    except KeyboardInterrupt:
        if lead:
            _save_checkpoint(folder, config, run)
        raise
    finally:
        bar.close()
    if lead and run.step > logged:  # a run the time limit ended between two rows still shows its last step
        _log_row(folder, config, run, recent, lr, None)
    if not lead:
        return {"steps": run.step, "rank": rank[0]}
    return _finish(folder, config, run, last_greedy, recent, command, note)


def _log_row(folder: Path, config: DaviConfig, run: _Run, recent: list, lr: float, greedy: dict | None) -> int:
    """Append the step's row to the run's log (``greedy``: the solve rates just measured, if
    any); returns the step."""
    row = [run.step, f"{run.seconds:.1f}", f"{np.mean(recent):.5f}", f"{lr:.3g}", run.updates]
    row += [f"{greedy[d]:.3f}" if greedy is not None else "" for d in config.eval_depths]
    with (folder / LOG).open("a", newline="") as fh:
        csv.writer(fh).writerow(row)
    return run.step


def _step(run, model, batch, loss_fn, config: DaviConfig, amp: bool) -> tuple[float, float]:
    """One optimisation step on a fresh batch: ``(learning rate, loss)``."""
    x, y = batch(run)
    lr = config.lr * config.lr_decay**run.step
    for group in run.opt.param_groups:
        group["lr"] = lr
    model.train()
    with torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
        pred = model(x)
    loss = loss_fn(pred.float(), y)
    run.opt.zero_grad(set_to_none=True)
    loss.backward()  # under DDP: the gradients averaged over the ranks
    run.opt.step()
    run.step += 1
    return lr, loss.item()


def _finish(folder: Path, config: DaviConfig, run, last_greedy: dict, recent: list, command, note) -> dict:
    """The last checkpoint, the model with its card, the curves; the summary."""
    puzzle, net = run.puzzle, run.net
    _save_checkpoint(folder, config, run)
    card = {
        "puzzle": config.puzzle,
        "spec": puzzle.spec.to_dict(),
        "preset": config.preset,
        "trained_steps": run.step,
        "training_seconds": round(run.seconds, 1),
        "target_updates": run.updates,
        "objective": config.objective,
        "states_seen": run.step * config.batch,
        "states_per_second": round(run.step * config.batch / max(run.seconds, 1e-9)),
        "davi": config.to_dict(),
        "data": _data_description(config, puzzle),
        "greedy_solve_rate": {str(d): r for d, r in last_greedy.items()},
    }
    if command:
        card["command"] = command
    card.update(run.lineage)
    card["data_seed"] = run.data_seed
    card["states_seen_total"] = card["states_seen"] + int(card.get("states_seen_before", 0))
    save_model(folder / MODEL, net, card)
    plot_curves(folder / LOG, folder / CURVES)
    return {
        "steps": run.step,
        "seconds": run.seconds,
        "loss": float(np.mean(recent)) if recent else None,
        "target_updates": run.updates,
        "states_per_second": run.step * config.batch / max(run.seconds, 1e-9),
        "objective": config.objective,
        "greedy": last_greedy,
        "model": str(folder / MODEL),
        "note": note,
    }


def _lineage(start: dict) -> dict:
    """The card entries of a network trained from one whose card is ``start``: the states behind
    it (its own and its ancestors'), its objective and command."""
    before = int(start.get("states_seen", 0)) + int(start.get("states_seen_before", 0))
    return {"states_seen_before": before,
            "started_from": {"objective": start.get("objective", "davi"), "command": start.get("command")}}  # fmt: skip


def _data_description(config: DaviConfig, puzzle: Puzzle) -> str:
    if config.objective == "diffusion":
        return f"states along non-backtracking walks of {config.max_scramble} moves, {config.batch} states per step"
    return f"1..{config.max_scramble} {puzzle.walk_description}, {config.batch} states per step"


def _batches(config: DaviConfig, puzzle: Puzzle, net: CostToGo, target: CostToGo, shards: Shards, data_seed: int):
    """``batch(run) -> (x, y)``: the next step's network input and float32 labels, on the device.

    DAVI: scrambles and their Bellman targets under ``target``. Diffusion: states along
    non-backtracking walks and their lengths, made on the GPU where the moves always apply.
    """
    device = config.device
    walker = None
    if config.objective == "diffusion" and config.shards == 1 and str(device).startswith("cuda"):
        from learned.diffusion import TorchWalks

        walker = TorchWalks(puzzle, device, data_seed) if TorchWalks.applies(puzzle) else None
    target_value = net_values(puzzle, target, device)

    def batch(run: _Run) -> tuple[torch.Tensor, torch.Tensor]:
        if walker is not None:
            s, y = walker.batch(config.batch, config.max_scramble, run.step)
            return net.device_inputs(s), y
        if config.shards > 1:
            states, y_np = shards.batch(run.step, target, run.updates)
        elif config.objective == "diffusion":
            from learned.diffusion import diffusion_batch

            states, y_np = diffusion_batch(puzzle, config.batch, config.max_scramble, run.rng)
        else:
            depths = run.rng.integers(1, config.max_scramble + 1, size=config.batch)
            states = puzzle.random_walk(config.batch, depths, run.rng)
            y_np = bellman_targets(puzzle, states, target_value)
        x = net.inputs(puzzle, states).to(device, non_blocking=True)
        return x, torch.from_numpy(np.asarray(y_np)).float().to(device)

    return batch


def net_values(puzzle: Puzzle, net: CostToGo, device) -> Callable[[np.ndarray], np.ndarray]:
    """``states (B, P) -> float64 (B,)``: the network's cost-to-go (no gradients), as
    :func:`~learned.values.bellman_targets` takes it."""

    @torch.no_grad()
    def value(states: np.ndarray) -> np.ndarray:
        return net(net.inputs(puzzle, states).to(device)).double().cpu().numpy()

    return value


def _mean_over_ranks(value: float, rank) -> float:
    """``value`` averaged over the ranks (every rank then takes the same target-update decision)."""
    if rank is None:
        return value
    t = torch.tensor([value], dtype=torch.float64)
    torch.distributed.all_reduce(t)
    return float(t.item()) / rank[1]


@dataclass(frozen=True)
class ShardShared:
    """What every shard task reads: the puzzle, the sizes and the target network (a blob of its
    safetensors bytes; a worker loads it once per target update)."""

    spec: dict
    net_config: dict
    target: object  # exact.executor.Blob
    per_shard: int
    max_scramble: int
    seed: int
    objective: str = "davi"


@functools.lru_cache(maxsize=2)
def _shard_net(net_config: str, blob) -> CostToGo:
    from safetensors.torch import load as load_tensors

    from learned.nets import NetConfig

    net = make_net(NetConfig(**json.loads(net_config)), 0)
    net.load_state_dict(load_tensors(blob.get()))
    return net.eval()


def shard_data(
    puzzle: Puzzle, net: CostToGo, step: int, shard: int, per_shard: int, max_scramble: int, seed: int,
    objective: str = "davi",
):  # fmt: skip
    """Shard ``shard`` of step ``step``: ``per_shard`` states from ``default_rng([seed, step, shard])``
    and their labels: Bellman targets under ``net`` (DAVI) or walk lengths (diffusion); uint8
    ``(n, P)``, float ``(n,)``."""
    rng = np.random.default_rng([seed, step, shard])
    if objective == "diffusion":
        from learned.diffusion import diffusion_batch

        return diffusion_batch(puzzle, per_shard, max_scramble, rng)
    depths = rng.integers(1, max_scramble + 1, size=per_shard)
    states = puzzle.random_walk(per_shard, depths, rng)
    return states, bellman_targets(puzzle, states, net_values(puzzle, net, next(net.parameters()).device))


def shard_task(shared: ShardShared, item: tuple[int, int]):
    """One shard in a worker (:func:`shard_data` with the target network of ``shared``)."""
    step, shard = item
    puzzle = rebuilt(shared.spec)
    net = _shard_net(json.dumps(shared.net_config, sort_keys=True), shared.target)
    return shard_data(
        puzzle, net, step, shard, shared.per_shard, shared.max_scramble, shared.seed, shared.objective
    )  # fmt: skip


class Shards:
    """Each step's batch made of ``config.shards`` shards: by an executor's workers, or (under
    ``torch.distributed``) this rank's own shards, computed here."""

    def __init__(self, config: DaviConfig, puzzle: Puzzle, executor, rank, data_seed: int) -> None:
        self.config, self.puzzle, self.executor, self.rank = config, puzzle, executor, rank
        self.data_seed = data_seed  # walk_seed's, not config.seed
        self._shared: ShardShared | None = None
        self._updates = -1

    def batch(self, step: int, target: CostToGo, updates: int) -> tuple[np.ndarray, np.ndarray]:
        c = self.config
        per = c.batch // c.shards
        if self.rank is not None:  # this rank's shards, with its own copy of the target network
            r, world = self.rank
            mine = [
                shard_data(self.puzzle, target, step, i, per, c.max_scramble, self.data_seed, c.objective)
                for i in range(r, c.shards, world)
            ]
            return np.concatenate([m[0] for m in mine]), np.concatenate([m[1] for m in mine])
        from safetensors.torch import save as save_tensors

        from exact.executor import InProcess

        if self.executor is None:
            self.executor = InProcess()
        if updates != self._updates:  # a new target network: to the workers once
            weights = save_tensors({k: v.detach().cpu().contiguous() for k, v in target.state_dict().items()})
            self._shared = ShardShared(
                self.puzzle.spec.to_dict(), target.config.to_dict(), self.executor.blob(weights), per,
                c.max_scramble, self.data_seed, c.objective,
            )  # fmt: skip
            self._updates = updates
        parts = dict(self.executor.map(shard_task, [(step, i) for i in range(c.shards)], self._shared))
        return (
            np.concatenate([parts[i][0] for i in range(c.shards)]),
            np.concatenate([parts[i][1] for i in range(c.shards)]),
        )


def plot_curves(log: Path, out: Path) -> None:
    """:func:`curves_figure` of ``log``, written atomically to ``out`` as PNG (nothing for an
    empty log)."""
    fig = curves_figure(log)
    if fig is not None:
        write_chunks(out, [png_bytes(fig)])


def curves_figure(log: str | Path):
    """Loss and greedy solve rates against steps (as DeepCubeA's Fig. 3) from a run's
    ``log.csv``: a :class:`~matplotlib.figure.Figure`, or ``None`` for an empty log."""
    log = Path(log)
    with log.open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        return None
    steps = [int(r["step"]) for r in rows]
    fig = new_figure(10, 4)
    a, b = fig.subplots(1, 2)
    a.plot(steps, [float(r["loss"]) for r in rows])
    a.set_yscale("log")
    a.set_xlabel("step")
    a.set_ylabel("mean squared error")
    for col in [c for c in rows[0] if c.startswith("greedy_")]:
        pts = [(int(r["step"]), float(r[col])) for r in rows if r[col]]
        if pts:
            b.plot(*zip(*pts), label=f"depth {col[7:]}")
    b.set_xlabel("step")
    b.set_ylabel("greedy solve rate")
    b.set_ylim(0, 1.02)
    if b.lines:
        b.legend()
    fig.suptitle(f"DAVI training ({log.parent})")
    return fig
