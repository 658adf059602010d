"""The move table: the one description of a puzzle's moves.

Every exact formulation (MIP, CP-SAT), every search (BFS, IDA*, BWAS) and every network in
puzzleopt is built from a :class:`MoveTable`. A puzzle state is a vector of ``P`` labels, one per
position; a move is a permutation of positions, optionally with a *guard*.

Conventions (written once, here):

* ``new_state = state[perms[m]]``: position ``i`` receives the label that was at position
  ``perms[m, i]``. Applying ``a`` then ``b`` is the single permutation ``perms[a][perms[b]]``.
* A guard is a list of ``(position, label)`` pairs that must all hold before the move may be
  applied (sliding tiles: "the blank is at cell 5"). Guards are stored padded in
  ``guard_pos``/``guard_val`` of shape ``(M, G)``; padding positions are ``-1``.
* ``names`` need not be unique: rows sharing a name form one *action* (tiles: "U" is the blank
  moving up, one row per blank cell). A token naming such an action is resolved against the
  current state, so parsing a sequence of those needs a start state.
* ``inverse[m]`` is the row that undoes ``m`` from every state where ``m`` applies (-1 if none).
* ``axis``/``layer`` (optional, shape ``(M,)``): moves of one axis commute; ``layer`` is a bitmask
  of the layers a move turns. :attr:`MoveTable.commutes` derives the commuting pairs from the
  permutations themselves, for any table.

Cube tables add *aliases*: further spellings of a move or of a short sequence (``2R`` for
``M'`` on the 3x3, ``R2`` for ``R R`` in the quarter-turn metric); see
:func:`exact.puzzles.cube.cube_moves`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Union

import numpy as np

from exact.errors import NotationError, StateError

MoveSpec = Union[int, np.integer, str, Sequence[Union[int, str]]]  # noqa: UP007 (a runtime alias on 3.10)

_TOKEN = re.compile(r"\(|\)\d*|[^\s()]+")
# Apostrophes people type (word processors, phones) read as the ASCII prime.
_PRIMES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u2032": "'", "`": "'"})
MAX_REPEAT = 1000


def _spans(text: str) -> list[tuple[str, int]]:
    """The move tokens of ``text`` with their character offsets, repeat groups expanded.

    ``(R U)2`` is ``R U R U``; groups nest; ``(R U)`` alone is ``R U``. Typographic apostrophes
    read as ``'``.
    """
    text = text.translate(_PRIMES)
    stack: list[list[tuple[str, int]]] = [[]]
    opened: list[int] = []
    for m in _TOKEN.finditer(text):
        tok, off = m.group(0), m.start()
        if tok == "(":
            stack.append([])
            opened.append(off)
        elif tok.startswith(")"):
            if len(stack) == 1:
                raise NotationError(f"')' at character {off + 1} of {text!r} closes no group; remove it or add '('")
            times = int(tok[1:] or 1)
            if not 1 <= times <= MAX_REPEAT:
                raise NotationError(
                    f"repeat count {tok[1:]} at character {off + 2} of {text!r} must be in 1..{MAX_REPEAT}"
                )
            group = stack.pop()
            opened.pop()
            stack[-1].extend(group * times)
        else:
            stack[-1].append((tok, off))
    if opened:
        raise NotationError(f"'(' at character {opened[-1] + 1} of {text!r} is never closed; add ')' after its moves")
    return stack[0]


@dataclass(frozen=True, eq=False)
class MoveTable:
    """Moves of a puzzle as (guarded) permutations of its ``P`` positions.

    Attributes:
        names: Move names, length ``M``; equal names form one action (see module docstring).
        perms: int64 array of shape ``(M, P)``; ``new_state = state[perms[m]]``.
        guard_pos: int64 array of shape ``(M, G)``, positions that must hold ``guard_val``;
            ``-1`` pads. ``G`` is 0 for unguarded tables.
        guard_val: int64 array of shape ``(M, G)``, the labels required at ``guard_pos``.
        axis: Optional int64 array ``(M,)``; moves of equal axis commute (cube: 0=x, 1=y, 2=z).
        layer: Optional int64 array ``(M,)``; bitmask of the layers turned (cube: bit k = layer k,
            counted from the L/D/B side).
        aliases: Further accepted tokens, each mapped to a tuple of row indices.
        description: Human name of the table, used in error messages (e.g. ``"cube3 faces htm"``).
        metadata: Free-form facts for export (puzzle, n, move set, metric, ...).
    """

    names: tuple[str, ...]
    perms: np.ndarray
    guard_pos: np.ndarray = field(default=None)  # type: ignore[arg-type]  # filled in __post_init__
    guard_val: np.ndarray = field(default=None)  # type: ignore[arg-type]  # filled in __post_init__
    axis: np.ndarray | None = None
    layer: np.ndarray | None = None
    aliases: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    description: str = "move table"
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        perms = np.ascontiguousarray(self.perms, dtype=np.int64)
        if perms.ndim != 2:
            raise StateError(f"{self.description}: perms must have shape (M, P), got {perms.shape}")
        m, p = perms.shape
        if len(self.names) != m:
            raise StateError(f"{self.description}: {len(self.names)} names for {m} permutations")
        if m and not np.array_equal(np.sort(perms, axis=1), np.broadcast_to(np.arange(p), (m, p))):
            bad = int(np.flatnonzero((np.sort(perms, axis=1) != np.arange(p)).any(axis=1))[0])
            raise StateError(f"{self.description}: row {bad} ({self.names[bad]!r}) is not a permutation of 0..{p - 1}")
        gp = np.zeros((m, 0), np.int64) if self.guard_pos is None else np.asarray(self.guard_pos, np.int64)
        gv = np.zeros((m, 0), np.int64) if self.guard_val is None else np.asarray(self.guard_val, np.int64)
        if gp.shape != gv.shape or gp.shape[0] != m:
            raise StateError(f"{self.description}: guard_pos {gp.shape} and guard_val {gv.shape} must both be (M, G)")
        for name, arr in (("perms", perms), ("guard_pos", gp), ("guard_val", gv)):
            arr.setflags(write=False)
            object.__setattr__(self, name, arr)
        object.__setattr__(self, "names", tuple(self.names))
        for name in ("axis", "layer"):
            arr = getattr(self, name)
            if arr is not None:
                arr = np.asarray(arr, np.int64)
                arr.setflags(write=False)
                object.__setattr__(self, name, arr)

    # ------------------------------------------------------------------ sizes and derived data
    @property
    def num_moves(self) -> int:
        """Number of rows ``M``."""
        return int(self.perms.shape[0])

    @property
    def num_positions(self) -> int:
        """Number of positions ``P`` of a state."""
        return int(self.perms.shape[1])

    @property
    def guarded(self) -> bool:
        """Whether any move carries a guard."""
        return bool((self.guard_pos >= 0).any())

    def __len__(self) -> int:
        return self.num_moves

    def __repr__(self) -> str:
        return f"MoveTable({self.description!r}, M={self.num_moves}, P={self.num_positions})"

    @cached_property
    def actions(self) -> tuple[str, ...]:
        """Distinct move names in order of first appearance."""
        return tuple(dict.fromkeys(self.names))

    @cached_property
    def action_of(self) -> np.ndarray:
        """int64 ``(M,)``: index into :attr:`actions` of each row."""
        index = {a: i for i, a in enumerate(self.actions)}
        return np.array([index[n] for n in self.names], dtype=np.int64)

    @cached_property
    def _rows_by_token(self) -> dict[str, tuple[int, ...]]:
        rows: dict[str, list[int]] = {}
        for i, n in enumerate(self.names):
            rows.setdefault(n, []).append(i)
        return {k: tuple(v) for k, v in rows.items()}

    @cached_property
    def odd(self) -> bool:
        """Whether every move is an odd permutation of the positions: each move then flips the
        parity of a state whose labels are distinct (:meth:`exact.puzzle.Puzzle.length_parity`)."""
        from exact.ranking import permutation_parity  # numba: loaded only where a parity is asked for

        return bool(permutation_parity(self.perms, check=False).all())

    @cached_property
    def inverse(self) -> np.ndarray:
        """int64 ``(M,)``: the row undoing each move wherever it applies, ``-1`` if there is none."""
        inv_perm = np.argsort(self.perms, axis=1)
        by_perm: dict[bytes, list[int]] = {}
        for i in range(self.num_moves):
            by_perm.setdefault(self.perms[i].tobytes(), []).append(i)
        out = np.full(self.num_moves, -1, dtype=np.int64)
        for m in range(self.num_moves):
            for cand in by_perm.get(inv_perm[m].tobytes(), []):
                if self._guard_follows(m, cand):
                    out[m] = cand
                    break
        out.setflags(write=False)
        return out

    def undoing(self, rows: Sequence[int]) -> list[int]:
        """The rows that undo ``rows`` played in order: each one's :attr:`inverse`, last first
        (``-1`` for a move that has none)."""
        return [int(self.inverse[r]) for r in reversed(rows)]

    def conjugated(self, positions: np.ndarray) -> np.ndarray:
        """int64 ``(M,)``: the row each row becomes when every position ``p`` is renamed
        ``positions[p]`` (a row with permutation ``perm`` becomes the one with
        ``positions[perm[positions^-1]]``).

        Raises:
            StateError: The table is guarded, or some image is not one of its rows.
        """
        if self.guarded:
            raise StateError(f"{self.description}: guarded moves have no conjugates")
        positions = np.asarray(positions, dtype=np.int64)
        perms = np.asarray(self.perms, dtype=np.int64)
        by_perm = {p.tobytes(): m for m, p in enumerate(perms)}
        images = positions[perms[:, np.argsort(positions)]]
        missing = [m for m, image in enumerate(images) if image.tobytes() not in by_perm]
        if missing:
            raise StateError(
                f"{self.description} is not closed under that renaming of positions: the image of "
                f"{self.names[missing[0]]!r} is not one of its moves"
            )
        return np.array([by_perm[image.tobytes()] for image in images], np.int64)

    def _guard_follows(self, m: int, cand: int) -> bool:
        """True if ``cand``'s guard holds on every state reached by ``m`` from its guard."""
        known = {int(p): int(v) for p, v in zip(self.guard_pos[m], self.guard_val[m]) if p >= 0}
        for p, v in zip(self.guard_pos[cand], self.guard_val[cand]):
            if p >= 0 and known.get(int(self.perms[m, p])) != int(v):
                return False
        return True

    @cached_property
    def commutes(self) -> np.ndarray:
        """bool ``(M, M)``: whether the permutations of two moves commute."""
        p = self.perms
        left = p[:, p]  # left[a, b] = p[a][p[b]]: a then b
        right = np.transpose(left, (1, 0, 2))
        out: np.ndarray = (left == right).all(axis=2)
        return out

    def subset(self, names: Iterable[str], description: str | None = None) -> MoveTable:
        """A table holding only the rows with the given names, in the order given.

        Args:
            names: Row names to keep (each must exist; a name shared by several rows keeps all).
            description: Description of the new table; defaults to this one's plus the names.
        """
        keep: list[int] = []
        names = list(names)
        for n in names:
            rows = self._rows_by_token.get(n)
            if rows is None:
                raise NotationError(
                    f"subset: no move named {n!r} in {self.description}; moves are {' '.join(self.actions)}"
                )
            keep.extend(rows)
        idx = np.array(keep, dtype=np.int64)
        old_to_new = {o: i for i, o in enumerate(keep)}
        aliases = {}
        for tok, seq in self.aliases.items():
            if all(s in old_to_new for s in seq):
                aliases[tok] = tuple(old_to_new[s] for s in seq)
        return MoveTable(
            names=tuple(self.names[i] for i in keep),
            perms=self.perms[idx],
            guard_pos=self.guard_pos[idx],
            guard_val=self.guard_val[idx],
            axis=None if self.axis is None else self.axis[idx],
            layer=None if self.layer is None else self.layer[idx],
            aliases=aliases,
            description=description or f"{self.description} [{' '.join(names)}]",
            metadata=dict(self.metadata),
        )

    # ------------------------------------------------------------------ guards
    def applicable(self, states: np.ndarray) -> np.ndarray:
        """Which moves may be applied.

        Args:
            states: Labels, shape ``(P,)`` or ``(B, P)``.

        Returns:
            bool array of shape ``(M,)`` or ``(B, M)``.
        """
        s = self._check_states(states)
        if self.guard_pos.shape[1] == 0:
            return np.ones(s.shape[:-1] + (self.num_moves,), dtype=bool)
        pos = np.where(self.guard_pos >= 0, self.guard_pos, 0)
        ok = (s[..., pos] == self.guard_val) | (self.guard_pos < 0)
        out: np.ndarray = ok.all(axis=-1)
        return out

    # ------------------------------------------------------------------ notation
    def parse(self, text: str | Sequence[str], start: np.ndarray | None = None) -> list[int]:
        """Read a whitespace-separated sequence of move tokens into row indices.

        Args:
            text: e.g. ``"R U' F2"``; also a list of tokens. A string may hold repeat groups,
                ``(R U)2`` for ``R U R U`` (nested too), and typographic apostrophes (``R’``).
            start: Labels ``(P,)`` of the start state; required only when a token names an action
                shared by several guarded rows (tiles), which is then resolved state by state.

        Returns:
            Row indices, in order.

        Raises:
            NotationError: quoting the bad token, its number and character offset, and the state
                where the token could not be applied.
        """
        if isinstance(text, str):
            spans = _spans(text)
            shown = text
        else:
            spans, off = [], 0
            for t in text:
                spans.append((str(t), off))
                off += len(str(t)) + 1
            shown = " ".join(str(t) for t in text)
        state = None if start is None else self._check_states(start).copy()
        if state is not None and state.ndim != 1:
            raise StateError(f"{self.description}: parse takes one start state of shape (P,), got {state.shape}")
        out: list[int] = []
        for k, (tok, off) in enumerate(spans):
            rows = self._rows_by_token.get(tok)
            if rows is not None and len(rows) == 1:
                seq: tuple[int, ...] = rows
            elif tok in self.aliases:
                seq = self.aliases[tok]
            elif rows is None:
                raise NotationError(
                    f"unknown move {tok!r} (token {k + 1}, character {off + 1}) in {shown!r}: "
                    f"{self.description} has the moves {' '.join(self.actions)}"
                )
            else:
                if state is None:
                    raise NotationError(
                        f"move {tok!r} (token {k + 1}) in {shown!r} depends on the state in {self.description}: "
                        "pass the start state to parse()"
                    )
                ok = [r for r in rows if self._guard_ok(state, r)]
                if not ok:
                    raise NotationError(
                        f"move {tok!r} (token {k + 1}, character {off + 1}) in {shown!r} cannot be applied "
                        f"to state {self._show(state)} of {self.description}"
                    )
                seq = (ok[0],)
            for r in seq:
                if state is not None:
                    if not self._guard_ok(state, r):
                        raise NotationError(
                            f"move {tok!r} (token {k + 1}, character {off + 1}) in {shown!r} cannot be applied "
                            f"to state {self._show(state)} of {self.description}"
                        )
                    state = state[self.perms[r]]
                out.append(int(r))
        return out

    def format(self, indices: Iterable[int]) -> str:
        """Write row indices as a space-separated sequence of move names (inverse of :meth:`parse`)."""
        out = []
        for i in indices:
            i = int(i)
            if not 0 <= i < self.num_moves:
                raise NotationError(f"move index {i} out of range 0..{self.num_moves - 1} for {self.description}")
            out.append(self.names[i])
        return " ".join(out)

    # ------------------------------------------------------------------ applying moves
    def compose(self, sequence: MoveSpec) -> np.ndarray:
        """The single permutation equal to applying ``sequence`` in order (guards ignored).

        Returns:
            int64 array of shape ``(P,)``; ``state[compose(seq)]`` applies the sequence.
        """
        perm = np.arange(self.num_positions, dtype=np.int64)
        for m in self._indices(sequence, None):
            perm = perm[self.perms[m]]
        return perm

    def apply(self, states: np.ndarray, moves: MoveSpec) -> np.ndarray:
        """Apply a move or a sequence of moves to one state or a batch.

        Args:
            states: Labels, shape ``(P,)`` or ``(B, P)`` (any integer dtype; kept).
            moves: A row index, a name, a sequence in notation (``"R U R'"``) or a list of indices
                or names. For a batch, every state gets the same moves.

        Returns:
            New array of the same shape and dtype.

        Raises:
            NotationError: a token is unknown, or a guarded move does not apply to some state.
        """
        s = self._check_states(states)
        start = s if s.ndim == 1 else None
        seq = self._indices(moves, start)
        if not self.guarded:
            return s[..., self.compose(seq)] if seq else s.copy()
        for m in seq:
            ok = self.applicable(s)[..., m]
            if not np.all(ok):
                bad = s if s.ndim == 1 else s[int(np.flatnonzero(~ok)[0])]
                raise NotationError(
                    f"move {self.names[m]!r} cannot be applied to state {self._show(bad)} of {self.description}"
                )
            s = s[..., self.perms[m]]
        return s.copy() if not seq else s

    def rows(self, moves: MoveSpec, start: np.ndarray | None = None) -> list[int]:
        """``moves`` (a row index, a name, notation, or a list of indices or names) as row indices;
        ``start`` as :meth:`parse` takes it (tile actions are resolved from it).

        Raises:
            NotationError: an index out of range or an unknown token.
        """
        return self._indices(moves, start)

    def _indices(self, moves: MoveSpec, start: np.ndarray | None) -> list[int]:
        if isinstance(moves, (int, np.integer)):
            m = int(moves)
            if not 0 <= m < self.num_moves:
                raise NotationError(f"move index {m} out of range 0..{self.num_moves - 1} for {self.description}")
            return [m]
        if isinstance(moves, str):
            return self.parse(moves, start)
        moves = list(moves)
        if all(isinstance(m, (int, np.integer)) for m in moves):
            return [i for m in moves for i in self._indices(int(m), None)]
        return self.parse([str(m) for m in moves], start)

    def _guard_ok(self, state: np.ndarray, m: int) -> bool:
        gp, gv = self.guard_pos[m], self.guard_val[m]
        keep = gp >= 0
        return bool(np.all(state[gp[keep]] == gv[keep]))

    def _check_states(self, states: np.ndarray) -> np.ndarray:
        s = np.asarray(states)
        if s.ndim not in (1, 2) or s.shape[-1] != self.num_positions:
            raise StateError(
                f"{self.description}: states must have shape (P,) or (B, P), P = {self.num_positions}; got {s.shape}"
            )
        return s

    @staticmethod
    def _show(state: np.ndarray) -> str:
        return "[" + " ".join(str(int(v)) for v in state) + "]"

    # ------------------------------------------------------------------ export
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description of the table (format ``puzzleopt.movetable`` version 1)."""
        d: dict[str, Any] = {
            "format": "puzzleopt.movetable",
            "version": 1,
            "description": self.description,
            "metadata": dict(self.metadata),
            "convention": "new_state = state[perms[m]]",
            "num_positions": self.num_positions,
            "names": list(self.names),
            "perms": self.perms.tolist(),
            "inverse": self.inverse.tolist(),
        }
        if self.guarded:
            d["guards"] = [
                [[int(p), int(v)] for p, v in zip(gp, gv) if p >= 0] for gp, gv in zip(self.guard_pos, self.guard_val)
            ]
        if self.axis is not None:
            d["axis"] = self.axis.tolist()
        if self.layer is not None:
            d["layer"] = self.layer.tolist()
        return d
