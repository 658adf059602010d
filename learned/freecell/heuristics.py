"""The nine heuristic features of GA-FreeCell (Elyasaf, Hauptman & Sipper), each in [0, 1].

Every feature is oriented as a cost: **0 is best** (each one is 0 on the solved board) and larger
is worse, so a weighted sum ``h = sum(w_i * f_i)`` with weights ``w_i >= 0`` is a heuristic that
staged deepening minimises. Features the paper states as "more is better" (well-placed cards,
free cells, the highest home card) are turned around; each is divided by a bound it cannot exceed,
so no value is clipped. With ``R(c)`` the rank of card ``c`` (ace 1 .. king 13), ``F`` the number
of free cells and ``home[s]`` the cards home of suit ``s``:

==  ===========================  =============================================================================
 0  ``HSDH``                     Heineman's heuristic: for each suit not finished, the number of cards lying on
                                 its next card (the one that goes home next) in its cascade (0 if that card is
                                 in a free cell); summed over the suits, doubled when no free cell and no
                                 cascade is empty; divided by 396 = 2 * (51 + 50 + 49 + 48), its largest value.
 1  ``NumberWellPlaced``         Cards not yet home that are *not* well placed, / 52. A cascade's cards are well
                                 placed from the bottom up as long as each lies on the one below it in
                                 sequence (one rank lower, other colour); the bottom card always counts.
 2  ``NumCardsNotAtFoundations`` Cards not home, / 52.
 3  ``FreeCells``                1 - (empty free cells + empty cascades) / (F + 8).
 4  ``DifferenceFromTop``        (mean R of the top cards of the non-empty cascades (0 if none) - mean of
                                 ``home[s]`` over the 4 suits + 13) / 26.
 5  ``LowestHomeCard``           (13 - min home[s]) / 13.
 6  ``HighestHomeCard``          (13 - max home[s]) / 13.
 7  ``DifferenceHome``           (max home[s] - min home[s]) / 13.
 8  ``SumOfBottomCards``         (104 - sum over the cascades of R(bottom card)) / 104, an empty cascade
                                 counting 13 (as a king: nothing lies under it that must move).
==  ===========================  =============================================================================

Two readings differ from the paper's text, which leaves them open: ``SumOfBottomCards`` counts an
empty cascade as a king (the paper's ``100 - sum`` would make the emptied, solved board its worst),
and ``NumberWellPlaced`` counts the cards that are *not* well placed among those not home, so that
the solved board scores 0 (the paper counts the well-placed ones, "more is better").

:data:`HSDH` (weight 1 on feature 0, 0 elsewhere) is the baseline: Heineman's staged deepening
with his own heuristic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.puzzles.freecell import Board
from exact.puzzles.freecell.kernels import CARDS, CELLS, EMPTY, FOUND, LENS, _red, encode

NAMES: tuple[str, ...] = (
    "HSDH",
    "NumberWellPlaced",
    "NumCardsNotAtFoundations",
    "FreeCells",
    "DifferenceFromTop",
    "LowestHomeCard",
    "HighestHomeCard",
    "DifferenceHome",
    "SumOfBottomCards",
)
NUM_FEATURES = len(NAMES)
HSDH = np.array([1.0] + [0.0] * (NUM_FEATURES - 1))
"""The baseline weights: Heineman's heuristic alone."""
HSDH_MAX = 2 * (51 + 50 + 49 + 48)


@njit(cache=True)
def features_into(state, nf, w, out):
    """Write the nine features of a state vector into ``out`` (module docstring)."""
    home = 0
    lo = 13
    hi = 0
    for s in range(4):
        f = int(state[FOUND + s])
        home += f
        if f < lo:
            lo = f
        if f > hi:
            hi = f
    empty_cells = 0
    for k in range(nf):
        if state[CELLS + k] == EMPTY:
            empty_cells += 1
    empty_cols = 0
    well = 0
    top_sum = 0
    bottom_sum = 0
    above = 0
    for i in range(8):
        ln = int(state[LENS + i])
        base = CARDS + i * w
        if ln == 0:
            empty_cols += 1
            bottom_sum += 13
        else:
            bottom_sum += (int(state[base]) >> 2) + 1
            top_sum += (int(state[base + ln - 1]) >> 2) + 1
            # Well placed: the run from the bottom up (no break: numba compiles it slowly).
            j = 1
            go = ln > 1
            while go:
                below = int(state[base + j - 1])
                c = int(state[base + j])
                if (below >> 2) == (c >> 2) + 1 and _red(below) != _red(c):
                    j += 1
                    go = j < ln
                else:
                    go = False
            well += j
            # HSDH: cards lying on a suit's next card.
            for j in range(ln):
                c = int(state[base + j])
                if (c >> 2) == int(state[FOUND + (c & 3)]):
                    above += ln - 1 - j
    if empty_cells == 0 and empty_cols == 0:
        above *= 2
    not_home = 52 - home
    nonempty = 8 - empty_cols
    mean_top = top_sum / nonempty if nonempty > 0 else 0.0
    out[0] = above / HSDH_MAX
    out[1] = (not_home - well) / 52.0
    out[2] = not_home / 52.0
    out[3] = 1.0 - (empty_cells + empty_cols) / (nf + 8.0)
    out[4] = (mean_top - home / 4.0 + 13.0) / 26.0
    out[5] = (13 - lo) / 13.0
    out[6] = (13 - hi) / 13.0
    out[7] = (hi - lo) / 13.0
    out[8] = (104 - bottom_sum) / 104.0


@njit(cache=True)
def evaluate(state, nf, w, weights, buf):
    """``h = weights . features(state)`` (``buf``: a scratch vector of 9 floats)."""
    features_into(state, nf, w, buf)
    h = 0.0
    for t in range(buf.shape[0]):
        h += weights[t] * buf[t]
    return h


def features(board: Board) -> np.ndarray:
    """The nine features of a board, float64, in the order of :data:`NAMES`."""
    state = encode(board)
    out = np.empty(NUM_FEATURES)
    features_into(state, len(board.freecells), (len(state) - CARDS) // 8, out)
    return out


def check_weights(weights: Sequence[float] | np.ndarray | None) -> np.ndarray:
    """Weights as a float64 vector of 9 finite values >= 0, not all 0 (``None``: :data:`HSDH`).

    Raises:
        PuzzleoptError: wrong length, a negative or non-finite value, or all zero.
    """
    if weights is None:
        return HSDH.copy()
    try:
        w = np.array(weights, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise PuzzleoptError(f"weights must be {NUM_FEATURES} numbers ({', '.join(NAMES)}), got {weights!r}") from None
    if w.shape != (NUM_FEATURES,):
        raise PuzzleoptError(f"weights must be {NUM_FEATURES} numbers ({', '.join(NAMES)}), got {w.size}")
    if not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w > 0):
        raise PuzzleoptError(f"weights must be finite, >= 0 and not all 0, got {w.tolist()}")
    return w


def heuristic(board: Board, weights: Sequence[float] | np.ndarray | None = None) -> float:
    """The weighted heuristic ``weights . features(board)`` (``None``: :data:`HSDH`)."""
    return float(check_weights(weights) @ features(board))
