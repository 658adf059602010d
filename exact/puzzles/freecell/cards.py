"""Cards: the 52 cards as the integers 0..51, their names, ranks, suits and colours.

A card is ``4 * (rank - 1) + suit`` with ranks 1 (ace) .. 13 (king) and suits in Microsoft's order
C D H S (0..3): the numbering of Microsoft's deal generator, so a shuffled deck needs no mapping.
"""

from __future__ import annotations

from exact.errors import StateError

NUM_CARDS = 52
RANKS = "A23456789TJQK"
"""Rank letters, index ``rank - 1``."""
SUITS = "CDHS"
"""Suit letters, index = suit (Microsoft's order)."""

RANK: tuple[int, ...] = tuple(c // 4 + 1 for c in range(NUM_CARDS))
"""``RANK[card]``: 1 (ace) .. 13 (king)."""
SUIT: tuple[int, ...] = tuple(c % 4 for c in range(NUM_CARDS))
"""``SUIT[card]``: 0..3 for C D H S."""
RED: tuple[bool, ...] = tuple(c % 4 in (1, 2) for c in range(NUM_CARDS))
"""``RED[card]``: diamonds and hearts are red."""
NAMES: tuple[str, ...] = tuple(RANKS[c // 4] + SUITS[c % 4] for c in range(NUM_CARDS))
"""``NAMES[card]``: e.g. ``"AS"``, ``"TD"``, ``"KH"``."""

_RANK_TOKENS = {r: i + 1 for i, r in enumerate(RANKS)} | {"10": 10}


def card(rank: int, suit: int) -> int:
    """The card of a rank (1..13) and a suit (0..3 for C D H S)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise StateError(f"no card of rank {rank} and suit {suit}: ranks are 1..13, suits 0..3 (C D H S)")
    return 4 * (rank - 1) + suit


def card_name(c: int) -> str:
    """The two-letter name of a card, rank then suit: ``"AS"``, ``"TD"``, ``"KH"``."""
    return NAMES[c]


def parse_rank(token: str) -> int:
    """A rank 1..13 from ``A 2..9 T J Q K`` or ``10`` (any case); :class:`StateError` if it is none."""
    rank = _RANK_TOKENS.get(token.upper())
    if rank is None:
        raise StateError(f"cannot read rank {token!r}: ranks are {' '.join(RANKS)} (or 10)")
    return rank


def parse_suit(token: str) -> int:
    """A suit 0..3 from one of the letters ``C D H S`` (any case)."""
    suit = SUITS.find(token.upper()) if len(token) == 1 else -1
    if suit < 0:
        raise StateError(f"cannot read suit {token!r}: suits are {' '.join(SUITS)}")
    return suit


def parse_card(token: str) -> int:
    """A card from its name: a rank (``A 2..9 T J Q K``, or ``10`` as fc-solve prints it without
    ``-t``) then a suit letter (``C D H S``), in any case: ``"AS"``, ``"10D"``, ``"kh"``.

    Raises:
        StateError: quoting the token and saying how cards are written.
    """
    if len(token) in (2, 3):
        rank = _RANK_TOKENS.get(token[:-1].upper())
        suit = SUITS.find(token[-1].upper())
        if rank is not None and suit >= 0:
            return 4 * (rank - 1) + suit
    raise StateError(
        f"cannot read card {token!r}: a card is a rank ({' '.join(RANKS)}, or 10) then a suit ({' '.join(SUITS)}), "
        "e.g. 'AS', 'TD', 'KH'"
    )
