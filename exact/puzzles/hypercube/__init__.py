"""The cubical sliding puzzle ``(d, k, l)`` (Merleau, O'Malley, Roldan & Mukherjee, Definition 1).

Conventions (written once, here):

* **Vertices** of the d-cube are the integers ``0 .. 2^d - 1``; binary digit ``i`` of a vertex is
  its coordinate ``i``. A **k-face** is the set of ``2^k`` vertices that agree outside ``k`` free
  coordinates.
* ``2^d - l`` **rings** sit on distinct vertices (``l`` vertices are empty). Each ring has a
  colour, and the target gives each colour its vertex.
* A **state** is a vector of ``P = 2^d`` labels, one per vertex: ``0`` empty, ``1 .. R`` the
  rings in the order of :data:`COLOURS` that the instance uses (``r p g b y o``: red, purple,
  green, blue, yellow, orange; further colours are numbered on).
* A **move** slides the ring on ``u`` to another vertex ``v`` of a k-face ``F`` that contains
  both, when every vertex of ``F`` other than ``u`` is empty. In the move table it is the
  transposition of ``u`` and ``v`` guarded by "label 0 on every vertex of ``F`` but ``u``"; one
  row per face, and the rows of one ``(u, v)`` share the name ``"u>v"`` (one action). A row whose
  ``u`` is empty leaves the state as it is; searches drop such children.
* One slide is one move; the goal is the target state.
"""

from exact.puzzles.hypercube.instances import Instance, instance_names, load_instance, shipped_instances
from exact.puzzles.hypercube.moves import face_masks, hypercube_moves
from exact.puzzles.hypercube.puzzle import COLOURS, HypercubePuzzle

__all__ = [
    "COLOURS",
    "HypercubePuzzle",
    "Instance",
    "face_masks",
    "hypercube_moves",
    "instance_names",
    "load_instance",
    "shipped_instances",
]
