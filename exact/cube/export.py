"""Export of move tables for other modelling languages (JSON, and the case study's CSV).

The CSV is the seed MIP case study's position mapping ``lm(m, f_i, r_i, c_i, f_j, r_j, c_j)``:
move ``m`` carries the facelet at face ``f_i``, row ``r_i``, column ``c_i`` to face ``f_j``, row
``r_j``, column ``c_j``. Faces are written as letters (URFDLB), rows and columns count from 1,
and only facelets that move are listed unless ``include_fixed`` is set.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

from exact.atomic import write_chunks
from exact.errors import PuzzleoptError
from exact.movetable import MoveTable
from exact.puzzles.cube.geometry import FACES


def to_json(table: MoveTable) -> str:
    """The table as JSON (see :meth:`MoveTable.to_dict`)."""
    return json.dumps(table.to_dict())


def to_lm_csv(table: MoveTable, include_fixed: bool = False) -> str:
    """The cube position mapping ``lm`` as CSV text with a header row.

    Raises:
        PuzzleoptError: the table is not a cube table.
    """
    n = table.metadata.get("n")
    if table.metadata.get("puzzle") != "cube" or n is None:
        raise PuzzleoptError(f"lm CSV export is defined for cube move tables, not {table.description}")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["m", "f_i", "r_i", "c_i", "f_j", "r_j", "c_j"])
    for m, name in enumerate(table.names):
        for dest, src in enumerate(table.perms[m].tolist()):
            if src == dest and not include_fixed:
                continue
            fi, ri, ci = _frc(src, n)
            fj, rj, cj = _frc(dest, n)
            w.writerow([name, fi, ri, ci, fj, rj, cj])
    return out.getvalue()


def _frc(i: int, n: int) -> tuple[str, int, int]:
    f, rc = divmod(i, n * n)
    r, c = divmod(rc, n)
    return FACES[f], r + 1, c + 1


def write_atomic(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file and a rename, so no half file is left."""
    return write_chunks(path, [text.encode("utf-8")])
