"""Tile boards: goal states, the parity rule, random solvable states and the goal conversion.

Conventions are in :mod:`exact.puzzles.tiles`. States are uint8 ``(P,)`` (or ``(B, P)`` where
stated), ``P = rows * cols``, label 0 the blank.
"""

from __future__ import annotations

import numpy as np

from exact.errors import PuzzleoptError, StateError, UnsolvableError
from exact.ranking import permutation_parity

GOALS = ("korf", "blank-last")
"""The goal kinds: ``"korf"`` is ``0 1 ... N-1``, ``"blank-last"`` is ``1 2 ... N-1 0``."""

MAX_CELLS = 256
"""Labels are uint8, so a board has at most 256 cells."""


def check_shape(rows: int, cols: int) -> tuple[int, int]:
    """Validate a board shape and return it as Python ints.

    Raises:
        PuzzleoptError: a side is not an integer >= 2, or the board has more than 256 cells.
    """
    for what, v in (("rows", rows), ("cols", cols)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise PuzzleoptError(f"tiles board: {what} must be an integer, got {v!r}")
        if v < 2:
            raise PuzzleoptError(
                f"tiles board: {what} = {v} is too small; a sliding-tile board needs at least 2 rows and 2 columns"
            )
    rows, cols = int(rows), int(cols)
    if rows * cols > MAX_CELLS:
        raise PuzzleoptError(
            f"tiles board {rows}x{cols} has {rows * cols} cells; labels are uint8, so at most {MAX_CELLS} cells"
        )
    return rows, cols


def check_goal(goal: str) -> str:
    """Validate a goal kind (``"korf"`` or ``"blank-last"``)."""
    if goal not in GOALS:
        raise PuzzleoptError(f"unknown tiles goal {goal!r}; use one of {', '.join(repr(g) for g in GOALS)}")
    return goal


def goal_state(rows: int, cols: int, goal: str = "korf") -> np.ndarray:
    """The goal board.

    Args:
        rows: Board rows ``R`` (>= 2).
        cols: Board columns ``C`` (>= 2).
        goal: ``"korf"`` (``0 1 ... N-1``, blank top-left) or ``"blank-last"`` (``1 2 ... N-1 0``).

    Returns:
        uint8 ``(R*C,)``.
    """
    rows, cols = check_shape(rows, cols)
    n = rows * cols
    g = np.arange(n, dtype=np.uint8) if check_goal(goal) == "korf" else np.roll(np.arange(n, dtype=np.uint8), -1)
    return g


def korf_to_blank_last(states: np.ndarray) -> np.ndarray:
    """Convert boards from the Korf goal convention to the blank-last one.

    Rotates the board 180 degrees (reverses the row-major vector) and maps tile ``v`` to ``N - v``
    (0 stays 0). This maps the Korf goal to the blank-last goal and moves to moves (the blank's
    U/D and L/R swap), so optimal solution lengths are unchanged. The map is its own inverse.

    Args:
        states: uint8 ``(P,)`` or ``(B, P)``; any board shape (the rotation does not depend on it).

    Returns:
        A new array of the same shape and dtype.
    """
    s = np.asarray(states)
    if s.ndim not in (1, 2) or s.shape[-1] < 4:
        raise StateError(f"tiles board conversion: states must have shape (P,) or (B, P), got {s.shape}")
    n = s.shape[-1]
    flipped = s[..., ::-1]
    return np.where(flipped == 0, flipped, n - flipped.astype(np.int64)).astype(s.dtype)


def blank_last_to_korf(states: np.ndarray) -> np.ndarray:
    """Inverse of :func:`korf_to_blank_last` (the same map: it is an involution)."""
    return korf_to_blank_last(states)


def _as_boards(states: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, bool]:
    s = np.asarray(states)
    n = rows * cols
    if s.dtype.kind not in "iu":
        raise StateError(f"tiles {rows}x{cols}: a board must hold integers, got dtype {s.dtype}")
    if s.ndim not in (1, 2) or s.shape[-1] != n:
        raise StateError(f"tiles {rows}x{cols}: a board must have shape ({n},) or (B, {n}), got {s.shape}")
    single = s.ndim == 1
    s = s[None] if single else s
    bad = np.flatnonzero(~(np.sort(s, axis=1) == np.arange(n)).all(axis=1)) if s.size else []
    if len(bad):
        board = " ".join(str(int(v)) for v in s[bad[0]])
        raise StateError(f"tiles {rows}x{cols}: board '{board}' is not a permutation of the tiles 0..{n - 1}")
    return s, single


def _parity_mismatch(s: np.ndarray, rows: int, cols: int, goal: str) -> np.ndarray:
    """bool ``(B,)``: permutation parity (relative to the goal) differs from the blank-distance parity."""
    g = goal_state(rows, cols, goal)
    gb = int(np.flatnonzero(g == 0)[0])
    blank = np.argmax(s == 0, axis=1)
    dist = np.abs(blank // cols - gb // cols) + np.abs(blank % cols - gb % cols)
    par = permutation_parity(s, check=False) ^ int(permutation_parity(g, check=False))
    return par != (dist & 1)


def is_solvable(states: np.ndarray, rows: int, cols: int, goal: str = "korf") -> bool | np.ndarray:
    """Whether boards can reach the goal.

    The rule, valid for every board with at least 2 rows and 2 columns: a board is solvable iff the
    parity of its permutation relative to the goal equals the parity of the taxicab distance of
    the blank from its goal cell. (Every move is a transposition with the blank and moves the
    blank by one cell, so the two parities change together; the converse is the classic theorem
    that exactly half of the ``N!`` boards are reachable.)

    Args:
        states: Boards, ``(P,)`` or ``(B, P)``, each a permutation of ``0..P-1``.
        rows: Board rows.
        cols: Board columns.
        goal: ``"korf"`` or ``"blank-last"``.

    Returns:
        A bool for one board, bool ``(B,)`` for a batch.

    Raises:
        StateError: a board of the wrong shape or that is not a permutation of the tiles.
    """
    rows, cols = check_shape(rows, cols)
    s, single = _as_boards(states, rows, cols)
    ok = ~_parity_mismatch(s, rows, cols, check_goal(goal))
    return bool(ok[0]) if single else ok


def require_solvable(state: np.ndarray, rows: int, cols: int, goal: str = "korf") -> np.ndarray:
    """Return ``state`` as uint8 ``(P,)`` if it can reach the goal, else raise.

    Raises:
        StateError: not a board of this shape.
        UnsolvableError: naming the board, why it cannot be solved and how to fix it.
    """
    rows, cols = check_shape(rows, cols)
    s, single = _as_boards(state, rows, cols)
    if not single:
        raise StateError(
            f"tiles {rows}x{cols}: require_solvable takes one board of shape ({rows * cols},), got {s.shape}"
        )
    if _parity_mismatch(s, rows, cols, check_goal(goal))[0]:
        board = " ".join(str(int(v)) for v in s[0])
        a, b = (int(v) for v in s[0][s[0] != 0][:2])
        raise UnsolvableError(
            f"tiles {rows}x{cols} board '{board}' cannot reach the {goal} goal: the parity of its tile permutation "
            f"does not match the parity of the blank's distance from its goal cell, so no sequence of moves solves it. "
            f"Swapping any two non-blank tiles (e.g. {a} and {b}) makes it solvable; check that it was typed "
            f"in the {goal} convention."
        )
    return s[0].astype(np.uint8)


def random_state(
    rows: int, cols: int, rng: np.random.Generator, goal: str = "korf", n: int | None = None
) -> np.ndarray:
    """Boards drawn uniformly from the solvable ones.

    A uniform permutation is drawn; if it is unsolvable, the tiles in its first two non-blank
    cells are swapped. That swap is a bijection from unsolvable to solvable boards, so every
    solvable board has probability ``2 / N!``.

    Args:
        rows: Board rows.
        cols: Board columns.
        rng: The only source of randomness.
        goal: ``"korf"`` or ``"blank-last"``.
        n: Number of boards; ``None`` for one.

    Returns:
        uint8 ``(P,)`` if ``n`` is None, else ``(n, P)``.
    """
    rows, cols = check_shape(rows, cols)
    check_goal(goal)
    if not isinstance(rng, np.random.Generator):
        raise PuzzleoptError(
            f"random_state needs a numpy Generator (np.random.default_rng(seed)), got {type(rng).__name__}"
        )
    p = rows * cols
    count = 1 if n is None else int(n)
    if count < 0:
        raise PuzzleoptError(f"random_state: n must be >= 0, got {n}")
    s = rng.permuted(np.broadcast_to(np.arange(p, dtype=np.uint8), (count, p)), axis=1)
    fix = np.flatnonzero(_parity_mismatch(s, rows, cols, goal)) if count else np.zeros(0, np.int64)
    if fix.size:
        # The first two non-blank cells: cells 0 and 1 unless the blank is in one of them.
        blank = np.argmax(s[fix] == 0, axis=1)
        c0 = np.where(blank == 0, 1, 0)
        c1 = np.where(blank <= 1, 2, 1)
        first = s[fix, c0]
        s[fix, c0] = s[fix, c1]
        s[fix, c1] = first
    return s[0] if n is None else s


DIRECTIONS = "UDLR"
"""The blank's moves, in the order every tile kernel numbers them (0 U, 1 D, 2 L, 3 R)."""

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
"""(row, column) step of each direction."""

OPPOSITE = np.array([1, 0, 3, 2], dtype=np.int64)
"""The direction undoing each direction (U<->D, L<->R)."""


def neighbours(rows: int, cols: int) -> np.ndarray:
    """int64 ``(n, 4)``: the cell the blank reaches going U, D, L, R from each cell, or -1."""
    n = rows * cols
    out = np.full((n, 4), -1, dtype=np.int64)
    for c in range(n):
        r, k = divmod(c, cols)
        for d, (dr, dc) in enumerate(STEPS):
            if 0 <= r + dr < rows and 0 <= k + dc < cols:
                out[c, d] = (r + dr) * cols + k + dc
    return out
