"""The cube's own methods: ``cube3-optimal`` and ``ida*-cube``, for puzzles that declare
``cube3-coordinates`` (the 3x3x3 with face turns, either metric)."""

from __future__ import annotations

import functools

import numpy as np

from exact.contract import Limits, Setup
from exact.deadline import left
from exact.options import THREADS, Option
from exact.result import SolveResult
from exact.solvers import register_method


def _optimal(
    puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, edge="slicesorted", threads=None
) -> SolveResult:
    """IDA* on the 3x3x3 (face turns) with the symmetry-reduced flip-slice x twist table read along
    three axes, on every thread (edge=slicesorted: 1.67 GB, the default; edge=slice: 70 MB)."""
    from exact.cube.optimal import optimal_cube

    return optimal_cube(
        puzzle, np.asarray(start), tables=_optimal_tables(puzzle, edge, pdb_dir, progress),
        time_limit=left(limits.time), node_limit=limits.nodes, stop_at=stop_at, threads=threads, progress=progress,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _optimal_tables(puzzle, edge: str, pdb_dir, progress: bool):
    from exact.cube.optimal import optimal_tables

    return optimal_tables(puzzle, edge=edge, pdb_dir=pdb_dir, progress=progress)


def _korf(puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """IDA* on the 3x3x3 (face turns) with Korf's three pattern databases."""
    from exact.cube.solve import ida_cube

    tables = _korf_tables(puzzle.table.metadata.get("metric", "htm"), pdb_dir, progress)
    return ida_cube(
        puzzle, np.asarray(start), tables=tables, time_limit=left(limits.time), node_limit=limits.nodes,
        progress=progress, stop_at=stop_at,
    )  # fmt: skip


@functools.lru_cache(maxsize=2)
def _korf_tables(metric: str, pdb_dir, progress: bool) -> tuple:
    from exact.cube.solve import cube_tables

    return cube_tables(metric, pdb_dir=pdb_dir, progress=progress)


OPTIMAL_COMPILE_SECONDS = 17.0
"""numba's first compile of the optimal solver's kernels on 2 cores: a walk of 8 with the 70 MB
table built, cache removed 18.5 s (median of 3), cached 1.6 s (2026-11-28)."""
KORF_COMPILE_SECONDS = 4.0
"""The same for Korf's IDA*: a walk of 7 with its tables built, 4.4 s cold, 0.6 s cached."""


def _setups(puzzle, options, pdb_dir) -> list[Setup]:
    """The large table first (fast searches), then the small one; an ``edge`` given is the only way."""
    from exact.cube import optkernel, prune
    from exact.kernels import with_compile
    from exact.pdb.store import setup_estimate

    metric = puzzle.table.metadata.get("metric", "qtm")
    edges = [options["edge"]] if options.get("edge") else ["slicesorted", "slice"]
    specs = {edge: prune.spec(puzzle.table, metric, edge) for edge in edges}
    ways = [Setup({"edge": edge}, spec.nbytes, *setup_estimate([spec], pdb_dir)) for edge, spec in specs.items()]
    return with_compile(ways, optkernel, prune, seconds=OPTIMAL_COMPILE_SECONDS)


register_method(
    "cube3-optimal", _optimal, needs="cube3-coordinates", rank=20, setups=_setups, nodes=True, options=(
        Option("edge", "text", "slicesorted", "the table: slicesorted (1.67 GB, fast searches) or slice (70 MB)",
               ("slicesorted", "slice")),
        THREADS,
    ),
)  # fmt: skip


def _korf_setups(puzzle, options, pdb_dir) -> list[Setup]:
    """Korf's three tables (corners, two sets of six edges)."""
    from exact.cube import kernel, pdb
    from exact.cube.catalog import cube_spec
    from exact.kernels import with_compile
    from exact.pdb.store import setup_estimate

    specs = [cube_spec(p) for p in pdb.korf_patterns(puzzle.table.metadata.get("metric", "htm"))]
    ways = [Setup({}, sum(s.nbytes for s in specs), *setup_estimate(specs, pdb_dir))]
    return with_compile(ways, kernel, pdb, seconds=KORF_COMPILE_SECONDS)


register_method("ida*-cube", _korf, needs="cube3-coordinates", rank=25, setups=_korf_setups, nodes=True)


def _h48(
    puzzle, start, limits: Limits, *, stop_at=None, pdb_dir=None, progress=False, h=None, base=None, threads=None,
    fallback=False,
) -> SolveResult:  # fmt: skip
    """IDA* on the 3x3x3 (face turns) with one of H48's ``hk`` tables, read for the cube and its
    inverse (issue 67's first version; the table: :func:`_chosen`)."""
    from exact.cube.h48solve import h48_cube

    metric = puzzle.table.metadata.get("metric", "qtm")
    h, base = _chosen(puzzle, metric, h, base, pdb_dir)
    return h48_cube(
        puzzle, np.asarray(start), table=_h48_table(puzzle, metric, h, base, pdb_dir, progress, fallback),
        time_limit=left(limits.time), node_limit=limits.nodes, stop_at=stop_at, threads=threads, progress=progress,
    )  # fmt: skip


def _chosen(puzzle, metric: str, h: int | None, base: int | None, pdb_dir) -> tuple[int, int | None]:
    """The ``hk`` table a solve reads, as ``(h, base)``: ``h`` unset, the largest stored for this
    metric (else 0), the fastest measured in both metrics (h8 against h6 on 2 threads: HTM, Tronto's
    18-move cubes, medians 4.49 s and 6.68 s, docs/benchmarks/h48.md; QTM, DeepCubeA's first 100,
    2.41 s and 6.55 s, docs/benchmarks/deepcubea_h48.md); ``base`` unset,
    :func:`exact.cube.h48table.default_base` or, where that table is not stored and one of another
    base is, that one (``None``: the default, to be built)."""
    for k in [h] if h is not None else range(11, -1, -1):
        b = _stored_base(puzzle, metric, k, base, pdb_dir)
        if b is not None:
            return k, b
    return (0 if h is None else h), base


def _stored_base(puzzle, metric: str, h: int, base: int | None, pdb_dir) -> int | None:
    """The base of a stored ``hk`` table of ``h`` (``base`` where given; else the default first,
    then the larger bases stored), or ``None`` where none is stored."""
    import re
    from pathlib import Path

    from exact.cube.h48table import spec
    from exact.pdb.store import default_dir, stored_entries

    where = default_dir() if pdb_dir is None else Path(pdb_dir)
    named = re.compile(rf"cube3-h48-h{h}-b(\d+)-{metric}\.json")
    found = (named.fullmatch(f.name) for f in where.glob(f"cube3-h48-h{h}-b*-{metric}.json"))
    others = sorted((int(m[1]) for m in found if m), reverse=True)
    for b in [base] if base is not None else [None, *others]:
        s = spec(puzzle.table, metric, h, b)
        if stored_entries(s.name, pdb_dir) == s.entries:
            return s.pattern["base"]
    return None


_H48_LOADED: dict[tuple, object] = {}
"""The ``hk`` tables this process holds, by ``(puzzle, metric, h, base, pdb_dir, fallback)``: the
last two loaded (a solve's set-up is then nothing, which :func:`_h48_setups` says)."""


def _h48_table(puzzle, metric: str, h: int, base, pdb_dir, progress: bool, fallback: bool = False):
    key = (puzzle, metric, h, base, pdb_dir, fallback)
    if key not in _H48_LOADED:
        while len(_H48_LOADED) >= 2:
            del _H48_LOADED[next(iter(_H48_LOADED))]
        _H48_LOADED[key] = _load_h48(puzzle, metric, h, base, pdb_dir, progress, fallback)
    return _H48_LOADED[key]


def _load_h48(puzzle, metric: str, h: int, base, pdb_dir, progress: bool, fallback: bool):
    from pathlib import Path

    from exact.cube import eoesep
    from exact.cube.h48table import HkTable, spec, split
    from exact.memory import huge_pages
    from exact.pdb.store import default_dir, load

    where = default_dir() if pdb_dir is None else Path(pdb_dir)  # the build's checkpoint beside the table
    t = split(load(spec(puzzle.table, metric, h, base, directory=where), pdb_dir, progress=progress))
    edges = load(eoesep.spec(puzzle.table, metric), pdb_dir, progress=progress).data if fallback else None
    # 2 MB pages: a lookup misses the TLB less. The lines are copied out, so that no view keeps the
    # loaded buffer (the whole table again) alive beside the huge-page copy.
    return HkTable(t.h, t.base, huge_pages(t.data), t.lines.copy(), edges)


def _h48_setups(puzzle, options, pdb_dir) -> list[Setup]:
    """The ``hk`` table asked for, or the largest stored (else ``h0``)."""
    from exact.cube import eoesep, h48solve, h48table
    from exact.kernels import with_compile
    from exact.pdb.store import setup_estimate

    metric = puzzle.table.metadata.get("metric", "qtm")
    h, base = _chosen(puzzle, metric, options.get("h"), options.get("base"), pdb_dir)
    if (puzzle, metric, h, base, pdb_dir, bool(options.get("fallback"))) in _H48_LOADED:
        return []  # loaded (and compiled) by an earlier solve of this process: no set-up
    specs = [h48table.spec(puzzle.table, metric, h, base)]
    specs += [eoesep.spec(puzzle.table, metric)] if options.get("fallback") else []
    stored, seconds = setup_estimate(specs, pdb_dir)
    rank = H48_STORED_RANK if stored and h >= 6 else None
    ways = [Setup({"h": h}, sum(s.nbytes for s in specs), stored, seconds, rank=rank)]
    return with_compile(ways, h48solve, h48table, seconds=H48_COMPILE_SECONDS)


H48_STORED_RANK = 18
"""``auto``'s rank of ``cube3-h48`` with a stored table of ``h >= 6``: before ``cube3-optimal`` (20)
and Korf's three tables (``ida*-cube``, 25). Measured in HTM on the same hard cubes (2 threads):
r5 13.7 s and r7 9.9 s with h6 (docs/benchmarks/h48.md) against 105.9 s and 90.9 s with
``cube3-optimal`` (issue 67's figures), and a median of 6.7 s on Tronto's 18-move cubes. In QTM,
DeepCubeA's 1,000 cubes with the h6 table: a median of 7.1 s (docs/benchmarks/deepcubea_h48.md; the
first 100 with h8: 2.4 s),
where ``cube3-optimal`` took 22.0 s on the first 100 (another run, docs/benchmarks/cube3_optimal.md)."""


H48_COMPILE_SECONDS = 20.0
"""numba's first compile of the H48 table's and solver's kernels on 2 cores, rounded up: a first solve
with an empty numba cache took 14.7 s, a second 1.0 s (h2 table, 2026-11-30, beside a 2-thread job:
``NUMBA_CACHE_DIR=/tmp/nbc``, ``Cube(3, metric="htm").apply("R U F").solve(method="cube3-h48", h=2)``)."""

register_method(
    "cube3-h48", _h48, needs="cube3-coordinates", rank=30, setups=_h48_setups, nodes=True, options=(
        Option("h", "count", None, "H48's table: edge flips tracked, 0-11 (unset: the largest stored, else 0)",
               most=11),
        Option("base", "count", None, "the table's two-bit offset (unset: H48's for h, plus 2 in QTM up to 11, or "
               "where that table is not stored and one of another base is, that one's)"),
        Option("fallback", "flag", False, "where an entry reads 0, also read the edges' table (35 MB, built in "
               "20 s), as H48 does: 8% fewer nodes with h6, no faster yet"),
        THREADS,
    ),
)  # fmt: skip
