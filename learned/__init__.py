"""puzzleopt's learned layer: cost-to-go networks (DAVI), batch weighted A*, and the other learned
or evolved solvers. May import :mod:`exact`; needs the ``learned`` extra (torch, safetensors)."""
