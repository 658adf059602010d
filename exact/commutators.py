"""A solver that always finishes on a permutation puzzle: pieces put in place one at a time by
3-cycles, each a short commutator conjugated by a few set-up moves (the method of people who
solve big cubes by hand, and of Santa 2023's winners). Solutions are long but come in seconds
once a table's library is built (a 33x33x33's took 2.5 minutes on 2 cores), for any move table
whose pieces (groups of positions that move together) are known.

1. **Pieces and orbits.** Each position belongs to a piece (``owner``); a move permutes the
   piece slots; slots a sequence of moves can carry one to another form an orbit.
2. **Base 3-cycles.** If the supports of ``X`` and ``Y`` share exactly one piece, ``X Y X' Y'``
   moves exactly three pieces. ``X`` runs over the moves, ``Y`` over the moves conjugated by one
   move (``s b s'``); the intersections are counted for all pairs at once as a matrix product.
   An orbit that none reaches tries the words' powers: a commutator whose other cycles die at a
   power that keeps its 3-cycle gives that power.
3. **Library.** Each orbit's 3-cycles are conjugated by set-up moves, breadth first, until every
   piece slot can be fed from every other (or a depth limit).
4. **Solve.** Orbits with no 3-cycle (a globe's equator, which only turns) are solved first by
   BFS on their own positions. An odd arrangement of an orbit of distinct pieces (which 3-cycles
   cannot mend) is made even by single moves found by elimination over GF(2). Then slot by slot,
   each slot is filled by the shortest 3-cycle that puts the right stickers there and leaves every
   filled slot right (identical pieces make that easy); where none does, two in a row.

This module knows no puzzle: :mod:`exact.santa` gives it Santa's tables and pieces.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from exact.errors import PuzzleoptError
from exact.logs import get_logger
from exact.ranking import permutation_parity

log = get_logger(__name__)

MAX_EXPONENT = 30
"""The largest power of one move in the words :func:`_powers` tries."""
MAX_CANDIDATES = 60_000
"""Commutators :func:`_powers` tries at most."""
MAX_POWER = 12
"""The highest power of a commutator tried for an orbit with no single-intersection 3-cycle."""
SETUP_DEPTH = 3
"""Set-up moves at most around a base 3-cycle."""
MAX_SETUP = 64
"""Set-up moves at most while some slot of an orbit cannot yet be fed from another."""
MAX_PER_ORBIT = 60_000
"""Macros at most per orbit from breadth-first set-ups (four times as many from powers)."""
MAX_RING = 100
"""The largest power of a move a set-up may hold."""
PER_ORBIT = 6
"""Base 3-cycles kept per orbit (the shortest first)."""
PROJECTION_STATES = 2_000_000
"""An orbit without 3-cycles is solved by BFS on its positions if it has at most this many states."""


class CommutatorError(PuzzleoptError):
    """The puzzle has an orbit that the method cannot solve (no 3-cycle and too many states)."""


@dataclass(frozen=True)
class Macro:
    """A sequence that moves few pieces: ``new[pos] = old[src]``, every other position kept.

    Attributes:
        word: Move rows, in order.
        pos: int64 ``(k,)``: the positions it changes.
        src: int64 ``(k,)``: where each gets its label from.
    """

    word: tuple[int, ...]
    pos: np.ndarray
    src: np.ndarray


@dataclass
class Pieces:
    """A move table's pieces, slots and orbits.

    Args:
        perms: int64 ``(M, P)``: every move (``new = state[perm]``).
        inverse: int64 ``(M,)``: the row undoing each row.
        owner: int64 ``(P,)``: the piece slot of each position, ``0 .. S-1``.

    Attributes:
        slot_perms: int64 ``(M, S)``: the slot each slot's piece comes from.
        orbit: int64 ``(S,)``: each slot's orbit.
        sticker_orbit: int64 ``(P,)``: each position's orbit (a piece that cannot turn over in
            its slot keeps each sticker in one orbit).
        quarter: The rows kept as base moves (one of each move and its inverse).
    """

    perms: np.ndarray
    inverse: np.ndarray
    owner: np.ndarray
    slot_perms: np.ndarray = field(init=False)
    orbit: np.ndarray = field(init=False)
    sticker_orbit: np.ndarray = field(init=False)
    quarter: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.perms = np.asarray(self.perms, dtype=np.int64)
        self.owner = np.asarray(self.owner, dtype=np.int64)
        s = int(self.owner.max()) + 1
        first = np.full(s, -1, dtype=np.int64)
        first[self.owner[::-1]] = np.arange(len(self.owner))[::-1]
        self.slot_perms = self.owner[self.perms[:, first]]
        if not (self.owner[self.perms] == self.slot_perms[:, self.owner]).all():
            raise PuzzleoptError("commutators: a move splits a piece (owner does not follow the moves)")
        self.orbit = _components(self.slot_perms)
        self.sticker_orbit = _components(self.perms)
        self.quarter = np.flatnonzero(np.asarray(self.inverse) >= np.arange(len(self.inverse)))

    @property
    def num_slots(self) -> int:
        return len(self.slot_perms[0])

    def positions(self, slots: np.ndarray) -> np.ndarray:
        """The positions of ``slots``."""
        return np.flatnonzero(np.isin(self.owner, slots))

    def compose(self, word: Sequence[int]) -> np.ndarray:
        """The permutation of ``word`` (rows in order)."""
        out = np.arange(self.perms.shape[1])
        for r in word:
            out = out[self.perms[r]]
        return out

    def undo(self, word: Sequence[int]) -> tuple[int, ...]:
        return tuple(int(self.inverse[r]) for r in reversed(word))


def _components(slot_perms: np.ndarray) -> np.ndarray:
    """The orbit of each slot under the slot permutations (union-find)."""
    parent = np.arange(slot_perms.shape[1])

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for perm in slot_perms:
        for a, b in zip(range(len(perm)), perm):
            ra, rb = root(a), root(int(b))
            if ra != rb:
                parent[ra] = rb
    roots = np.array([root(x) for x in range(len(parent))])
    return np.unique(roots, return_inverse=True)[1]


def _macro(pieces: Pieces, word: Sequence[int]) -> Macro:
    perm = pieces.compose(word)
    pos = np.flatnonzero(perm != np.arange(len(perm)))
    return Macro(tuple(int(w) for w in word), pos, perm[pos])


def _slots(pieces: Pieces, macro: Macro) -> np.ndarray:
    return np.unique(pieces.owner[macro.pos])


def base_cycles(pieces: Pieces, wanted: set[int] | None = None) -> dict[int, list[Macro]]:
    """Up to :data:`PER_ORBIT` 3-cycles per orbit (module docstring, step 2), by orbit."""
    q = pieces.quarter
    wanted = set(range(int(pieces.orbit.max()) + 1)) if wanted is None else set(wanted)
    found: dict[int, list[Macro]] = defaultdict(list)
    supp = pieces.slot_perms[q] != np.arange(pieces.num_slots)  # (Q, S)
    setups = [(-1, b) for b in q] + [(s, b) for s in q for b in q if s != b]
    for lo in range(0, len(setups), 2048):
        chunk = setups[lo : lo + 2048]
        ys = np.array([_conjugate_support(pieces, s, b) for s, b in chunk])  # (C, S)
        counts = supp.astype(np.float32) @ ys.T.astype(np.float32)  # (Q, C)
        for ai, ci in zip(*np.nonzero(counts == 1)):
            common = int(np.flatnonzero(supp[ai] & ys[ci])[0])
            orbit = int(pieces.orbit[common])
            if orbit not in wanted or len(found[orbit]) >= PER_ORBIT:
                continue
            s, b = chunk[ci]
            y = (b,) if s < 0 else (int(s), int(b), int(pieces.inverse[s]))
            word = (int(q[ai]), *y, int(pieces.inverse[q[ai]]), *pieces.undo(y))
            macro = _macro(pieces, word)
            if len(_slots(pieces, macro)) == 3:
                found[orbit].append(macro)
        if all(len(found[o]) >= PER_ORBIT for o in wanted):
            break
    missing = wanted - {o for o in found if found[o]}
    if missing:
        found.update(_powers(pieces, missing))
    return dict(found)


def _conjugate_support(pieces: Pieces, s: int, b: int) -> np.ndarray:
    """bool ``(S,)``: the slots ``s b s'`` moves (``s < 0``: ``b``)."""
    moved = pieces.slot_perms[b] != np.arange(pieces.num_slots)
    if s < 0:
        return moved
    out = np.zeros_like(moved)
    out[pieces.slot_perms[s][moved]] = True  # conjugated: s's sources of the moved slots
    return out


def _powers(pieces: Pieces, wanted: set[int]) -> dict[int, list[Macro]]:
    """3-cycles as powers of ``[x^a, s^b m^c s^-b]`` (rings: two long cycles whose intersection
    is two points), shortest words first, exponents up to :data:`MAX_EXPONENT`."""
    q = [int(x) for x in pieces.quarter]
    ident = np.arange(pieces.perms.shape[1])
    found: dict[int, list[Macro]] = defaultdict(list)
    power: dict[tuple[int, int], np.ndarray] = {}

    def word(x: int, k: int) -> tuple[int, ...]:
        return (x,) * k if k >= 0 else (int(pieces.inverse[x]),) * -k

    def perm(x: int, k: int) -> np.ndarray:
        if (x, k) not in power:
            power[(x, k)] = pieces.compose(word(x, k))
        return power[(x, k)]

    for evaluated, (x, a, s_, b, m, c) in enumerate(_exponent_words(q)):
        if evaluated > MAX_CANDIDATES or all(len(found[o]) >= PER_ORBIT for o in wanted):
            break
        xp = perm(x, a)
        yp = perm(s_, b)[perm(m, c)][perm(s_, -b)] if b else perm(m, c)
        comm = xp[yp][np.argsort(xp)][np.argsort(yp)]
        step = comm
        for e in range(1, MAX_POWER + 1):
            moved = np.flatnonzero(step != ident)
            if len(moved) == 0:
                break
            slots = np.unique(pieces.owner[moved])
            orbit = int(pieces.orbit[slots[0]])
            if len(slots) == 3 and orbit in wanted and len(found[orbit]) < PER_ORBIT:
                y = word(s_, b) + word(m, c) + word(s_, -b)
                once = word(x, a) + y + word(x, -a) + pieces.undo(y)
                found[orbit].append(Macro(once * e, moved, step[moved]))
                break
            step = step[comm]
    return dict(found)


def _exponent_words(q: list[int]):
    """``(x, a, s, b, m, c)`` for ``[x^a, s^b m^c s^-b]``, by growing ``|a| + 2|b| + |c|``
    (``b = 0``: ``[x^a, m^c]``, ``m != x``)."""
    for total in range(2, 2 * MAX_EXPONENT + 1):
        for b in (0, 1, -1, 2, -2):
            for a in range(1, total - 2 * abs(b)):
                c = total - 2 * abs(b) - a
                if c > MAX_EXPONENT or a > MAX_EXPONENT:
                    continue
                for x in q:
                    for m in q:
                        for s_ in [m] if b == 0 else [y for y in q if y != m]:
                            if b == 0 and m == x:
                                continue
                            for sa, sc in ((a, c), (a, -c), (-a, c), (-a, -c)):
                                yield x, sa, s_, b, m, sc


@dataclass
class Library:
    """Each slot's 3-cycles: ``by_target[t]`` holds macros that change slot ``t``, shortest first."""

    by_target: dict[int, list[Macro]] = field(default_factory=lambda: defaultdict(list))
    size: int = 0


def library(pieces: Pieces, bases: dict[int, list[Macro]], depth: int = SETUP_DEPTH) -> Library:
    """Conjugates of each orbit's base 3-cycles by set-up moves that act on the orbit, breadth
    first, each kept once (module docstring, step 3): at least ``depth`` set-up moves, more (up to
    :data:`MAX_SETUP`) until every slot of the orbit can be fed from every other one."""
    lib = Library()
    for orbit, base in bases.items():
        slots = np.flatnonzero(pieces.orbit == orbit)
        acts = np.flatnonzero((pieces.slot_perms[:, slots] != slots).any(axis=1))
        seen: set[bytes] = set()
        fed: set[tuple[int, int]] = set()
        wanted = _feedable(pieces, slots)
        layer = [((), m) for m in base if _keep(m, seen)]
        for d in range(MAX_SETUP + 1):
            for setup, m in layer:
                macro = Macro(setup + m.word + pieces.undo(setup), m.pos, m.src)
                fed.update(zip(m.pos.tolist(), m.src.tolist()))
                for t in np.unique(pieces.owner[m.pos]):
                    lib.by_target[int(t)].append(macro)
                lib.size += 1
            if d >= depth and (len(fed) >= wanted or len(seen) > MAX_PER_ORBIT):
                break
            nxt = []
            for setup, m in layer:
                for r in acts:
                    mu = pieces.perms[r]
                    moved = Macro(m.word, mu[m.pos], mu[m.src])
                    if _keep(moved, seen):
                        nxt.append(((int(r), *setup), moved))
            layer = nxt
        if len(fed) < wanted:
            _power_setups(pieces, base, acts, seen, fed, wanted, lib)
    for macros in lib.by_target.values():
        macros.sort(key=lambda m: len(m.word))
    return lib


def _power_setups(
    pieces: Pieces, base: list[Macro], acts: np.ndarray, seen: set[bytes], fed: set, wanted: int, lib: Library
) -> None:
    """More conjugates, by set-ups ``x^a y^b`` of two moves' powers: a long ring's 3-cycles must
    travel far along it, which breadth-first set-ups (every short word) cannot reach in time."""
    q = sorted({min(int(r), int(pieces.inverse[r])) for r in acts})
    powers: dict[tuple[int, int], tuple[tuple[int, ...], np.ndarray]] = {}
    for x in q:
        step = pieces.perms[x]
        perm, word = np.arange(len(step)), ()
        for a in range(1, MAX_RING + 1):
            perm, word = perm[step], (*word, x)
            if (perm == np.arange(len(perm))).all():
                break
            powers[(x, a)] = (word, perm)
    setups = [powers[k] for k in powers] + [
        (wx + wy, px[py]) for (x, _), (wx, px) in powers.items() for (y, _), (wy, py) in powers.items() if x != y
    ]
    setups.sort(key=lambda w: len(w[0]))
    for word, tau in setups:
        for m in base:
            moved = Macro(m.word, tau[m.pos], tau[m.src])
            if _keep(moved, seen):
                macro = Macro(word + m.word + pieces.undo(word), moved.pos, moved.src)
                fed.update(zip(moved.pos.tolist(), moved.src.tolist()))
                for t in np.unique(pieces.owner[moved.pos]):
                    lib.by_target[int(t)].append(macro)
                lib.size += 1
        if len(fed) >= wanted or len(seen) > 4 * MAX_PER_ORBIT:
            return


def _feedable(pieces: Pieces, slots: np.ndarray) -> int:
    """Pairs of positions ``(p, q)`` of the orbit's slots, in one sticker orbit and different
    slots: what the library must feed (``q``'s sticker to ``p``) for every orientation."""
    stickers = pieces.positions(slots)
    key = pieces.sticker_orbit[stickers] * pieces.num_slots + pieces.owner[stickers]
    per_slot = np.unique(key, return_counts=True)[1]
    per_orbit = np.unique(pieces.sticker_orbit[stickers], return_counts=True)[1]
    return int((per_orbit**2).sum() - (per_slot**2).sum())


def _keep(m: Macro, seen: set[bytes]) -> bool:
    order = np.argsort(m.pos)
    key = np.concatenate([m.pos[order], m.src[order]]).tobytes()
    if key in seen:
        return False
    seen.add(key)
    return True


def _parity(perm) -> int:
    """0 for an even permutation, 1 for an odd one."""
    return int(permutation_parity(np.asarray(perm, dtype=np.int64)[None])[0])


class Solver:
    """The commutator solver for one move table and its pieces (module docstring).

    Args:
        perms: int64 ``(M, P)``: every move.
        inverse: int64 ``(M,)``: the row undoing each row.
        owner: int64 ``(P,)``: the piece slot of each position.
        depth: Set-up moves at most around a base 3-cycle.
    """

    def __init__(self, perms: np.ndarray, inverse: np.ndarray, owner: np.ndarray, depth: int = SETUP_DEPTH) -> None:
        self.pieces = Pieces(perms, inverse, owner)
        self.depth = depth
        self._library: Library | None = None
        self.bare: list[int] = []

    def prepare(self) -> Library:
        """Find the base 3-cycles and build the library (the set-up, once per table)."""
        if self._library is None:
            bases = base_cycles(self.pieces)
            self.bare = [o for o in range(int(self.pieces.orbit.max()) + 1) if not bases.get(o)]
            self._library = library(self.pieces, bases, self.depth)
            log.info("commutators: %d macros, orbits without a 3-cycle: %s", self._library.size, self.bare)
        return self._library

    def solve(self, start: np.ndarray, goal: np.ndarray) -> list[int]:
        """Rows taking ``start`` to ``goal`` exactly.

        Look-alike pieces are first placed wherever the shortest 3-cycle puts them; where that
        leaves the end of an orbit with two pieces swapped, the solve starts again with each
        look-alike piece given its own goal slot, the orbit made even (:meth:`_distinguish`).

        Raises:
            CommutatorError: an orbit the method cannot solve, or a slot no macro could fill.
        """
        try:
            return self._attempt(np.asarray(start), np.asarray(goal), distinguish=False)
        except _Stuck:
            pass
        try:
            return self._attempt(np.asarray(start), np.asarray(goal), distinguish=True)
        except _Stuck as stuck:
            raise CommutatorError(f"commutators: no 3-cycle fills slot {stuck.slot} (orbit {stuck.orbit})") from None

    def _attempt(self, start: np.ndarray, goal: np.ndarray, *, distinguish: bool) -> list[int]:
        lib = self.prepare()
        p = self.pieces
        orbits, needed = self._constraints(start, goal)
        rows = self._bare_and_parity(start, goal, orbits, needed)
        state = start[p.compose(rows)]
        if distinguish:
            state, goal = self._distinguish(state, goal)
        fixed = np.zeros(p.num_slots, bool)
        for o in self.bare:
            fixed[p.orbit == o] = True
        where = [np.flatnonzero(p.owner == s) for s in range(p.num_slots)]
        for t in np.argsort(p.orbit, kind="stable"):
            if fixed[t]:
                continue
            if not (state[where[t]] == goal[where[t]]).all():
                macros = self._fill(state, goal, int(t), fixed, lib)
                if macros is None:
                    raise _Stuck(int(t), int(p.orbit[t]))
                for m in macros:
                    state = state.copy()
                    state[m.pos] = state[m.src]
                    rows += m.word
            fixed[t] = True
        if not (state == goal).all():
            raise CommutatorError("commutators: the slots were filled but the state is not the goal")
        return rows

    def _effect(self, move: int, orbit: int) -> int:
        """1 if ``move`` arranges the slots of ``orbit`` oddly."""
        slots = np.flatnonzero(self.pieces.orbit == orbit)
        return _parity(np.searchsorted(slots, self.pieces.slot_perms[move][slots]))

    def _ok(self, state, goal, ms: Sequence[Macro], t: int, fixed) -> bool:
        """Whether ``ms`` applied to ``state`` fill slot ``t`` and keep every filled slot right."""
        new = state.copy()
        for m in ms:
            new[m.pos] = new[m.src]
        touched = np.concatenate([m.pos for m in ms] + [np.flatnonzero(self.pieces.owner == t)])
        owners = self.pieces.owner[touched]
        keep = touched[fixed[owners] | (owners == t)]
        return bool((new[keep] == goal[keep]).all())

    def _fill(self, state, goal, t: int, fixed, lib: Library) -> list[Macro] | None:
        """Macros that fill slot ``t`` and keep every filled slot right: one; else a chain that
        carries a fitting piece to ``t`` through unfilled slots only; else one that disturbs a
        filled slot and a second that mends it."""
        for m in lib.by_target.get(t, []):
            if self._ok(state, goal, [m], t, fixed):
                return [m]
        chain = self._carry(state, goal, t, fixed, lib)
        if chain is not None:
            return chain
        conjugated = self._set_up(state, goal, t, fixed, lib)
        if conjugated is not None:
            return [conjugated]
        owner = self.pieces.owner
        for m1 in lib.by_target.get(t, []):
            touched = np.unique(owner[m1.pos])
            broken = [int(u) for u in touched if fixed[u]]
            if len(broken) != 1:
                continue
            for m2 in lib.by_target.get(broken[0], []):
                if self._ok(state, goal, [m1, m2], t, fixed):
                    return [m1, m2]
        return None

    def _set_up(self, state, goal, t: int, fixed, lib: Library) -> Macro | None:
        """A macro of ``t`` conjugated by one or two moves that keep ``t`` and the orbit's unfilled
        slots where they are, so that its third slot becomes another one (the end of an orbit:
        two pieces swapped, mended with a filled slot that holds a twin of one of them)."""
        p = self.pieces
        orbit = p.orbit[t]
        keep = p.positions(np.flatnonzero((p.orbit == orbit) & ~fixed))
        acts = [
            int(r)
            for r in np.flatnonzero((p.slot_perms[:, p.orbit == orbit] != np.flatnonzero(p.orbit == orbit)).any(axis=1))
        ]
        words = [(r,) for r in acts] + [(r, q) for r in acts for q in acts if p.inverse[r] != q]
        for word in words:
            tau = p.compose(word)
            if not (tau[keep] == keep).all():
                continue
            for m in lib.by_target.get(t, []):
                moved = Macro(word + m.word + p.undo(word), tau[m.pos], tau[m.src])
                if self._ok(state, goal, [moved], t, fixed):
                    return moved
        return None

    def _carry(self, state, goal, t: int, fixed, lib: Library) -> list[Macro] | None:
        """A chain of macros touching unfilled slots only that brings a piece showing ``t``'s
        goal labels to ``t``: breadth first over the positions one sticker of it passes through,
        from ``t``'s first position backwards (so every orientation is tried)."""
        owner = self.pieces.owner
        where = np.flatnonzero(owner == t)
        want = sorted(goal[where].tolist())
        via: dict[int, tuple[Macro, int] | None] = {int(where[0]): None}  # position -> (macro, where it takes it)
        frontier = [int(where[0])]
        while frontier:
            nxt = []
            for b in frontier:
                for m in lib.by_target.get(int(owner[b]), []):
                    if fixed[owner[m.pos]].any():
                        continue
                    hit = np.flatnonzero(m.pos == b)
                    if len(hit) == 0:
                        continue
                    a = int(m.src[hit[0]])
                    if a in via:
                        continue
                    via[a] = (m, b)
                    nxt.append(a)
                    if state[a] == goal[where[0]] and sorted(state[owner == owner[a]].tolist()) == want:
                        chain = []
                        at = a
                        while via[at] is not None:
                            m_, at = via[at]  # type: ignore[misc]
                            chain.append(m_)
                        if self._ok(state, goal, chain, t, fixed):
                            return chain
            frontier = nxt
        return None

    def _distinguish(self, state: np.ndarray, goal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``state`` and ``goal`` relabelled so that look-alike pieces differ: the ``i``-th of a
        kind where it is now is the ``i``-th of that kind in the goal, two of them exchanged where
        that leaves the orbit odd. 3-cycles then finish every orbit: the end of an orbit never
        holds two pieces swapped (which look-alike pieces elsewhere could only mend with two
        more 3-cycles)."""
        p = self.pieces
        width = int(max(np.bincount(p.orbit).max(), 1))
        state = state.astype(np.int64) * width
        goal = goal.astype(np.int64) * width
        for o in range(int(p.orbit.max()) + 1):
            if o in self.bare:
                continue
            slots = np.flatnonzero(p.orbit == o)
            want = [self._identity(goal // width, s_) for s_ in slots]
            if len(set(want)) == len(want):
                continue
            have = [self._identity(state // width, s_) for s_ in slots]
            homes: dict[tuple, list[int]] = defaultdict(list)
            for i, w in enumerate(want):
                homes[w].append(i)
            taken = {w: list(v) for w, v in homes.items()}
            target = [taken[h].pop(0) for h in have]  # slot i's piece goes to slot target[i]
            if _parity(np.array(target)):
                a, b = next(v[:2] for v in homes.values() if len(v) > 1)  # two look-alike goal slots
                ia, ib = target.index(a), target.index(b)
                target[ia], target[ib] = b, a
            twin = {}
            for v in homes.values():
                for k, i in enumerate(v):
                    twin[i] = k
            for i, s_ in enumerate(slots):
                where = p.owner == s_
                goal[where] += twin[i]
                state[where] += twin[target[i]]
        return state, goal

    def _identity(self, state: np.ndarray, slot: int) -> tuple:
        """What tells the piece in ``slot`` apart: its labels, each with its sticker's orbit (a
        big cube's two edge wings of one colour pair differ so: neither turns over)."""
        where = np.flatnonzero(self.pieces.owner == slot)
        return tuple(sorted(zip(self.pieces.sticker_orbit[where].tolist(), state[where].tolist())))

    def _constraints(self, state, goal) -> tuple[list[int], list[int]]:
        """The orbits of distinct pieces, whose parity the single moves must set, and the parity
        of each one's arrangement."""
        p = self.pieces
        orbits, needed = [], []
        for o in range(int(p.orbit.max()) + 1):
            if o in self.bare:
                continue
            slots = np.flatnonzero(p.orbit == o)
            want = [self._identity(goal, s) for s in slots]
            if len(set(want)) == len(want):
                have = [self._identity(state, s) for s in slots]
                home = {w: i for i, w in enumerate(want)}
                if set(have) != set(want):
                    raise CommutatorError(f"commutators: orbit {o} holds pieces its goal does not")
                orbits.append(o)
                needed.append(_parity(np.array([home[h] for h in have])))
        return orbits, needed

    def _bare_and_parity(self, state, goal, orbits: list[int], needed: list[int]) -> list[int]:
        """Moves that solve the orbits without 3-cycles and set the parities ``needed``: a BFS word
        on the bare orbits for each parity its moves can leave (few: those moves are few), then
        single other moves by elimination over GF(2)."""
        p = self.pieces
        bare = np.isin(p.orbit, self.bare)
        touches = (p.slot_perms[:, bare] != np.flatnonzero(bare)).any(axis=1)
        others = [int(m) for m in p.quarter if not touches[m]]
        effect = np.array([[self._effect(m, o) for o in orbits] for m in range(len(p.perms))], dtype=np.uint8)
        effect = effect.reshape(len(p.perms), len(orbits))
        target = np.array(needed, dtype=np.uint8)
        words = self._bare_words(state, goal, touches) if self.bare else {(): []}
        for word in sorted(words.values(), key=len):
            left = (target + effect[word].sum(axis=0)) % 2 if word else target
            if not left.any():
                return word
            choice = _gf2_solve(effect[others].T, left)
            if choice is not None:
                return word + [others[i] for i in np.flatnonzero(choice)]
        raise CommutatorError("commutators: no set of moves mends the parity of the distinct pieces")

    def _bare_words(self, state, goal, touches: np.ndarray) -> dict[tuple[int, ...], list[int]]:
        """For each set of the bare orbits' moves used an odd number of times, a shortest word that
        solves the bare orbits (BFS with a pair of positions per move that the move swaps)."""
        from exact.bidirectional import HashSide, search

        p = self.pieces
        where = p.positions(np.flatnonzero(np.isin(p.orbit, self.bare)))
        acts = np.flatnonzero(touches)
        base = sorted({min(int(m), int(p.inverse[m])) for m in acts})
        if len(where) > 64 or 2 ** len(base) > 64:
            raise CommutatorError("commutators: the orbits without a 3-cycle are too large to search")
        local = {int(x): i for i, x in enumerate(where)}
        n = len(where)
        perms = []
        for r in acts:
            perm = [local[int(x)] for x in p.perms[r][where]] + list(range(n, n + 2 * len(base)))
            k = base.index(min(int(r), int(p.inverse[r])))
            perm[n + 2 * k], perm[n + 2 * k + 1] = n + 2 * k + 1, n + 2 * k
            perms.append(perm)
        out: dict[tuple[int, ...], list[int]] = {}
        undo = np.array([list(acts).index(p.inverse[r]) for r in acts])  # a move's inverse acts where it does
        start = np.concatenate([state[where], np.tile([0, 1], len(base))])
        for odd in np.ndindex(*(2,) * len(base)):
            pairs = np.concatenate([[1, 0] if o else [0, 1] for o in odd]) if base else np.zeros(0, np.int64)
            ends = np.concatenate([goal[where], pairs])
            met = search(HashSide(np.array(perms), start), HashSide(np.array(perms), ends, undo),
                         max_stored=PROJECTION_STATES)  # fmt: skip
            if met.rows is not None:
                out[tuple(odd)] = [int(acts[r]) for r in met.rows]
        if not out:
            raise CommutatorError("commutators: the orbits without a 3-cycle cannot reach their goal")
        return out


class _Stuck(Exception):
    """A slot no macro fills."""

    def __init__(self, slot: int, orbit: int) -> None:
        super().__init__(slot, orbit)
        self.slot, self.orbit = slot, orbit


def commute_matrix(perms: np.ndarray) -> np.ndarray:
    """bool ``(M, M)``: which moves commute (a row at a time: a big cube's table does not fit
    ``M x M x P`` in memory)."""
    perms = np.asarray(perms)
    out = np.zeros((len(perms), len(perms)), dtype=bool)
    for a in range(len(perms)):
        out[a] = (perms[a][perms] == perms[:, perms[a]]).all(axis=1)
    return out


def shorten(rows: Sequence[int], perms: np.ndarray, inverse: np.ndarray, commutes: np.ndarray) -> list[int]:
    """An equivalent and never longer sequence: each run of moves that commute with one another
    gathered into powers, a power taken the shorter way round (``l`` 60 times on a ring of 100
    is ``-l`` 40 times), powers that cancel dropped.

    Args:
        rows: Move rows, in order.
        perms: int64 ``(M, P)``: the moves.
        inverse: int64 ``(M,)``: the row undoing each row.
        commutes: bool ``(M, M)`` (:func:`commute_matrix`).
    """
    inverse = np.asarray(inverse)
    base = np.minimum(np.arange(len(inverse)), inverse)
    orders: dict[int, int] = {}

    def order(b: int) -> int:
        if b not in orders:
            ident, step, n = np.arange(perms.shape[1]), perms[b], 1
            while not (step == ident).all():
                step, n = step[perms[b]], n + 1
            orders[b] = n
        return orders[b]

    blocks: list[dict[int, int]] = []
    for r in rows:
        b = int(base[r])
        sign = 1 if r == b else -1
        if not blocks or not all(commutes[b, other] for other in blocks[-1]):
            blocks.append({})
        block = blocks[-1]
        block[b] = (block.get(b, 0) + sign) % order(b)
        if block[b] == 0:
            del block[b]
            if not block:
                blocks.pop()
    out: list[int] = []
    for block in blocks:
        for b, e in block.items():
            n = order(b)
            out += [b] * e if e <= n - e else [int(inverse[b])] * (n - e)
    return out


def _gf2_solve(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """A 0/1 ``x`` with ``a x = b`` over GF(2), or ``None``."""
    a = a.astype(np.uint8).copy()
    b = b.astype(np.uint8).copy()
    rows, cols = a.shape
    pivots = []
    r = 0
    for c in range(cols):
        hit = np.flatnonzero(a[r:, c]) + r if r < rows else []
        if len(hit) == 0:
            continue
        k = hit[0]
        a[[r, k]], b[[r, k]] = a[[k, r]], b[[k, r]]
        for i in range(rows):
            if i != r and a[i, c]:
                a[i] ^= a[r]
                b[i] ^= b[r]
        pivots.append(c)
        r += 1
        if r == rows:
            break
    if b[r:].any():
        return None
    x = np.zeros(cols, dtype=np.uint8)
    for i, c in enumerate(pivots):
        x[c] = b[i]
    return x


__all__ = [
    "CommutatorError",
    "Library",
    "Macro",
    "Pieces",
    "Solver",
    "base_cycles",
    "commute_matrix",
    "library",
    "shorten",
]
