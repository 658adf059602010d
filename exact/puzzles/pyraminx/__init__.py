"""The Pyraminx (Meffert's tetrahedral puzzle), with or without its tips.

Conventions, used by every module of this package:

* The four vertices are ``U`` (top), ``L`` (front left), ``R`` (front right) and ``B`` (back);
  the puzzle sits on its ``D`` face. Each face is named for where it looks and is the face
  *opposite* one vertex: ``F`` (front, opposite B), ``L`` (left, opposite R), ``R`` (right,
  opposite L) and ``D`` (bottom, opposite U). Colours, WCA's: ``F`` green ``g``, ``L`` red
  ``r``, ``R`` blue ``b``, ``D`` yellow ``y``.
* Each face shows 9 stickers, read in three rows with the face's *top* corner first (``U`` for
  F, L and R; ``B`` for D, seen from below): row 1 the top tip; row 2 the edge towards the left
  corner, the top axial, the edge towards the right corner; row 3 the left tip, the left axial,
  the bottom edge, the right axial, the right tip. Faces come in the order F, L, R, D. Without
  tips (``tips=False``) the three tip stickers of each face are left out (6 per face).
* A state is a uint8 vector of ``P`` positions (36 with tips, 24 without): ``state[i]`` is the
  home position of the sticker now at ``i``, so the goal is ``0 1 2 ... P-1``. Every piece of
  the Pyraminx has its own set of colours, so this is the same information as the colours, with
  each piece told apart; :meth:`PyraminxPuzzle.format_state` writes the colours and
  :meth:`PyraminxPuzzle.parse_state` reads them back, recognising each piece.
* Moves, in WCA notation: ``U L R B`` turn the two layers at that vertex 120 degrees clockwise
  as seen looking at the vertex, ``U' L' R' B'`` anticlockwise; lowercase ``u l r b`` (and
  primes) turn only the tip. Every move counts 1 (face-turn metric).
* Positions without tips: 933,120 (even edge permutations, 5 free edge flips, 4 axial twists);
  with tips 81 times as many. God's number without tips is 11.
"""

from exact.puzzles.pyraminx.geometry import FACES, VERTICES, Sticker, stickers
from exact.puzzles.pyraminx.moves import pyraminx_moves
from exact.puzzles.pyraminx.puzzle import PyraminxPuzzle

__all__ = ["FACES", "VERTICES", "PyraminxPuzzle", "Sticker", "pyraminx_moves", "stickers"]
