"""The NxNxN Rubik's cube.

Conventions (the one place they are written down):

* A state is a uint8 vector of ``6*n*n`` facelet colours. Colour ``f`` is the colour of face
  ``f`` in the solved cube, faces in the order **U R F D L B** (the kociemba package's).
* Facelet ``f*n*n + r*n + c`` is row ``r``, column ``c`` of face ``f``, each face seen from
  outside: R, F, L, B with U on top; U with B on top; D with F on top. For n = 3 this is exactly
  kociemba's 54-character facelet string, and :func:`to_facelets` writes it (one letter per colour,
  by default the face letters ``URFDLB``).
* Space: ``x`` towards R, ``y`` towards U, ``z`` towards F. Layers of an axis are numbered from
  the L, D, B side. A move ``X`` turns clockwise as seen from face X; ``M`` turns like ``L``,
  ``E`` like ``D``, ``S`` like ``F``; ``x``, ``y``, ``z`` turn the whole cube like R, U, F.
* Notation is WCA style: ``R``, ``R'``, ``R2``, ``Rw`` (two layers), ``3Rw``, ``2R`` (second layer
  alone), ``M``, ``E``, ``S``, ``x``, ``y``, ``z``.
* Solved means one colour per face, in any whole-cube orientation.
"""

from exact.puzzles.cube.cubies import read_cubies
from exact.puzzles.cube.facelets import from_facelets, to_facelets, validate
from exact.puzzles.cube.moves import cube_moves
from exact.puzzles.cube.net import net
from exact.puzzles.cube.notation import parse_turn, spellings
from exact.puzzles.cube.puzzle import CubePuzzle
from exact.puzzles.cube.state import is_solved, random_state, rotations, scramble, solved_state

__all__ = [
    "CubePuzzle",
    "cube_moves",
    "from_facelets",
    "is_solved",
    "net",
    "parse_turn",
    "random_state",
    "read_cubies",
    "rotations",
    "scramble",
    "solved_state",
    "spellings",
    "to_facelets",
    "validate",
]
