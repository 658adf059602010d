"""The pancake puzzle: a stack of ``n`` pancakes sorted by prefix reversals (flips).

Conventions, used by every module of this package:

* Slots are numbered from the top of the stack: slot 0 is the top, slot ``n - 1`` rests on the
  plate. Pancakes are numbered by size, 1 (smallest) to ``n``; solved is 1 on top, ``n`` at the
  bottom.
* A flip ``fk`` puts the spatula under the ``k``-th pancake and turns the top ``k`` over: their
  order reverses. Unburnt pancakes have flips ``f2 .. fn`` (``f1`` would change nothing); burnt
  pancakes have ``f1 .. fn``, and a flip also turns each pancake it moves upside down. Every flip
  is its own inverse and counts 1.
* Text is the stack from the top, one number per pancake; for burnt pancakes a ``-`` marks a
  pancake burnt side up: ``"3 -1 2"``. Solved: ``"1 2 3"``.
* States, unburnt: ``P = n`` positions, ``state[i]`` = the size of the pancake in slot ``i``
  minus 1 (goal ``0 1 ... n-1``). Burnt: ``P = 2n`` positions, two per slot: ``2i`` is the
  upper face of slot ``i`` and ``2i + 1`` its lower face; pancake ``v`` (from 0) has faces
  ``2v`` (golden, up when solved) and ``2v + 1`` (burnt), so the goal is ``0 1 ... 2n-1`` and a
  flip is a permutation like every move in puzzleopt.
* Published counts: the pancake numbers (the diameters) of OEIS A058986 for unburnt stacks and
  A078941 for burnt ones (:data:`PANCAKE_NUMBERS`, :data:`BURNT_PANCAKE_NUMBERS`).
"""

from exact.puzzles.pancake.heuristic import GapHeuristic
from exact.puzzles.pancake.moves import BURNT_PANCAKE_NUMBERS, PANCAKE_NUMBERS, pancake_moves
from exact.puzzles.pancake.puzzle import PancakePuzzle

__all__ = ["BURNT_PANCAKE_NUMBERS", "PANCAKE_NUMBERS", "GapHeuristic", "PancakePuzzle", "pancake_moves"]
