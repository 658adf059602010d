"""puzzleopt's exact layer: puzzles, move tables, exact models and searches (never imports torch)."""

from exact.provenance import package_version

__version__ = package_version()
