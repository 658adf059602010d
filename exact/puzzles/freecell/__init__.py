"""FreeCell: cards, boards, Microsoft's deals, fc-solve's board text, legal moves and notation.

Conventions, used by every module of this package and by :mod:`exact.freecell`:

* Cards are the integers 0..51, ``card = 4 * (rank - 1) + suit``, ranks 1 (ace) .. 13 (king),
  suits C D H S = 0..3 (Microsoft's order); diamonds and hearts are red. A card's name is its
  rank letter (``A23456789TJQK``) then its suit letter: ``"AS"``, ``"TD"``, ``"KH"``; ``10`` is
  read for ``T``, as fc-solve prints it without ``-t``.
* A :class:`Board` holds 8 cascades (each a tuple of cards from the bottom, dealt first, to the
  top, playable, card), the free cells (4 by default, 0..7; ``None`` for an empty one) and the 4
  foundations as the number of cards home per suit (C D H S). Boards are immutable, hashable
  tuples. :meth:`Board.key` is equal for boards that differ only by the order of the cascades or
  of the free cells, which no rule can tell apart.
* Numbering: in code, cascades are 0..7, free cells 0..F-1; in notation and messages, cascades
  are 1..8, free cells ``a``..``g``, and ``h`` is home (the foundations).
* Moves (:class:`Move`) go between locations: ``0..7`` the cascades, ``FREECELL0 + k`` free cell
  ``k``, ``HOME``. A card goes on a cascade whose top card is one rank higher and of the other
  colour, or on an empty cascade; into an empty free cell; home onto the card one rank lower of its
  suit (aces onto an empty foundation). A sequence move carries the top ``n`` cards of a cascade
  (each one rank lower and of the other colour than the one below it) to another cascade, as one
  move, if ``n <= (empty free cells + 1) * 2^(empty cascades)``, the destination not counted.
  Cards never leave the foundations; moves between free cells are not moves.
* Safe automatic moves home (:func:`autoplay`): a card that may go home is safe if it is an ace or
  a two, or if both cards of the other colour and one rank lower are home (the conservative rule;
  :func:`is_safe` says why playing it can never hurt). Solutions list these moves like any other:
  no replay moves a card by itself.
* Notation (standard FreeCell notation): source then destination, ``3a``, ``8h``, ``a5``, ``54``;
  the count of a sequence move as fc-solve's ``-snx`` writes it, ``54v3`` (see
  :mod:`exact.puzzles.freecell.notation`).
* Board text is fc-solve's (:mod:`exact.puzzles.freecell.text`). Deals are Microsoft's, 1..2^31-1
  (:mod:`exact.puzzles.freecell.deal`).
* The same rules as numba kernels over a compact uint8 copy of the board, for the searches of
  :mod:`learned.freecell` (:mod:`exact.puzzles.freecell.kernels`, imported on demand: it compiles).
  They list the moves of :func:`legal_moves` (``sequences=True, distinct=True``) in the same order
  and play the same safe cards home; ``tests/test_freecell_hsd.py`` checks them against this
  board model on dealt and played boards.
"""

from exact.puzzles.freecell.board import FREECELL_LETTERS, MAX_FREECELLS, NUM_CASCADES, Board
from exact.puzzles.freecell.cards import NAMES, NUM_CARDS, RANK, RANKS, RED, SUIT, SUITS, card, card_name, parse_card
from exact.puzzles.freecell.deal import MAX_DEAL, ms_deal, ms_deal_cascades
from exact.puzzles.freecell.moves import (
    FREECELL0,
    HOME,
    Move,
    apply_move,
    autoplay,
    capacity,
    fits,
    is_safe,
    legal_moves,
    location_name,
    play,
    run_length,
    successors,
    why_illegal,
)
from exact.puzzles.freecell.notation import format_move, format_moves, parse_move, parse_moves, read_move, replay
from exact.puzzles.freecell.puzzle import FreeCellPuzzle, FreeCellTable, decode_board, encode_board
from exact.puzzles.freecell.text import format_board, parse_board

__all__ = [
    "FREECELL0",
    "FREECELL_LETTERS",
    "HOME",
    "MAX_DEAL",
    "MAX_FREECELLS",
    "NAMES",
    "NUM_CARDS",
    "NUM_CASCADES",
    "RANK",
    "RANKS",
    "RED",
    "SUIT",
    "SUITS",
    "Board",
    "FreeCellPuzzle",
    "FreeCellTable",
    "Move",
    "apply_move",
    "autoplay",
    "capacity",
    "card",
    "card_name",
    "decode_board",
    "encode_board",
    "fits",
    "format_board",
    "format_move",
    "format_moves",
    "is_safe",
    "legal_moves",
    "location_name",
    "ms_deal",
    "ms_deal_cascades",
    "parse_board",
    "parse_card",
    "parse_move",
    "parse_moves",
    "play",
    "read_move",
    "replay",
    "run_length",
    "successors",
    "why_illegal",
]
