"""The batched puzzle protocol shared by the exact and the learned solvers.

A :class:`Puzzle` wraps a :class:`~exact.movetable.MoveTable` with a goal test, a batched
expansion, a one-hot encoding for networks and seeded random walks. Everything here works on
batches of states: uint8 (or wider) arrays of shape ``(B, P)``.

*Actions* are the distinct move names of the table (``table.actions``). Unguarded puzzles (the
cube) have one row per action; guarded puzzles (tiles) have several rows per action of which at
most one applies in any state. :meth:`Puzzle.expand` therefore returns ``A`` children per state,
with move id ``-1`` (and the parent copied) where the action does not apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError, StateError, first_line
from exact.movetable import MoveTable


@dataclass(frozen=True, eq=False)
class Goal:
    """A goal test that exact models can state as constraints. Exactly one of:

    * ``state``: one goal state, shape ``(P,)``;
    * ``groups``: int ``(P,)``: positions of one group must all hold the same label, e.g. the
      facelets of one cube face, in any orientation (with as many groups as labels, different
      groups hold different labels);
    * ``allowed``: bool ``(P, K)``: at the goal position ``p`` holds a label ``k`` with
      ``allowed[p, k]`` (a set of goal states, e.g. Sokoban's "no box off a goal square", the
      player anywhere). The models prune the last step's label domains with it.
    """

    state: np.ndarray | None = None
    groups: np.ndarray | None = None
    allowed: np.ndarray | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.state, self.groups, self.allowed)) != 1:
            raise StateError("a Goal needs exactly one of state=, groups= or allowed=")
        if self.allowed is not None and (np.ndim(self.allowed) != 2 or np.asarray(self.allowed).dtype != bool):
            raise StateError(f"Goal(allowed=) must be a bool (P, K) array, got shape {np.shape(self.allowed)}")

    def holds(self, state: np.ndarray) -> bool:
        """Whether one state ``(P,)`` satisfies the goal."""
        s = np.asarray(state)
        if self.state is not None:
            return bool(np.array_equal(s, self.state))
        if self.allowed is not None:
            return bool(self.allowed[np.arange(s.size), s.astype(np.int64)].all())
        groups = np.asarray(self.groups)
        return all(len(np.unique(s[groups == g])) == 1 for g in np.unique(groups))


@dataclass(frozen=True, eq=False)
class Conjugation:
    """A symmetry of a puzzle: a relabelling of its positions and labels that maps the goal state
    to itself and the move set onto itself (:meth:`Puzzle.conjugation`).

    The conjugate of ``x`` puts the item at ``p`` at ``positions[p]``, relabelled:
    ``new[positions[p]] = labels[x[p]]``; move ``m`` becomes move ``moves[m]``. So a solution
    ``m1 .. mk`` of ``x`` is the solution ``moves[m1] .. moves[mk]`` of the conjugate, equally long,
    and a search from the conjugate is another try at ``x`` (:func:`learned.beam.beam_search`'s
    ``symmetries``).

    Attributes:
        positions: int64 ``(P,)``, a permutation.
        labels: int64 ``(L,)``, a permutation of the labels.
        moves: int64 ``(M,)``, a permutation of the move table's rows.
    """

    positions: np.ndarray
    labels: np.ndarray
    moves: np.ndarray

    def apply(self, states: np.ndarray) -> np.ndarray:
        """States ``(..., P)`` conjugated (same dtype)."""
        s = np.asarray(states)
        out: np.ndarray = self.labels[s[..., np.argsort(self.positions)]].astype(s.dtype)
        return out

    def back(self, rows: list[int] | np.ndarray) -> list[int]:
        """The moves of the original puzzle that a solution ``rows`` of a conjugate stands for."""
        return [int(m) for m in np.argsort(self.moves)[np.asarray(rows, dtype=np.int64)]]


class Puzzle:
    """A puzzle for batched search and learning.

    Subclasses set :attr:`name`, :attr:`table`, :attr:`goal` and :attr:`num_labels`, and may
    override :meth:`is_goal` (several goal states), :meth:`format_state` and :meth:`parse_state`.

    Attributes:
        name: Registry name, e.g. ``"cube3"``.
        table: The move table.
        goal: The canonical goal state, shape ``(P,)``.
        num_labels: Number of distinct labels ``K`` (one-hot width per position).
    """

    name: str
    spec: Any = None
    """The puzzle's identity (:class:`exact.registry.Spec`: registry key and options), set by
    :func:`exact.registry.get`; ``None`` for a puzzle built directly."""
    walk_description = "random moves from the goal"
    """What :meth:`random_walk`'s ``depth`` counts, for training records."""
    capabilities: frozenset[str] = frozenset()
    """What this puzzle's own kernels can do, by name (``"cube3-coordinates"``, ``"korf-tiles"``,
    ``"lights"``, ...): a registered method that needs one (:attr:`exact.contract.Method.needs`)
    applies to the puzzles that declare it. A partial goal (:class:`exact.goals.GoalPuzzle`)
    declares none: the kernels solve to the puzzle's own goal."""
    table: MoveTable
    goal: np.ndarray
    num_labels: int

    def __init__(self, name: str, table: MoveTable, goal: np.ndarray, num_labels: int) -> None:
        self.name = name
        self.table = table
        self.goal = np.asarray(goal, dtype=np.uint8)
        self.goal.setflags(write=False)
        self.num_labels = int(num_labels)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, moves={self.table.num_moves}, P={self.num_positions})"

    @property
    def num_positions(self) -> int:
        return self.table.num_positions

    @property
    def actions(self) -> tuple[str, ...]:
        return self.table.actions

    @property
    def num_actions(self) -> int:
        return len(self.table.actions)

    # ----------------------------------------------------------------- protocol
    def states(self, states: np.ndarray) -> np.ndarray:
        """Check and return ``states`` as a ``(B, P)`` array (a single state becomes ``B = 1``)."""
        s = np.asarray(states)
        if s.ndim == 1:
            s = s[None]
        if s.ndim != 2 or s.shape[1] != self.num_positions:
            raise StateError(f"{self.name}: states must have shape (B, {self.num_positions}), got {np.shape(states)}")
        return s

    def check_state(self, state: object) -> np.ndarray:
        """One state checked as a state of this puzzle, before any kernel sees it.

        The default checks what holds for every move-table puzzle: ``P`` integer labels in
        ``0..K-1``; the goal's labels, each as many times (a move permutes positions, so no move
        changes how often a label appears); and the puzzle's own rules, by writing the state in
        its notation and reading it back (:meth:`parse_state` checks pieces, colours, stacks).
        Puzzles with cheaper or stricter rules override it.

        Args:
            state: Labels ``(P,)``, any integer dtype.

        Returns:
            uint8 ``(P,)``, a fresh copy.

        Raises:
            StateError: naming the puzzle and what is wrong.
        """
        s = self.label_vector(state)
        have = np.bincount(s, minlength=self.num_labels)
        want = np.bincount(self.goal, minlength=self.num_labels)
        if not np.array_equal(have, want):
            k = int(np.flatnonzero(have != want)[0])
            raise StateError(
                f"{self.name}: not a state of the puzzle: label {k} appears {have[k]} times, but every state has it "
                f"{want[k]} times (moves only move labels around)"
            )
        self.check_text_round_trip(s)
        return s

    def label_vector(self, state: object) -> np.ndarray:
        """``state`` as a fresh uint8 ``(P,)`` copy, checked for shape, integer type and label range.

        Raises:
            StateError: naming the puzzle and what is wrong.
        """
        if isinstance(state, (str, bytes)) or state is None:
            raise StateError(
                f"{self.name}: a state is {self.num_positions} integer labels, got {type(state).__name__}; "
                "read text with parse_state"
            )
        s = np.asarray(state)
        if s.ndim != 1 or s.size != self.num_positions or (s.dtype.kind not in "iu" and s.size):
            raise StateError(
                f"{self.name}: a state is {self.num_positions} integer labels (P,), got {s.dtype} {s.shape}"
            )
        if s.size and (s.min() < 0 or s.max() >= self.num_labels):
            raise StateError(f"{self.name}: labels must lie in 0..{self.num_labels - 1}, got {s.min()}..{s.max()}")
        return s.astype(np.uint8)

    def check_text_round_trip(self, s: np.ndarray) -> None:
        """Raise :class:`StateError` unless ``s`` reads back from its own text: the puzzle's
        notation is its rule book (pieces that exist, stacks that list each pancake once, ...)."""
        try:
            back = self.parse_state(self.format_state(s))
        except PuzzleoptError as exc:
            raise StateError(f"{self.name}: not a state of the puzzle: {first_line(exc)}") from None
        except (IndexError, KeyError, ValueError) as exc:
            raise StateError(f"{self.name}: not a state of the puzzle (its labels do not form one: {exc})") from None
        if not np.array_equal(back, s):
            raise StateError(f"{self.name}: not a state of the puzzle (its labels do not read back as themselves)")

    def unsolvable(self, state: np.ndarray) -> str | None:
        """Why no sequence of moves brings a checked state (:meth:`check_state`) to the goal, by an
        invariant (a permutation parity, a linear condition), or ``None`` where none rules it out.

        Cheap, and run by every method before any search, so that such a start ends
        ``unsolvable`` at once rather than as a long search or "nothing within the horizon".
        Default: ``None``.
        """
        return None

    def is_goal(self, states: np.ndarray) -> np.ndarray:
        """bool ``(B,)``: which states are solved."""
        s = self.states(states)
        out: np.ndarray = (s == self.goal).all(axis=1)
        return out

    def solved(self, state: np.ndarray) -> bool:
        """Whether one state ``(P,)`` is solved (:meth:`is_goal`, so a cube in any orientation)."""
        return bool(self.is_goal(np.asarray(state)[None])[0])

    @cached_property
    def _perms_ext(self) -> np.ndarray:
        # One identity row after the real ones, so "action does not apply" is just index M.
        ident = np.arange(self.num_positions, dtype=np.int64)[None]
        return np.concatenate([self.table.perms, ident])

    def choose_rows(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B, A)``: the row of each action that applies in each state, ``-1`` if none."""
        s = self.states(states)
        t = self.table
        b = s.shape[0]
        if not t.guarded and t.num_moves == len(t.actions):
            return np.broadcast_to(np.arange(t.num_moves, dtype=np.int64), (b, t.num_moves)).copy()
        app = t.applicable(s)
        choice = np.full((b, len(t.actions)), -1, dtype=np.int64)
        for m in range(t.num_moves):
            a = t.action_of[m]
            free = app[:, m] & (choice[:, a] < 0)
            choice[free, a] = m
        return choice

    def expand(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """All children of a batch.

        Args:
            states: ``(B, P)``.

        Returns:
            ``children`` of shape ``(B, A, P)`` (same dtype; the parent where the action does not
            apply) and ``move_ids`` int64 ``(B, A)``: the table row taken, ``-1`` if none.
        """
        s = self.states(states)
        rows = self.choose_rows(s)
        t = self.table
        if not t.guarded and t.num_moves == len(t.actions):  # every row applies: one (A, P) index, not (B, A, P)
            return s[:, np.asarray(t.perms)], rows
        perm = self._perms_ext[np.where(rows >= 0, rows, self.table.num_moves)]  # (B, A, P)
        children = np.take_along_axis(s[:, None, :], perm, axis=2)
        return children, rows

    def encode(self, states: np.ndarray) -> np.ndarray:
        """One-hot encoding for networks: float32 of shape ``(B, P * K)``, ``K = num_labels``."""
        s = self.states(states)
        out = np.zeros((s.shape[0], self.num_positions, self.num_labels), dtype=np.float32)
        np.put_along_axis(out, s[..., None].astype(np.int64), 1.0, axis=2)
        return out.reshape(s.shape[0], -1)

    def random_walk(self, n: int, depth: int | np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """States reached from the goal by random applicable moves.

        Args:
            n: Number of states ``B``.
            depth: Number of moves, one int for all or an int array of shape ``(n,)``.
            rng: The random generator (the only source of randomness).

        Returns:
            uint8 array ``(n, P)``.
        """
        depths = np.broadcast_to(np.asarray(depth, dtype=np.int64), (n,))
        if (depths < 0).any():
            raise StateError(f"{self.name}: random_walk depth must be >= 0, got {depths.min()}")
        s = np.broadcast_to(self.goal, (n, self.num_positions)).copy()
        for step in range(int(depths.max(initial=0))):
            active = depths > step
            rows = self.choose_rows(s[active])
            ok = rows >= 0
            # Uniform among the applicable actions of each state.
            score = np.where(ok, rng.random(rows.shape), -1.0)
            pick = rows[np.arange(rows.shape[0]), score.argmax(axis=1)]
            # A state where no action applies (a dead end) stays where it is: row M is the identity.
            pick = np.where(pick >= 0, pick, self.table.num_moves)
            s[active] = np.take_along_axis(s[active], self._perms_ext[pick], axis=1)
        return s

    def goal_spec(self, start: np.ndarray | None = None) -> Goal:
        """The goal as exact models state it (default: the one goal state).

        Args:
            start: The start the model is built for; puzzles whose goal set depends on what
                never moves (Sokoban's goal squares) need it, others ignore it.
        """
        return Goal(state=self.goal)

    def parse_goal(self, text: str) -> Goal:
        """A partial goal the puzzle names in text (:mod:`exact.goals`; a cube reads ``"cross"``,
        ``"f2l"`` or a facelet mask). Default: none are named.

        Raises:
            PuzzleoptError: always, here; puzzles that read goals override it.
        """
        raise StateError(f"{self.name} names no partial goals (got {text!r}); its goal is the solved state")

    def frame(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Whole-puzzle rotations and reference positions, for goals up to rotation.

        Returns ``None`` (the default), or ``(rotations, reference)``: int ``(R, P)`` permutations
        of the whole puzzle (identity included) and the positions whose labels fix a rotation.
        """
        return None

    def distinct_labels(self, state: np.ndarray) -> np.ndarray | None:
        """The state with every position's label made unique (its home position), or ``None``.

        Puzzles whose labels repeat (cube colours) but whose pieces can be told apart return
        ``home[p]``: the goal position of the item at ``p``. Default: ``None``.
        """
        return None

    def inverse_state(self, state: np.ndarray) -> np.ndarray | None:
        """The inverse of ``state`` as a group element: the state a solution of ``state`` reaches
        when played from the goal. Reversing and inverting a solution of the one solves the other,
        so a search from each is two tries at one answer (:func:`learned.beam.beam_search`'s
        ``inverse``).

        Defined where every move applies everywhere and has an inverse, and the items can be told
        apart (:meth:`distinct_labels`, or a goal whose labels are all distinct); ``None``
        otherwise (sliding tiles' moves are guarded, Lights Out's labels repeat).
        """
        if self.table.guarded or (np.asarray(self.table.inverse) < 0).any():
            return None
        home = self._home(state)
        return None if home is None else self.goal[np.argsort(home)]

    def length_parity(self, state: np.ndarray) -> int | None:
        """The parity (0 or 1) that the length of every solution of ``state`` has, or ``None``
        where lengths of both parities may occur or no invariant tells.

        Where every move is an odd permutation of the positions and the items can be told apart
        (as for :meth:`inverse_state`), each move flips the parity of the items' permutation, so
        a solution's length has the parity of the state's permutation relative to the goal (with
        several goal states, only where they all share one). The 3x3 in quarter turns and the
        sliding tiles have it; half turns are even permutations, so the half-turn metric has none;
        nor has a partial goal (``Goal(allowed=...)``), whose goal states may have either parity.
        """
        spec = self.goal_spec(state)
        if spec.allowed is not None or not self.table.odd:
            return None
        mine = self._home_parity(state)
        goals = {self._home_parity(g) for g in ([spec.state] if spec.state is not None else goal_states(self))}
        if mine is None or len(goals) != 1 or (goal := goals.pop()) is None:
            return None
        return mine ^ goal

    def _home_parity(self, state: np.ndarray) -> int | None:
        from exact.ranking import permutation_parity

        home = self._home(state)
        return None if home is None else int(permutation_parity(home, check=False))

    def _home(self, state: np.ndarray) -> np.ndarray | None:
        """int64 ``(P,)``: the goal position of the item at each position (:meth:`distinct_labels`,
        or the goal's labels where they are distinct), or ``None`` where items cannot be told apart."""
        s = np.asarray(state)
        home = self.distinct_labels(s)
        if home is None:
            return home_positions(self.goal, s)
        home = np.asarray(home, dtype=np.int64)
        return home if np.array_equal(np.sort(home), np.arange(self.num_positions)) else None

    def symmetries(self) -> tuple[Conjugation, ...]:
        """The puzzle's symmetries (:class:`Conjugation`), the identity first; searches may try
        the first few as other ways to the same answer. Default: the identity alone."""
        ident = [np.arange(k, dtype=np.int64) for k in (self.num_positions, self.num_labels, self.table.num_moves)]
        return (Conjugation(*ident),)

    def conjugation(self, positions: np.ndarray, labels: np.ndarray) -> Conjugation:
        """The symmetry that moves position ``p`` to ``positions[p]`` and relabels by ``labels``,
        with the move each move becomes (move ``m`` has the permutation ``perm``; its image is
        ``positions[perm[positions^-1]]``).

        Raises:
            PuzzleoptError: ``positions`` or ``labels`` is not a permutation, the moves are
                guarded, or the move set or the goal state is not mapped onto itself.
        """
        positions = np.asarray(positions, dtype=np.int64)
        labels = np.asarray(labels, dtype=np.int64)
        for what, arr, n in (("positions", positions, self.num_positions), ("labels", labels, self.num_labels)):
            if not np.array_equal(np.sort(arr), np.arange(n)):
                raise PuzzleoptError(f"{self.name}: not a symmetry: {what} must be a permutation of 0..{n - 1}")
        try:
            moves = self.table.conjugated(positions)
        except StateError as e:
            raise PuzzleoptError(f"{self.name}: not a symmetry: {e}") from None
        out = Conjugation(positions, labels, moves)
        if not np.array_equal(out.apply(self.goal), self.goal):  # a goal ball holds the states near this one
            raise PuzzleoptError(f"{self.name}: not a symmetry: it does not map the goal state to itself")
        return out

    def pieces(self) -> list[np.ndarray]:
        """Groups of positions that always move together, each in a turning order that moves
        preserve (cube: the facelets of each corner and edge). Used with :meth:`distinct_labels`.
        Default: none."""
        return []

    def heuristics(self) -> dict[str, Any]:
        """Heuristics the puzzle declares, name -> a function returning one
        (:class:`exact.heuristic.Heuristic`); the first is IDA*'s default. Default: none."""
        return {}

    @property
    def diameter(self) -> int | None:
        """God's number (the most moves any solvable state needs), or a published upper bound on
        it where it is not known; ``None`` where neither is known. The diffusion objective's
        default longest walk (:mod:`learned.diffusion`)."""
        return None

    def ranked_space(self) -> Any:
        """A perfect ranking of the states that can reach the goal (:class:`exact.bfs.RankedSpace`)
        for complete distance tables, or ``None`` (the default)."""
        return None

    # ----------------------------------------------------------------- text
    def svg(self, state: np.ndarray) -> str | None:
        """A picture of one state as an SVG document, or ``None`` (the default: no picture)."""
        return None

    def drawing(self, state: np.ndarray) -> str:
        """One state drawn as text for a terminal (``print(state)``): a cube's net, a board's
        rows. Default: :meth:`format_state`."""
        return self.format_state(state)

    def format_state(self, state: np.ndarray) -> str:
        """Human-readable text of one state (subclasses give their own notation)."""
        return " ".join(str(int(v)) for v in np.asarray(state))

    def parse_state(self, text: str) -> np.ndarray:
        """Inverse of :meth:`format_state`."""
        try:
            s = np.array([int(t) for t in text.split()], dtype=np.uint8)
        except ValueError as exc:
            raise StateError(f"{self.name}: cannot read state {text!r}: {exc}") from exc
        out: np.ndarray = self.states(s)[0]
        return out


def goal_states(puzzle: Puzzle) -> np.ndarray:
    """The goal states a move sequence can reach from the puzzle's goal: every whole-puzzle turn
    of it that is a goal (a cube held any way is solved), less those that differ on positions no
    move touches (an odd cube's centres never move)."""
    frame = puzzle.frame()
    states = puzzle.goal[None] if frame is None else np.unique(puzzle.goal[np.asarray(frame[0])], axis=0)
    states = states[puzzle.is_goal(states)]
    still = (puzzle.table.perms == np.arange(puzzle.num_positions)).all(axis=0)
    out: np.ndarray = states[(states[:, still] == puzzle.goal[still]).all(axis=1)]
    return out


def home_positions(goal: np.ndarray, state: np.ndarray) -> np.ndarray | None:
    """int64 ``(P,)``: the position in ``goal`` of the label at each position of ``state``, where
    the goal's labels are all distinct and ``state`` holds the same ones; ``None`` otherwise."""
    g, s = np.asarray(goal, dtype=np.int64), np.asarray(state, dtype=np.int64)
    if np.unique(g).size != g.size or not np.array_equal(np.sort(s), np.sort(g)):
        return None
    where = np.empty(int(g.max()) + 1 if g.size else 0, dtype=np.int64)
    where[g] = np.arange(g.size)
    return where[s]
