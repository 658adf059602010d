"""Immutable puzzle states: :class:`State` for any registered puzzle, and named ones for the
puzzles users meet first (:class:`Cube`, :class:`Tiles`, :class:`LightsOut`, :class:`Pyraminx`,
:class:`Pancake`, :class:`Sokoban`, :class:`FreeCell`).

A state holds its puzzle (from :mod:`exact.registry`, so equal options share one puzzle and one
move table), its labels (a read-only uint8 ``(P,)`` copy) and, where it was reached from the goal
by :meth:`State.apply` or :meth:`State.scramble`, the moves that reached it (:attr:`State.path`).
Every operation returns a new state; nothing is changed in place. The path gives the time-indexed
models their horizon when none is named (its inverse is a solution of that length).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from exact import registry
from exact.errors import NotationError, PuzzleoptError
from exact.puzzle import Goal, Puzzle
from exact.resources import MAX_SCRAMBLE
from exact.result import SolveResult

if TYPE_CHECKING:
    from exact.animation import Animation
    from hybrid.certify import Certificate

_S = TypeVar("_S", bound="State")


class State:
    """An immutable state of a puzzle.

    Args:
        puzzle: A registry name (``"cube3"``, ``"tiles15"``, ...) or a puzzle object.
        labels: The state's labels ``(P,)`` (default: the goal).
        options: The registry options when ``puzzle`` is a name (``metric="htm"``, ...).
    """

    __slots__ = ("_puzzle", "_labels", "_path")
    _puzzle: Puzzle
    _labels: np.ndarray
    _path: tuple[str, ...] | None

    def __init__(self, puzzle: str | Puzzle, labels: Any = None, **options: Any) -> None:
        if isinstance(puzzle, str):
            puzzle = registry.get(puzzle, **options)
        elif not isinstance(puzzle, Puzzle):
            raise TypeError(f"State: puzzle is a registry name (a str) or a Puzzle, got {_kind(puzzle)}")
        elif options:
            raise PuzzleoptError(f"State: options {sorted(options)} are for a registry name, not a puzzle object")
        self._init(puzzle, puzzle.goal if labels is None else labels, () if labels is None else None)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> State:
        """The solved state of the puzzle a definition file defines (``.tws``, ``.gap``;
        ``"tws:NAME"``: a shipped sample), through :func:`exact.registry.from_file`.

        Example:
            ``State.from_file("tws:skewb").apply("DFR ULB'").solve()``

        Raises:
            DefinitionError: the file cannot be read or defines no puzzle (file, line, reason).
        """
        return State(registry.from_file(os.fspath(path)))

    def _init(self, puzzle: Puzzle, labels: Any, path: tuple[str, ...] | None) -> None:
        arr = self._checked(puzzle, labels)
        arr.flags.writeable = False
        object.__setattr__(self, "_puzzle", puzzle)
        object.__setattr__(self, "_labels", arr)
        object.__setattr__(self, "_path", path)

    @staticmethod
    def _checked(puzzle: Puzzle, labels: Any) -> np.ndarray:
        """A fresh uint8 copy of ``labels``, checked as a state of the puzzle
        (:meth:`~exact.puzzle.Puzzle.check_state`: positions, labels and the puzzle's rules)."""
        return puzzle.check_state(labels)

    @classmethod
    def _make(cls: type[_S], puzzle: Puzzle, labels: np.ndarray, path: tuple[str, ...] | None) -> _S:
        obj = object.__new__(cls)
        obj._init(puzzle, labels, path)
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: apply() and scramble() return new states")

    # pickling (multiprocessing, joblib, caches) and copying: a state is its puzzle's registry
    # spec (or the puzzle object, for one built by hand), its labels and its path; unpickling
    # checks the labels again, as every other way in does
    def __reduce__(self) -> tuple[Any, ...]:
        spec = getattr(self._puzzle, "spec", None)
        puzzle = spec.to_dict() if spec is not None and not hasattr(self._puzzle, "partial_goal") else self._puzzle
        return (_state_of, (type(self), puzzle, self._labels.tolist(), self._labels.dtype.str, self._path))

    def __copy__(self: _S) -> _S:
        return self  # immutable: a copy is the state itself

    def __deepcopy__(self: _S, memo: dict[int, Any]) -> _S:
        return self

    # ------------------------------------------------------------------ reading
    @property
    def puzzle(self) -> Puzzle:
        """The puzzle (its move table, goal and protocol)."""
        return self._puzzle

    @property
    def labels(self) -> np.ndarray:
        """uint8 ``(P,)``, read-only."""
        return self._labels

    @property
    def path(self) -> tuple[str, ...] | None:
        """The moves from the goal to this state, where it was reached that way; else ``None``."""
        return self._path

    @property
    def start(self) -> Any:
        """The start as the solvers take it (the labels; FreeCell: the board)."""
        return self._labels

    @property
    def board(self) -> str:
        """The state in the puzzle's text (what :meth:`from_board` reads back)."""
        return self._puzzle.format_state(self._labels)

    @classmethod
    def from_board(cls: type[_S], puzzle: str | Puzzle, text: str, **options: Any) -> _S:
        """The state of ``puzzle`` written as ``text`` (the puzzle's own notation)."""
        p = registry.get(puzzle, **options) if isinstance(puzzle, str) else puzzle
        return cls._make(p, p.parse_state(_text(text, "from_board")), None)

    @classmethod
    def from_instance(cls: type[_S], instance: Any, puzzle: str | None = None, **options: Any) -> _S:
        """The state of an instance (:class:`instances.files.Instance`): of its shipped set's
        puzzle, or of ``puzzle`` for one read from a file.

        Raises:
            PuzzleoptError: no puzzle is known, or the text is not a state of it.
        """
        name = puzzle or getattr(instance, "puzzle", "")
        if not name:
            raise PuzzleoptError(f"instance {getattr(instance, 'id', '?')}: name its puzzle, e.g. puzzle='tiles15'")
        return cls.from_board(name, instance.text, **options)

    @property
    def is_solved(self) -> bool:
        return bool(self._puzzle.is_goal(self._labels[None])[0])

    # ------------------------------------------------------------------ moving
    def apply(self: _S, moves: str | Sequence[str] | Sequence[int]) -> _S:
        """The state after ``moves`` (notation such as ``"R U R'"``, names, or table rows).

        Raises:
            NotationError: an unknown move, quoted with its position and the puzzle's moves, or a
                guarded move that does not apply here.
        """
        table = self._puzzle.table
        rows = self._rows(moves, "apply")
        labels = table.apply(self._labels, rows) if rows else self._labels
        path = None if self._path is None else self._path + tuple(table.names[r] for r in rows)
        return self._make(self._puzzle, labels, path)

    def _rows(self, moves: Any, what: str) -> list[int]:
        """``moves`` (notation, move names or table rows) as table rows, each checked.

        Raises:
            TypeError: ``moves`` is none of those (naming the argument and what it got).
            NotationError: an unknown name or a row out of range.
        """
        table = self._puzzle.table
        if isinstance(moves, str):
            return table.parse(moves, self._labels)
        if not isinstance(moves, (Sequence, np.ndarray)) or isinstance(moves, bytes):
            raise TypeError(f"{what}: moves must be notation (a str), move names or move rows, got {_kind(moves)}")
        items = list(np.asarray(moves).tolist()) if isinstance(moves, np.ndarray) else list(moves)
        if all(isinstance(m, str) for m in items):
            return table.parse(items, self._labels) if items else []
        bad = [m for m in items if isinstance(m, bool) or not isinstance(m, (str, int, np.integer))]
        if bad or any(isinstance(m, str) for m in items):
            shown = _kind(bad[0]) if bad else "names and rows mixed"
            raise TypeError(f"{what}: moves are all names (str) or all table rows (int), got {shown}")
        for m in items:
            if not 0 <= int(m) < table.num_moves:
                raise NotationError(
                    f"{what}: move row {m} is out of range 0..{table.num_moves - 1} of {table.description}"
                )
        return [int(m) for m in items]

    def scramble(self: _S, n: int, rng: np.random.Generator | int) -> _S:
        """The state after ``n`` random applicable moves, none undoing the one before.

        Args:
            n: Number of moves (>= 0).
            rng: A ``numpy.random.Generator`` or a seed (the only source of randomness).
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise TypeError(f"scramble: n must be a whole number, got {_kind(n)}")
        if not 0 <= n <= MAX_SCRAMBLE:
            raise PuzzleoptError(f"scramble: n must be a whole number in 0..{MAX_SCRAMBLE:,}, got {n!r}")
        if isinstance(rng, bool) or not isinstance(rng, (np.random.Generator, int, np.integer)):
            raise TypeError(f"scramble: rng must be a numpy.random.Generator or an int seed, got {_kind(rng)}")
        if not hasattr(self._puzzle, "expand"):
            raise PuzzleoptError(f"{self._puzzle.name} has no random scramble; build its state from a board")
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        table = self._puzzle.table
        s, rows, last = self._labels, [], -1
        for _ in range(int(n)):
            _, applicable = self._puzzle.expand(s[None])
            ok = [int(r) for r in applicable[0] if r >= 0 and (last < 0 or int(table.inverse[last]) != int(r))]
            if not ok:
                break  # a dead end (no move applies): the scramble stops here
            last = ok[int(gen.integers(len(ok)))]
            rows.append(last)
            s = table.apply(s, [last])
        path = None if self._path is None else self._path + tuple(table.names[r] for r in rows)
        return self._make(self._puzzle, s, path)

    # ------------------------------------------------------------------ solving
    def solve(
        self,
        method: str = "auto",
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
        goal: str | Goal | None = None,
        **options: Any,
    ) -> SolveResult:
        """Solve from this state (:func:`puzzleopt.solving.solve`); ``goal`` asks for a partial
        goal instead of the solved state (a cube's ``"cross"``, ``"f2l"``, a facelet mask, ...)."""
        from puzzleopt.solving import solve

        return solve(self, method=method, time_limit=time_limit, node_limit=node_limit, goal=goal, **options)

    def meets(self, goal: str | Goal) -> bool:
        """Whether this state meets a partial goal (:mod:`exact.goals`)."""
        from exact.goals import with_goal

        return with_goal(self._puzzle, goal).solved(self._labels)

    def certify(
        self, solution: str | Sequence[str], method: str = "auto", *, time_limit: float | None = None, **options: Any
    ) -> Certificate:
        """Prove ``solution`` optimal, or find a shorter one (:func:`puzzleopt.solving.certify`):
        a :class:`~hybrid.certify.Certificate`, verdict first."""
        from puzzleopt.solving import certify

        return certify(self, solution, method=method, time_limit=time_limit, **options)

    def to_pyomo(self, T: int, formulation: str = "tight", goal: str | Goal | None = None) -> Any:
        """The time-indexed MIP of this start within ``T`` moves, unsolved: a Pyomo
        ``ConcreteModel`` to inspect, change and solve (:func:`exact.mip.build_mip`); ``goal``
        as in :meth:`solve`."""
        from exact.mip import build_mip

        p = self._goal_puzzle(goal)
        return build_mip(p.table, self._labels, p.goal_spec(self._labels), T, formulation, num_labels=p.num_labels)

    def moves_from_pyomo(self, model: Any, goal: str | Goal | None = None) -> tuple[str, ...]:
        """The moves a model of :meth:`to_pyomo` chose once the user solved it (with any solver
        Pyomo drives), replayed from this state: they must reach the goal (``goal`` as given to
        :meth:`to_pyomo`).

        Raises:
            PuzzleoptError: the model is not one of :meth:`to_pyomo`'s, holds no solution, or its
                moves do not bring this state to the goal (another state's model?).
        """
        from exact.mip import seed, tight

        p = self._goal_puzzle(goal)
        reader = tight.chosen_moves if hasattr(model, "actions") else seed.chosen_moves
        try:
            rows = [m for m in reader(model, p.table.num_moves) if m is not None]
        except (AttributeError, KeyError, TypeError) as exc:
            raise PuzzleoptError(f"moves_from_pyomo: not a model of to_pyomo ({exc})") from None
        end = p.table.apply(self._labels, rows) if rows else self._labels
        if not p.solved(end):
            raise PuzzleoptError(
                f"moves_from_pyomo: the model's {len(rows)} moves do not bring this state to the goal; is the model "
                "solved, and is it this state's?"
            )
        return tuple(p.table.names[r] for r in rows)

    def to_cpsat(self, T: int, goal: str | Goal | None = None) -> Any:
        """The CP-SAT model of this start within ``T`` moves, unsolved
        (:func:`exact.cpsat.build_cpsat`; its ``.model`` is the ``CpModel``); ``goal`` as in
        :meth:`solve`."""
        from exact.cpsat import build_cpsat

        p = self._goal_puzzle(goal)
        return build_cpsat(p.table, self._labels, p.goal_spec(self._labels), T, p.num_labels)

    def _goal_puzzle(self, goal: str | Goal | None) -> Puzzle:
        from exact.goals import with_goal

        return self._puzzle if goal is None else with_goal(self._puzzle, goal)

    # ------------------------------------------------------------------ showing
    def svg(self) -> str:
        """The state as an SVG picture.

        Raises:
            PuzzleoptError: the puzzle draws no picture.
        """
        out = self._puzzle.svg(self._labels)
        if out is None:
            raise PuzzleoptError(f"{self._puzzle.name} has no picture; its text: {self.board!r}")
        return out

    def animate(self, moves: str | Sequence[str] | SolveResult, seconds: float = 0.8) -> Animation:
        """The positions along ``moves`` (notation, names, or a :class:`SolveResult` of this
        state) as an :class:`exact.animation.Animation`: a player in Jupyter, ``.svg()`` a
        looping picture, ``.save(path)`` a file."""
        from exact.animation import Animation

        if isinstance(moves, SolveResult):
            if moves.puzzle != self._puzzle.name or tuple(moves.start) != tuple(int(v) for v in self._labels):
                raise PuzzleoptError(
                    f"animate: the result is of {moves.puzzle} from another start; animate it from its own state"
                )
            moves = list(moves.moves)
        rows = self._rows(moves, "animate")
        return Animation.of(self._puzzle, self._labels, self._puzzle.table.format(rows), seconds)

    @property
    def legal_moves(self) -> tuple[str, ...]:
        """The names of the moves that apply here, in the table's order, each once (a tile
        board's blank at an edge has fewer)."""
        table = self._puzzle.table
        rows = np.flatnonzero(table.applicable(self._labels[None])[0]) if table.guarded else range(table.num_moves)
        return tuple(dict.fromkeys(table.names[int(r)] for r in rows))

    def neighbors(self: _S) -> list[tuple[str, _S]]:
        """``(move, state)`` for each of :attr:`legal_moves`, the state one move away."""
        return [(m, self.apply(m)) for m in self.legal_moves]

    def inverse(self: _S) -> _S:
        """The inverse as a group element: the state a solution of this one reaches when played
        from the goal (:meth:`exact.puzzle.Puzzle.inverse_state`).

        Raises:
            PuzzleoptError: the puzzle has none (guarded moves, or items that look alike).
        """
        inv = self._puzzle.inverse_state(self._labels)
        if inv is None:
            raise PuzzleoptError(
                f"{self._puzzle.name} has no inverse states: its moves are guarded or its items cannot be told apart"
            )
        return self._make(self._puzzle, np.asarray(inv), None)

    def __str__(self) -> str:
        """The state drawn as text (a cube's net, a board's rows): what ``print(state)`` shows."""
        return self._puzzle.drawing(self._labels)

    def _repr_svg_(self) -> str | None:
        return self._puzzle.svg(self._labels)

    def __repr__(self) -> str:
        spec = getattr(self._puzzle, "spec", None)
        return f"{type(self).__name__}({spec or self._puzzle.name}: {self.board!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, bytes]:
        spec = getattr(self._puzzle, "spec", None)
        return (str(spec) if spec is not None else self._puzzle.name, self._labels.tobytes())


def _kind(value: Any) -> str:
    """A value's type and a short view of it, for a TypeError."""
    shown = repr(value)
    return f"{type(value).__name__} {shown if len(shown) <= 40 else shown[:37] + '...'}"


def _text(value: Any, what: str) -> str:
    """``value`` checked to be text (a TypeError naming ``what`` otherwise)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} takes text (a str), got {_kind(value)}")
    return value


def _size(n: Any, what: str, sizes: list[int]) -> None:
    """``n`` checked to be one of ``sizes`` (a TypeError for a value that is no whole number)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"{what}: n is a whole number, got {_kind(n)}")
    if int(n) not in sizes:
        raise PuzzleoptError(f"{what}: n must be one of {', '.join(map(str, sizes))}, got {n}")


def _given(**options: Any) -> dict[str, Any]:
    """The options that were given (``None`` leaves the registry's default)."""
    return {k: v for k, v in options.items() if v is not None}


def _state_of(
    cls: type[_S], puzzle: dict[str, Any] | Puzzle, labels: list[int], dtype: str, path: tuple[str, ...] | None
) -> _S:
    """The state :meth:`State.__reduce__` wrote, checked again (a registry spec is rebuilt)."""
    built = registry.rebuild(puzzle) if isinstance(puzzle, dict) else puzzle
    return cls._make(built, np.asarray(labels, dtype=np.dtype(dtype)), None if path is None else tuple(path))


class Cube(State):
    """An NxNxN cube, solved unless ``facelets`` are given.

    Args:
        n: Size (2-7).
        moves: ``"faces"`` (default), ``"layers"`` or ``"wide"`` (:func:`exact.moves.cube_moves`).
        metric: ``"qtm"`` (default) or ``"htm"``.
    """

    __slots__ = ()

    def __init__(self, n: int = 3, *, moves: str | None = None, metric: str | None = None) -> None:
        _size(n, "Cube(n)", [int(k.removeprefix("cube")) for k in registry.names() if k.startswith("cube")])
        super().__init__(f"cube{n}", **_given(moves=moves, metric=metric))

    @property
    def facelets(self) -> str:
        """The facelet string (kociemba's format, faces URFDLB)."""
        return self.board

    @classmethod
    def from_facelets(cls, facelets: str, *, moves: str | None = None, metric: str | None = None) -> Cube:
        """The cube of a facelet string (``6*n*n`` letters URFDLB; its size from its length)."""
        from exact.puzzles.cube import from_facelets

        n = math.isqrt(from_facelets(_text(facelets, "from_facelets")).size // 6)  # read and checked first
        _size(n, "Cube.from_facelets", [int(k.removeprefix("cube")) for k in registry.names() if k.startswith("cube")])
        return cls.from_board(f"cube{n}", facelets, **_given(moves=moves, metric=metric))

    @classmethod
    def from_deepcubea(cls, colors: Sequence[int] | np.ndarray, *, metric: str | None = None) -> Cube:
        """The 3x3x3 of DeepCubeA's state (``Cube3State.colors``: a permutation of 0..53;
        :mod:`exact.puzzles.cube.formats`), checked to be a real cube's."""
        from exact.puzzles.cube.formats import from_deepcubea

        p = registry.get("cube3", **_given(metric=metric))
        return cls._make(p, from_deepcubea(np.asarray(colors)), None)

    def to_deepcubea(self) -> np.ndarray:
        """DeepCubeA's state of this 3x3x3: int64 ``(54,)``, a permutation of 0..53."""
        from exact.puzzles.cube.formats import to_deepcubea

        self._need_3x3("to_deepcubea")
        return to_deepcubea(self._labels)

    @classmethod
    def from_jumanji(cls, cube: np.ndarray, *, metric: str | None = None) -> Cube:
        """The 3x3x3 of Jumanji's ``RubiksCube`` state (``state.cube``, int ``(6, 3, 3)``)."""
        from exact.puzzles.cube.formats import from_jumanji

        p = registry.get("cube3", **_given(metric=metric))
        return cls._make(p, p.check_state(from_jumanji(np.asarray(cube))), None)

    def to_jumanji(self) -> np.ndarray:
        """Jumanji's ``cube`` of this 3x3x3: int8 ``(6, 3, 3)``, faces UP FRONT RIGHT BACK LEFT DOWN."""
        from exact.puzzles.cube.formats import to_jumanji

        self._need_3x3("to_jumanji")
        return to_jumanji(self._labels)

    def _need_3x3(self, what: str) -> None:
        if self._puzzle.num_positions != 54:
            raise PuzzleoptError(f"Cube.{what}: only the 3x3x3 has this format; this cube is {self._puzzle.name}")


class Tiles(State):
    """A sliding-tile board, solved (Korf's goal: blank top-left) unless built from a board.

    Args:
        n: Tiles: 8, 15, 24, 35 or 48.
    """

    __slots__ = ()

    def __init__(self, n: int = 15) -> None:
        _size(n, "Tiles(n)", [int(k.removeprefix("tiles")) for k in registry.names() if k.startswith("tiles")])
        super().__init__(f"tiles{n}")

    @classmethod
    def from_board(cls, text: str) -> Tiles:  # type: ignore[override]
        """The board of ``text`` (``"0 1 2 ..."``, row-major, 0 the blank; its size from its count)."""
        n = len(_text(text, "Tiles.from_board").replace(",", " ").split()) - 1
        return super().from_board(f"tiles{n}", text)


class LightsOut(State):
    """A Lights Out board, all lights off unless built from a board.

    Args:
        rows: Board rows (default 7).
        cols: Board columns (default: ``rows``).
    """

    __slots__ = ()

    def __init__(self, rows: int = 7, cols: int | None = None) -> None:
        super().__init__("lightsout", **_given(rows=rows, cols=cols))

    @property
    def lights(self) -> np.ndarray:
        """bool ``(rows, cols)``: which cells are lit."""
        puzzle: Any = self._puzzle  # the Lights Out puzzle, which draws its board
        return np.asarray(puzzle.lights(self._labels))

    @classmethod
    def from_board(cls, text: str, rows: int | None = None, cols: int | None = None) -> LightsOut:  # type: ignore[override]
        """The board of a lights string (``"0101..."``, row-major, ``1`` lit); square unless
        ``rows``/``cols`` say otherwise."""
        cells = len("".join(_text(text, "LightsOut.from_board").split()))
        if rows is None:
            rows = int(round(cells**0.5)) if cols is None else cells // max(cols, 1)
        if cols is None:
            cols = cells // max(rows, 1)
        return super().from_board("lightsout", text, **_given(rows=rows, cols=cols))


class Pyraminx(State):
    """The Pyraminx, solved (``tips=False``: without its tips)."""

    __slots__ = ()

    def __init__(self, tips: bool | None = None) -> None:
        super().__init__("pyraminx", **_given(tips=tips))


class Pancake(State):
    """A sorted stack of ``n`` pancakes (``burnt=True``: burnt sides down)."""

    __slots__ = ()

    def __init__(self, n: int | None = None, burnt: bool | None = None) -> None:
        super().__init__("pancake", **_given(n=n, burnt=burnt))


class Sokoban(State):
    """A Sokoban level: XSB text (``#`` wall, ``$`` box, ``.`` goal, ``@`` player, ...), a
    ``"FILE:N"`` reference to level ``N`` of a collection, or a
    :class:`~exact.puzzles.sokoban.Level`. Moves are LURD letters (``"rrUl"``)."""

    __slots__ = ()

    def __init__(self, level: Any) -> None:
        from exact.puzzles.sokoban import Level, load_level, parse_level

        if isinstance(level, str):
            level = parse_level(level) if "\n" in level.strip() or "#" in level else load_level(level)
        if not isinstance(level, Level):
            raise PuzzleoptError(f"Sokoban takes XSB text, 'FILE:N' or a Level, got {type(level).__name__}")
        puzzle: Any = registry.get("sokoban", height=level.height, width=level.width, boxes=len(level.boxes))
        self._init(puzzle, puzzle.state_of(level), None)

    @classmethod
    def from_board(cls, text: str) -> Sokoban:  # type: ignore[override]
        """The level of XSB text."""
        return cls(text)


class FreeCell(State):
    """A FreeCell board: a Microsoft deal number, a board text (fc-solve's layout) or a
    :class:`~exact.puzzles.freecell.Board`. Moves are in the standard notation (``"3a 54 h3"``)."""

    __slots__ = ()

    def __init__(self, deal: Any = 1, freecells: int = 4) -> None:
        from exact.puzzles.freecell import Board
        from exact.puzzles.freecell.puzzle import FreeCellPuzzle, encode_board

        puzzle: Any = FreeCellPuzzle(freecells)  # a puzzle of its own solver, not a move table
        if isinstance(deal, str):
            vector = puzzle.parse_state(deal)
        elif isinstance(deal, Board):
            vector = encode_board(deal)
        elif isinstance(deal, (int, np.integer)) and not isinstance(deal, bool):
            vector = encode_board(puzzle.deal(int(deal)))
        else:
            raise PuzzleoptError(f"FreeCell takes a deal number, a board text or a Board, got {type(deal).__name__}")
        self._init(puzzle, vector, None)

    @staticmethod
    def _checked(puzzle: Any, labels: Any) -> np.ndarray:
        from exact.puzzles.freecell.puzzle import decode_board, encode_board

        return encode_board(decode_board(labels))  # checks every rule of a board

    @property
    def start(self) -> Any:
        from exact.puzzles.freecell.puzzle import decode_board

        return decode_board(self._labels)

    @classmethod
    def from_board(cls, text: str, freecells: int = 4) -> FreeCell:  # type: ignore[override]
        """The board of a text in fc-solve's layout."""
        return cls(text, freecells)
