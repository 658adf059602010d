"""Singmaster's piece notation of a 3x3x3 position (the input of Reid's optimal solver).

A position is 20 tokens, the piece in each location in the order ``UF UR UB UL DF DR DB DL FR FL
BR BL UFR URB UBL ULF DRF DFL DLB DBR``. A token names the colours on the location's facelets in
the order of the location's letters: ``RD`` at location ``UB`` means the U facelet of that
location shows R and the B facelet shows D. The solved cube is the list of locations itself.
Centres are home (only face turns are described).
"""

from __future__ import annotations

import numpy as np

from exact.errors import FaceletError
from exact.puzzles.cube.cubies import piece_facelets
from exact.puzzles.cube.facelets import from_facelets, to_facelets
from exact.puzzles.cube.geometry import FACES
from exact.puzzles.cube.state import solved_state

LOCATIONS = tuple("UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR".split())
"""The 20 locations, in the order a position lists them (12 edges, then 8 corners)."""


def format_singmaster(state: np.ndarray) -> str:
    """The 20 tokens of a 3x3x3 state with its centres home, e.g. ``"UF UR ... DBR"`` when solved.

    Raises:
        FaceletError: the state is not a 3x3x3 or its centres are turned.
    """
    s = np.asarray(state)
    if s.shape != (54,):
        raise FaceletError(f"Singmaster notation describes a 3x3x3 (54 facelets), got shape {s.shape}")
    if not np.array_equal(s[4::9], np.arange(6)):
        raise FaceletError(
            f"Singmaster notation needs the centres home, but they read {to_facelets(s)[4::9]!r} (want 'URFDLB'); "
            "turn the whole cube back first"
        )
    cells = piece_facelets(3, LOCATIONS[:12]), piece_facelets(3, LOCATIONS[12:])
    return " ".join("".join(FACES[int(c)] for c in s[f]) for group in cells for f in group)


def parse_singmaster(text: str) -> np.ndarray:
    """Read 20 Singmaster tokens into a validated uint8 ``(54,)`` state.

    Raises:
        FaceletError: naming the bad token and its location, or what makes the position impossible.
    """
    tokens = str(text).split()
    if len(tokens) != len(LOCATIONS):
        raise FaceletError(
            f"a Singmaster position has 20 tokens (12 edges, then 8 corners), got {len(tokens)} in {text!r}"
        )
    state = solved_state(3).copy()
    for loc, token in zip(LOCATIONS, tokens, strict=True):
        bad = [ch for ch in token if ch not in FACES]
        if len(token) != len(loc) or bad:
            raise FaceletError(
                f"token {token!r} at location {loc} of {text!r} must be {len(loc)} of the letters {FACES}, "
                f"one per facelet of {loc}"
            )
        state[piece_facelets(3, (loc,))[0]] = [FACES.index(ch) for ch in token]
    return from_facelets(to_facelets(state))  # the facelet checks name any impossible piece or twist
