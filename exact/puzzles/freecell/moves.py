"""Legal moves, their effect, the sequence-move capacity and the safe automatic moves home.

Locations are small integers: ``0..7`` the cascades, ``FREECELL0 + k`` free cell ``k`` and
:data:`HOME` the foundations. A :class:`Move` takes ``count`` cards from ``src`` to ``dst``;
``count > 1`` only between cascades (a sequence move). Between free cells nothing moves: such a
move changes nothing in any rule, so it is no move. Cards never leave the foundations.
"""

from __future__ import annotations

from typing import NamedTuple

from exact.errors import StateError
from exact.puzzles.freecell.board import FREECELL_LETTERS, NUM_CASCADES, Board
from exact.puzzles.freecell.cards import NAMES, RANK, RED, SUIT

FREECELL0 = 8
"""Location of free cell ``k`` is ``FREECELL0 + k``."""
HOME = 15
"""Location of the foundations (each card goes to its suit's)."""

_new = tuple.__new__  # builds a Board without NamedTuple.__new__'s argument handling: play() is hot


class Move(NamedTuple):
    """``count`` cards from location ``src`` to location ``dst`` (see the module docstring)."""

    src: int
    dst: int
    count: int = 1


def location_name(loc: int) -> str:
    """``"cascade 5"``, ``"free cell b"`` or ``"home"``, for messages."""
    if 0 <= loc < NUM_CASCADES:
        return f"cascade {loc + 1}"
    if loc == HOME:
        return "home"
    k = loc - FREECELL0
    return f"free cell {FREECELL_LETTERS[k]}" if 0 <= k < len(FREECELL_LETTERS) else f"location {loc}"


def fits(card: int, onto: int) -> bool:
    """Whether ``card`` may go on ``onto`` in a cascade: one rank lower and of the other colour."""
    return RANK[onto] == RANK[card] + 1 and RED[onto] != RED[card]


def run_length(cascade: tuple[int, ...]) -> int:
    """Number of cards at the top of a cascade that form a sequence (each on the next): 0 if empty."""
    n = len(cascade)
    if not n:
        return 0
    k = 1
    while k < n and fits(cascade[n - k], cascade[n - k - 1]):
        k += 1
    return k


def capacity(board: Board, to_empty_cascade: bool = False) -> int:
    """The most cards one sequence move may carry: ``(free cells + 1) * 2^(empty cascades)``,
    counting empty free cells and empty cascades, the destination not among them.

    This is what single-card moves through the empty free cells and cascades can achieve (the
    standard "supermove"), so a sequence move is only a shorthand for single-card moves.
    """
    empty = board.empty_cascades - (1 if to_empty_cascade else 0)
    return (board.freecells.count(None) + 1) << max(empty, 0)


def is_safe(card: int, foundations: tuple[int, ...]) -> bool:
    """Whether ``card`` may go home and doing so can never hurt (the conservative safe rule).

    A card of rank ``r`` that may go home is safe if ``r <= 2``, or if both cards of the other
    colour and rank ``r - 1`` are home. Why it can never hurt: the only cards that may ever be
    put on it in a cascade are those two, and they never leave the foundations; so any solution
    of the board before the move, with the moves of this card left out, solves the board after it,
    in no more moves. For a two the cards that could go on it are aces, which go home at once
    in the shortened solution instead. The same argument covers several safe cards in turn.
    """
    r = RANK[card]
    if foundations[SUIT[card]] != r - 1:
        return False
    if r <= 2:
        return True
    if RED[card]:
        return foundations[0] >= r - 1 and foundations[3] >= r - 1
    return foundations[1] >= r - 1 and foundations[2] >= r - 1


def play(board: Board, move: Move) -> Board:
    """The board after a legal ``move``, unchecked: the fast path of the searches (:func:`apply_move` checks)."""
    cascades, cells, found = board
    src, dst, n = move
    if src < FREECELL0:
        cas = list(cascades)
        col = cas[src]
        moved = col[-n:]
        cas[src] = col[:-n]
    else:
        cas = None
        k = src - FREECELL0
        moved = (cells[k],)
        cells = cells[:k] + (None,) + cells[k + 1 :]
    if dst == HOME:
        f = list(found)
        f[SUIT[moved[0]]] += 1
        found = tuple(f)
    elif dst >= FREECELL0:
        k = dst - FREECELL0
        cells = cells[:k] + moved + cells[k + 1 :]
    else:
        if cas is None:
            cas = list(cascades)
        cas[dst] = cas[dst] + moved
    return _new(Board, (cascades if cas is None else tuple(cas), cells, found))


def legal_moves(board: Board, *, sequences: bool = True, distinct: bool = False) -> list[Move]:
    """Every legal move of a board.

    Args:
        board: The position.
        sequences: Also list sequence moves (several cards between cascades, within
            :func:`capacity`); ``False``: single-card moves only.
        distinct: Leave out moves whose result differs from another listed move's only by the
            order of cascades or free cells: a card goes to the first empty free cell and the first
            empty cascade only, and a whole cascade never moves to an empty one.

    Returns:
        Moves in the order: from cascades 1..8 (home, to cascades 1..8, to free cells), then from
        free cells a.. (home, to cascades).
    """
    cascades, cells, found = board
    out: list[Move] = []
    empty_cells = [FREECELL0 + k for k, c in enumerate(cells) if c is None]
    # capacity(): to a non-empty cascade, and (one empty cascade fewer) to an empty one.
    cap = (len(empty_cells) + 1) << sum(1 for col in cascades if not col)
    cap_empty = cap >> 1
    if distinct:
        empty_cells = empty_cells[:1]
    for i, col in enumerate(cascades):
        if not col:
            continue
        top = col[-1]
        if found[SUIT[top]] == RANK[top] - 1:
            out.append(Move(i, HOME, 1))
        run = run_length(col) if sequences else 1
        first_empty = True
        for j, dcol in enumerate(cascades):
            if j == i:
                continue
            if dcol:
                n = RANK[dcol[-1]] - RANK[top]
                if 1 <= n <= run and n <= cap and RED[col[-n]] != RED[dcol[-1]]:
                    out.append(Move(i, j, n))
            elif not distinct or first_empty:
                first_empty = False
                for n in range(1, min(run, cap_empty) + 1):
                    if not (distinct and n == len(col)):
                        out.append(Move(i, j, n))
        for d in empty_cells:
            out.append(Move(i, d, 1))
    for k, c in enumerate(cells):
        if c is None:
            continue
        src = FREECELL0 + k
        if found[SUIT[c]] == RANK[c] - 1:
            out.append(Move(src, HOME, 1))
        first_empty = True
        for j, dcol in enumerate(cascades):
            if dcol:
                if fits(c, dcol[-1]):
                    out.append(Move(src, j, 1))
            elif not distinct or first_empty:
                first_empty = False
                out.append(Move(src, j, 1))
    return out


def autoplay(board: Board) -> tuple[Board, tuple[Move, ...]]:
    """Play safe cards home (:func:`is_safe`) until none is left.

    Returns:
        The board and the moves made, cascade tops (1..8) before free cells at each round.
    """
    moves: list[Move] = []
    while True:
        cascades, cells, found = board
        for i, col in enumerate(cascades):
            if col and is_safe(col[-1], found):
                move = Move(i, HOME, 1)
                break
        else:
            for k, c in enumerate(cells):
                if c is not None and is_safe(c, found):
                    move = Move(FREECELL0 + k, HOME, 1)
                    break
            else:
                return board, tuple(moves)
        moves.append(move)
        board = play(board, move)


def successors(
    board: Board, *, sequences: bool = True, distinct: bool = True, auto: bool = False
) -> list[tuple[tuple[Move, ...], Board]]:
    """The children of a board: the fast successor function of the searches.

    Args:
        board: The position (assumed valid).
        sequences: Include sequence moves (see :func:`legal_moves`).
        distinct: Leave out children that differ from another only by the order of cascades or
            free cells (see :func:`legal_moves`).
        auto: After each move, play the safe cards home (:func:`autoplay`).

    Returns:
        ``(moves, child)`` pairs: the move, followed by the automatic moves when ``auto``.
    """
    out = []
    for move in legal_moves(board, sequences=sequences, distinct=distinct):
        child = play(board, move)
        if auto:
            child, more = autoplay(child)
            out.append(((move, *more), child))
        else:
            out.append(((move,), child))
    return out


def why_illegal(board: Board, move: Move) -> str | None:
    """Why ``move`` is illegal on ``board``, or ``None`` if it is legal."""
    cascades, cells, found = board
    src, dst, n = move
    f = len(cells)
    if not (0 <= src < NUM_CASCADES or FREECELL0 <= src < FREECELL0 + f):
        return f"{location_name(src)} does not exist (cascades 1..8, free cells {FREECELL_LETTERS[:f] or 'none'})"
    if not (0 <= dst < NUM_CASCADES or FREECELL0 <= dst < FREECELL0 + f or dst == HOME):
        return f"{location_name(dst)} does not exist (cascades 1..8, free cells {FREECELL_LETTERS[:f] or 'none'}, home)"
    if src == dst:
        return "source and destination are the same"
    if src >= FREECELL0 and FREECELL0 <= dst < HOME:
        return "moves between free cells change nothing and are not moves"
    if n < 1:
        return f"a move carries at least one card, not {n}"
    if n > 1 and not (src < FREECELL0 and dst < FREECELL0):
        return f"only moves between cascades carry several cards, not {n}"
    if src < FREECELL0:
        col = cascades[src]
        if not col:
            return f"{location_name(src)} is empty"
        if n > len(col):
            return f"{location_name(src)} holds {len(col)} card(s), not {n}"
        if n > run_length(col):
            return f"the top {n} cards of {location_name(src)} are no sequence (each one rank lower, other colour)"
        card = col[-n]
    else:
        card = cells[src - FREECELL0]
        if card is None:
            return f"{location_name(src)} is empty"
    if dst == HOME:
        if found[SUIT[card]] != RANK[card] - 1:
            return f"{NAMES[card]} cannot go home: its foundation holds {found[SUIT[card]]} card(s)"
        return None
    if dst >= FREECELL0:
        held = cells[dst - FREECELL0]
        return None if held is None else f"{location_name(dst)} holds {NAMES[held]}"
    dcol = cascades[dst]
    if dcol and not fits(card, dcol[-1]):
        return f"{NAMES[card]} does not go on {NAMES[dcol[-1]]} (one rank lower, other colour)"
    cap = capacity(board, to_empty_cascade=not dcol)
    if n > cap:
        return (
            f"{n} cards exceed the capacity {cap} = (empty free cells + 1) * 2^(empty cascades"
            f"{', the destination not counted' if not dcol else ''})"
        )
    return None


def apply_move(board: Board, move: Move) -> Board:
    """The board after ``move``, checked.

    Raises:
        StateError: the move is illegal, saying why.
    """
    move = Move(*move)
    reason = why_illegal(board, move)
    if reason is not None:
        what = f"{move.count} cards" if move.count > 1 else "a card"
        raise StateError(f"cannot move {what} from {location_name(move.src)} to {location_name(move.dst)}: {reason}")
    return play(board, move)
