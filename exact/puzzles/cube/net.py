"""An unfolded net of a cube state for the terminal.

Layout (each face as seen from outside, U above F, D below)::

        U
      L F R B
        D
"""

from __future__ import annotations

import numpy as np

from exact.puzzles.cube.geometry import FACES

# Background colours for U R F D L B (white, red, green, yellow, orange, blue), 256-colour ANSI.
_ANSI = (15, 196, 34, 226, 208, 27)


def net(state: np.ndarray, n: int, color: bool = False) -> str:
    """The state drawn as an unfolded cross, one letter per facelet.

    Args:
        state: uint8 ``(6*n*n,)`` colours.
        n: Cube size.
        color: Add ANSI background colours (for a terminal).

    Returns:
        Multi-line text.
    """
    faces = np.asarray(state).reshape(6, n, n)

    def cell(v: int) -> str:
        if color:
            return f"\x1b[48;5;{_ANSI[v]}m\x1b[30m{FACES[v]} \x1b[0m"
        return FACES[v] + " "

    def row(face: str, r: int) -> str:
        return "".join(cell(int(v)) for v in faces[FACES.index(face), r])

    pad = " " * (2 * n + 1)
    lines = [pad + row("U", r) for r in range(n)]
    lines += [" ".join(row(f, r) for f in "LFRB") for r in range(n)]
    lines += [pad + row("D", r) for r in range(n)]
    return "\n".join(line.rstrip() for line in lines)
