"""A :class:`~exact.definitions.model.Definition` as a move table over sticker positions: the
one generator every file-defined puzzle goes through.

Each slot of a set with ``k`` orientations becomes ``k`` positions (its stickers), so a move is a
permutation of positions. Moves are passive, as ksolve and twsearch read them: slot ``i`` takes
the piece of slot ``perm[i]``, turned by the twist the move gives that piece (``twist[perm[i]]``:
ksolve indexes a move's twists by the piece, a state's by the slot), so sticker ``j`` of slot
``i`` gets sticker ``(j - twist[perm[i]]) mod k`` of slot ``perm[i]``. Checked by the distance
counts twsearch published (tests/test_definitions.py). Each
base move's powers are derived (``F``, ``F2``, ``F'`` for a move of order 4; ``F2'`` for the
third power of a move of order 5), and under the ``powers`` metric each of them is one move, as
twsearch counts; under the ``listed`` metric (GAP files, Santa 2023) a move and its inverse are
(``F``, ``F'``; Santa's ``f0``, ``-f0``), and a move that is its own inverse is one row whose
inverse's name reads as it. A state is the label of each sticker: identical pieces (a repeated id in the
solved state) share labels.
"""

from __future__ import annotations

import numpy as np

from exact.definitions.model import Definition, DefinitionError, SetState
from exact.movetable import MoveTable

MAX_ORDER = 1000
"""A move whose order is larger is refused (a file error far more likely than such a puzzle)."""


def offsets(definition: Definition) -> dict[str, int]:
    """The first position of each set (its slots' stickers follow in slot order)."""
    out, at = {}, 0
    for s in definition.sets:
        out[s.name] = at
        at += s.size * s.orientations
    return out


def num_positions(definition: Definition) -> int:
    """Every set's slots times its orientations."""
    return sum(s.size * s.orientations for s in definition.sets)


def base_permutation(definition: Definition, move: dict[str, SetState]) -> np.ndarray:
    """int64 ``(P,)``: the move as a permutation of positions (``new = state[perm]``)."""
    perm = np.arange(num_positions(definition), dtype=np.int64)
    first = offsets(definition)
    for s in definition.sets:
        if s.name not in move:
            continue
        k, base, row = s.orientations, first[s.name], move[s.name]
        for i, src in enumerate(row.pieces):
            twist = row.twists[src - 1]  # a move's twists are by piece, where it comes from (ksolve's rule)
            for j in range(k):
                perm[base + i * k + j] = base + (src - 1) * k + (j - twist) % k
    return perm


def power_names(name: str, order: int) -> list[str]:
    """The names of a move's powers 1 .. order - 1: ``F``, ``F2``, ``F'`` (order 4)."""
    out = []
    for t in range(1, order):
        back = order - t
        if t <= back:
            out.append(name if t == 1 else f"{name}{t}")
        else:
            out.append(f"{name}'" if back == 1 else f"{name}{back}'")
    return out


def powers(perm: np.ndarray, name: str, source: str) -> list[np.ndarray]:
    """``perm``'s powers 1 .. order - 1.

    Raises:
        DefinitionError: a move that does nothing, or of order above :data:`MAX_ORDER`.
    """
    identity = np.arange(len(perm))
    out = [perm]
    while not np.array_equal(out[-1], identity):
        if len(out) > MAX_ORDER:
            raise DefinitionError(f"{source}: move {name!r} has order above {MAX_ORDER}; check its rows")
        out.append(out[-1][perm])
    if len(out) == 1:
        raise DefinitionError(f"{source}: move {name!r} moves nothing; drop it")
    return out[:-1]


def move_table(definition: Definition) -> MoveTable:
    """The moves of ``definition`` and their powers over its sticker positions.

    Raises:
        DefinitionError: a move that does nothing or two names for one power.
    """
    names: list[str] = []
    perms: list[np.ndarray] = []
    aliases: dict[str, tuple[int, ...]] = {}
    for name, move in definition.moves.items():
        base = base_permutation(definition, move)
        ps = powers(base, name, definition.source)
        if definition.metric == "listed":  # the move and its inverse, one move each
            if len(ps) == 1:  # its own inverse: one row, and the inverse's name reads as it
                aliases[definition.inverse.format(name)] = (len(names),)
            ps = ps[:1] + ps[-1:] if len(ps) > 1 else ps
            names += [name, definition.inverse.format(name)][: len(ps)]
        else:
            names += power_names(name, len(ps) + 1)
        perms += ps
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        raise DefinitionError(f"{definition.source}: the move name {twice!r} is given to two moves; rename one")
    return MoveTable(
        names=tuple(names), perms=np.stack(perms), aliases=aliases,
        description=f"{definition.name} ({definition.metric} metric)",
        metadata={"puzzle": definition.name, "definition": definition.source, "metric": definition.metric},
    )  # fmt: skip


def labels(definition: Definition, state: dict[str, SetState] | None = None) -> tuple[np.ndarray, int]:
    """uint8 ``(P,)``: the label of each sticker of ``state`` (default: the solved state), and the
    number of labels. A sticker's label names its set, its piece id and which of the piece's
    stickers it is (numbered as they first appear in the solved state), so identical pieces
    share labels.

    Raises:
        DefinitionError: more than 256 labels (a state is one byte per position), or a state
            with a sticker the solved state does not have.
    """
    names: dict[tuple[str, int, int], int] = {}
    for _, key in _stickers(definition, definition.solved):
        names.setdefault(key, len(names))
    if len(names) > 256:
        raise DefinitionError(f"{definition.source}: {len(names)} distinct stickers; a state holds at most 256")
    out = np.zeros(num_positions(definition), dtype=np.uint8)
    for position, key in _stickers(definition, definition.solved if state is None else state):
        if key not in names:
            raise DefinitionError(f"{definition.source}: set {key[0]} has piece {key[1]}, which is not in its solved "
                                  "state")  # fmt: skip
        out[position] = names[key]
    return out, len(names)


def _stickers(definition: Definition, state: dict[str, SetState]):
    """``(position, (set, piece, sticker))`` for every sticker of ``state``."""
    first = offsets(definition)
    for s in definition.sets:
        k, row = s.orientations, state[s.name]
        for i, (piece, twist) in enumerate(zip(row.pieces, row.twists)):
            for j in range(k):
                yield first[s.name] + i * k + j, (s.name, piece, (j - twist) % k)


__all__ = ["MAX_ORDER", "base_permutation", "labels", "move_table", "num_positions", "offsets", "power_names", "powers"]
