"""The puzzle object that :meth:`exact.result.SolveResult.build` replays FreeCell solutions on.

FreeCell moves are no permutations of a fixed set of positions, so :class:`FreeCellPuzzle` is not
an :class:`exact.puzzle.Puzzle`; it offers what ``SolveResult.build`` uses: ``name``, ``is_goal``
and a ``table`` with ``names``, ``apply`` and ``format``. The table's rows are all the moves
notation can name (``3a``, ``54``, ``54v3``, ...); ``apply`` plays them with every rule checked.

A board travels as an int16 vector (``SolveResult.start``): ``[F, C, D, H, S, cell_a, ...,
cell_F, n_1, cascade 1 ..., n_8, cascade 8 ...]``: the number of free cells, the cards home per
suit, each free cell's card (``-1`` empty), then each cascade's length and cards, bottom first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from exact.errors import NotationError, StateError
from exact.puzzles.freecell.board import MAX_FREECELLS, NUM_CASCADES, Board
from exact.puzzles.freecell.deal import ms_deal
from exact.puzzles.freecell.moves import FREECELL0, HOME, Move, apply_move
from exact.puzzles.freecell.notation import format_move, parse_moves, replay
from exact.puzzles.freecell.text import format_board, parse_board

MAX_SEQUENCE = 13
"""The longest sequence (king down to ace), so the most cards one move can carry."""


def encode_board(board: Board) -> np.ndarray:
    """The int16 vector of a board (layout in the module docstring)."""
    out = [len(board.freecells), *board.foundations]
    out += [-1 if c is None else c for c in board.freecells]
    for col in board.cascades:
        out += [len(col), *col]
    return np.array(out, dtype=np.int16)


def decode_board(vector: Sequence[int] | np.ndarray) -> Board:
    """The board of a vector made by :func:`encode_board`, checked.

    Raises:
        StateError: the vector is not a board's.
    """
    v = [int(x) for x in np.asarray(vector).ravel()]
    try:
        f = v[0]
        if not 0 <= f <= MAX_FREECELLS:
            raise StateError(f"it starts with {f} free cells, not 0..{MAX_FREECELLS}")
        found = tuple(v[1:5])
        cells = tuple(None if c == -1 else c for c in v[5 : 5 + f])
        at = 5 + f
        cascades = []
        for _ in range(NUM_CASCADES):
            n = v[at]
            if n < 0 or at + 1 + n > len(v):
                raise StateError(f"cascade {len(cascades) + 1} claims {n} cards")
            cascades.append(tuple(v[at + 1 : at + 1 + n]))
            at += 1 + n
        if at != len(v) or len(found) != 4:
            raise StateError(f"its length {len(v)} does not match its contents")
        return Board(tuple(cascades), cells, found).check()  # type: ignore[arg-type]
    except (StateError, IndexError) as exc:
        raise StateError(f"not a FreeCell board vector ({exc or 'too short'}): {v}") from None


class FreeCellTable:
    """Every move notation can name for ``freecells`` free cells, one row each (see the module docstring)."""

    def __init__(self, freecells: int) -> None:
        cells = [FREECELL0 + k for k in range(freecells)]
        moves = [
            Move(i, j, n)
            for i in range(NUM_CASCADES)
            for j in range(NUM_CASCADES)
            if i != j
            for n in range(1, MAX_SEQUENCE + 1)
        ]
        moves += [Move(i, d) for i in range(NUM_CASCADES) for d in [*cells, HOME]]
        moves += [Move(c, d) for c in cells for d in [*range(NUM_CASCADES), HOME]]
        self.freecells = freecells
        self.moves: tuple[Move, ...] = tuple(moves)
        self.names: tuple[str, ...] = tuple(format_move(m) for m in moves)
        self.description = f"freecell ({freecells} free cells)"
        self._row = {m: i for i, m in enumerate(moves)}

    @property
    def num_moves(self) -> int:
        return len(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __repr__(self) -> str:
        return f"FreeCellTable({self.description!r}, M={self.num_moves})"

    def row(self, move: Move) -> int:
        """The row index of a move.

        Raises:
            NotationError: no such row (e.g. a free cell the game does not have).
        """
        row = self._row.get(Move(*move))
        if row is None:
            raise NotationError(f"{tuple(move)} is no move of {self.description}")
        return row

    def rows(self, moves: Sequence[Move]) -> list[int]:
        """Row indices of moves."""
        return [self.row(m) for m in moves]

    def parse(self, text: str | Sequence[str], start: np.ndarray | Board) -> list[int]:
        """Row indices of moves in standard notation, read (and checked) from the start board."""
        board = start if isinstance(start, Board) else decode_board(start)
        return self.rows(parse_moves(text, board))

    def format(self, indices: Sequence[int]) -> str:
        """Moves (row indices) in standard notation, separated by spaces."""
        out = []
        for i in indices:
            if not 0 <= int(i) < self.num_moves:
                raise NotationError(f"move index {int(i)} out of range 0..{self.num_moves - 1} for {self.description}")
            out.append(self.names[int(i)])
        return " ".join(out)

    def apply(self, state: np.ndarray, moves: int | str | Sequence[int] | Sequence[str]) -> np.ndarray:
        """Play moves (row indices or notation) on one board vector, every rule checked.

        Raises:
            NotationError: a move cannot be played, quoting it, its number and the board.
        """
        board = decode_board(state)
        if isinstance(moves, str):
            return encode_board(replay(board, moves))
        seq = [moves] if isinstance(moves, (int, np.integer)) else list(moves)
        if not all(isinstance(m, (int, np.integer)) for m in seq):
            return encode_board(replay(board, [str(m) for m in seq]))
        for k, m in enumerate(seq, start=1):
            if not 0 <= int(m) < self.num_moves:
                raise NotationError(f"move {k} of {len(seq)}: index {int(m)} is not a row of {self.description}")
            try:
                board = apply_move(board, self.moves[int(m)])
            except StateError as exc:
                name = self.names[int(m)]
                raise NotationError(
                    f"move {k} of {len(seq)}, {name!r}: {exc}; the board before it:\n{format_board(board)}"
                ) from None
        return encode_board(board)


class FreeCellPuzzle:
    """FreeCell with ``freecells`` free cells, for :meth:`exact.result.SolveResult.build`.

    Attributes:
        name: ``"freecell"`` (4 free cells) or ``"freecell-<F>fc"``.
        freecells: Number of free cells.
        table: The :class:`FreeCellTable`.
    """

    own_method = "freecell"
    capabilities = frozenset({"freecell-deal"})
    """Solved by the registered ``freecell`` method (:class:`exact.solvers.OwnSolver`): its moves
    are not permutations of a move table."""

    def __init__(self, freecells: int = 4) -> None:
        if isinstance(freecells, bool) or not isinstance(freecells, int) or not 0 <= freecells <= MAX_FREECELLS:
            raise StateError(f"freecells must be 0..{MAX_FREECELLS}, got {freecells!r}")
        self.freecells = freecells
        self.name = "freecell" if freecells == 4 else f"freecell-{freecells}fc"

    def __repr__(self) -> str:
        return f"FreeCellPuzzle(freecells={self.freecells})"

    @cached_property
    def table(self) -> FreeCellTable:
        return FreeCellTable(self.freecells)

    def deal(self, number: int) -> Board:
        """Microsoft deal ``number`` with this game's free cells."""
        return ms_deal(number, self.freecells)

    def is_goal(self, states: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
        """bool ``(B,)``: which board vectors have every card home (one vector counts as ``B = 1``)."""
        s = np.asarray(states)
        rows = [s] if s.ndim == 1 else list(s)
        return np.array([decode_board(r).is_solved() for r in rows], dtype=bool)

    def svg(self, state: np.ndarray | Board) -> str:
        """The board as a picture (:func:`exact.puzzles.freecell.svg.board_svg`)."""
        from exact.puzzles.freecell.svg import board_svg

        return board_svg(state if isinstance(state, Board) else decode_board(state))

    def format_state(self, state: np.ndarray | Board) -> str:
        """The board text (fc-solve's layout) of a board or board vector."""
        return format_board(state if isinstance(state, Board) else decode_board(state))

    def parse_state(self, text: str) -> np.ndarray:
        """The board vector of a board text."""
        return encode_board(parse_board(text, self.freecells))
