"""The ksolve/twsearch definition format (``.tws``), read into a :class:`Definition`.

A file is a list of blocks; ``#`` starts a comment::

    Name 2x2x2
    Set CORNER 8 3          # 8 slots, 3 orientations each
    Solved                  # (or StartState: a start the file names)
    CORNER
    1 2 3 4 5 6 7 8         # the piece in each slot; a repeated id: identical pieces
    0 0 0 0 0 0 0 0         # their orientations (a line of zeros may be left out)
    End
    Move F
    CORNER
    7 1 3 2 5 6 4 8         # slot i takes the piece of slot perm[i]
    2 1 0 2 0 0 1 0         # ... and turns it by this much
    End

A set a move leaves alone is left out of its block. ``Illegal`` blocks (Square-1's: positions a
piece may not take) are refused: the moves of this project's tables are permutations, which such
a rule is not. twsearch counts each move and each of its powers as one move; so does the table
:func:`exact.definitions.generate.move_table` builds.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from exact.definitions.model import Definition, DefinitionError, PieceSet, SetState, definition_text

KEYWORDS = ("Name", "Set", "Solved", "StartState", "Move", "Illegal", "End")


def read_tws(path: str | Path) -> Definition:
    """The definition in the ``.tws`` file at ``path``.

    Raises:
        DefinitionError: ``FILE:LINE: reason`` for a file that does not define a puzzle (an
            unknown set, a row of the wrong length, a row that is not a permutation, an
            orientation out of range, a move defined twice, an ``Illegal`` block).
    """
    path = Path(path)
    return parse_tws(definition_text(path, ".tws"), str(path), default_name=path.stem)


def parse_tws(text: str, source: str = "definition", default_name: str = "puzzle") -> Definition:
    """The definition that ``.tws`` ``text`` states (:func:`read_tws`; ``source`` names it in errors)."""
    reader = _Reader(source, list(_tokens(text)))
    return reader.definition(default_name)


def _tokens(text: str) -> Iterator[tuple[str, int]]:
    """Each word of ``text`` and its line number, comments dropped."""
    for number, line in enumerate(text.splitlines(), 1):
        for word in line.split("#", 1)[0].split():
            yield word, number


class _Reader:
    """A cursor over the tokens, with the sets read so far."""

    def __init__(self, source: str, tokens: list[tuple[str, int]]) -> None:
        self.source, self.tokens, self.at = source, tokens, 0
        self.sets: dict[str, PieceSet] = {}

    def fail(self, line: int, why: str) -> DefinitionError:
        return DefinitionError(f"{self.source}:{line}: {why}")

    def next(self, what: str) -> tuple[str, int]:
        if self.at >= len(self.tokens):
            last = self.tokens[-1][1] if self.tokens else 1
            raise self.fail(last, f"the file ends where {what} was expected")
        self.at += 1
        return self.tokens[self.at - 1]

    def peek(self) -> str | None:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else None

    def number(self, what: str) -> tuple[int, int]:
        word, line = self.next(what)
        if not re.fullmatch(r"-?\d+", word):
            raise self.fail(line, f"{what}: expected a whole number, got {word!r}")
        return int(word), line

    def definition(self, default_name: str) -> Definition:
        title, solved, start = default_name, None, None
        moves: dict[str, dict[str, SetState]] = {}
        while self.peek() is not None:
            word, line = self.next("a keyword")
            if word == "Name":
                title = self.next("the puzzle's name")[0]
            elif word == "Set":
                self._set(line)
            elif word in ("Solved", "StartState"):  # a StartState numbers its pieces from 0 (twsearch)
                block = self._block(word, permutation=False, base=0 if word == "StartState" else 1)
                solved, start = (block, start) if word == "Solved" else (solved, block)
            elif word == "Move":
                move, at = self.next("the move's name")
                if move in moves:
                    raise self.fail(at, f"move {move!r} is defined twice; give each move once")
                moves[move] = self._block(f"move {move}", permutation=True)
            elif word == "Illegal":
                why = "a move here is a permutation of positions; drop the block or the puzzle"
                raise self.fail(line, f"Illegal blocks (positions a piece may not take) are not supported: {why}")
            else:
                raise self.fail(line, f"unknown keyword {word!r}; a .tws file has {', '.join(KEYWORDS)}")
        return self._checked(default_name, solved, start, moves, title)

    def _checked(self, name, solved, start, moves, title) -> Definition:
        last = self.tokens[-1][1] if self.tokens else 1
        if not self.sets:
            raise self.fail(last, "no Set is declared; a puzzle needs at least one (Set NAME pieces orientations)")
        if solved is None:
            raise self.fail(last, "no Solved block; give the solved state of every set")
        solved = {s.name: solved.get(s.name, _identity(s)) for s in self.sets.values()}  # left out: as numbered
        if not moves:
            raise self.fail(last, "no Move is defined; a puzzle needs at least one")
        return Definition(name, tuple(self.sets.values()), solved, moves, self.source, "powers", start, title)

    def _set(self, line: int) -> None:
        name = self.next("the set's name")[0]
        size, at = self.number(f"set {name}'s pieces")
        twists, at2 = self.number(f"set {name}'s orientations")
        if name in self.sets:
            raise self.fail(line, f"set {name} is declared twice")
        if size < 1 or not 1 <= twists <= 255:
            raise self.fail(at, f"set {name}: pieces must be >= 1 and orientations 1..255, got {size} and {twists}")
        self.sets[name] = PieceSet(name, size, twists)

    def _block(self, what: str, permutation: bool, base: int = 1) -> dict[str, SetState]:
        """The rows of a Solved, StartState or Move block, up to its ``End``."""
        out: dict[str, SetState] = {}
        while True:
            word, line = self.next(f"a set name or End in {what}")
            if word == "End":
                return out
            if word not in self.sets:
                raise self.fail(line, f"{what}: set {word!r} is not declared (Set {word} pieces orientations)")
            if word in out:
                raise self.fail(line, f"{what}: set {word} is given twice")
            out[word] = self._rows(self.sets[word], what, permutation, base)

    def _rows(self, piece_set: PieceSet, what: str, permutation: bool, base: int = 1) -> SetState:
        n, name = piece_set.size, piece_set.name
        pieces, line = self._row(n, f"{what}, set {name}'s pieces")
        pieces = [p + 1 - base for p in pieces]
        if permutation and sorted(pieces) != list(range(1, n + 1)):
            dup = next((p for p in pieces if pieces.count(p) > 1 or not 1 <= p <= n), None)
            how = "is out of range" if dup is not None and not 1 <= dup <= n else "repeats"
            row = " ".join(map(str, pieces))
            raise self.fail(line, f"{what}, set {name}: {row} is not a permutation of 1..{n} ({dup} {how})")
        if not permutation and not all(1 <= p <= n for p in pieces):
            raise self.fail(line, f"{what}, set {name}: piece ids are 1..{n}, got {' '.join(map(str, pieces))}")
        twists = (0,) * n
        if self.peek() == "?":
            raise self.fail(self.tokens[self.at][1], f"{what}, set {name}: orientation wildcards ('?') are not "
                            "supported; give every orientation")  # fmt: skip
        if self.peek() is not None and re.fullmatch(r"-?\d+", self.peek() or ""):
            twists, line = self._row(n, f"{what}, set {name}'s orientations")
            if not all(0 <= t < piece_set.orientations for t in twists):
                raise self.fail(line, f"{what}, set {name}: orientations are 0..{piece_set.orientations - 1}, got "
                                f"{' '.join(map(str, twists))}")  # fmt: skip
        return SetState(tuple(pieces), tuple(twists))

    def _row(self, n: int, what: str) -> tuple[list[int], int]:
        """One line of ``n`` whole numbers."""
        word, line = self.next(what)
        words = [word]
        while self.at < len(self.tokens) and self.tokens[self.at][1] == line:
            words.append(self.tokens[self.at][0])
            self.at += 1
        if len(words) != n:
            raise self.fail(line, f"{what}: the set has {n} slots, the line gives {len(words)} numbers")
        if bad := next((w for w in words if not re.fullmatch(r"-?\d+", w)), None):
            raise self.fail(line, f"{what}: expected whole numbers, got {bad!r}")
        return [int(w) for w in words], line


def _identity(piece_set: PieceSet) -> SetState:
    """A set's pieces as numbered, none turned: what a block that leaves the set out means."""
    return SetState(tuple(range(1, piece_set.size + 1)), (0,) * piece_set.size)


__all__ = ["KEYWORDS", "parse_tws", "read_tws"]
