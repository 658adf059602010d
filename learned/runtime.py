"""Where and on how many threads torch runs: ``--device`` and ``--threads`` of the learned CLIs.

torch's default intra-op thread count is every core, which is the right choice for big batches
on an idle machine and a bad one otherwise: the searches here evaluate a few hundred states at a
time, and when the cores are busy (a test run, CI, several evaluations side by side, a worker
pool) every call waits for a thread that is not scheduled. Measured on 2 cores
(``docs/benchmarks/threads.md``, ``python benchmarks/threads.py``): with both cores busy, BWAS
searched 3.0 times (``learned.solve`` on the 8-puzzle) and 2.6 times (``learned.evaluate`` on
15-puzzles) as long on two threads as on one; idle, two threads were 1.1 and 1.6 times as fast.
So the commands that search default to :data:`SEARCH_THREADS` (one: the loss under load is the
larger); ``--threads 2`` pays on an idle machine. Training, whose batches are a thousand states
and more, defaults to every core: idle, 30 steps of 1,000 8-puzzle states took 0.61 times as long
on two threads; with both cores busy 1.16 times as long.

``configure`` is called once by each command after its options are read; library calls leave
torch's settings to their caller. torch is imported only there, so that a command that runs
BWAS only on request (``hybrid.verify``) takes the same options without the ``learned`` extra.
"""

from __future__ import annotations

import functools

from exact.errors import PuzzleoptError

DEVICES = ("auto", "cpu", "cuda")
SEARCH_THREADS = 1
TRAIN_THREADS = None  # every core


def resolve_device(name: str) -> str:
    """The torch device ``name`` asks for: ``auto`` is ``cuda`` where available, else ``cpu``.

    Raises:
        PuzzleoptError: ``name`` is not a device we know, or ``cuda`` where torch has no GPU.
    """
    import torch

    if name not in DEVICES:
        raise PuzzleoptError(f"--device {name!r} is not one of {', '.join(DEVICES)}")
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        why = "this torch is built without CUDA" if torch.version.cuda is None else "no GPU is visible"
        raise PuzzleoptError(f"--device cuda: {why} (torch {torch.__version__}); use --device cpu or auto")
    return name


def configure(device: str, threads: int) -> str:
    """Set torch's intra-op threads to ``threads`` and return the resolved device.

    Raises:
        PuzzleoptError: ``threads`` below 1, or a device torch cannot use.
    """
    import torch

    if threads < 1:
        raise PuzzleoptError(f"--threads {threads} must be at least 1")
    resolved = resolve_device(device)
    torch.set_num_threads(int(threads))
    return resolved


PRECISIONS = ("auto", "fp32", "bf16", "int8")


@functools.lru_cache(maxsize=1)
def _cpu_flags() -> str:
    """``/proc/cpuinfo`` (read once; empty where there is none)."""
    try:
        with open("/proc/cpuinfo") as fh:
            return fh.read()
    except OSError:
        return ""


def bf16_pays(device: str) -> bool:
    """Whether bfloat16 inference pays on ``device``: on a GPU, and on a CPU with bf16
    instructions (``avx512_bf16`` or ``amx_bf16`` in ``/proc/cpuinfo``); without them torch
    emulates bf16 and is slower than fp32."""
    if str(device).startswith("cuda"):
        return True
    flags = _cpu_flags()
    return "avx512_bf16" in flags or "amx_bf16" in flags


def int8_pays(device: str, activation: str | None = "relu") -> bool:
    """Whether int8 inference (:mod:`learned.int8`) is the one to pick on ``device`` for a network
    of ``activation``: a CPU with AMX int8 tiles (``amx_int8``, where it was measured: a 3x3 beam
    1.6 times as fast as with the fused bf16 network, the same solutions;
    ``docs/benchmarks/learned_cube3.md``), a torch with oneDNN's int8 ops, a ReLU network
    (``None``: not known yet)."""
    from learned.int8 import why_not_int8

    return "amx_int8" in _cpu_flags() and why_not_int8(device, activation) is None


def check_precision(precision: str, device: str, activation: str | None = None) -> str:
    """``precision`` resolved and checked. ``auto``: int8 where :func:`int8_pays`, else bf16 where
    :func:`bf16_pays`, else fp32; ``activation``: the network's, where known (only a ReLU
    network runs in int8)."""
    if precision not in PRECISIONS:
        raise PuzzleoptError(f"precision {precision!r} is unknown; use one of {', '.join(PRECISIONS)}")
    if precision == "auto":
        return "int8" if int8_pays(device, activation) else "bf16" if bf16_pays(device) else "fp32"
    if precision == "int8":
        from learned.int8 import why_not_int8

        if (why := why_not_int8(device, activation)) is not None:
            raise PuzzleoptError(f"precision {why}")
    return precision
