"""Kaggle Santa 2023, "The Polytope Permutation Puzzle": its three shapes under the
competition's move names (:mod:`.shapes`), its 398 puzzles shipped as package data and each
type's move table (:mod:`.instances`), and its scoring (:mod:`.score`). The solvers are in
:mod:`exact.santa`; ``santa:TYPE`` names a type's puzzle in the registry."""

from exact.puzzles.santa.instances import Instance, definition, instances, parse_moves, table, types
from exact.puzzles.santa.score import Score, read_submission, score
from exact.puzzles.santa.shapes import Shape, shape

__all__ = ["Instance", "Score", "Shape", "definition", "instances", "parse_moves", "read_submission", "score", "shape",
           "table", "types"]  # fmt: skip
