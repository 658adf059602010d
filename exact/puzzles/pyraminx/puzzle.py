"""The Pyraminx in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

import numpy as np

from exact.errors import StateError
from exact.options import flag
from exact.puzzle import Puzzle
from exact.puzzles.pyraminx.geometry import COLOURS, FACES, pieces, stickers
from exact.puzzles.pyraminx.moves import pyraminx_moves
from exact.ranking import permutation_parity


class PyraminxPuzzle(Puzzle):
    """The Pyraminx (conventions in :mod:`exact.puzzles.pyraminx`).

    States are uint8 ``(P,)``, the home position of each sticker (``P`` = 36, or 24 without
    tips); the goal is ``0 1 ... P-1``; ``K = P`` labels. Text is the colours, one group of
    letters per face: ``"ggggggggg rrrrrrrrr bbbbbbbbb yyyyyyyyy"`` is solved.

    Args:
        tips: With the four tips (default) or without them.
    """

    def __init__(self, tips: bool = True) -> None:
        self.tips = flag(tips, "pyraminx option tips")
        table = pyraminx_moves(self.tips)
        p = table.num_positions
        super().__init__("pyraminx" if self.tips else "pyraminx-notips", table, np.arange(p), num_labels=p)

    @property
    def diameter(self) -> int:
        """God's number with each 120-degree turn one move: 11 without the tips (the published
        figure; not measured here); with them, the bound 15 (each of the four tips needs at most one turn of its
        own)."""
        return 15 if self.tips else 11

    def __repr__(self) -> str:
        return f"PyraminxPuzzle(tips={self.tips})"

    def colours(self, state: np.ndarray) -> str:
        """One colour letter per position (no spaces)."""
        all_ = stickers(self.tips)
        return "".join(COLOURS[all_[int(v)].face] for v in np.asarray(state))

    def svg(self, state: np.ndarray) -> str:
        """The net in the WCA colours (:func:`exact.puzzles.pyraminx.svg.net_svg`)."""
        from exact.puzzles.pyraminx.svg import net_svg

        return net_svg(state, self.tips)

    def format_state(self, state: np.ndarray) -> str:
        """The colours, face by face (F L R D), e.g. ``"ggggggggg rrrrrrrrr bbbbbbbbb yyyyyyyyy"``."""
        text = self.colours(self.states(state)[0])
        k = len(text) // 4
        return " ".join(text[i * k : (i + 1) * k] for i in range(4))

    def parse_state(self, text: str) -> np.ndarray:
        """Read the colours written by :meth:`format_state` (spaces optional) into a state.

        Each piece is recognised by its colours; its orientation follows from where they are.

        Raises:
            StateError: a wrong length or letter, a piece whose colours no piece has, a piece
                seen twice, or a position no turn reaches (edge parity or flips), each named.
        """
        letters = "".join(str(text).split())
        per_face = 9 if self.tips else 6
        p = self.num_positions
        if len(letters) != p or set(letters) - set(COLOURS.values()):
            raise StateError(
                f"{self.name}: a state is {p} colour letters ({per_face} per face, faces "
                f"{' '.join(FACES)}; letters {''.join(COLOURS.values())}), got {text!r}"
            )
        home = self.colours(self.goal)
        slots = pieces(self.tips)
        kind = [stickers(self.tips)[slot[0]].kind for slot in slots]  # a tip and an axial share colours
        by_colours = {(k, tuple(home[i] for i in slot)): slot for k, slot in zip(kind, slots)}
        state = np.empty(p, dtype=np.uint8)
        seen: set[tuple[int, ...]] = set()
        for k, slot in zip(kind, slots):
            seen_here = tuple(letters[i] for i in slot)
            for turn in range(len(slot)):
                # the piece whose home colours, read from its own first sticker, are these rotated
                key = seen_here[turn:] + seen_here[:turn]
                piece = by_colours.get((k, key))
                if piece is not None:
                    break
            else:
                where = ",".join(str(i) for i in slot)
                raise StateError(
                    f"{self.name}: no piece has the colours {''.join(seen_here)!r} (positions {where}) in {text!r}"
                )
            if piece in seen:
                raise StateError(f"{self.name}: the piece {''.join(key)!r} appears twice in {text!r}")
            seen.add(piece)
            for j, i in enumerate(slot):
                state[i] = piece[(j - turn) % len(slot)]
        self._check_reachable(state, text)
        return state

    def _check_reachable(self, state: np.ndarray, text: str) -> None:
        edges = [slot for slot in pieces(self.tips) if len(slot) == 2]
        first = {slot[0]: k for k, slot in enumerate(edges)}
        perm = np.array([first.get(int(state[slot[0]]), first.get(int(state[slot[1]]), -1)) for slot in edges])
        flips = sum(int(state[slot[0]]) not in first for slot in edges)
        if int(permutation_parity(perm[None], check=False)[0]) != 0:
            raise StateError(f"{self.name}: the edges of {text!r} are an odd permutation; no turn sequence reaches it")
        if flips % 2:
            raise StateError(f"{self.name}: {text!r} has one edge flipped alone; no turn sequence reaches it")
