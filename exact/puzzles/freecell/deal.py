"""Microsoft's FreeCell deals 1..2^31 - 1, from the published description of its shuffle.

Microsoft FreeCell seeds the C runtime's linear congruential generator with the deal number,
``seed = (seed * 214013 + 2531011) mod 2^31`` with ``rand() = seed >> 16`` (15 bits), and deals
from a deck ordered ``card = 4 * (rank - 1) + suit`` (suits C D H S): for ``i = 0..51`` it draws
``j = rand() mod (52 - i)``, deals ``deck[j]`` to cascade ``i mod 8`` and fills the hole with the
last card of the remaining deck. Deals above 32000 (up to 2^31 - 1) use the same generator, as
fc-solve's ``make_pysol_freecell_board.py -F`` and pysol-cards' ``DEALS_MS`` do.
"""

from __future__ import annotations

from exact.errors import StateError
from exact.puzzles.freecell.board import MAX_FREECELLS, NUM_CASCADES, Board
from exact.puzzles.freecell.cards import NUM_CARDS

MAX_DEAL = 2**31 - 1


def ms_deal_cascades(deal: int) -> tuple[tuple[int, ...], ...]:
    """The 8 cascades of Microsoft deal ``deal`` (1..2^31 - 1), each bottom card first.

    Raises:
        StateError: the deal number is out of range.
    """
    if isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= MAX_DEAL:
        raise StateError(f"Microsoft deal numbers are 1..{MAX_DEAL}, got {deal!r}")
    seed = deal
    deck = list(range(NUM_CARDS))
    cascades: list[list[int]] = [[] for _ in range(NUM_CASCADES)]
    for i in range(NUM_CARDS):
        seed = (seed * 214013 + 2531011) & 0x7FFFFFFF
        left = NUM_CARDS - i
        j = (seed >> 16) % left
        cascades[i % NUM_CASCADES].append(deck[j])
        deck[j] = deck[left - 1]
    return tuple(tuple(col) for col in cascades)


def ms_deal(deal: int, freecells: int = 4) -> Board:
    """The start board of Microsoft deal ``deal`` with ``freecells`` empty free cells (0..7)."""
    if isinstance(freecells, bool) or not isinstance(freecells, int) or not 0 <= freecells <= MAX_FREECELLS:
        raise StateError(f"freecells must be 0..{MAX_FREECELLS}, got {freecells!r}")
    return Board(ms_deal_cascades(deal), (None,) * freecells, (0, 0, 0, 0))
