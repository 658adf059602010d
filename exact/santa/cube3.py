"""Santa 2023's 3x3x3 cubes by the optimal 3x3 solver.

Santa counts every quarter turn of a layer as one move, the middle slices' too, and its cubes'
centres start turned away from home. The cube is solved in three steps:

1. The whole-cube rotation ``G`` that brings the centres home is found among the 24; the cube seen
   from its centres (``start`` then ``G``) is solved by ``cube3-optimal`` in the quarter-turn
   metric, a face-turn word ``F`` shortest among face turns.
2. ``F`` is written in Santa's moves through the facelet map between the two layouts, each face
   move matched to Santa's by its permutation (no table of names: :func:`face_rows`).
3. The rotation still owed is paid as cheaply as Santa's moves allow (:func:`realise`): ``F``'s
   runs of moves on one axis may each turn the middle layer too, which turns the cube by a quarter
   and rewrites ``R L'`` (two moves) as one slice move; a dynamic programme over the 24 frames picks
   the slices that leave the centres home at the end for the fewest moves.

The answer is replayed from the initial state by :class:`~exact.result.SolveResult`. It is
shortest among words that realise ``F`` layer by layer, not proven shortest in Santa's metric.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from exact import registry
from exact.errors import StateError
from exact.logs import get_logger
from exact.provenance import toolkit
from exact.puzzles.cube.cubies import centre_facelets, corner_slots, edge_slots
from exact.puzzles.cube.geometry import FACES
from exact.puzzles.santa.instances import table
from exact.result import SolveResult, Status
from exact.santa.puzzle import SantaPuzzle

if TYPE_CHECKING:
    from exact.cube.optimal import OptimalTables

log = get_logger(__name__)

TYPE = "cube_3/3/3"
SANTA_FACES = "UFRBLD"
"""Santa's face order; both layouts read each face the same way (:mod:`exact.puzzles.cube`)."""


def to_ours() -> np.ndarray:
    """int64 ``(54,)``: ``ours = santa[to_ours()]`` re-lays a Santa 3x3x3 state in this toolkit's
    facelet order (faces URFDLB)."""
    out = np.empty(54, dtype=np.int64)
    for s, face in enumerate(SANTA_FACES):
        f = FACES.index(face)
        out[f * 9 : f * 9 + 9] = np.arange(s * 9, s * 9 + 9)
    return out


@cache
def _cube3():
    return registry.get("cube3", moves="faces", metric="qtm")


def _rows_of(perms: np.ndarray) -> dict[bytes, int]:
    return {p.tobytes(): i for i, p in enumerate(np.asarray(perms, dtype=np.int64))}


@cache
def face_rows() -> np.ndarray:
    """int64 ``(12,)``: the Santa row of each of ``cube3``'s quarter-turn face moves, found by
    conjugating the move's permutation through :func:`to_ours`."""
    idx = to_ours()
    inv = np.argsort(idx)
    santa = _rows_of(table(TYPE).perms)
    ours = np.asarray(_cube3().table.perms, dtype=np.int64)
    # ours(state[S]) == ours(state)[M]  <=>  S[idx] == idx[M]  <=>  S == idx[M][inv]
    return np.array([santa[idx[m][inv].tobytes()] for m in ours], dtype=np.int64)


@dataclass(frozen=True)
class Frames:
    """The 24 whole-cube rotations as Santa permutations, what each costs in Santa's moves, and
    Santa's face moves as seen from each frame (:func:`frames` builds it).

    Attributes:
        perms: int64 ``(M, 54)``: Santa's move permutations; ``names`` their names, ``row``
            name -> row.
        axis_turn: Axis letter (``f``, ``r``, ``d``) -> the rotation turning its three layers
            clockwise, int64 ``(54,)``.
        rots: int64 ``(24, 54)``: the rotations, identity first; ``index`` a rotation's bytes ->
            its index; ``inverse`` int64 ``(24,)``: each one's inverse.
        cost: int64 ``(24,)``: each rotation's cheapest price in Santa's moves by itself, with
            ``word`` the Santa rows that pay it.
        conj: int64 ``(24, M)``: ``conj[h, m]``, the move ``m`` of frame ``h``'s relative view
            as a physical move (``H^-1 m H``), ``-1`` where it is no Santa move.
    """

    perms: np.ndarray
    names: tuple[str, ...]
    row: dict[str, int]
    axis_turn: dict[str, np.ndarray]
    rots: np.ndarray
    index: dict[bytes, int]
    inverse: np.ndarray
    cost: np.ndarray
    word: list[list[int]]
    conj: np.ndarray

    def compose(self, a: int, b: int) -> int:
        """Rotation ``a`` then ``b``."""
        return self.index[self.rots[a][self.rots[b]].tobytes()]

    def layer_word(self, axis: str, turns: tuple[int, int, int]) -> list[int]:
        """Santa rows turning layers 0, 1, 2 of ``axis`` by ``turns`` quarter turns each."""
        return _layer_word(self.row, axis, turns)


def _layer_word(row: dict[str, int], axis: str, turns: tuple[int, int, int]) -> list[int]:
    out: list[int] = []
    for k, e in enumerate(turns):
        e %= 4
        name = f"{axis}{k}"
        out += [row[name]] * e if e <= 2 else [row[f"-{name}"]]
    return out


def _pure(rots: np.ndarray, index: dict[bytes, int], axis_turn: dict[str, np.ndarray], row: dict[str, int]):
    """Cheapest Santa word of each rotation by itself (three moves a quarter turn), by BFS."""
    cost = np.full(24, -1)
    word: list[list[int]] = [[] for _ in range(24)]
    cost[0], frontier = 0, [0]
    steps = [(a, e) for a in "frd" for e in (1, 3)]
    while frontier:
        nxt = []
        for r in frontier:
            for a, e in steps:
                turn = axis_turn[a] if e == 1 else np.argsort(axis_turn[a])
                n = index[rots[r][turn].tobytes()]
                if cost[n] < 0:
                    cost[n] = cost[r] + 3
                    word[n] = word[r] + _layer_word(row, a, (e, e, e))
                    nxt.append(n)
        frontier = nxt
    return cost, word


@cache
def frames() -> Frames:
    """The rotations of Santa's 3x3x3 (built once a process)."""
    t = table(TYPE)
    perms = np.asarray(t.perms, dtype=np.int64)
    row = {n: i for i, n in enumerate(t.names)}
    ident = np.arange(54)
    axis_turn = {}
    for a in "frd":
        p = ident
        for k in range(3):
            p = p[perms[row[f"{a}{k}"]]]
        axis_turn[a] = p
    rots, index = [ident], {ident.tobytes(): 0}
    for r in rots:  # closure under the three quarter turns
        for q in axis_turn.values():
            n = r[q]
            if n.tobytes() not in index:
                index[n.tobytes()] = len(rots)
                rots.append(n)
    assert len(rots) == 24
    inverse = np.array([index[np.argsort(r).tobytes()] for r in rots])
    cost, word = _pure(np.array(rots), index, axis_turn, row)
    rows = _rows_of(perms)
    conj = np.array([[rows.get(np.argsort(h)[m[h]].tobytes(), -1) for m in perms] for h in rots])
    return Frames(perms, tuple(t.names), row, axis_turn, np.array(rots), index, inverse, cost, word, conj)


def _quarters(e: int) -> int:
    return min(e % 4, 4 - e % 4)


def _blocks(rows: list[int], names: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """Runs of physical face moves on one axis: (axis, turns of layer 0, turns of layer 2)."""
    out: list[tuple[str, int, int]] = []
    for r in rows:
        name = names[r]
        sign = -1 if name.startswith("-") else 1
        axis, layer = name.lstrip("-")[0], int(name.lstrip("-")[1:])
        if not out or out[-1][0] != axis:
            out.append((axis, 0, 0))
        a, x, y = out[-1]
        out[-1] = (a, x + sign, y) if layer == 0 else (a, x, y + sign)
    return out


def realise(relative: list[int], start_frame: int) -> list[int]:
    """The cheapest Santa word for the face moves ``relative`` (rows, as seen from the centres)
    that also turns the cube from frame ``start_frame`` home.

    Args:
        relative: Santa face-move rows in the frame where the centres are home.
        start_frame: Index into :func:`frames` of ``H0``: the state is ``start = home-frame
            state`` then ``H0``.

    Returns:
        Santa rows: each axis run of ``relative`` turned with its middle layer ``q`` quarter turns
        (``q`` in 0..3, cost ``|a+q| + |q| + |b+q|``), pure rotations between runs where cheaper.
    """
    fr = frames()
    best: dict[int, tuple[int, list[int]]] = _close(fr, {start_frame: (0, [])})
    # group the relative moves by axis in the relative frame; each frame maps a run to one axis
    runs: list[list[int]] = []
    for r in relative:
        axis = fr.names[r].lstrip("-")[0]
        if runs and fr.names[runs[-1][0]].lstrip("-")[0] == axis:
            runs[-1].append(r)
        else:
            runs.append([r])
    for run in runs:
        nxt: dict[int, tuple[int, list[int]]] = {}
        for h, (cost, word) in best.items():
            physical = [int(fr.conj[h, r]) for r in run]
            ((axis, a, b),) = _blocks(physical, fr.names)
            for q in range(4):
                c = _quarters(a + q) + _quarters(q) + _quarters(b + q)
                rot = fr.rots[0]
                for _ in range(q):
                    rot = rot[fr.axis_turn[axis]]
                n = fr.compose(h, fr.index[rot.tobytes()])
                if n not in nxt or cost + c < nxt[n][0]:
                    nxt[n] = (cost + c, word + fr.layer_word(axis, (a + q, q, b + q)))
        best = _close(fr, nxt)
    return best[0][1]


def _close(fr: Frames, best: dict[int, tuple[int, list[int]]]) -> dict[int, tuple[int, list[int]]]:
    """Each frame reached also by a pure rotation after the cheapest way to another."""
    out = dict(best)
    for h, (cost, word) in best.items():
        for q in range(24):
            n = fr.compose(h, q)
            c = cost + int(fr.cost[q])
            if n not in out or c < out[n][0]:
                out[n] = (c, word + fr.word[q])
    return out


def face_colours(start: np.ndarray, goal: np.ndarray) -> np.ndarray:
    """int64 ``(54,)``: Santa state ``start`` as face colours (colour ``s``: the sticker's place is
    on Santa face ``s`` in ``goal``), found piece by piece: each piece of ``start`` is the piece of
    ``goal`` that shows the same labels in the same cyclic order. So a goal whose labels are not
    one colour a face (Santa's checkerboard puzzles: a face's edges wear the next face's colour;
    the ``N0 .. N53`` ones) reads as well as a plain one.

    Raises:
        StateError: a piece whose labels no goal piece shows, or more than one does.
    """
    t = to_ours()
    g, s = np.asarray(goal)[t], np.asarray(start)[t]
    out = np.empty(54, dtype=np.int64)
    for slots in (centre_facelets(3)[:, None], corner_slots(3), edge_slots(3)):
        m = slots.shape[1]
        seen: dict[tuple, list[tuple[int, int]]] = {}
        for q in range(len(slots)):
            for r in range(m):
                seen.setdefault(tuple(g[slots[q, (np.arange(m) + r) % m]]), []).append((q, r))
        for piece in slots:
            found = seen.get(tuple(s[piece]), [])
            if len(found) != 1:
                what = "no" if not found else "more than one"
                raise StateError(f"cube_3/3/3: {what} piece of the goal shows the labels {tuple(s[piece])}")
            q, r = found[0]
            out[piece] = t[slots[q, (np.arange(m) + r) % m]] // 9  # the goal's Santa face of each sticker
    return out[np.argsort(t)]


def home_rotation(colours: np.ndarray) -> int:
    """Index into :func:`frames` of the rotation ``G`` after which every centre is home.

    Args:
        colours: int64 ``(54,)``: a Santa state as face colours (colour ``s`` is Santa face ``s``).
    """
    fr = frames()
    centres = np.arange(6) * 9 + 4
    for g, rot in enumerate(fr.rots):
        if np.array_equal(colours[rot][centres], np.arange(6)):
            return g
    raise AssertionError("a 3x3x3's centres are always a rotation of home")


def _table_setup():
    """The default table's spec, whether it is stored, and about how long loading or building it takes."""
    from exact.cube import prune
    from exact.pdb.store import setup_estimate

    spec = prune.spec(_cube3().table, "qtm", "slicesorted")
    stored, seconds = setup_estimate([spec])
    return spec, stored, seconds


@cache
def _tables():
    from exact.cube.optimal import optimal_tables

    spec, stored, seconds = _table_setup()
    if not stored:  # announced: a 1.67 GB build is never started silently
        log.warning("building the optimal cube solver's %.2f GB quarter-turn table once (about %.0f s)",
                    spec.nbytes / 1e9, seconds)  # fmt: skip
    return optimal_tables(_cube3(), progress=not stored)


def _setup_too_long(time_limit: float) -> str | None:
    """Why the default table cannot be ready within ``time_limit`` (stored: loaded; else built),
    or ``None``."""
    spec, stored, seconds = _table_setup()
    if seconds <= time_limit:
        return None
    what = "loading" if stored else "building"
    return (
        f"{what} the optimal cube solver's {spec.nbytes / 1e9:.2f} GB table takes about {seconds:.0f} s, more "
        f"than the {time_limit:g} s limit; raise the limit (the table is built once and stored)"
    )


def by_optimal_cube(
    puzzle: SantaPuzzle, time_limit: float | None = None, *, tables: OptimalTables | None = None
) -> SolveResult:
    """A Santa 3x3x3 solved through ``cube3-optimal`` (module docstring): ``feasible``, or
    ``limit`` with the reason in ``extra`` when the face-turn search ends at ``time_limit``.

    Args:
        puzzle: A ``cube_3/3/3`` puzzle.
        time_limit: Seconds for the whole call, the table's loading included.
        tables: The quarter-turn :class:`~exact.cube.optimal.OptimalTables` of ``cube3``; by
            default the 1.67 GB table, loaded once per process (built in about 4 minutes and
            stored the first time, :func:`exact.cube.optimal.optimal_tables`).
    """
    from exact.cube.optimal import optimal_cube

    t0 = time.perf_counter()
    done = SolveResult.recorder(puzzle, puzzle.start, solver="cube3-optimal+slices", solver_version=toolkit(),
                                settings={"time_limit": time_limit}, since=t0)  # fmt: skip
    if puzzle.instance.type != TYPE:
        raise StateError(f"{puzzle.name}: the optimal cube solver takes {TYPE} puzzles only")
    colours = face_colours(puzzle.start, puzzle.goal)
    g = home_rotation(colours)
    fr = frames()
    ours_colour = np.array([FACES.index(f) for f in SANTA_FACES])
    relative_state = ours_colour[colours[fr.rots[g]][to_ours()]].astype(np.uint8)
    if tables is None and time_limit is not None:
        late = _setup_too_long(time_limit)
        if late:
            return done([], Status.LIMIT, None, None, {"limit": late})
    left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - t0))
    found = optimal_cube(_cube3(), relative_state, tables=tables or _tables(), time_limit=left, progress=False)
    if found.status is not Status.OPTIMAL:
        return done([], Status.LIMIT, None, None, {"limit": f"cube3-optimal stopped at {left:.0f} s"})
    names = {n: i for i, n in enumerate(_cube3().table.names)}
    relative = [int(face_rows()[names[m]]) for m in found.moves]
    word = puzzle.solved_prefix(realise(relative, int(fr.inverse[g])))
    log.info("%s: %d quarter turns from the centres, %d Santa moves", puzzle.name, found.length, len(word))
    return done(word, Status.FEASIBLE, None, None, {"qtm": found.length, "relative": " ".join(found.moves)})


__all__ = ["Frames", "by_optimal_cube", "face_colours", "face_rows", "frames", "home_rotation", "realise", "to_ours"]
