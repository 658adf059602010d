"""DAVI on several processes with ``torch.distributed`` (DistributedDataParallel).

:func:`train_ddp` starts ``world`` processes (``torch.multiprocessing.spawn``), one per GPU with
the ``nccl`` backend where that many GPUs are present, else CPU processes with ``gloo``. Every
rank builds the same network from the seed, makes its own shards of each step's batch
(:class:`learned.davi.Shards`: shard ``i`` of step ``t`` from ``default_rng([seed, t, i])``, so the
data do not depend on how many ranks there are) with its own copy of the target network, and DDP
averages the gradients, so a step is one step on the whole batch. The ranks average their losses
before deciding on a target update, so they all decide alike. Rank 0 alone writes the log, the
checkpoints and the model, and holds the folder's lock; a run resumes from its checkpoint with
any number of ranks. Batch norm normalises each rank's part of the batch (a per-rank statistic,
as in data-parallel training generally); the running statistics are rank 0's.
"""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path

from exact.errors import PuzzleoptError
from learned.davi import DaviConfig, _locked, _train


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rank(rank: int, world: int, backend: str, port: int, config: DaviConfig, folder: str, progress: bool,
          threads: int, out) -> None:  # fmt: skip  # pragma: no cover - runs in the spawned ranks
    import torch
    import torch.distributed as dist

    torch.set_num_threads(threads)
    dist.init_process_group(backend, init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    try:
        if backend == "nccl":
            torch.cuda.set_device(rank)
            config = replace(config, device=f"cuda:{rank}")
        if rank == 0:
            with _locked(Path(folder)):
                out.put(_train(config, Path(folder), progress, None, None, (rank, world)))
        else:
            _train(config, Path(folder), False, None, None, (rank, world))
        # both ranks reach the teardown together: a rank tearing gloo down while the other still
        # writes its files was seen to abort ("terminate called without an active exception")
        dist.barrier()
    finally:
        dist.destroy_process_group()


def train_ddp(
    config: DaviConfig, folder: str | Path, world: int, *, backend: str | None = None, progress: bool = True,
    threads: int = 1,
) -> dict:  # fmt: skip
    """Train ``config`` in ``folder`` on ``world`` ranks (see the module docstring); returns rank
    0's summary (as :func:`learned.davi.train`).

    Args:
        config: Its ``shards`` must be a multiple of ``world`` (each rank makes ``shards / world``).
        backend: ``"gloo"`` (CPU processes) or ``"nccl"`` (one GPU a rank); default: ``nccl``
            where ``world`` GPUs are present, else ``gloo``.
        threads: torch threads in each rank.
    """
    import torch
    import torch.multiprocessing as mp

    if world < 2:
        raise PuzzleoptError(f"--ddp {world}: use at least 2 processes (1 is plain training)")
    if config.shards % world:
        raise PuzzleoptError(f"--shards {config.shards} must be a multiple of --ddp {world}: each rank makes its own")
    if backend is None:
        backend = "nccl" if torch.cuda.is_available() and torch.cuda.device_count() >= world else "gloo"
    if backend == "nccl" and torch.cuda.device_count() < world:
        raise PuzzleoptError(f"--ddp {world} with nccl needs {world} GPUs; {torch.cuda.device_count()} here")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    ctx = mp.get_context("spawn")
    out = ctx.SimpleQueue()
    mp.spawn(_rank, args=(world, backend, _free_port(), config, str(folder), progress, threads, out), nprocs=world)
    return out.get()
