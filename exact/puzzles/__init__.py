"""Puzzle packages: one sub-package per puzzle family (moves, state text, ranking)."""
