"""Which partial goals a start can reach: the invariants of full states, restricted to a mask.

A full state is checked by the puzzle's own rules (:meth:`~exact.puzzle.Puzzle.check_state`: a
flipped edge, a twisted corner, an odd permutation are "not a state"). A mask that names only
some positions escaped those rules: all twelve edges named with one flipped, or all corners with
one twisted, were searched to a horizon ("no solution within 6 moves") instead of being called
unsolvable. :func:`unreachable` closes that gap with what the move table itself says, for any
puzzle that declares its pieces (:meth:`~exact.puzzle.Puzzle.pieces`):

* **labels per orbit.** A move only carries labels between positions of one orbit (the
  positions a sequence of moves can carry a label between), so each label the mask asks for at
  ``n`` positions of an orbit must be on at least ``n`` of them in the start. A centre that no
  face turn moves is its own orbit: a mask asking it for another colour is caught here;
* **pieces.** For each orbit of piece slots, every arrangement of its pieces (each in each of
  its turns) that shows what the mask allows is enumerated by a small dynamic program over the
  pieces used, keeping per arrangement only two numbers: the sum of the pieces' turns (mod the
  stickers a piece has) and the parity of their permutation. Colours that no piece has, or one
  piece asked for in two slots, leave no arrangement;
* **invariants.** Read from the moves, not from the puzzle's name: an orbit's turn sum is kept
  where every move's turns over that orbit add to 0, and a set of orbits' summed permutation
  parity where every move permutes them evenly in all (a 3x3's corners and edges under face
  turns, not under slice turns). A mask is unreachable when no choice of arrangements matches
  the start's kept sums and parities.

The enumeration is exact for orbits of at most :data:`MAX_PIECES` pieces (a 3x3's 12 edges,
the 2x2x2's 8 corners); larger orbits (the wings of a 4x4) are checked by labels only.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from exact.puzzle import Puzzle

MAX_PIECES = 14
"""The most pieces an orbit may have for its arrangements to be enumerated (2**n subsets)."""


@dataclass(frozen=True)
class Orbits:
    """The piece structure a move table keeps (:func:`piece_orbits`).

    Attributes:
        slots: For each orbit, its slots: tuples of positions in the pieces' turning order.
        twist_kept: For each orbit, whether the sum of its pieces' turns is kept by every move.
        parity_kept: The sets of orbits (indices) whose permutation parities, summed, every move keeps.
    """

    slots: tuple[tuple[tuple[int, ...], ...], ...]
    twist_kept: tuple[bool, ...]
    parity_kept: tuple[tuple[int, ...], ...]


def position_orbits(perms: np.ndarray) -> np.ndarray:
    """int64 ``(P,)``: the orbit of each position under the moves ``perms`` ``(M, P)`` (the
    least position of its orbit)."""
    p = perms.shape[1]
    parent = np.arange(p)

    def root(q: int) -> int:
        while parent[q] != q:
            parent[q] = parent[parent[q]]
            q = int(parent[q])
        return q

    for row in np.asarray(perms):
        for q, r in enumerate(row.tolist()):
            a, b = root(q), root(r)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return np.array([root(q) for q in range(p)], dtype=np.int64)


def piece_orbits(puzzle: Puzzle) -> Orbits | None:
    """The orbits of ``puzzle``'s piece slots and the invariants its moves keep, or ``None``
    where it declares no pieces or a move does not carry every slot onto a slot, turned
    (cached per move table)."""
    pieces = tuple(tuple(int(q) for q in p) for p in puzzle.pieces())
    if not pieces:
        return None
    perms = np.ascontiguousarray(puzzle.table.perms, dtype=np.int64)
    return _orbits(pieces, perms.tobytes(), perms.shape)


@lru_cache(maxsize=16)
def _orbits(pieces: tuple[tuple[int, ...], ...], perms_bytes: bytes, shape: tuple[int, int]) -> Orbits | None:
    perms = np.frombuffer(perms_bytes, dtype=np.int64).reshape(shape)
    where = {frozenset(s): i for i, s in enumerate(pieces)}
    moves = []  # per move: (source slot of each slot, the turn it adds)
    for row in perms:
        src, turn = [], []
        for slot in pieces:
            came = tuple(int(row[q]) for q in slot)
            s = where.get(frozenset(came))
            if s is None:
                return None
            r = _rotation(pieces[s], came)
            if r is None:
                return None
            src.append(s)
            turn.append(r)
        moves.append((src, turn))
    groups = _slot_groups(len(pieces), [m[0] for m in moves])
    slots = tuple(tuple(pieces[i] for i in g) for g in groups)
    twist, parities = [], []
    for g in groups:
        k = len(pieces[g[0]])
        twist.append(all(sum(turn[i] for i in g) % k == 0 for _, turn in moves))
    per_move = [[_parity([g.index(src[i]) for i in g]) for g in groups] for src, _ in moves]
    for size in range(1, len(groups) + 1):
        for subset in itertools.combinations(range(len(groups)), size):
            if all(sum(par[i] for i in subset) % 2 == 0 for par in per_move):
                parities.append(subset)
    return Orbits(slots, tuple(twist), tuple(parities))


def _rotation(slot: tuple[int, ...], came: tuple[int, ...]) -> int | None:
    """``r`` with ``came[j] == slot[(j + r) % k]`` for every ``j``, or ``None`` (a reflection)."""
    k = len(slot)
    for r in range(k):
        if all(came[j] == slot[(j + r) % k] for j in range(k)):
            return r
    return None


def _slot_groups(n: int, sources: list[list[int]]) -> list[list[int]]:
    """The orbits of ``n`` slots under the slot maps ``sources``, each sorted."""
    seen = [False] * n
    groups = []
    for i in range(n):
        if seen[i]:
            continue
        group, todo = [], [i]
        seen[i] = True
        while todo:
            j = todo.pop()
            group.append(j)
            for src in sources:
                if not seen[src[j]]:
                    seen[src[j]] = True
                    todo.append(src[j])
        groups.append(sorted(group))
    return groups


def _parity(perm: list[int]) -> int:
    """The parity of a permutation of ``0..n-1``, by its cycles."""
    seen, odd = [False] * len(perm), 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i] = True
            i = perm[i]
            length += 1
        odd += max(length - 1, 0)
    return odd % 2


def labels_unreachable(puzzle: Puzzle, allowed: np.ndarray, start: np.ndarray) -> str | None:
    """Why the mask ``allowed`` ``(P, K)`` asks for more of a label in an orbit of positions than
    ``start`` ``(P,)`` has there, or ``None``."""
    orbit = position_orbits(puzzle.table.perms)
    single = allowed.sum(axis=1) == 1
    asked = allowed.argmax(axis=1)
    for root in np.unique(orbit[single]):
        here = orbit == root
        need = np.bincount(asked[here & single], minlength=allowed.shape[1])
        have = np.bincount(np.asarray(start, dtype=np.int64)[here], minlength=allowed.shape[1])
        if (need > have).any():
            k = int(np.flatnonzero(need > have)[0])
            where = np.flatnonzero(here).tolist()
            orbit_text = f"positions {where}"
            if len(where) > 8:
                orbit_text = f"the {len(where)} positions of position {where[0]}'s orbit"
            return (
                f"it asks for {label_name(puzzle, k)} at {need[k]} of {orbit_text}, which moves only permute "
                f"among themselves, and the start has it there {have[k]} times"
            )
    return None


def label_name(puzzle: Puzzle, k: int) -> str:
    """Label ``k`` as a user reads it: the character that shows it where the puzzle's text has
    one character a position (a cube's colour letter), else its number."""
    goal = np.asarray(puzzle.goal)
    text = puzzle.format_state(goal)
    at = np.flatnonzero(goal == k)
    if len(text) == len(goal) and at.size:
        return f"label {k} ({text[at[0]]!r})"
    return f"label {k}"


def unreachable(puzzle: Puzzle, allowed: np.ndarray, start: np.ndarray) -> str | None:
    """Why no sequence of moves brings the checked ``start`` ``(P,)`` to a state the mask
    ``allowed`` ``(P, K)`` bool accepts, or ``None`` where these invariants rule nothing out
    (see the module docstring)."""
    allowed = np.asarray(allowed, dtype=bool)
    why = labels_unreachable(puzzle, allowed, start)
    if why is not None:
        return why
    orbits = piece_orbits(puzzle)
    homes = None if orbits is None else puzzle.distinct_labels(np.asarray(start))
    if orbits is None or homes is None:
        return None
    colour = np.asarray(puzzle.goal, dtype=np.int64)
    have, can = [], []
    for slots in orbits.slots:
        if len(slots) > MAX_PIECES:
            return None
        have.append(_placed(slots, np.asarray(homes, dtype=np.int64)))
        can.append(_arrangements(slots, allowed, colour))
        if not can[-1]:
            return (
                f"no arrangement of the {len(slots)} pieces of {len(slots[0])} stickers shows the colours it asks "
                f"for at {sorted(q for s in slots for q in s if not allowed[q].all())} (colours no piece has, or "
                "one piece in two places)"
            )
    return _kept_invariant_broken(orbits, have, can)


def _placed(slots: tuple[tuple[int, ...], ...], homes: np.ndarray) -> tuple[int, int]:
    """The start's (turn sum, permutation parity) over one orbit of slots, from its stickers' homes."""
    index = {frozenset(s): i for i, s in enumerate(slots)}
    perm, twist = [], 0
    for slot in slots:
        came = tuple(int(homes[q]) for q in slot)
        piece = index[frozenset(came)]
        twist += _rotation(slots[piece], came) or 0
        perm.append(piece)
    return twist % len(slots[0]), _parity(perm)


def _arrangements(slots: tuple[tuple[int, ...], ...], allowed: np.ndarray, colour: np.ndarray) -> set[tuple[int, int]]:
    """Every (turn sum mod k, permutation parity) of an arrangement of the orbit's pieces that
    the mask allows: a dynamic program over the set of pieces placed in the first slots."""
    n, k = len(slots), len(slots[0])
    if allowed[[q for s in slots for q in s]].all():  # nothing asked here: every sum and parity occurs
        return {(t, par) for t in range(k) for par in range(2 if n > 1 else 1)}
    fits = [
        [(p, r) for p in range(n) for r in range(k)
         if all(allowed[slot[j], colour[slots[p][(j + r) % k]]] for j in range(k))]
        for slot in slots
    ]  # fmt: skip
    reach: dict[int, set[tuple[int, int]]] = {0: {(0, 0)}}
    for i in range(n):
        nxt: dict[int, set[tuple[int, int]]] = {}
        for used, values in reach.items():
            for p, r in fits[i]:
                if used >> p & 1:
                    continue
                above = bin(used >> (p + 1)).count("1")  # inversions the piece adds: placed pieces above it
                for t, par in values:
                    nxt.setdefault(used | 1 << p, set()).add(((t + r) % k, (par + above) % 2))
        reach = nxt
    return set().union(*reach.values()) if reach else set()


def _kept_invariant_broken(orbits: Orbits, have: list[tuple[int, int]], can: list[set[tuple[int, int]]]) -> str | None:
    """Why no choice of one arrangement per orbit keeps the start's kept sums and parities."""
    twisted = [i for i, kept in enumerate(orbits.twist_kept) if kept and all(t != have[i][0] for t, _ in can[i])]
    if twisted:
        i = twisted[0]
        k = len(orbits.slots[i][0])
        sums = sorted({t for t, _ in can[i]})
        return (
            f"the turns of its {len(orbits.slots[i])} pieces of {k} stickers add up to {sums} (mod {k}), every "
            f"move keeps that sum, and the start's is {have[i][0]} (a piece turned in place: a twisted corner, a "
            "flipped edge)"
        )
    options = [[v for v in can[i] if not orbits.twist_kept[i] or v[0] == have[i][0]] for i in range(len(can))]
    for choice in itertools.product(*options):
        if all(sum(choice[i][1] - have[i][1] for i in s) % 2 == 0 for s in orbits.parity_kept):
            return None
    return (
        "every state it accepts permutes the pieces with another parity than the start's, and every move keeps "
        "that parity (two pieces swapped)"
    )
