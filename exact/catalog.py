"""The named pattern databases that ``python -m exact.pdb`` lists and builds: the puzzles' own
tables (:mod:`exact.cube.catalog`, :func:`exact.cube.h48table.catalog`,
:func:`exact.cube.eoesep.catalog`, :mod:`exact.tiles.catalog`), gathered in one place so that
the store's command line (an engine) names no puzzle."""

from __future__ import annotations

from collections.abc import Callable

from exact.pdb.store import TableSpec


def catalog() -> dict[str, Callable[[], TableSpec]]:
    """Table name -> a function that returns its spec (cheap: nothing is built)."""
    from exact.cube.catalog import tables as cube_tables
    from exact.cube.eoesep import catalog as eoesep_tables
    from exact.cube.h48table import catalog as h48_tables
    from exact.tiles.catalog import tables as tile_tables

    return {**cube_tables(), **h48_tables(), **eoesep_tables(), **tile_tables()}
