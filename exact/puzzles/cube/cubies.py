"""Corners and middle edges: reading and writing them on a facelet state.

Slots follow the kociemba package: corners URF UFL ULB UBR DFR DLF DBL DRB, edges UR UF UL UB
DR DF DL DB FR FL BL BR. A slot lists its facelets starting with the reference facelet (the U or D
one; for FR, FL, BL, BR edges the F or B one), corners then clockwise seen from outside.

The orientation of a piece in a slot is the position (0, 1, 2 for corners, 0, 1 for edges) in the
slot of the piece's own reference colour. Every cube reachable by turns has corner twists summing
to 0 mod 3, edge flips summing to 0 mod 2, and the permutation parity of corners plus that of
middle edges equal to that of the centres (equal parities when the centres are in place).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from exact.errors import FaceletError, PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.geometry import FACES, stickers

CORNER_NAMES = ("URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB")
EDGE_NAMES = ("UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR")
_NORMAL_OF = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}


def _facelet(n: int, centre: np.ndarray, normal: tuple[int, int, int]) -> int:
    centres, normals = stickers(n)
    hit = np.flatnonzero((centres == centre).all(axis=1) & (normals == normal).all(axis=1))
    return int(hit[0])


def piece_facelets(n: int, names: tuple[str, ...]) -> np.ndarray:
    """int64 ``(len(names), len(name))``: facelets of the pieces named by their faces (``"UFR"``,
    ``"DB"``), in each name's letter order. Corner and middle-edge pieces only."""
    out = []
    for name in names:
        normals = [_NORMAL_OF[f] for f in name]
        centre = (n - 1) * np.sum(normals, axis=0)
        out.append([_facelet(n, centre, v) for v in normals])
    arr = np.array(out, dtype=np.int64)
    arr.setflags(write=False)
    return arr


@cache
def corner_slots(n: int) -> np.ndarray:
    """int64 ``(8, 3)``: facelet indices of each corner slot, reference facelet first, clockwise.

    Kociemba's letter order (URF, DFR, ...) is clockwise seen from outside for every corner.
    """
    return piece_facelets(n, CORNER_NAMES)


@cache
def edge_slots(n: int) -> np.ndarray:
    """int64 ``(12, 2)``: facelet indices of each middle-edge slot (odd n only)."""
    if n % 2 == 0:
        raise FaceletError(f"a {n}x{n}x{n} cube has no middle edges (n is even)")
    return piece_facelets(n, EDGE_NAMES)


@cache
def centre_facelets(n: int) -> np.ndarray:
    """int64 ``(6,)``: the central facelet of each face (odd n only)."""
    if n % 2 == 0:
        raise FaceletError(f"a {n}x{n}x{n} cube has no fixed centre facelets (n is even)")
    return np.arange(6, dtype=np.int64) * n * n + (n * n) // 2


@cache
def _piece_colours(kind: str) -> np.ndarray:
    names = CORNER_NAMES if kind == "corner" else EDGE_NAMES
    return np.array([[FACES.index(f) for f in name] for name in names], dtype=np.int64)


def corner_colours() -> np.ndarray:
    """int64 ``(8, 3)``: colours of each corner piece, reference colour first, clockwise."""
    return _piece_colours("corner")


def edge_colours() -> np.ndarray:
    """int64 ``(12, 2)``: colours of each middle-edge piece, reference colour first."""
    return _piece_colours("edge")


@dataclass(frozen=True)
class Cubies:
    """Pieces read off a state: ``perm[i]`` is the piece in slot ``i``, ``ori[i]`` its orientation."""

    corner_perm: np.ndarray
    corner_ori: np.ndarray
    edge_perm: np.ndarray | None = None
    edge_ori: np.ndarray | None = None


def perm_parity(perm: np.ndarray) -> int:
    """0 for an even permutation, 1 for an odd one."""
    perm = np.asarray(perm)
    seen = np.zeros(len(perm), dtype=bool)
    parity = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


def _read(
    state: np.ndarray, slots: np.ndarray, pieces: np.ndarray, names: tuple[str, ...], kind: str, letters: str
) -> tuple[np.ndarray, np.ndarray]:
    k = slots.shape[1]
    by_colours = {tuple(np.roll(p, o).tolist()): (i, o) for i, p in enumerate(pieces) for o in range(k)}
    by_set = {frozenset(p.tolist()) for p in pieces}
    perm = np.empty(len(slots), dtype=np.int64)
    ori = np.empty(len(slots), dtype=np.int64)
    for s, facelets in enumerate(slots):
        cols = tuple(int(c) for c in state[facelets])
        shown = "".join(letters[c] for c in cols)
        if cols not in by_colours:
            if frozenset(cols) in by_set and len(set(cols)) == k:
                raise FaceletError(
                    f"the {kind} in slot {names[s]} has colours {shown} in mirrored order: no {kind} looks like that "
                    "(two of its stickers are swapped); check the facelets of that slot"
                )
            raise FaceletError(
                f"the {kind} in slot {names[s]} has colours {shown}: no {kind} has those colours; check that slot"
            )
        perm[s], ori[s] = by_colours[cols]
    if len(set(perm.tolist())) != len(perm):
        dup = [names[p] for p in range(len(pieces)) if (perm == p).sum() > 1]
        raise FaceletError(f"the {kind} {dup[0]} appears twice and another {kind} is missing; check the facelets")
    return perm, ori


def read_cubies(state: np.ndarray, n: int, letters: str = FACES) -> Cubies:
    """Identify corners (and middle edges for odd n) of a facelet state, checking each piece.

    The state's colours are taken relative to its centres for odd n: the caller maps colours so
    that colour f is the colour of face f's home (see :func:`exact.puzzles.cube.facelets.from_facelets`).

    Raises:
        FaceletError: naming the slot with a piece that does not exist or appears twice.
    """
    state = np.asarray(state)
    cp, co = _read(state, corner_slots(n), corner_colours(), CORNER_NAMES, "corner", letters)
    if n % 2 == 1:
        ep, eo = _read(state, edge_slots(n), edge_colours(), EDGE_NAMES, "edge", letters)
        return Cubies(cp, co, ep, eo)
    return Cubies(cp, co)


def write_cubies(state: np.ndarray, n: int, cubies: Cubies) -> np.ndarray:
    """Return a copy of ``state`` with the corners (and middle edges) set from ``cubies``."""
    out = np.array(state, copy=True)
    for slots, pieces, perm, ori in (
        (corner_slots(n), corner_colours(), cubies.corner_perm, cubies.corner_ori),
        (edge_slots(n) if cubies.edge_perm is not None else None, edge_colours(), cubies.edge_perm, cubies.edge_ori),
    ):
        if slots is None:
            continue
        for s in range(len(slots)):
            out[slots[s]] = np.roll(pieces[perm[s]], ori[s])
    return out


def check_invariants(cubies: Cubies, centre_parity: int = 0) -> None:
    """Raise :class:`FaceletError` for a twisted corner, a flipped edge or a parity error."""
    twist = int(cubies.corner_ori.sum()) % 3
    if twist:
        raise FaceletError(
            f"a twisted corner: corner orientations sum to {twist} (mod 3), a solvable cube has 0; "
            "one corner was put in turned by a third"
        )
    if cubies.edge_ori is not None:
        if int(cubies.edge_ori.sum()) % 2:
            raise FaceletError("a flipped edge: edge orientations sum to an odd number; one edge was put in flipped")
        if perm_parity(cubies.corner_perm) ^ perm_parity(cubies.edge_perm) != centre_parity:
            raise FaceletError(
                "odd permutation parity: corner and edge permutations do not have the parity a turned cube has; "
                "two pieces were swapped"
            )


def home_facelets(state: np.ndarray, n: int) -> np.ndarray | None:
    """Where each facelet's sticker belongs in the solved cube, for n = 2 and 3.

    Stickers of one colour are told apart by the piece they sit on, so the result is a
    permutation: ``home[p]`` is the position (in the solved, standard-orientation cube) of the
    sticker now at ``p``. Returns ``None`` for n >= 4, where centre pieces of one colour are
    interchangeable. The centres of a 3x3x3 are taken as home (they are, unless the cube is
    turned as a whole).

    Returns:
        int64 ``(6*n*n,)`` or ``None``.
    """
    if n > 3:
        return None
    s = np.asarray(state)
    cub = read_cubies(s, n)
    home = np.arange(s.size, dtype=np.int64)
    parts = [(corner_slots(n), cub.corner_perm, cub.corner_ori)]
    if n == 3:
        parts.append((edge_slots(n), cub.edge_perm, cub.edge_ori))
    for slots, perm, ori in parts:
        k = slots.shape[1]
        for i in range(len(slots)):
            for j in range(k):
                home[slots[i, j]] = slots[perm[i], (j - ori[i]) % k]
    return home


@cache
def wing_orbits(n: int) -> tuple[np.ndarray, ...]:
    """The wing slots of an ``n`` cube (``n >= 4``), one int64 ``(24, 2)`` array per orbit.

    A wing is an edge cubie off the middle of its edge. Its two facelets are listed in an order
    that every turn keeps: no turn flips a wing in place (a turn maps the wing at ``(a, b)`` to
    the slot ``(a', b')`` with ``a'`` the image of ``a``), so the order is fixed by following one
    seed slot of each orbit through the single-layer quarter turns.
    """
    from exact.puzzles.cube.geometry import turn_perm

    centres, _ = stickers(n)
    a = n - 1
    cubies: dict[tuple[int, ...], list[int]] = {}
    for f, c in enumerate(map(tuple, centres.tolist())):
        cubies.setdefault(c, []).append(f)
    wings = {frozenset(fs) for c, fs in cubies.items() if len(fs) == 2 and next(x for x in c if abs(x) != a) != 0}
    moved_to = []  # moved_to[m][f]: where facelet f goes under turn m
    for axis in range(3):
        for k in range(n):
            perm = turn_perm(n, axis, 1 << k, 1)
            inv = np.empty_like(perm)
            inv[perm] = np.arange(perm.size)
            moved_to.append(inv)
    oriented: dict[frozenset, tuple[int, int]] = {}
    orbits = []
    for seed in sorted(wings, key=min):
        if seed in oriented:
            continue
        first = tuple(sorted(seed))
        oriented[seed], todo, orbit = first, [first], [first]
        while todo:
            f1, f2 = todo.pop()
            for to in moved_to:
                image = (int(to[f1]), int(to[f2]))
                key = frozenset(image)
                if key not in oriented:
                    oriented[key] = image
                    todo.append(image)
                    orbit.append(image)
                elif oriented[key] != image:  # pragma: no cover - would mean a turn flips a wing
                    raise AssertionError(f"a turn of the {n}-cube flips the wing at {image}")
        orbits.append(np.array(sorted(orbit), dtype=np.int64))
    return tuple(orbits)


def check_wings(state: np.ndarray, n: int, colors: str = FACES) -> None:
    """Check that no wing of a colour state is flipped in place (``n >= 4``; nothing to check below).

    Turns move wings among the slots of their orbit and never flip one, so the colours read in
    each orbit's slot order must be, as a multiset, those of the solved cube.

    Raises:
        FaceletError: naming the colour pairs that read the wrong way round.
    """
    if n < 4:
        return
    s = np.asarray(state)
    solved = np.repeat(np.arange(6), n * n)
    for orbit in wing_orbits(n):
        seen = sorted(map(tuple, s[orbit].tolist()))
        home = sorted(map(tuple, solved[orbit].tolist()))
        if seen != home:
            extra = sorted(set(seen) - set(home)) or sorted({p for p in seen if seen.count(p) > home.count(p)})
            shown = ", ".join(colors[x] + colors[y] for x, y in extra)
            raise FaceletError(
                f"a wing edge is flipped in place ({shown} read the wrong way round): turns never flip a "
                f"wing of the {n}x{n}x{n} cube, so no sequence of turns reaches this state"
            )


@dataclass(frozen=True)
class CubieMoves:
    """Piece moves of a 3x3x3 face-move table.

    Attributes:
        corner_to, edge_to: int64 ``(M, 8)``, ``(M, 12)``: slot a piece in slot ``s`` goes to.
        corner_twist, edge_flip: int64, same shapes: orientation added to a piece leaving ``s``.
    """

    corner_to: np.ndarray
    corner_twist: np.ndarray
    edge_to: np.ndarray
    edge_flip: np.ndarray


_READ: dict[bytes, CubieMoves] = {}
"""Piece moves already read, by the bytes of the table's permutations (reading takes 17 ms, which
a solver that sets up per cube would pay each time)."""


def cubie_moves(table: MoveTable) -> CubieMoves:
    """Read the piece moves off a 3x3x3 facelet move table whose moves keep the centres (fresh
    arrays: the caller may write them)."""
    if table.metadata.get("n") != 3 or table.guarded:
        raise PuzzleoptError(f"cube pattern databases need a 3x3x3 face-move table, not {table.description}")
    key = np.ascontiguousarray(table.perms).tobytes()
    if key not in _READ:
        _READ[key] = _read_moves(table)
    m = _READ[key]
    return CubieMoves(m.corner_to.copy(), m.corner_twist.copy(), m.edge_to.copy(), m.edge_flip.copy())


def _read_moves(table: MoveTable) -> CubieMoves:
    solved = np.repeat(np.arange(6, dtype=np.uint8), 9)  # the solved 3x3x3 (state.solved_state(3))
    centres = solved[[4, 13, 22, 31, 40, 49]]
    out = {k: np.zeros((table.num_moves, n), dtype=np.int64) for k, n in (("ct", 8), ("cw", 8), ("et", 12), ("ew", 12))}
    for m in range(table.num_moves):
        s = solved[table.perms[m]]
        if not np.array_equal(s[[4, 13, 22, 31, 40, 49]], centres):
            raise PuzzleoptError(f"move {table.names[m]} turns a centre: only face moves are supported")
        c = read_cubies(s, 3)
        # slot d now holds the piece that was in slot perm[d] (home = its slot), twisted by ori[d]
        for d in range(8):
            out["ct"][m, c.corner_perm[d]] = d
            out["cw"][m, c.corner_perm[d]] = c.corner_ori[d]
        for d in range(12):
            out["et"][m, c.edge_perm[d]] = d
            out["ew"][m, c.edge_perm[d]] = c.edge_ori[d]
    return CubieMoves(out["ct"], out["cw"], out["et"], out["ew"])
