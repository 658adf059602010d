"""Heuristic adapters for the sliding tiles: what the searches evaluate.

Every heuristic declares whether it is *admissible* (never above the true distance: IDA* and
A* with it are optimal) and *consistent* (``h(s) <= 1 + h(s')`` over every move). The arrays in
:class:`TileHeuristic` are what the numba search kernels read (:mod:`exact.ida`).

* ``manhattan``: the sum of the tiles' taxicab distances to their home cells (admissible,
  consistent).
* ``manhattan-lc``: plus linear conflicts: in each row (column), the tiles whose home is in that
  row (column) but who stand in the wrong order must leave it; at least ``m - LIS`` of its ``m``
  such tiles must (LIS: the longest run already in order), each at 2 moves more (Hansson, Mayer
  & Yung 1992). Admissible; not claimed consistent.
* additive pattern databases (:func:`additive`): the sum over disjoint patterns of their tables
  (:mod:`exact.tiles.build`), and with ``mirror`` the larger of that sum and the same sum on the
  board reflected in its main diagonal (square boards; Korf's goal maps to itself). Admissible,
  but *not* consistent: a table keeps the least cost over the blank's cells, so one move can
  raise a pattern's value by more than 1 (the 8-puzzle test finds jumps of 3 and 5). IDA* stays
  optimal with it; A* would have to reopen nodes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.ranking import partial_rank_row
from exact.tiles.pattern import TilePattern

MODE_PDB = 0
MODE_MANHATTAN = 1
MODE_MANHATTAN_LC = 2


@dataclass(frozen=True)
class TileHeuristic:
    """A tile heuristic and the arrays the numba kernels read.

    Attributes:
        name: e.g. ``"manhattan-lc"`` or ``"pdb-663+mirror"``.
        rows, cols: Board shape.
        mode: :data:`MODE_PDB`, :data:`MODE_MANHATTAN` or :data:`MODE_MANHATTAN_LC`.
        admissible, consistent: What the heuristic guarantees.
        pat_tiles: int64 ``(np, kmax)``: the tiles of each pattern, -1 padded.
        pat_k: int64 ``(np,)``: pattern sizes.
        pat_off: int64 ``(np,)``: where each pattern's table starts in ``tables``.
        tables: uint8: the tables, one after the other (unpacked).
        tile_pat: int64 ``(n,)``: the pattern of each tile, -1 for none.
        mirror: Also look up the reflected board.
        tcell: int64 ``(n,)``: the cell reflected in the main diagonal (identity if not square).
        md: int64 ``(n, n)``: taxicab distance of tile ``v`` at cell ``c`` from home.
    """

    name: str
    rows: int
    cols: int
    mode: int
    admissible: bool
    consistent: bool
    pat_tiles: np.ndarray
    pat_k: np.ndarray
    pat_off: np.ndarray
    tables: np.ndarray
    tile_pat: np.ndarray
    mirror: bool
    tcell: np.ndarray
    md: np.ndarray

    def kernel_arrays(self) -> tuple:
        """What the numba kernels take, in their order: mode, cols, pat_tiles, pat_k, pat_off,
        tables, tile_pat, mirror, tcell, md."""
        return (
            self.mode,
            self.cols,
            self.pat_tiles,
            self.pat_k,
            self.pat_off,
            self.tables,
            self.tile_pat,
            self.mirror,
            self.tcell,
            self.md,
        )

    def __call__(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)``: the heuristic of each board ``(B, n)`` (uint8, Korf's goal)."""
        s = np.atleast_2d(np.asarray(states, dtype=np.uint8))
        out = np.empty(s.shape[0], dtype=np.int64)
        _evaluate_batch(s, out, *self.kernel_arrays())
        return out


def _base(rows: int, cols: int) -> dict:
    n = rows * cols
    cell = np.arange(n)
    md = np.abs(cell[:, None] // cols - cell[None, :] // cols) + np.abs(cell[:, None] % cols - cell[None, :] % cols)
    md[0, :] = 0  # the blank does not count
    tcell = (cell % cols) * cols + cell // cols if rows == cols else cell.copy()
    return {"md": md.astype(np.int64), "tcell": tcell.astype(np.int64)}


def manhattan(rows: int, cols: int, linear_conflicts: bool = True) -> TileHeuristic:
    """Manhattan distance, with linear conflicts by default."""
    empty = np.zeros((0, 1), dtype=np.int64)
    return TileHeuristic(
        name="manhattan-lc" if linear_conflicts else "manhattan",
        rows=rows,
        cols=cols,
        mode=MODE_MANHATTAN_LC if linear_conflicts else MODE_MANHATTAN,
        admissible=True,
        consistent=not linear_conflicts,
        pat_tiles=empty,
        pat_k=np.zeros(0, dtype=np.int64),
        pat_off=np.zeros(0, dtype=np.int64),
        tables=np.zeros(1, dtype=np.uint8),
        tile_pat=np.full(rows * cols, -1, dtype=np.int64),
        mirror=False,
        **_base(rows, cols),
    )


def additive(name: str, patterns: list[TilePattern], tables: list[np.ndarray], mirror: bool = True) -> TileHeuristic:
    """Additive disjoint pattern databases (``tables[i]`` of ``patterns[i]``, unpacked uint8)."""
    rows, cols = patterns[0].rows, patterns[0].cols
    n = rows * cols
    if mirror and rows != cols:
        raise PuzzleoptError(f"mirror lookups need a square board, not {rows}x{cols}; pass mirror=False")
    tile_pat = np.full(n, -1, dtype=np.int64)
    kmax = max(len(p.tiles) for p in patterns)
    pat_tiles = np.full((len(patterns), kmax), -1, dtype=np.int64)
    for i, (p, t) in enumerate(zip(patterns, tables)):
        if (p.rows, p.cols) != (rows, cols) or len(t) != p.entries:
            raise PuzzleoptError(f"pattern {p.name}: table of {len(t)} entries for a {p.entries}-entry pattern")
        if (tile_pat[list(p.tiles)] >= 0).any():
            raise PuzzleoptError(f"additive patterns must be disjoint; {p.name} repeats a tile")
        tile_pat[list(p.tiles)] = i
        pat_tiles[i, : len(p.tiles)] = p.tiles
    # The reflected board has the same distance as the board (the reflection maps Korf's goal
    # to itself), so the sum over it is a second lower bound and the larger of the two is one.
    sizes = [len(t) for t in tables]
    return TileHeuristic(
        name=name + ("+mirror" if mirror else ""),
        rows=rows,
        cols=cols,
        mode=MODE_PDB,
        admissible=True,
        consistent=False,
        pat_tiles=pat_tiles,
        pat_k=np.array([len(p.tiles) for p in patterns], dtype=np.int64),
        pat_off=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        tables=np.concatenate([np.asarray(t, dtype=np.uint8) for t in tables]),
        tile_pat=tile_pat,
        mirror=mirror,
        **_base(rows, cols),
    )


# ------------------------------------------------------------------------------ numba kernels
@njit(cache=True)
def pattern_value(p, pos, mirrored, pat_tiles, pat_k, pat_off, tables, tcell, n, buf):  # pragma: no cover
    """Table value of pattern ``p`` for tile cells ``pos`` (or of the reflected board)."""
    k = pat_k[p]
    for i in range(k):
        w = pat_tiles[p, i]
        buf[i] = tcell[pos[tcell[w]]] if mirrored else pos[w]
    return np.int64(tables[pat_off[p] + partial_rank_row(buf[:k], n)])


@njit(cache=True)
def _lis(vals, m):  # pragma: no cover - numba
    best = 0
    length = np.zeros(m, np.int64)
    for i in range(m):
        length[i] = 1
        for j in range(i):
            if vals[j] < vals[i] and length[j] + 1 > length[i]:
                length[i] = length[j] + 1
        if length[i] > best:
            best = length[i]
    return best


@njit(cache=True)
def line_conflicts(board, cols, line, vertical, vals):  # pragma: no cover - numba
    """The linear-conflict term of one row (or column, when ``vertical``) of ``board``: twice
    the number of its tiles, among those whose home is in that line, that must leave the line to
    let the others pass (those outside a longest increasing run of home places). ``vals`` is
    scratch space of at least ``max(rows, cols)`` int64."""
    rows = board.shape[0] // cols
    m = 0
    for i in range(rows if vertical else cols):
        v = board[i * cols + line] if vertical else board[line * cols + i]
        if v != 0 and (v % cols if vertical else v // cols) == line:
            vals[m] = v // cols if vertical else v % cols
            m += 1
    return 2 * (m - _lis(vals, m)) if m > 1 else 0


@njit(cache=True)
def manhattan_lc(board, cols, md, lc):  # pragma: no cover - numba
    """Manhattan distance of ``board`` (uint8 ``(n,)``), plus linear conflicts when ``lc``."""
    n = board.shape[0]
    rows = n // cols
    h = 0
    for c in range(n):
        h += md[board[c], c]
    if not lc:
        return h
    vals = np.empty(max(rows, cols), np.int64)
    for r in range(rows):
        h += line_conflicts(board, cols, r, False, vals)
    for k in range(cols):
        h += line_conflicts(board, cols, k, True, vals)
    return h


@njit(cache=True)
def _evaluate_batch(
    states, out, mode, cols, pat_tiles, pat_k, pat_off, tables, tile_pat, mirror, tcell, md
):  # pragma: no cover
    n = states.shape[1]
    pos = np.empty(n, np.int64)
    buf = np.empty(max(pat_tiles.shape[1], 1), np.int64)
    for b in range(states.shape[0]):
        board = states[b]
        if mode != MODE_PDB:
            out[b] = manhattan_lc(board, cols, md, mode == MODE_MANHATTAN_LC)
            continue
        for c in range(n):
            pos[board[c]] = c
        h = 0
        hm = 0
        for p in range(pat_k.shape[0]):
            h += pattern_value(p, pos, False, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
            if mirror:
                hm += pattern_value(p, pos, True, pat_tiles, pat_k, pat_off, tables, tcell, n, buf)
        out[b] = max(h, hm)


def walk_violation(
    pattern: TilePattern, table: np.ndarray, rng: np.random.Generator, walks: int = 256, steps: int = 40
) -> str | None:
    """Whether ``table`` gives any board more than a path known to solve its pattern costs.

    Random walks of the blank from Korf's goal are played; after each step, the table's value of
    each board must be at most the number of moves so far that moved a tile of ``pattern`` (the
    walk played backwards is a path of that cost in the abstraction), and 0 at the goal. A true
    table always passes; a damaged or forged one (values scaled, shifted, shuffled, with the
    sha256 recomputed) fails within a few steps, at the cost of some thousand lookups.

    Returns:
        ``None``, or one line saying which board broke the bound.
    """
    from exact.tiles.build import neighbours

    h = additive(pattern.name, [pattern], [np.asarray(table)], mirror=False)
    n, rows = pattern.cells, np.arange(walks)
    boards = np.tile(np.arange(n, dtype=np.uint8), (walks, 1))
    if int(h(boards[:1])[0]) != 0:
        return f"pattern table {pattern.name}: the goal has value {int(h(boards[:1])[0])}, not 0"
    nbr = neighbours(pattern.rows, pattern.cols)
    in_pattern = np.zeros(n, dtype=bool)
    in_pattern[list(pattern.tiles)] = True
    blank = np.zeros(walks, dtype=np.int64)
    cost = np.zeros(walks, dtype=np.int64)
    for step in range(1, steps + 1):
        options = nbr[blank]
        pick = rng.integers(0, 4, size=walks)
        while (bad := options[rows, pick] < 0).any():
            pick[bad] = rng.integers(0, 4, size=int(bad.sum()))
        target = options[rows, pick]
        tile = boards[rows, target]
        boards[rows, blank], boards[rows, target] = tile, 0
        cost += in_pattern[tile]
        blank = target
        values = h(boards)
        over = np.flatnonzero(values > cost)
        if over.size:
            b = int(over[0])
            return (
                f"pattern table {pattern.name}: value {int(values[b])} for a board its pattern reaches in "
                f"{int(cost[b])} moves (step {step} of a walk from the goal); the table is damaged or forged"
            )
    return None
