"""Public home of the move tables: :class:`MoveTable` and the builders of each puzzle's table.

``exact.moves.MoveTable`` is defined in :mod:`exact.movetable`; the builders live with their
puzzles (:mod:`exact.puzzles.cube.moves`, :mod:`exact.puzzles.tiles.moves`) and are re-exported
here so that users need one import.

As a command, ``python -m exact.moves`` shows a cube move table, applies a scramble and exports
the table::

    python -m exact.moves --size 3 --moves layers --metric qtm --scramble-length 8 --seed 0
    python -m exact.moves --size 4 --export-json cube4.json --export-csv cube4_lm.csv

Exit codes: 0 done, 2 bad input.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from exact.movetable import MoveTable
from exact.puzzles.cube.moves import cube_moves
from exact.puzzles.tiles.moves import tile_moves

__all__ = ["MoveTable", "cube_moves", "tile_moves", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m exact.moves`` (:func:`exact.cli.moves.main`; imported only when it runs)."""
    from exact.cli.moves import main as command

    return command(argv)


if __name__ == "__main__":
    from exact import cli

    sys.exit(cli.run(main))
