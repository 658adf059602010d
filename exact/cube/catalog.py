"""The named 3x3x3 tables (Korf's three, in both metrics)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from exact.cube.pdb import CubePattern, build_cube_pattern, cube_walk_violation, korf_patterns
from exact.pdb.store import TableSpec
from exact.puzzles.cube.moves import cube_moves

SECONDS_PER_ENTRY = 6.9e-7
"""Build seconds per entry of a 3x3 pattern table on 2 cores (``docs/benchmarks/setup_rates.md``)."""


def cube_spec(pattern: CubePattern) -> TableSpec:
    """The stored table of a 3x3x3 pattern (4 bits per entry: cube values stay below 16)."""
    return TableSpec(
        name=pattern.name,
        puzzle="cube3",
        pattern={"kind": pattern.kind, "pieces": list(pattern.pieces), "metric": pattern.metric, "moves": "faces"},
        entries=pattern.entries,
        packed=True,
        build=lambda advance: build_cube_pattern(pattern, cube_moves(3, "faces", pattern.metric), advance),
        audit=lambda table: cube_walk_violation(pattern, table.values, np.random.default_rng(0)),
        seconds_per_entry=SECONDS_PER_ENTRY,
    )


def tables() -> dict[str, Callable[[], TableSpec]]:
    """Name -> spec of Korf's tables for both metrics."""
    out: dict[str, Callable[[], TableSpec]] = {}
    for metric in ("htm", "qtm"):
        for cp in korf_patterns(metric):
            out[cp.name] = lambda p=cp: cube_spec(p)
    return out
