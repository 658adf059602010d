"""A puzzle from a definition file, in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

from pathlib import Path

from exact.definitions.gap import read_gap
from exact.definitions.generate import labels, move_table
from exact.definitions.model import Definition, DefinitionError
from exact.definitions.tws import read_tws
from exact.puzzle import Puzzle

READERS = {".tws": read_tws, ".ksolve": read_tws, ".gap": read_gap}
"""File suffix -> the reader of that format."""


class DefinitionPuzzle(Puzzle):
    """A permutation puzzle as a file defines it.

    States are uint8 ``(P,)``: the label of each sticker (a slot of ``k`` orientations is ``k``
    stickers); the goal is the solved state. Moves are the file's moves and their powers
    (:mod:`exact.definitions.generate`).

    Args:
        definition: What a reader made of the file.

    Attributes:
        definition: The :class:`Definition`.
        start: The file's ``StartState`` as a state, else ``None``.
    """

    def __init__(self, definition: Definition) -> None:
        self.definition = definition
        goal, count = labels(definition)
        super().__init__(definition.name, move_table(definition), goal, num_labels=count)
        self.start = None if definition.start is None else labels(definition, _complete(definition))[0]

    def __repr__(self) -> str:
        return f"DefinitionPuzzle({self.name!r} from {self.definition.source})"


def _complete(definition: Definition):
    """The StartState, each set it leaves out as solved."""
    assert definition.start is not None
    return {**definition.solved, **definition.start}


SAMPLES = Path(__file__).parent / "samples"
"""twsearch's sample definitions, shipped (``samples/README.md``): ``tws:NAME`` names one."""


def sample_path(name: str) -> Path:
    """The shipped sample ``tws:NAME`` (``tws:2x2x2``) as a path.

    Raises:
        DefinitionError: no sample of that name (the message lists them).
    """
    stem = name.removeprefix("tws:")
    path = SAMPLES / f"{stem}.tws"
    if not path.is_file():
        known = ", ".join(f"tws:{p.stem}" for p in sorted(SAMPLES.glob("*.tws")))
        raise DefinitionError(f"no shipped definition {name!r}; the samples are {known}")
    return path


def read_definition(path: str | Path) -> Definition:
    """The definition in the file at ``path``, by its suffix (:data:`READERS`).

    Raises:
        DefinitionError: an unknown suffix, a missing file or a bad file (``FILE:LINE: reason``).
    """
    path = Path(path)
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise DefinitionError(f"{path}: unknown definition format {path.suffix!r}; give one of {', '.join(READERS)}")
    if not path.is_file():
        raise DefinitionError(f"{path}: no such file; give the path of a definition ({', '.join(READERS)})")
    return reader(path)


__all__ = ["READERS", "SAMPLES", "DefinitionPuzzle", "read_definition", "sample_path"]
