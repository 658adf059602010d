"""puzzleopt's learned layer: cost-to-go networks (DAVI), batch weighted A*, and the other learned
or evolved solvers. May import :mod:`exact`; needs the ``learned`` extra (torch, safetensors).

``learned.load("tiles8")`` returns a shipped network and its card (see :mod:`learned.models`).
"""


def load(puzzle: str, device: str = "cpu"):
    """The shipped network for ``puzzle`` and its card (imports torch on first use)."""
    from learned.models import load as _load

    return _load(puzzle, device)
