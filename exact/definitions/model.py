"""A puzzle as a definition file states it: sets of pieces with orientations, the solved state,
and moves as a permutation and an orientation change of each set (ksolve/twsearch's model). The
readers (:mod:`exact.definitions.tws`) build a :class:`Definition`;
:mod:`exact.definitions.generate` turns it into a move table over sticker positions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from exact.errors import PuzzleoptError


class DefinitionError(PuzzleoptError):
    """A definition file that cannot be read: the message names the file, the line and why."""


@dataclass(frozen=True)
class PieceSet:
    """One set of pieces: ``Set NAME pieces orientations``.

    Attributes:
        name: The set's name (``CORNER``).
        size: Its slots (8 for a cube's corners).
        orientations: How many ways a piece sits in a slot (3 for a corner; 1: none).
    """

    name: str
    size: int
    orientations: int


@dataclass(frozen=True)
class SetState:
    """A set's pieces and orientations, slot by slot (1-based piece ids, as files write them).

    Attributes:
        pieces: The piece in each slot; a repeated id is a set of identical pieces.
        twists: The orientation of each slot's piece, ``0 .. orientations - 1``.
    """

    pieces: tuple[int, ...]
    twists: tuple[int, ...]


@dataclass(frozen=True)
class Definition:
    """A permutation puzzle as its file defines it.

    Attributes:
        name: The puzzle's name: the file's stem (PuzzleGeometry names every puzzle alike).
        sets: Its piece sets, in file order.
        solved: The solved state of each set (by set name).
        moves: Each base move (by name): the state each set goes to from the solved one's slots,
            as a :class:`SetState` whose ``pieces`` are slot numbers (1-based) and ``twists``
            the orientation each slot's piece gains. A set a move leaves alone is absent.
        source: Where it was read from, for messages.
        metric: How moves are counted: ``"powers"`` (each move and each of its powers is one
            move, twsearch's rule) or ``"listed"`` (each listed move and its inverse, Santa's).
        start: A ``StartState`` the file gives, else ``None``.
        title: The name the file gives itself (``Name``), else ``name``.
        inverse: How a listed move's inverse is named, ``{}`` the move (``"{}'"``: ``F'``;
            Santa 2023 writes ``"-{}"``: ``-f0``).
    """

    name: str
    sets: tuple[PieceSet, ...]
    solved: dict[str, SetState]
    moves: dict[str, dict[str, SetState]]
    source: str = "definition"
    metric: str = "powers"
    start: dict[str, SetState] | None = field(default=None)
    title: str = ""
    inverse: str = "{}'"


def definition_text(path: Path, what: str) -> str:
    """The text of the definition file ``path`` (``what``: its format, for the error).

    Raises:
        DefinitionError: it is not text.
    """
    try:
        return path.read_text()
    except UnicodeDecodeError:
        raise DefinitionError(f"{path}: not a text file; give a {what} definition") from None


__all__ = ["Definition", "DefinitionError", "PieceSet", "SetState", "definition_text"]
