"""The compact board of the search: one uint8 vector, and the numba kernels that move, hash and list moves.

Layout of a state vector of ``S = 20 + 8 * W`` bytes (``W`` cards of room per cascade)::

    [0:4]    cards home per suit (C D H S)
    [4:12]   free cells a..g (8 slots; the game's F first; 255 = empty)
    [12:20]  the 8 cascade lengths
    [20 + i * W + j]   card j (0 = bottom) of cascade i

Cards are :mod:`exact.puzzles.freecell`'s, ``4 * (rank - 1) + suit``. A cascade of a reachable
board is a prefix of its start cascade with a sequence of at most 13 cards on top (a card only goes
onto a card it fits, or onto an empty cascade), so ``W = longest start cascade + 13`` (at least 20,
at most 65) always has room.

A move is one uint16: ``src | dst << 4 | count << 8`` with the locations of
:class:`exact.puzzles.freecell.Move` (cascades 0..7, free cell ``k`` at ``8 + k``, home 15); 0 is
no move. The kernels list the moves of :func:`exact.puzzles.freecell.legal_moves` with
``sequences=True, distinct=True``, in the same order, and play the safe cards home after each move
as :func:`exact.puzzles.freecell.autoplay` does (``tests/test_freecell_hsd.py`` checks both
against the board model).

The key of a state is a 64-bit hash that ignores the order of the cascades and of the free
cells, as :meth:`exact.puzzles.freecell.Board.key` does: a Zobrist hash of each cascade, mixed
(splitmix64) and summed, plus a Zobrist value per free-cell card. The foundations follow from the
rest. Two different boards share a key with probability about ``2^-64`` per pair; a search that
meets such a pair skips one of them (it never plays a wrong move: solutions are replayed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exact.errors import StateError
from exact.puzzles.freecell import FREECELL0, HOME, Board, Move

FOUND = 0
CELLS = 4
LENS = 12
CARDS = 20
EMPTY = 255
MAX_MOVES = 320
"""More than any board has: 8 cascades x (home + 7 cascades + 13 counts to an empty one + a cell) + 7 cells x 10."""
MIN_WIDTH = 20
MAX_WIDTH = 65

_rng = np.random.default_rng(0x5EED_F5EE)  # a fixed stream: the keys are the same in every process
ZOBRIST = _rng.integers(1, 2**63, size=(MAX_WIDTH, 52), dtype=np.int64).astype(np.uint64)
"""``ZOBRIST[j, card]``: the value of ``card`` at height ``j`` of a cascade."""
ZOBRIST_CELL = _rng.integers(1, 2**63, size=52, dtype=np.int64).astype(np.uint64)
"""``ZOBRIST_CELL[card]``: the value of ``card`` in a free cell."""
del _rng


def width_for(board: Board) -> int:
    """Room per cascade for the boards reachable from ``board`` (module docstring)."""
    return min(max(MIN_WIDTH, max(len(c) for c in board.cascades) + 13), MAX_WIDTH)


def encode(board: Board, width: int | None = None) -> np.ndarray:
    """The state vector of a board (layout in the module docstring)."""
    w = width_for(board) if width is None else width
    if any(len(c) > w for c in board.cascades):
        raise StateError(f"a cascade of {max(len(c) for c in board.cascades)} cards does not fit a width of {w}")
    s = np.zeros(CARDS + 8 * w, dtype=np.uint8)
    s[FOUND : FOUND + 4] = board.foundations
    s[CELLS : CELLS + 8] = EMPTY
    for k, c in enumerate(board.freecells):
        if c is not None:
            s[CELLS + k] = c
    for i, col in enumerate(board.cascades):
        s[LENS + i] = len(col)
        s[CARDS + i * w : CARDS + i * w + len(col)] = col
    return s


def decode(state: np.ndarray, freecells: int) -> Board:
    """The :class:`~exact.puzzles.freecell.Board` of a state vector with ``freecells`` free cells."""
    w = (len(state) - CARDS) // 8
    cells = tuple(None if state[CELLS + k] == EMPTY else int(state[CELLS + k]) for k in range(freecells))
    cascades = tuple(
        tuple(int(c) for c in state[CARDS + i * w : CARDS + i * w + int(state[LENS + i])]) for i in range(8)
    )
    return Board(cascades, cells, tuple(int(f) for f in state[FOUND : FOUND + 4]))


def move_code(move: Move) -> int:
    """The uint16 code of a :class:`~exact.puzzles.freecell.Move`."""
    src, dst, n = move
    return src | dst << 4 | n << 8


def code_move(code: int) -> Move:
    """The :class:`~exact.puzzles.freecell.Move` of a uint16 code."""
    code = int(code)
    return Move(code & 15, (code >> 4) & 15, code >> 8)


assert FREECELL0 == 8 and HOME == 15  # the codes above rely on the board model's locations


# --------------------------------------------------------------------------------------------- kernels
@njit(cache=True, inline="always")
def _red(c):
    s = c & 3
    return s == 1 or s == 2


@njit(cache=True)
def cards_home(state):
    """Number of cards on the foundations."""
    return int(state[0]) + int(state[1]) + int(state[2]) + int(state[3])


@njit(cache=True, inline="always")
def is_safe(c, state):
    """:func:`exact.puzzles.freecell.is_safe` on a state vector."""
    r = (c >> 2) + 1
    if int(state[FOUND + (c & 3)]) != r - 1:
        return False
    if r <= 2:
        return True
    if _red(c):
        return int(state[FOUND + 0]) >= r - 1 and int(state[FOUND + 3]) >= r - 1
    return int(state[FOUND + 1]) >= r - 1 and int(state[FOUND + 2]) >= r - 1


@njit(cache=True)
def play(state, code, w):
    """Play move ``code`` on ``state`` in place (unchecked)."""
    src = code & 15
    dst = (code >> 4) & 15
    n = code >> 8
    if src < 8:
        ln = int(state[LENS + src])
        base = CARDS + src * w + ln - n
        if dst == 15:
            c = int(state[base])
            state[FOUND + (c & 3)] += 1
        elif dst >= 8:
            state[CELLS + dst - 8] = state[base]
        else:
            dl = int(state[LENS + dst])
            dbase = CARDS + dst * w + dl
            for t in range(n):
                state[dbase + t] = state[base + t]
            state[LENS + dst] = dl + n
        state[LENS + src] = ln - n
    else:
        c = int(state[CELLS + src - 8])
        state[CELLS + src - 8] = EMPTY
        if dst == 15:
            state[FOUND + (c & 3)] += 1
        else:
            dl = int(state[LENS + dst])
            state[CARDS + dst * w + dl] = c
            state[LENS + dst] = dl + 1


@njit(cache=True)
def autoplay(state, nf, w):
    """Play the safe cards home in place, as :func:`exact.puzzles.freecell.autoplay` does; returns
    how many went home.

    Each round moves every safe cascade top and free-cell card it meets (the board model moves one
    card a round): the board reached is the same, since a safe card stays safe while others go
    home. (Loops with ``break`` compile to far slower code here: this is the hot path.)
    """
    done = 0
    while True:
        moved = 0
        for i in range(8):
            ln = int(state[LENS + i])
            if ln > 0:
                c = int(state[CARDS + i * w + ln - 1])
                if is_safe(c, state):
                    state[FOUND + (c & 3)] += 1
                    state[LENS + i] = ln - 1
                    moved += 1
        for k in range(nf):
            c = int(state[CELLS + k])
            if c != EMPTY and is_safe(c, state):
                state[FOUND + (c & 3)] += 1
                state[CELLS + k] = EMPTY
                moved += 1
        if moved == 0:
            return done
        done += moved


@njit(cache=True)
def autoplay_moves(state, nf, w, out):
    """:func:`autoplay`, writing the move codes into ``out``; returns their number."""
    done = 0
    while True:
        code = 0
        for i in range(8):
            ln = int(state[LENS + i])
            if ln > 0 and is_safe(int(state[CARDS + i * w + ln - 1]), state):
                code = i | 15 << 4 | 1 << 8
                break
        if code == 0:
            for k in range(nf):
                c = int(state[CELLS + k])
                if c != EMPTY and is_safe(c, state):
                    code = (8 + k) | 15 << 4 | 1 << 8
                    break
        if code == 0:
            return done
        play(state, code, w)
        out[done] = code
        done += 1


@njit(cache=True)
def _run_length(state, i, w):
    ln = int(state[LENS + i])
    base = CARDS + i * w
    k = 1 if ln > 0 else 0
    go = ln > 1
    while go:
        c = int(state[base + ln - k])
        below = int(state[base + ln - k - 1])
        if (below >> 2) == (c >> 2) + 1 and _red(below) != _red(c):
            k += 1
            go = k < ln
        else:
            go = False
    return k


@njit(cache=True)
def legal_moves(state, nf, w, out):
    """Write the move codes of ``state`` into ``out`` (length >= :data:`MAX_MOVES`); return their number.

    The moves and their order are :func:`exact.puzzles.freecell.legal_moves` with
    ``sequences=True, distinct=True``. (No ``break`` or ``continue``: numba compiles loops with
    them to far slower code.)
    """
    n_out = 0
    empty_cells = 0
    first_cell = -1
    for k in range(nf):
        if state[CELLS + k] == EMPTY:
            empty_cells += 1
            if first_cell < 0:
                first_cell = k
    empty_cols = 0
    for i in range(8):
        if state[LENS + i] == 0:
            empty_cols += 1
    cap = (empty_cells + 1) << empty_cols
    cap_empty = cap >> 1
    for i in range(8):
        ln = int(state[LENS + i])
        if ln > 0:
            base = CARDS + i * w
            top = int(state[base + ln - 1])
            if int(state[FOUND + (top & 3)]) == top >> 2:
                out[n_out] = i | 15 << 4 | 1 << 8
                n_out += 1
            run = _run_length(state, i, w)
            first_empty = True
            for j in range(8):
                dl = int(state[LENS + j])
                if j != i and dl > 0:
                    dtop = int(state[CARDS + j * w + dl - 1])
                    n = (dtop >> 2) - (top >> 2)
                    if 1 <= n and n <= run and n <= cap and _red(int(state[base + ln - n])) != _red(dtop):
                        out[n_out] = i | j << 4 | n << 8
                        n_out += 1
                elif j != i and first_empty:
                    first_empty = False
                    m = run if run < cap_empty else cap_empty
                    for n in range(1, m + 1):
                        if n != ln:
                            out[n_out] = i | j << 4 | n << 8
                            n_out += 1
            if first_cell >= 0:
                out[n_out] = i | (8 + first_cell) << 4 | 1 << 8
                n_out += 1
    for k in range(nf):
        c = int(state[CELLS + k])
        if c != EMPTY:
            src = 8 + k
            if int(state[FOUND + (c & 3)]) == c >> 2:
                out[n_out] = src | 15 << 4 | 1 << 8
                n_out += 1
            first_empty = True
            for j in range(8):
                dl = int(state[LENS + j])
                if dl > 0:
                    dtop = int(state[CARDS + j * w + dl - 1])
                    if (dtop >> 2) == (c >> 2) + 1 and _red(dtop) != _red(c):
                        out[n_out] = src | j << 4 | 1 << 8
                        n_out += 1
                elif first_empty:
                    first_empty = False
                    out[n_out] = src | j << 4 | 1 << 8
                    n_out += 1
    return n_out


@njit(cache=True, inline="always")
def _mix(x):
    # splitmix64's finaliser: spreads a cascade's Zobrist value before the commutative sum.
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def key(state, nf, w, zobrist, zobrist_cell):
    """The 64-bit key of a state: equal for states that differ only by the order of cascades or
    free cells; never 0 (0 marks an empty slot of a transposition table)."""
    h = np.uint64(0)
    for i in range(8):
        ln = int(state[LENS + i])
        base = CARDS + i * w
        col = np.uint64(ln)
        for j in range(ln):
            col ^= zobrist[j, int(state[base + j])]
        h += _mix(col)
    for k in range(nf):
        c = int(state[CELLS + k])
        if c != EMPTY:
            h += zobrist_cell[c]
    return h | np.uint64(1)


@njit(cache=True)
def child_keys(state, nf, w, zobrist, zobrist_cell):
    """Keys of the children of ``state`` (each move then the safe moves home), in move order: for tests."""
    moves = np.empty(MAX_MOVES, dtype=np.uint16)
    n = legal_moves(state, nf, w, moves)
    out = np.empty(n, dtype=np.uint64)
    child = np.empty_like(state)
    for t in range(n):
        child[:] = state
        play(child, int(moves[t]), w)
        autoplay(child, nf, w)
        out[t] = key(child, nf, w, zobrist, zobrist_cell)
    return out
