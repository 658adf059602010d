"""The named tile tables (Korf's partitions) and the tile heuristics built from them.

Tile partitions (Korf's goal, cells numbered row-major, the blank home at cell 0)::

     0  1  2  3     555: a = 1 2 3 5 6, b = 4 8 9 12 13, c = 7 10 11 14 15
     4  5  6  7     663: a = 2 3 6 7 10 11, b = 8 9 12 13 14 15, c = 1 4 5
     8  9 10 11     78:  a = 1 2 3 4 5 6 7, b = 8 9 10 11 12 13 14 15
    12 13 14 15

     0  1  2  3  4
     5  6  7  8  9  6666: a = 1 2 5 6 7 12, b = 3 4 8 9 13 14,
    10 11 12 13 14        c = 10 11 15 16 20 21, d = 17 18 19 22 23 24
    15 16 17 18 19
    20 21 22 23 24

The 6-6-3 was chosen by measurement: on Korf's 100 it expands 1.0 M nodes per instance, against
2.7 M for ``1 2 3 5 6 7 | 4 8 9 12 13 14 | 10 11 15`` and 1.3 M for
``4 5 8 9 12 13 | 6 7 10 11 14 15 | 1 2 3`` (mirror lookups on, see docs/pdb.md).

On the 8-puzzle, ``44`` is ``1 2 3 4`` and ``5 6 7 8``. The 8-tile table of ``78`` has
518,918,400 entries (one byte each) and its builder needs 4.2 GB; the 6-tile tables of ``6666``
have 127,512,000 entries each and their builder needs 2.4 GB (see docs/pdb.md for build times).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from exact.errors import PuzzleoptError
from exact.pdb.store import TableSpec, load
from exact.tiles.build import build_tile_pattern
from exact.tiles.heuristic import TileHeuristic, additive, manhattan, walk_violation
from exact.tiles.pattern import TilePattern, check_partition

PARTITIONS: dict[tuple[int, int], dict[str, list[tuple[int, ...]]]] = {
    (3, 3): {"44": [(1, 2, 3, 4), (5, 6, 7, 8)]},
    (4, 4): {
        "555": [(1, 2, 3, 5, 6), (4, 8, 9, 12, 13), (7, 10, 11, 14, 15)],
        "663": [(2, 3, 6, 7, 10, 11), (8, 9, 12, 13, 14, 15), (1, 4, 5)],
        "78": [(1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)],
    },
    (5, 5): {
        "6666": [(1, 2, 5, 6, 7, 12), (3, 4, 8, 9, 13, 14), (10, 11, 15, 16, 20, 21), (17, 18, 19, 22, 23, 24)],
    },
}


SECONDS_PER_ENTRY = 1.4e-6
"""Build seconds per entry of a tile pattern table on 2 cores (``docs/benchmarks/setup_rates.md``)."""


def tile_spec(pattern: TilePattern) -> TableSpec:
    """The stored table of one tile pattern (one byte per entry: values reach 30 and more)."""
    return TableSpec(
        name=pattern.name,
        puzzle=f"tiles{pattern.cells - 1}",
        pattern={"rows": pattern.rows, "cols": pattern.cols, "tiles": list(pattern.tiles), "goal": "korf"},
        entries=pattern.entries,
        packed=False,
        build=lambda advance: build_tile_pattern(pattern, advance),
        progress_total=pattern.states,
        audit=lambda table: walk_violation(pattern, table.data, np.random.default_rng(0)),
        seconds_per_entry=SECONDS_PER_ENTRY,
    )


def tables() -> dict[str, Callable[[], TableSpec]]:
    """Name -> spec of every tile table of :data:`PARTITIONS`."""
    out: dict[str, Callable[[], TableSpec]] = {}
    for (rows, cols), parts in PARTITIONS.items():
        for groups in parts.values():
            for pattern in check_partition(rows, cols, groups):
                out[pattern.name] = lambda p=pattern: tile_spec(p)
    return out


# The default per board: the strongest partition whose tables build in minutes and fit in a few
# hundred MB (the 7-8 tables take 4.2 GB and about half an hour to build, so they are opt-in).
DEFAULT_PARTITION = {(3, 3): "44", (4, 4): "663", (5, 5): "6666"}


def default_tile_heuristic(rows: int, cols: int) -> str:
    """The heuristic used when none is named: ``pdb-<DEFAULT_PARTITION>``, else ``manhattan-lc``."""
    part = DEFAULT_PARTITION.get((rows, cols))
    return "manhattan-lc" if part is None else f"pdb-{part}"


def tile_heuristics(rows: int, cols: int) -> list[str]:
    """The heuristic names for a board: ``manhattan``, ``manhattan-lc`` and ``pdb-<partition>``."""
    return ["manhattan", "manhattan-lc"] + [f"pdb-{k}" for k in PARTITIONS.get((rows, cols), {})]


def tile_heuristic(
    name: str,
    rows: int,
    cols: int,
    *,
    pdb_dir: str | Path | None = None,
    mirror: bool = True,
    progress: bool = True,
) -> TileHeuristic:
    """A tile heuristic by name; pattern tables are loaded from ``pdb_dir`` (the user cache by
    default) and built there first when missing or damaged.
    """
    known = tile_heuristics(rows, cols)
    if name not in known:
        raise PuzzleoptError(f"heuristic {name!r} is unknown for {rows}x{cols} boards; use one of {', '.join(known)}")
    if name.startswith("manhattan"):
        return manhattan(rows, cols, linear_conflicts=name == "manhattan-lc")
    patterns = check_partition(rows, cols, PARTITIONS[(rows, cols)][name[4:]])
    tables = [load(tile_spec(p), pdb_dir, progress=progress).data for p in patterns]
    return additive(name, patterns, tables, mirror=mirror and rows == cols)
