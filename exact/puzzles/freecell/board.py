"""The board: 8 cascades, the free cells and the 4 foundations, as an immutable, hashable tuple."""

from __future__ import annotations

from typing import NamedTuple

from exact.errors import StateError
from exact.puzzles.freecell.cards import NAMES, NUM_CARDS, RANKS, SUITS

NUM_CASCADES = 8
MAX_FREECELLS = 7
"""Free cells are named ``a``..``g`` in notation; ``h`` means home, so 7 is the most that notation names."""
FREECELL_LETTERS = "abcdefg"


class Board(NamedTuple):
    """A FreeCell position (see :mod:`exact.puzzles.freecell` for the conventions).

    A plain tuple of tuples, so boards hash, compare and serve as dictionary keys as they are, and
    a successor is built with one ``tuple.__new__``. :meth:`check` validates a board made by hand.

    Attributes:
        cascades: 8 tuples of cards, each from the bottom (dealt first) to the top (playable) card.
        freecells: One entry per free cell: a card or ``None`` (empty).
        foundations: Cards home per suit, in suit order C D H S (0..13 each; the top card of suit
            ``s`` is the card of rank ``foundations[s]``).
    """

    cascades: tuple[tuple[int, ...], ...]
    freecells: tuple[int | None, ...]
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)

    # ----------------------------------------------------------------- features
    @property
    def num_freecells(self) -> int:
        """Number of free cells (empty or not)."""
        return len(self.freecells)

    @property
    def cards_home(self) -> int:
        """Number of cards on the foundations (52 when solved)."""
        return sum(self.foundations)

    def is_solved(self) -> bool:
        """Whether every card is home."""
        return sum(self.foundations) == NUM_CARDS

    @property
    def empty_freecells(self) -> int:
        """Number of empty free cells."""
        return self.freecells.count(None)

    @property
    def empty_cascades(self) -> int:
        """Number of empty cascades."""
        return sum(1 for col in self.cascades if not col)

    def freecell_cards(self) -> tuple[int, ...]:
        """The cards in the free cells, in cell order."""
        return tuple(c for c in self.freecells if c is not None)

    def top_cards(self) -> tuple[int | None, ...]:
        """The playable card of each cascade (``None`` for an empty cascade)."""
        return tuple(col[-1] if col else None for col in self.cascades)

    def home_cards(self) -> tuple[int, ...]:
        """The cards on the foundations."""
        return tuple(4 * r + s for s in range(4) for r in range(self.foundations[s]))

    def key(self) -> bytes:
        """The canonical key: equal for boards that differ only by the order of cascades or of
        free cells (the rules treat all cascades alike, and all free cells alike).

        The free-cell cards sorted, then the cascades sorted, as bytes with 255 between parts:
        a few dozen bytes, where a tuple of tuples takes hundreds. The foundations need no bytes:
        on a valid board they are the cards missing from the rest.
        """
        cells = bytes(sorted(c for c in self.freecells if c is not None))
        return b"\xff".join([cells, *sorted(bytes(col) for col in self.cascades)])

    # ----------------------------------------------------------------- validation
    def check(self) -> Board:
        """Return the board after checking that it is a valid position.

        Raises:
            StateError: wrong number of cascades or free cells, foundations out of range, or a
                card that is missing or appears twice (named, with both places).
        """
        if len(self.cascades) != NUM_CASCADES:
            raise StateError(f"a FreeCell board has {NUM_CASCADES} cascades, this one has {len(self.cascades)}")
        if not 0 <= len(self.freecells) <= MAX_FREECELLS:
            raise StateError(
                f"a FreeCell board has 0..{MAX_FREECELLS} free cells (named a..g), this one has {len(self.freecells)}"
            )
        if len(self.foundations) != 4 or any(not (isinstance(f, int) and 0 <= f <= 13) for f in self.foundations):
            raise StateError(f"foundations must be 4 counts 0..13 (suits C D H S), got {self.foundations!r}")
        where: dict[int, str] = {}
        for s, f in enumerate(self.foundations):
            for r in range(f):
                where[4 * r + s] = f"foundation {SUITS[s]}-{RANKS[f - 1]}"

        def place(c: object, at: str) -> None:
            if not (isinstance(c, int) and 0 <= c < NUM_CARDS):
                raise StateError(f"{at} holds {c!r}, which is no card (cards are 0..51)")
            if c in where:
                raise StateError(f"card {NAMES[c]} appears twice: in {where[c]} and in {at}")
            where[c] = at

        for k, c in enumerate(self.freecells):
            if c is not None:
                place(c, f"free cell {FREECELL_LETTERS[k]}")
        for i, col in enumerate(self.cascades):
            for c in col:
                place(c, f"cascade {i + 1}")
        missing = [NAMES[c] for c in range(NUM_CARDS) if c not in where]
        if missing:
            raise StateError(
                f"{len(missing)} card(s) missing: {' '.join(missing)}; each of the 52 cards must be in a cascade, "
                "a free cell or on its foundation"
            )
        return self
