"""Partial goals of the cube (:mod:`exact.goals`): named stages and facelet masks.

A *facelet mask* is the cube's facelet string (kociemba's order, faces URFDLB, ``6 n^2``
letters) with ``.`` (or ``-``) where any colour will do: ``U`` ... ``B`` at a position ask for
that face's colour there. Spaces and line breaks are ignored, so a mask may be written face by
face. A full mask (no ``.``) is a pattern: the cube must show exactly those colours.

Named goals ask for facelets to show their solved colours; join them with ``+``
(``"cross+pair-FR"``):

* ``cross`` (3x3): the four D edges (their D and side facelets);
* ``pair-FR``, ``pair-FL``, ``pair-BL``, ``pair-BR`` (3x3): the D corner and middle edge of that
  slot (an F2L pair);
* ``f2l`` (3x3): the cross and the four pairs, the first two layers;
* ``layer-D`` (2x2 and 3x3): the D layer's corners (and on the 3x3 its edges).

Centres are never named: on a cube turned by its faces they do not move.
"""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzle import Goal
from exact.puzzles.cube.cubies import piece_facelets
from exact.puzzles.cube.geometry import FACES

WILDCARDS = ".-"
PAIRS = {"FR": "DFR", "FL": "DLF", "BL": "DBL", "BR": "DRB"}
"""F2L slot -> its D corner (in :data:`~exact.puzzles.cube.cubies.CORNER_NAMES`' spelling)."""


def _named(n: int) -> dict[str, tuple[str, ...]]:
    """Goal name -> the pieces (by their faces) it brings home, for this size."""
    if n == 2:
        return {"layer-D": ("DFR", "DLF", "DBL", "DRB")}
    if n != 3:
        return {}
    cross = ("DR", "DF", "DL", "DB")
    pairs = {f"pair-{slot}": (corner, slot) for slot, corner in PAIRS.items()}
    return {
        "cross": cross,
        **pairs,
        "f2l": cross + tuple(p for pair in pairs.values() for p in pair),
        "layer-D": cross + tuple(PAIRS.values()),
    }


def goal_names(n: int) -> tuple[str, ...]:
    """The named goals of the ``n x n x n`` cube."""
    return tuple(_named(n))


def parse_goal(text: str, n: int) -> Goal:
    """The partial goal ``text`` names: ``+``-joined names, or a facelet mask (module docstring).

    Returns:
        ``Goal(allowed=...)``, bool ``(6 n^2, 6)``.

    Raises:
        PuzzleoptError: an unknown name (the known ones listed) or a mask with a bad letter (quoted
            with its position) or the wrong length.
    """
    if not isinstance(text, str) or not text.strip():
        raise PuzzleoptError(f"a cube goal is a name ({', '.join(goal_names(n)) or 'none here'}) or a facelet mask")
    p = 6 * n * n
    squeezed = "".join(text.split())
    if len(squeezed) == p and all(c in FACES + WILDCARDS for c in squeezed):
        return mask_goal(squeezed, n)
    named = _named(n)
    solved = np.repeat(np.arange(6), n * n)
    allowed = np.ones((p, 6), dtype=bool)
    for name in squeezed.split("+"):
        if name not in named:
            raise PuzzleoptError(_bad_name(text, name, n, named, p))
        for q in (int(q) for piece in named[name] for q in piece_facelets(n, (piece,))[0]):
            allowed[q] = False
            allowed[q, solved[q]] = True
    return Goal(allowed=allowed)


def _bad_name(text: str, name: str, n: int, named: dict, p: int) -> str:
    names = ", ".join(named) or f"none for the {n}x{n}x{n}"
    squeezed = "".join(text.split())
    if all(c in FACES + WILDCARDS for c in squeezed):  # meant as a mask
        return f"goal mask {text!r}: a {n}x{n}x{n} cube has {p} facelets, the mask has {len(squeezed)}"
    return f"goal {text!r}: {name!r} is no goal name (names: {names}; join them with +) nor a facelet mask"


def mask_goal(mask: str, n: int) -> Goal:
    """The goal of a facelet mask (module docstring)."""
    squeezed = "".join(mask.split())
    p = 6 * n * n
    for i, c in enumerate(squeezed):
        if c not in FACES + WILDCARDS:
            face, k = divmod(i, n * n)
            raise PuzzleoptError(
                f"goal mask: {c!r} at position {i} (face {FACES[face]}, facelet {k}) is neither a face letter "
                f"({FACES}) nor '.' for any colour"
            )
    if len(squeezed) != p:
        raise PuzzleoptError(f"goal mask: a {n}x{n}x{n} cube has {p} facelets, the mask has {len(squeezed)}")
    allowed = np.ones((p, 6), dtype=bool)
    for i, c in enumerate(squeezed):
        if c not in WILDCARDS:
            allowed[i] = False
            allowed[i, FACES.index(c)] = True
    return Goal(allowed=allowed)


def format_mask(goal: Goal) -> str:
    """The facelet mask of a goal of allowed colours (``.`` where several are allowed)."""
    allowed = np.asarray(goal.allowed, dtype=bool)
    return "".join(FACES[int(np.argmax(row))] if row.sum() == 1 else "." for row in allowed)
