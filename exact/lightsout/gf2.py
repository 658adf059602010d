"""Minimum presses over GF(2): Gaussian elimination, then the whole solution coset searched.

A press set ``x`` (bool ``(N,)``) turns the lights ``b`` off iff ``A x = b (mod 2)``, with ``A``
the press matrix (:func:`~exact.puzzles.lightsout.press_matrix`). Per board shape we reduce ``A``
once to row echelon form ``R = E A`` (``E`` the row operations), which gives:

* solvability: ``b`` is in the column space of ``A`` iff ``(E b)[rank:] == 0``;
* one solution ``x0`` (free variables 0), and a basis of the null space of ``A`` (size
  ``nullity = N - rank``);
* every solution is ``x0 + span(null basis)``, so the lightest one is found by enumerating all
  ``2 ** nullity`` of them (vectorised, bit-packed). That enumeration *is* the optimality proof.

On square boards the nullity is 0 for 7x7 (one solution per board), 4 for 4x4, 2 for 5x5, 8 for
9x9 and at most 16 up to 20x20 (19x19); :data:`MAX_NULLITY` bounds the enumeration.
"""

from __future__ import annotations

import time

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.lightsout import LightsOutPuzzle, lights_to_state
from exact.puzzles.lightsout.presses import press_system
from exact.result import SolveResult, Status

MAX_NULLITY = 24
"""Largest null space enumerated: ``2 ** 24`` press sets per board (about a second)."""

_TABLE_BITS = 16  # null-space combinations held at once: 2**16 rows of packed press sets
_CHUNK_BYTES = 1 << 25  # bytes of (boards x combinations x packed width) compared at once
# Bits set in each byte value: a table rather than np.bitwise_count, which needs numpy >= 2.
_POPCOUNT = np.array([bin(v).count("1") for v in range(256)], dtype=np.uint8)


def min_presses(rows: int, cols: int | None, lights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lightest press set of every board in a batch, proven by enumerating its whole coset.

    Args:
        rows: Board rows.
        cols: Board columns (``None``: ``rows``).
        lights: 0/1 or bool, ``(B, R, C)``, ``(B, R * C)``, or one board ``(R, C)`` / ``(R * C,)``.

    Returns:
        ``presses`` bool ``(B, R * C)`` (all False where unsolvable; ties broken by the first
        combination of the null basis) and ``solvable`` bool ``(B,)``.

    Raises:
        PuzzleoptError: the board shape's nullity exceeds :data:`MAX_NULLITY` (and some board is solvable).
    """
    system = press_system(rows, cols)
    n = system.num_cells
    b = np.asarray(lights)
    if b.size % n or b.dtype.kind not in "biu" or ((b != 0) & (b != 1)).any():
        raise PuzzleoptError(
            f"min_presses: lights of a {system.rows}x{system.cols} board are 0/1 arrays of {n} cells per board, "
            f"got {b.dtype} {b.shape}"
        )
    x0, ok = system.particular(b.reshape(-1, n).astype(bool))
    k = system.nullity
    if k == 0 or not ok.any():
        return x0, ok
    if k > MAX_NULLITY:
        raise PuzzleoptError(
            f"lightsout {system.rows}x{system.cols}: the press matrix has nullity {k}, so each solvable board "
            f"has 2**{k} solutions; gf2 enumerates at most 2**{MAX_NULLITY}. Use method 'mip' or 'cpsat'."
        )
    best = x0.copy()
    best[ok] = _lightest(x0[ok], system.null_basis)
    return best, ok


def _lightest(x0: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """bool ``(B, N)``: for each row of ``x0`` the lightest member of ``x0 + span(basis)``."""
    n = x0.shape[1]
    low = min(basis.shape[0], _TABLE_BITS)
    packed = np.packbits(basis, axis=1)  # (k, W) uint8
    table = np.zeros((1, packed.shape[1]), dtype=np.uint8)
    for v in packed[:low]:  # all 2**low combinations of the first basis vectors, by doubling
        table = np.concatenate([table, table ^ v])
    xs = np.packbits(x0, axis=1)
    best_w = np.full(xs.shape[0], np.iinfo(np.int32).max, dtype=np.int32)
    best = xs.copy()
    step = max(1, _CHUNK_BYTES // (table.shape[0] * table.shape[1]))
    for high in range(1 << (basis.shape[0] - low)):
        # The remaining basis vectors, chosen by the bits of `high`, shift the whole table.
        offset = np.zeros(packed.shape[1], dtype=np.uint8)
        for j in range(basis.shape[0] - low):
            if high >> j & 1:
                offset ^= packed[low + j]
        for s in range(0, xs.shape[0], step):
            cand = (xs[s : s + step] ^ offset)[:, None, :] ^ table[None]  # (b, 2**low, W)
            w = _POPCOUNT[cand].sum(axis=2, dtype=np.int32)
            i = w.argmin(axis=1)
            wi = w[np.arange(w.shape[0]), i]
            better = wi < best_w[s : s + step]
            best_w[s : s + step][better] = wi[better]
            best[s : s + step][better] = cand[np.arange(w.shape[0]), i][better]
    return np.unpackbits(best, axis=1, count=n).astype(bool)


def solve_gf2(
    puzzle: LightsOutPuzzle,
    lights: np.ndarray,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    verbose: bool = False,
) -> SolveResult:
    """Minimum presses by linear algebra over GF(2), proven optimal by enumerating the solution coset.

    Args:
        puzzle: The board.
        lights: bool ``(rows, cols)`` (see :meth:`LightsOutPuzzle.lights` for other forms).
        time_limit: Accepted for a uniform interface; not needed (the method runs in milliseconds).
        threads: Accepted for a uniform interface; numpy decides.
        verbose: Accepted for a uniform interface; there is no log.

    Returns:
        ``optimal`` with the presses in row-major order and ``lower_bound == length``, or
        ``unsolvable`` when the board is outside the column space of the press matrix.

    Raises:
        PuzzleoptError: bad lights, or a nullity beyond :data:`MAX_NULLITY`.
    """
    t0 = time.perf_counter()
    b = puzzle.lights(lights)
    system = press_system(puzzle.rows, puzzle.cols)
    done = SolveResult.recorder(
        puzzle,
        lights_to_state(b),
        solver="gf2",
        solver_version=f"numpy {np.__version__}",
        settings={"method": "gf2", "time_limit": time_limit, "threads": threads},
        since=t0,
    )
    presses, ok = min_presses(puzzle.rows, puzzle.cols, b[None])
    facts = {"rank": system.rank, "nullity": system.nullity}
    if not ok[0]:
        proof = "the lights are outside the column space of the press matrix over GF(2): no press set turns them off"
        return done([], Status.UNSOLVABLE, None, 0, {**facts, "proof": proof})
    moves = np.flatnonzero(presses[0])
    proof = f"all 2**{system.nullity} press sets that turn the lights off were enumerated"
    return done(moves, Status.OPTIMAL, moves.size, 1 << system.nullity, {**facts, "proof": proof})
