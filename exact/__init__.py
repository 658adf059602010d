"""puzzleopt's exact layer: puzzles, move tables, exact models and searches (never imports torch)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("puzzleopt")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+source"
