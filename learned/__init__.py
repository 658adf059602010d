"""puzzleopt's learned layer: cost-to-go networks (DAVI), batch weighted A*, and the other learned
or evolved solvers. May import :mod:`exact`; needs the ``learned`` extra (torch, safetensors).

``learned.load("tiles8")`` returns a shipped network and its card (see :mod:`learned.models`).

Run as a command (``python -m learned.solve``, ``train``, ``evaluate``) without torch, a module
would fail on its first import, before its ``main`` could say why; this package, imported first,
says it in one line and exits with 2 (bad input: the extra is missing).
"""

from __future__ import annotations

import sys

TORCH_COMMANDS = ("learned.solve", "learned.train", "learned.evaluate")
"""The package's commands that need torch."""


def _torch_command_without_torch() -> None:
    argv = list(getattr(sys, "orig_argv", ()))
    if "-m" not in argv or argv.index("-m") + 1 >= len(argv):
        return
    command = argv[argv.index("-m") + 1]
    if command not in TORCH_COMMANDS:
        return
    try:
        import torch  # noqa: F401 - only whether it imports
    except ImportError:
        from exact.cli import exit_missing_extra

        exit_missing_extra(command, "learned")


_torch_command_without_torch()


def load(puzzle: str, device: str = "cpu"):
    """The shipped network for ``puzzle`` and its card (imports torch on first use)."""
    from learned.models import load as _load

    return _load(puzzle, device)
