"""Santa 2023's 398 puzzles (shipped byte for byte as ``data/puzzles.csv``) and the move table of
each type.

A row of ``puzzles.csv`` is ``id, puzzle_type, solution_state, initial_state, num_wildcards``;
states are ``;``-separated labels: colours (``A;A;B;...``) or distinct names (``N0;N1;...``). A
puzzle is solved when at most ``num_wildcards`` positions differ from its solution state.
Note: the competition's file calls ids 392-395 ``globe_3/33`` (their 264 positions are that
shape's); the winners' own tables call them ``globe_33/3``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from exact.definitions.generate import move_table
from exact.definitions.model import Definition, PieceSet, SetState
from exact.errors import PuzzleoptError, StateError
from exact.movetable import MoveTable
from exact.options import id_ranges
from exact.puzzles.santa.shapes import Shape, shape

PUZZLES_SHA256 = "e7395fba0a9f321710ebb7397ff09da2dc67f78411e389bb2f654dc6c90f35c8"
"""The shipped ``puzzles.csv``'s digest: the file is checked against it before it is read."""
COUNT = 398
POSITIONS = "POSITION"
"""The one piece set of a Santa definition: every position its own slot, no orientation."""


@dataclass(frozen=True)
class Instance:
    """One of the 398 puzzles.

    Attributes:
        id: Its id, 0 .. 397.
        type: Its ``puzzle_type`` (``cube_3/3/3``).
        solution: The label at each position when solved, ``(P,)`` strings.
        initial: The label at each position at the start.
        wildcards: How many positions may differ from ``solution`` at the end.
    """

    id: int
    type: str
    solution: tuple[str, ...]
    initial: tuple[str, ...]
    wildcards: int

    @property
    def shape(self) -> Shape:
        """Its type's geometry."""
        return shape(self.type)

    @property
    def alphabet(self) -> tuple[str, ...]:
        """Its labels in order (``A`` .. ``F``; ``N0``, ``N1``, .. by number): label ``i`` is
        ``alphabet[i]`` in :meth:`encoded`."""
        return tuple(sorted(set(self.solution), key=_natural))

    def encoded(self) -> tuple[np.ndarray, np.ndarray]:
        """int64 ``(P,)`` each: the initial and the solution state as label numbers."""
        index = {label: i for i, label in enumerate(self.alphabet)}
        return (np.array([index[x] for x in self.initial], dtype=np.int64),
                np.array([index[x] for x in self.solution], dtype=np.int64))  # fmt: skip


def _natural(label: str) -> tuple[str, int]:
    m = re.fullmatch(r"(\D*)(\d+)", label)
    return (m.group(1), int(m.group(2))) if m else (label, -1)


@cache
def instances() -> tuple[Instance, ...]:
    """The 398 puzzles, by id, read from the shipped file after checking its digest.

    Raises:
        PuzzleoptError: the shipped file has been changed or is not the competition's.
    """
    raw = resources.files("exact.puzzles.santa").joinpath("data/puzzles.csv").read_bytes()
    if hashlib.sha256(raw).hexdigest() != PUZZLES_SHA256:
        raise PuzzleoptError("exact/puzzles/santa/data/puzzles.csv is not the competition's file (its sha256 "
                             "differs); reinstall puzzleopt")  # fmt: skip
    out = []
    for row in csv.DictReader(io.StringIO(raw.decode())):
        out.append(Instance(int(row["id"]), row["puzzle_type"], tuple(row["solution_state"].split(";")),
                            tuple(row["initial_state"].split(";")), int(row["num_wildcards"])))  # fmt: skip
    for i, inst in enumerate(out):
        p = inst.shape.num_positions
        if inst.id != i or len(inst.solution) != p or sorted(inst.initial) != sorted(inst.solution):
            raise PuzzleoptError(f"puzzles.csv: row {i} (id {inst.id}) is not a {inst.type} puzzle of {p} positions")
    return tuple(out)


def types() -> list[str]:
    """The competition's puzzle types, in the order they first appear."""
    return list(dict.fromkeys(i.type for i in instances()))


def parse_ids(text: str) -> list[int]:
    """``"0-29,284-303"`` as sorted distinct ids.

    Raises:
        PuzzleoptError: a bad token or an id out of 0 .. 397 (the message quotes it).
    """
    return id_ranges(text, "--ids", COUNT - 1)


def colour_goal(type_name: str) -> tuple[str, ...]:
    """The solution state the competition gives the colour puzzles of a type: the most common,
    then the fewest labels, then the lowest id's (cube_33/33/33's ids 281 and 282 tie on both:
    a set's order, which changes with each process's string hashing, must not choose)."""
    states = [i.solution for i in sorted(instances(), key=lambda i: i.id) if i.type == type_name]
    if not states:
        raise PuzzleoptError(f"Santa 2023 has no {type_name!r} puzzle; its types are {', '.join(types())}")
    return max(states, key=lambda s: (states.count(s), -len(set(s))))  # max keeps the first of a tie


def definition(type_name: str, solved: tuple[str, ...] | None = None) -> Definition:
    """The type as a :class:`~exact.definitions.model.Definition`: one set of ``P`` positions,
    the type's moves (listed metric, inverses written ``-m``), solved as ``solved`` (default:
    :func:`colour_goal`), so that its move table comes from the generator every definition uses.
    """
    geo = shape(type_name)
    p = geo.num_positions
    labels = colour_goal(type_name) if solved is None else solved
    if len(labels) != p:
        raise StateError(f"{type_name}: a state has {p} labels, got {len(labels)}")
    names = {x: i + 1 for i, x in enumerate(sorted(set(labels), key=_natural))}
    moves = {m: {POSITIONS: SetState(tuple(int(x) + 1 for x in perm), (0,) * p)} for m, perm in geo.moves().items()}
    solved_state = {POSITIONS: SetState(tuple(names[x] for x in labels), (0,) * p)}
    return Definition(f"santa:{type_name}", (PieceSet(POSITIONS, p, 1),), solved_state, moves,
                      f"santa:{type_name}", "listed", None, f"Santa 2023 {type_name}", "-{}")  # fmt: skip


@cache
def table(type_name: str) -> MoveTable:
    """The type's moves under Santa's names (``f0``, ``-f0``; ``l``, ``-l``), each one move."""
    return move_table(definition(type_name, tuple("A" * shape(type_name).num_positions)))


def parse_moves(type_name: str, text: str) -> list[int]:
    """Santa's ``.``-separated moves (``r1.-f1``) as rows of :func:`table`.

    Raises:
        NotationError: an unknown move, quoted.
    """
    return table(type_name).parse([t for t in text.strip().split(".") if t] if text.strip() else [])


def format_moves(type_name: str, rows) -> str:
    """Rows of :func:`table` as Santa writes them: ``r1.-f1``."""
    names = table(type_name).names
    return ".".join(names[int(r)] for r in rows)


__all__ = ["COUNT", "Instance", "colour_goal", "definition", "format_moves", "instances", "parse_ids", "parse_moves",
           "table", "types"]  # fmt: skip
