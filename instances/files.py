"""Reading instance files: one state per line, or a TSV with a header.

A plain file has one state per line in the puzzle's text form (``puzzle.parse_state``; blank
lines and ``#`` comments are skipped). A TSV names its columns in the first line: the state is
the first of :data:`STATE_COLUMNS` present, the known optimal length the first of
:data:`LENGTH_COLUMNS` present (optional), the name ``id`` (optional). The reference sets in
``../shared/data`` (Korf's 100, DeepCubeA's test sets) read as they are.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from exact.errors import PuzzleoptError, first_line
from exact.userfiles import read_text

STATE_COLUMNS = ("tiles", "facelets_URFDLB", "facelets", "state")
LENGTH_COLUMNS = ("optimal_length", "optimal_qtm", "optimal_htm", "optimal")


@dataclass(frozen=True)
class Instance:
    """One line of an instance file: its id, the state's text, the known optimal length."""

    id: str
    text: str
    optimal: int | None = None


def read_instances(path: str | Path, what: str = "--instances") -> list[Instance]:
    """The instances of ``path`` (see the module docstring); ``what`` names the input in errors."""
    lines = [ln for ln in read_text(path, what).splitlines() if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise PuzzleoptError(f"{what} {str(path)!r}: the file holds no instances")
    header = lines[0].split("\t")
    state_col = next((c for c in STATE_COLUMNS if c in header), None)
    if state_col is None:
        if len(header) > 1:
            raise PuzzleoptError(
                f"{what} {str(path)!r}: a TSV needs one of the columns {', '.join(STATE_COLUMNS)}; "
                f"its header is {' | '.join(header)}"
            )
        return [Instance(str(i + 1), ln.strip()) for i, ln in enumerate(lines)]
    length_col = next((c for c in LENGTH_COLUMNS if c in header), None)
    out = []
    for i, row in enumerate(csv.DictReader(lines, delimiter="\t")):
        known = row.get(length_col) if length_col else None
        try:
            optimal = int(known) if known not in (None, "") else None
        except ValueError:
            raise PuzzleoptError(
                f"{what} {str(path)!r}, line {i + 2}: {length_col} {known!r} is not a whole number"
            ) from None
        out.append(Instance(row.get("id") or str(i + 1), row[state_col], optimal))
    return out


def parse_states(puzzle, items: list[Instance], path: str | Path, what: str = "--instances") -> list:
    """The start states of ``items`` (read from ``path``), each by ``puzzle.parse_state``.

    Raises:
        PuzzleoptError: An instance is not a state of ``puzzle``; the message names the file and
            the instance, then says what is wrong with it.
    """
    states = []
    check = getattr(puzzle, "check_state", None)
    for item in items:
        try:
            state = puzzle.parse_state(item.text)
            states.append(check(state) if check is not None and isinstance(state, np.ndarray) else state)
        except ValueError as exc:
            raise PuzzleoptError(f"{what} {str(path)!r}, instance {item.id[:40]}: {first_line(exc)}") from None
    return states
