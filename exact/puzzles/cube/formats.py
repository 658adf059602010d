"""The 3x3x3's state in other projects' formats: DeepCubeA's and Jumanji's, both ways.

* **DeepCubeA** (Agostinelli et al. 2019, ``environments/cube3.py``): 54 sticker ids, faces in the
  order U D L R B F, the solved cube ``arange(54)``; a state says which sticker sits at each
  place, so it is a permutation of 0..53 and a sticker's colour is ``id // 9``. Its test set's
  cubes are written so (``instances/data/cube/deepcubea_cube3_qtm_1000.tsv``, column
  ``dca_sticker_perm54``), and :data:`DEEPCUBEA_INDEX` is the one place map that sends each of
  those 1,000 cubes' facelets to its sticker list (derived from the file and checked against all
  of it by ``tests/test_cube_formats.py``).
* **Jumanji** (InstaDeep, ``RubiksCube``): ``cube`` of shape ``(6, 3, 3)``, faces in the order
  UP FRONT RIGHT BACK LEFT DOWN, each face read in reading order looking at it with the same
  neighbours up and left as kociemba's facelets; a sticker's value is the index of its home face
  (solved: ``cube[f] == f``). Jumanji's own moves, applied by its code, were compared with ours
  (the test runs them where ``jumanji`` is installed).
"""

from __future__ import annotations

import numpy as np

from exact.errors import StateError
from exact.puzzles.cube.cubies import home_facelets

__all__ = ["DEEPCUBEA_INDEX", "JUMANJI_FACES", "from_deepcubea", "from_jumanji", "to_deepcubea", "to_jumanji"]

# fmt: off
DEEPCUBEA_INDEX = np.array([
    2, 5, 8, 1, 4, 7, 0, 3, 6,          # U
    29, 32, 35, 28, 31, 34, 27, 30, 33,  # R
    47, 50, 53, 46, 49, 52, 45, 48, 51,  # F
    11, 14, 17, 10, 13, 16, 9, 12, 15,  # D
    20, 23, 26, 19, 22, 25, 18, 21, 24,  # L
    38, 41, 44, 37, 40, 43, 36, 39, 42,  # B
], dtype=np.int64)
"""int64 ``(54,)``: the DeepCubeA place of each of our facelets (kociemba's order, URFDLB)."""
# fmt: on

_DEEPCUBEA_BACK = np.argsort(DEEPCUBEA_INDEX)

JUMANJI_FACES = "UFRBLD"
"""Jumanji's face order (its ``Face`` enum: UP=0, FRONT=1, RIGHT=2, BACK=3, LEFT=4, DOWN=5)."""

_OURS = "URFDLB"
_TO_JUMANJI = np.array([JUMANJI_FACES.index(f) for f in _OURS], dtype=np.int64)  # our face -> theirs
_TO_OURS = np.array([_OURS.index(f) for f in JUMANJI_FACES], dtype=np.int64)  # their face -> ours


def _labels(state: np.ndarray, what: str) -> np.ndarray:
    s = np.asarray(state)
    if s.shape != (54,) or not np.issubdtype(s.dtype, np.integer) or s.min() < 0 or s.max() > 5:
        raise StateError(f"{what}: a 3x3x3 state is 54 colours 0..5 (URFDLB), got shape {s.shape}, dtype {s.dtype}")
    return s


def to_deepcubea(state: np.ndarray) -> np.ndarray:
    """DeepCubeA's sticker list of a 3x3x3 state.

    Args:
        state: uint8 ``(54,)``, our colours (faces URFDLB, kociemba's facelet order).

    Returns:
        int64 ``(54,)``: a permutation of 0..53, DeepCubeA's ``Cube3State.colors``.

    Raises:
        StateError: not a 3x3x3 state whose pieces exist.
    """
    s = _labels(state, "to_deepcubea")
    home = home_facelets(s, 3)  # raises on pieces that do not exist
    out = np.empty(54, dtype=np.int64)
    out[DEEPCUBEA_INDEX] = DEEPCUBEA_INDEX[home]
    return out


def from_deepcubea(colors: np.ndarray) -> np.ndarray:
    """Our state of DeepCubeA's sticker list (checked: it must be a cube's, which its round trip
    through :func:`to_deepcubea` shows).

    Args:
        colors: int ``(54,)``, a permutation of 0..53.

    Returns:
        uint8 ``(54,)``.

    Raises:
        StateError: not a permutation of 0..53, or not the stickers of a real cube.
    """
    c = np.asarray(colors)
    if c.shape != (54,) or not np.issubdtype(c.dtype, np.integer) or sorted(c.tolist()) != list(range(54)):
        raise StateError(f"from_deepcubea: DeepCubeA's state is a permutation of 0..53, got {c.tolist()[:12]} ...")
    ours = (_DEEPCUBEA_BACK[c[DEEPCUBEA_INDEX]] // 9).astype(np.uint8)
    if not np.array_equal(to_deepcubea(ours), c):
        raise StateError("from_deepcubea: these stickers are not those of a real cube (a piece is taken apart)")
    return ours


def to_jumanji(state: np.ndarray) -> np.ndarray:
    """Jumanji's ``cube`` of a 3x3x3 state: int8 ``(6, 3, 3)``, faces UP FRONT RIGHT BACK LEFT DOWN."""
    s = _labels(state, "to_jumanji").reshape(6, 3, 3)
    return _TO_JUMANJI[s[_TO_OURS]].astype(np.int8)


def from_jumanji(cube: np.ndarray) -> np.ndarray:
    """Our state (uint8 ``(54,)``) of Jumanji's ``cube`` of shape ``(6, 3, 3)``.

    Raises:
        StateError: not of that shape, or values outside 0..5.
    """
    c = np.asarray(cube)
    if c.shape != (6, 3, 3) or not np.issubdtype(c.dtype, np.integer) or c.min() < 0 or c.max() > 5:
        raise StateError(f"from_jumanji: Jumanji's cube is int (6, 3, 3) with values 0..5, got shape {c.shape}")
    return _TO_OURS[c[_TO_JUMANJI]].reshape(54).astype(np.uint8)
