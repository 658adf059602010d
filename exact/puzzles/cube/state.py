"""Cube states: solved, solved-test, whole-cube rotations, seeded scrambles and random states."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.cube.cubies import Cubies, perm_parity, write_cubies
from exact.puzzles.cube.geometry import turn_perm
from exact.puzzles.cube.moves import check_size, cube_moves


def solved_state(n: int) -> np.ndarray:
    """uint8 ``(6*n*n,)``: face f's facelets all hold colour f (faces in URFDLB order)."""
    n = check_size(n)
    return np.repeat(np.arange(6, dtype=np.uint8), n * n)


def is_solved(states: np.ndarray, n: int) -> np.ndarray | bool:
    """Whether every face shows one colour (so any whole-cube orientation counts as solved).

    Args:
        states: ``(P,)`` or ``(B, P)`` facelet colours.
        n: Cube size.

    Returns:
        A bool for one state, a bool array ``(B,)`` for a batch.
    """
    s = np.asarray(states)
    faces = s.reshape(s.shape[:-1] + (6, n * n))
    out = (faces == faces[..., :1]).all(axis=(-1, -2))
    return bool(out) if s.ndim == 1 else out


@cache
def rotations(n: int) -> np.ndarray:
    """int64 ``(24, 6*n*n)``: the facelet permutations of the 24 whole-cube rotations (identity first)."""
    full = (1 << n) - 1
    gens = [turn_perm(n, axis, full, 1) for axis in range(3)]
    found = {np.arange(6 * n * n).tobytes(): np.arange(6 * n * n)}
    frontier = list(found.values())
    while frontier:
        nxt = []
        for p in frontier:
            for g in gens:
                q = p[g]
                key = q.tobytes()
                if key not in found:
                    found[key] = q
                    nxt.append(q)
        frontier = nxt
    out = np.stack(list(found.values()))
    out.setflags(write=False)
    return out


def _no_cancel_moves(table, length: int, rng: np.random.Generator) -> list[int]:
    """Random rows such that no two turns of the same layer meet, even across commuting turns."""
    seq: list[int] = []
    used: set[int] = set()  # layers of the current run of same-axis turns
    for _ in range(length):
        while True:
            m = int(rng.integers(table.num_moves))
            same_axis = bool(seq) and table.axis[m] == table.axis[seq[-1]]
            if not (same_axis and int(table.layer[m]) in used):
                break
        used = (used if seq and table.axis[m] == table.axis[seq[-1]] else set()) | {int(table.layer[m])}
        seq.append(m)
    return seq


def scramble(
    n: int, length: int, rng: np.random.Generator, moves: str = "faces", metric: str = "qtm"
) -> tuple[np.ndarray, str]:
    """A seeded random scramble.

    Turns of one layer never follow each other, even with commuting turns between (no ``R L R``),
    so nothing cancels trivially; the optimal distance may still be shorter than ``length``.

    Args:
        n: Cube size.
        length: Number of moves (>= 0).
        rng: The random generator.
        moves: The move set (see :func:`exact.puzzles.cube.cube_moves`).
        metric: The metric, ``"qtm"`` or ``"htm"``.

    Returns:
        ``(state, sequence)``: the scrambled facelet colours (uint8 ``(6*n*n,)``) and the moves in
        notation.
    """
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 0:
        raise PuzzleoptError(f"scramble length {length!r} must be a non-negative integer")
    table = cube_moves(n, moves, metric)
    seq = _no_cancel_moves(table, int(length), rng)
    return table.apply(solved_state(n), seq), table.format(seq)


def random_state(n: int, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random solvable state of the 2x2x2 or 3x3x3 cube.

    For n = 3 the centres stay in place (standard orientation); for n = 2 every one of the
    24 orientations of every position is equally likely.

    Returns:
        uint8 ``(6*n*n,)``.
    """
    n = check_size(n)
    if n not in (2, 3):
        raise PuzzleoptError(f"random_state is available for n = 2 and 3, not n = {n}; use scramble() for bigger cubes")
    cp = rng.permutation(8)
    co = rng.integers(0, 3, 8)
    co[-1] = (-co[:-1].sum()) % 3
    if n == 2:
        return write_cubies(solved_state(2), 2, Cubies(cp, co))
    ep = rng.permutation(12)
    if perm_parity(ep) != perm_parity(cp):
        ep[[0, 1]] = ep[[1, 0]]
    eo = rng.integers(0, 2, 12)
    eo[-1] = eo[:-1].sum() % 2
    return write_cubies(solved_state(3), 3, Cubies(cp, co, ep, eo))
