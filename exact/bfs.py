"""Breadth-first search over whole state spaces: distance tables and layer counts.

Both searches are generic: they take a :class:`~exact.movetable.MoveTable` (guards respected
through :meth:`~exact.movetable.MoveTable.applicable`) and, for :func:`distance_table`, a
:class:`RankedSpace` that numbers the states.

Direction matters. BFS from the start states along the table's moves gives the distance *from*
the starts. The distance *to* the goal is the BFS distance from the goal in the graph with every
edge reversed. Both searches here require every move to have an inverse row
(``table.inverse >= 0``): then each edge ``s -> t`` has its reverse ``t -> s``, the graph is
undirected, and distance from the goal equals distance to the goal. Tables without inverses are
rejected rather than silently giving the wrong direction; for them build a table of the
inverse permutations (with the guards mapped accordingly) and search from the goal with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

import numpy as np
from numba import njit

from exact.bidirectional import TableSide, search
from exact.deadline import check
from exact.errors import PuzzleoptError, StateError
from exact.movetable import MoveTable

UNREACHED = 255
"""Entry of a distance table for a state the search did not reach."""

MAX_DEPTH = 254
"""The largest distance a uint8 table can hold besides :data:`UNREACHED`."""

_SCAN_BLOCK = 1 << 24


@njit(cache=True)
def _mark_new(dist, ranks, value):  # pragma: no cover - numba
    """Set ``dist[r] = value`` for unreached ``r`` in ``ranks``; return those ranks, each once."""
    out = np.empty(ranks.shape[0], np.int64)
    count = 0
    for r in ranks:
        if dist[r] == 255:
            dist[r] = value
            out[count] = r
            count += 1
    return out[:count]


@runtime_checkable
class RankedSpace(Protocol):
    """A perfect ranking of a set of states (e.g. :class:`exact.puzzles.tiles.TilesSpace`).

    Attributes:
        size: Number of states; ranks are ``0 .. size - 1``.
    """

    size: int

    def rank(self, states: np.ndarray) -> np.ndarray:
        """int64 ``(B,)`` ranks of states ``(B, P)``."""
        ...

    def unrank(self, ranks: np.ndarray) -> np.ndarray:
        """States ``(B, P)`` of int64 ranks ``(B,)``."""
        ...


def _require_invertible(table: MoveTable, who: str) -> None:
    missing = np.flatnonzero(table.inverse < 0)
    if missing.size:
        names = " ".join(table.names[i] for i in missing[:5])
        raise PuzzleoptError(
            f"{who}: moves of {table.description} without an inverse row ({names}); BFS from the goal gives "
            "distances *to* the goal only when every move can be undone; add the inverse moves to the table"
        )


def _start_rows(table: MoveTable, starts: np.ndarray, who: str) -> np.ndarray:
    s = np.asarray(starts)
    s = s[None] if s.ndim == 1 else s
    if s.ndim != 2 or s.shape[1] != table.num_positions or s.shape[0] == 0:
        raise StateError(
            f"{who}: starts must have shape (P,) or (B, P) with P = {table.num_positions}, got {np.shape(starts)}"
        )
    return s


def _children(table: MoveTable, states: np.ndarray) -> np.ndarray:
    """All children ``(K, P)`` of ``states`` ``(B, P)`` under every applicable row."""
    if not table.guarded:
        return states[:, table.perms].reshape(-1, states.shape[1])
    app = table.applicable(states)
    parts = [states[app[:, m]][:, table.perms[m]] for m in range(table.num_moves) if app[:, m].any()]
    return np.concatenate(parts) if parts else states[:0]


def distance_table(
    space: RankedSpace,
    table: MoveTable,
    starts: np.ndarray,
    *,
    max_depth: int | None = None,
    progress: bool = False,
    chunk_size: int = 1 << 18,
) -> np.ndarray:
    """Distances of every state of ``space`` from the ``starts``, by layered BFS.

    Each layer is processed ``chunk_size`` states at a time: unrank, apply every applicable move
    row, rank the children, keep those not seen before. A layer's ranks are kept in memory while
    they are few; larger layers are found again by scanning the table for their depth, so the
    memory beyond the table itself stays ``O(chunk_size)``.

    Args:
        space: The ranked state space; ``unrank`` must return states of ``table.num_positions``.
        table: The moves; every row must have an inverse (see the module docstring), so the
            result is also the distance *to* the starts.
        starts: States ``(P,)`` or ``(B, P)`` at distance 0 (usually the goal).
        max_depth: Stop after this layer (at most 254); states further away stay 255.
        progress: Show a tqdm bar (states reached, depth and layer size).
        chunk_size: States unranked and expanded at once.

    Returns:
        uint8 ``(space.size,)``: the distance, or 255 where not reached.

    Raises:
        PuzzleoptError: a move without an inverse, ``max_depth`` out of range, or distances
            beyond 254 (they do not fit in uint8).
    """
    who = "distance_table"
    _require_invertible(table, who)
    limit = MAX_DEPTH + 1 if max_depth is None else int(max_depth)
    if max_depth is not None and not 0 <= limit <= MAX_DEPTH:
        raise PuzzleoptError(f"{who}: max_depth must be in 0..{MAX_DEPTH}, got {max_depth}")
    if chunk_size < 1:
        raise PuzzleoptError(f"{who}: chunk_size must be >= 1, got {chunk_size}")
    size = int(space.size)
    dist = np.full(size, UNREACHED, dtype=np.uint8)
    frontier: np.ndarray | None = np.unique(space.rank(_start_rows(table, starts, who)))
    dist[frontier] = 0
    keep_limit = 4 * chunk_size
    bar = _bar(progress, size)
    if bar is not None:
        bar.update(len(frontier))
        bar.set_postfix(depth=0, layer=len(frontier))
    try:
        depth = 0
        while depth < limit:
            kept: list[np.ndarray] | None = []
            count = 0
            for ranks in _layer(dist, depth, frontier, chunk_size):
                check(f"{who}: the distance table, depth {depth}")  # a solve's time limit covers its set-up
                states = space.unrank(ranks)
                if states.shape[1] != table.num_positions:
                    raise StateError(
                        f"{who}: space states have {states.shape[1]} positions, the table {table.num_positions}"
                    )
                kids = space.rank(_children(table, states))
                if depth + 1 > MAX_DEPTH and (dist[kids] == UNREACHED).any():
                    raise PuzzleoptError(f"{who}: distances exceed {MAX_DEPTH}, which a uint8 table cannot hold")
                new = _mark_new(dist, np.ascontiguousarray(kids, dtype=np.int64), depth + 1)
                count += len(new)
                if kept is not None:
                    kept.append(new)
                    if count > keep_limit:
                        kept = None
            if count == 0:
                break
            depth += 1
            frontier = np.concatenate(kept) if kept is not None else None
            if bar is not None:
                bar.update(count)
                bar.set_postfix(depth=depth, layer=count)
    finally:
        if bar is not None:
            bar.close()
    return dist


def _layer(dist: np.ndarray, depth: int, frontier: np.ndarray | None, chunk: int) -> Iterator[np.ndarray]:
    """Ranks of the states at ``depth``, in chunks: from ``frontier`` if kept, else by scanning."""
    if frontier is not None:
        for i in range(0, len(frontier), chunk):
            yield frontier[i : i + chunk]
        return
    for off in range(0, len(dist), _SCAN_BLOCK):
        ranks = np.flatnonzero(dist[off : off + _SCAN_BLOCK] == depth) + off
        for i in range(0, len(ranks), chunk):
            yield ranks[i : i + chunk]


def _bar(progress: bool, total: int | None):
    if not progress:
        return None
    from exact.progress import bar

    return bar(total=total, unit="states", desc="BFS", unit_scale=True)


def depth_counts(dist: np.ndarray) -> list[int]:
    """Number of states at each depth of a distance table (255 = unreached is left out).

    Args:
        dist: uint8 distance table, any shape.

    Returns:
        ``counts[d]`` = states at distance ``d``, for ``d = 0 .. max distance``.
    """
    d = np.asarray(dist)
    if d.dtype != np.uint8:
        raise StateError(f"depth_counts takes a uint8 distance table, got dtype {d.dtype}")
    flat = d.reshape(-1)
    total = np.zeros(256, np.int64)
    # Blocks, because bincount widens its input to intp (8 bytes per entry).
    for off in range(0, len(flat), _SCAN_BLOCK):
        total += np.bincount(flat[off : off + _SCAN_BLOCK], minlength=256)
    counts = total[:UNREACHED]
    nonzero = np.flatnonzero(counts)
    return [int(c) for c in counts[: nonzero[-1] + 1]] if nonzero.size else []


def _void_rows(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).reshape(-1)


def _unique_rows(a: np.ndarray, dedupe: str) -> np.ndarray:
    if dedupe == "rows":
        return np.unique(a, axis=0)
    return np.unique(_void_rows(a)).view(a.dtype).reshape(-1, a.shape[1])


def _in_layer(rows: np.ndarray, layer: np.ndarray, dedupe: str) -> np.ndarray:
    """bool ``(K,)``: which of ``rows`` occur in ``layer`` (as returned by :func:`_unique_rows`)."""
    if len(layer) == 0:
        return np.zeros(len(rows), dtype=bool)
    if rows.shape[1] == 0:
        return np.ones(len(rows), dtype=bool)
    keys, ref = _void_rows(rows), _void_rows(layer)
    if dedupe == "rows":
        # np.unique(axis=0) sorts by value; the byte order of wider dtypes differs from it.
        ref = np.sort(ref)
    idx = np.minimum(np.searchsorted(ref, keys), len(ref) - 1)
    return ref[idx] == keys


def layer_counts(
    table: MoveTable,
    starts: np.ndarray,
    max_depth: int,
    *,
    dedupe: str = "bytes",
    chunk_size: int = 1 << 18,
    progress: bool = False,
) -> list[int]:
    """Number of distinct states at each distance from the starts, for spaces without a ranking.

    Layers are held as sorted arrays of state rows. Every move must have an inverse (see the
    module docstring): then a neighbour of a state at depth ``d`` is at depth ``d-1``, ``d`` or
    ``d+1``, so new states are found by removing the previous and the current layer only.

    Args:
        table: The moves.
        starts: States ``(P,)`` or ``(B, P)`` at depth 0 (usually the goal).
        max_depth: Last depth to count.
        dedupe: How rows are compared: ``"bytes"`` (each row viewed as one opaque byte string,
            fast) or ``"rows"`` (``np.unique(axis=0)``, slower; the same result).
        chunk_size: Layer states expanded at once (children are deduplicated per chunk).
        progress: Show a tqdm bar, one step per layer.

    Returns:
        ``counts[d]`` for ``d = 0 .. max_depth``, shorter if the space is exhausted earlier.
    """
    who = "layer_counts"
    _require_invertible(table, who)
    if dedupe not in ("bytes", "rows"):
        raise PuzzleoptError(f"{who}: dedupe must be 'bytes' or 'rows', got {dedupe!r}")
    if int(max_depth) < 0:
        raise PuzzleoptError(f"{who}: max_depth must be >= 0, got {max_depth}")
    cur = _unique_rows(_start_rows(table, starts, who), dedupe)
    prev = cur[:0]
    counts = [len(cur)]
    bar = _bar(progress, int(max_depth))
    try:
        for depth in range(int(max_depth)):
            parts = [
                _unique_rows(_children(table, cur[i : i + chunk_size]), dedupe) for i in range(0, len(cur), chunk_size)
            ]
            nxt = _unique_rows(np.concatenate(parts), dedupe) if len(parts) > 1 else parts[0]
            nxt = nxt[~_in_layer(nxt, cur, dedupe) & ~_in_layer(nxt, prev, dedupe)]
            if len(nxt) == 0:
                break
            counts.append(len(nxt))
            prev, cur = cur, nxt
            if bar is not None:
                bar.update(1)
                bar.set_postfix(depth=depth + 1, layer=len(nxt))
    finally:
        if bar is not None:
            bar.close()
    return counts


def shortest_distance(table: MoveTable, start: np.ndarray, goals: np.ndarray, max_depth: int) -> int | None:
    """Length of a shortest move sequence from ``start`` to any of ``goals``, by bidirectional BFS
    (:func:`exact.bidirectional.search`).

    For single instances of spaces too large for a table (the 3x3x3 up to depth 10 or so).

    Args:
        table: The moves; every row must have an inverse, so the backward search may use them too.
        start: ``(P,)``.
        goals: ``(P,)`` or ``(G, P)``: every goal state (e.g. the 24 orientations of a solved cube).
        max_depth: Give up beyond this distance.

    Returns:
        The distance, or ``None`` if it exceeds ``max_depth`` (or no goal is reachable).
    """
    who = "shortest_distance"
    _require_invertible(table, who)
    fwd = TableSide(table, _start_rows(table, start, who))
    bwd = TableSide(table, _start_rows(table, goals, who), backward=True)
    met = search(fwd, bwd, max_depth=max_depth)
    return None if met.rows is None else len(met.rows)


def descend(table: MoveTable, start: np.ndarray, distance: Callable[[np.ndarray], np.ndarray]) -> list[int]:
    """A shortest solution read off a complete distance table: at each step a move to a state one
    closer, until the distance is 0.

    Args:
        table: The moves (guards are honoured).
        start: ``(P,)``.
        distance: ``(B, P) -> (B,)`` the exact distance of each state (e.g. a BFS table by rank).

    Returns:
        Move rows, as many as the start's distance.
    """
    state = np.asarray(start)
    d = int(distance(state[None])[0])
    rows: list[int] = []
    while d > 0:
        legal = np.flatnonzero(table.applicable(state))
        children = state[table.perms[legal]]
        values = distance(children).astype(np.int64)
        k = int(np.flatnonzero(values == d - 1)[0])  # a complete table always has a next step
        rows.append(int(legal[k]))
        state, d = children[k], d - 1
    return rows


def meet_in_the_middle(
    table: MoveTable,
    start: np.ndarray,
    goal: np.ndarray,
    max_depth: int,
    max_states: int = 1_000_000,
    time_limit: float | None = None,
) -> list[int] | None:
    """A shortest move sequence from ``start`` to ``goal`` by bidirectional BFS, or ``None``.

    For incumbents of models of short horizons (``exact.mip``) on spaces too large for a table;
    :func:`exact.bidirectional.search` gives the reason when there is none.

    Args:
        table: The moves (guarded tables need an inverse row for every move).
        start: ``(P,)``.
        goal: ``(P,)``, one goal state.
        max_depth: Give up beyond this length.
        max_states: Give up once both sides together hold this many states.
        time_limit: Give up rather than start a layer that would end after this many seconds.

    Returns:
        Move rows from ``start`` to ``goal``, or ``None`` (longer than ``max_depth``, too many
        states, or no path).
    """
    met = search(
        TableSide(table, np.asarray(start)), TableSide(table, np.asarray(goal), backward=True),
        max_depth=max_depth, max_stored=max_states, time_limit=time_limit,
    )  # fmt: skip
    return met.rows
