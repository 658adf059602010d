"""Solvers for Kaggle Santa 2023 (the puzzles themselves are :mod:`exact.puzzles.santa`):
proofs by bidirectional BFS (:mod:`.prove`), the commutator solver for everything
(:mod:`exact.commutators`), and ``puzzleopt santa score|solve`` (:mod:`.__main__`)."""
