"""Reading instance files: one state per line, or a TSV with a header.

A plain file has one state per line in the puzzle's text form (``puzzle.parse_state``; blank
lines and ``#`` comments are skipped). A TSV names its columns in the first line: the state is
the first of :data:`STATE_COLUMNS` present, the known optimal length the first of
:data:`LENGTH_COLUMNS` present (optional), the name ``id`` (optional). The shipped sets
(:mod:`instances.sets`: Korf's 100, DeepCubeA's test sets, ...) read as they are, by name.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError, first_line
from exact.options import id_ranges
from exact.userfiles import read_text
from instances import sets

STATE_COLUMNS = ("tiles", "facelets_URFDLB", "facelets", "state")
LENGTH_COLUMNS = ("optimal_length", "optimal_qtm", "optimal_htm", "optimal")


@dataclass(frozen=True)
class Instance:
    """One line of an instance file: its id, the state's text, the known optimal length, and
    (for a shipped set) the registry name of its puzzle (``puzzleopt.State.from_instance`` makes
    it a state)."""

    id: str
    text: str
    optimal: int | None = None
    puzzle: str = ""

    def state(self, puzzle: str | None = None) -> Any:
        """The instance's state as an object that draws, moves and solves itself
        (:class:`puzzleopt.State`: ``print(state)``, ``state.solve()``), of its shipped set's
        puzzle (or of ``puzzle``, a registry name, for one read from a file).

        Raises:
            PuzzleoptError: no puzzle is known, or the text is not a state of it.
        """
        # The notebook layer, loaded only when asked: the solvers take labels() and never get here.
        from puzzleopt.states import State

        return State.from_board(self._puzzle(puzzle), self.text)

    def labels(self, puzzle: str | None = None) -> np.ndarray:
        """The instance's state as the solvers take it, checked: labels ``(P,)``.

        Raises:
            PuzzleoptError: no puzzle is known, or the text is not a state of it.
        """
        from exact import registry

        return registry.get(self._puzzle(puzzle)).parse_state(self.text)

    def _puzzle(self, puzzle: str | None) -> str:
        name = puzzle or self.puzzle
        if not name:
            raise PuzzleoptError(f"instance {self.id}: name its puzzle, e.g. state(puzzle='tiles15')")
        return name


def read_instances(path: str | Path, what: str = "--instances") -> list[Instance]:
    """The instances of ``path`` (see the module docstring).

    Args:
        path: a file, or the name of a shipped set (``korf100``; :mod:`instances.sets`), which
            reads that set (:func:`load`) unless a file of that name exists.
        what: names the input in errors.
    """
    name = sets.shipped_name(path)
    return _read_file(Path(path), what) if name is None else load(name)


def choose(items: list[Instance], ids: str | None = None, first: int | None = None, what: str = "it") -> list[int]:
    """The positions in ``items`` that ``--ids`` and ``--first`` keep, in the file's order.

    Args:
        items: A file's instances (:func:`read_instances`).
        ids: Ids and ranges, ``"613-999,1003"`` (:func:`exact.options.id_ranges`): only the instances
            whose id is one of them (``None``: every instance).
        first: Only the first this many of those (``None``: all of them).
        what: Names the file in errors.

    Raises:
        PuzzleoptError: ``ids`` is malformed, or names an id that no instance has.
    """
    keep = list(range(len(items)))
    if ids is not None:
        wanted = set(id_ranges(ids, "--ids"))
        keep = [i for i in keep if items[i].id.isdecimal() and int(items[i].id) in wanted]
        missing = sorted(wanted - {int(items[i].id) for i in keep})
        if missing:
            ends = f"; its ids run from {items[0].id} to {items[-1].id}" if items else ""
            raise PuzzleoptError(f"--ids {ids}: {what} has no instance with id {_spans(missing)}{ends}")
    return keep[:first]


def _spans(ids: list[int], most: int = 3) -> str:
    """Sorted ids as ranges, ``"1000-1005, 1010"`` (the first ``most``, then ``...``)."""
    spans: list[list[int]] = []
    for i in ids:
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    text = [f"{a}" if a == b else f"{a}-{b}" for a, b in spans[:most]]
    return ", ".join(text) + (", ..." if len(spans) > most else "")


def _read_file(
    path: Path, what: str, state_column: str | None = None, length_column: str | None = None
) -> list[Instance]:
    """A file's instances; ``state_column``/``length_column`` name TSV columns whose names are
    not among :data:`STATE_COLUMNS`/:data:`LENGTH_COLUMNS`."""
    lines = [ln for ln in read_text(path, what).splitlines() if ln.strip() and not ln.startswith("#")]
    if not lines:
        raise PuzzleoptError(f"{what} {str(path)!r}: the file holds no instances")
    header = lines[0].split("\t")
    state_col = state_column if state_column in header else next((c for c in STATE_COLUMNS if c in header), None)
    if state_col is None:
        if len(header) > 1:
            raise PuzzleoptError(
                f"{what} {str(path)!r}: a TSV needs one of the columns {', '.join(STATE_COLUMNS)}; "
                f"its header is {' | '.join(header)}"
            )
        return [Instance(str(i + 1), ln.strip()) for i, ln in enumerate(lines)]
    length_col = length_column if length_column in header else next((c for c in LENGTH_COLUMNS if c in header), None)
    out = []
    for i, row in enumerate(csv.DictReader(lines, delimiter="\t")):
        known = row.get(length_col) if length_col else None
        try:
            optimal = int(known) if known not in (None, "") else None
        except ValueError:
            raise PuzzleoptError(
                f"{what} {str(path)!r}, line {i + 2}: {length_col} {known!r} is not a whole number"
            ) from None
        if row[state_col] is None or not row[state_col].strip():
            raise PuzzleoptError(
                f"{what} {str(path)!r}, line {i + 2}: no state in its {state_col!r} cell; give every row its "
                f"{len(header)} tab-separated cells ({' | '.join(header)})"
            )
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


def load(name: str) -> list[Instance]:
    """The instances of set ``name``.

    Returns:
        list[:class:`~instances.files.Instance`]: id, the state's text (the puzzle's
        ``parse_state`` form, or a Sokoban level's rows), the known optimal length (or None).

    Raises:
        PuzzleoptError: no set of that name, a file that is not the shipped one, or a set of
            published figures (``kind == "table"``: read it with :func:`instances.sets.path`).
    """
    entry = sets.entry(name)
    where = sets.path(name)
    if entry.kind == "tsv":
        items = _read_file(where, f"instance set {name!r}", entry.state_column, entry.length_column)
        return [replace(x, puzzle=entry.puzzle) for x in items]
    if entry.kind == "json-states":
        states = json.loads(where.read_text())["states"]
        return [Instance(str(i), " ".join(map(str, s)), puzzle=entry.puzzle) for i, s in enumerate(states)]
    if entry.kind == "levels":
        from exact.puzzles.sokoban.text import format_level, parse_levels

        return [Instance(str(lv.name), format_level(lv)) for lv in parse_levels(where)]
    raise PuzzleoptError(
        f"instance set {name!r} is a table of published figures, not instances; read instances.path({name!r})"
    )
