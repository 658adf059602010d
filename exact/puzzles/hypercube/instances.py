"""The paper's instances (shipped in ``instances/hypercube.json``) and instance files in that format.

An instance entry is ``{"name", "d", "l", "start": [[vertex, colour], ...], "target": [[vertex,
colour], ...]}`` with colour letters of :data:`exact.puzzles.hypercube.puzzle.COLOURS`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from exact.errors import PuzzleoptError
from exact.userfiles import read_text

FORMAT = "puzzleopt-hypercube-instances"


COLOURS = "rpgbyo"
"""Ring colours in label order: red, purple, green, blue, yellow, orange (label 1 is red)."""


@dataclass(frozen=True)
class Instance:
    """One cubical sliding-puzzle instance.

    Attributes:
        name: As in the paper's data (``d3-level0`` ... ``d5``) or the file's.
        d: Dimension.
        l: Number of empty vertices (``2^d - l`` rings).
        start, target: ``((vertex, colour letter), ...)``.
    """

    name: str
    d: int
    l: int  # noqa: E741 - the paper's name
    start: tuple[tuple[int, str], ...]
    target: tuple[tuple[int, str], ...]

    @property
    def colours(self) -> str:
        """The colour letters of the rings, in label order (label i+1 is ``colours[i]``)."""
        used = {c for _, c in self.target}
        return "".join(c for c in COLOURS if c in used) + "".join(sorted(used - set(COLOURS)))

    def state(self, which: str = "start") -> np.ndarray:
        """uint8 ``(2^d,)``: 0 empty, ``i + 1`` for the ring of colour ``colours[i]``."""
        pairs = self.start if which == "start" else self.target
        labels = {c: i + 1 for i, c in enumerate(self.colours)}
        s = np.zeros(1 << self.d, dtype=np.uint8)
        for v, c in pairs:
            s[v] = labels[c]
        return s


def _whole(x: object) -> bool:
    """A JSON whole number (``true`` is not one, though Python's bool is an int)."""
    return isinstance(x, int) and not isinstance(x, bool)


def parse_instance(entry: object, where: str) -> Instance:
    """Check one JSON entry and make it an :class:`Instance` (``where`` names it in errors)."""
    if not isinstance(entry, dict):
        raise PuzzleoptError(f"{where}: an instance must be a JSON object with name, d, l, start, target")
    missing = [k for k in ("d", "l", "start", "target") if k not in entry]
    if missing:
        raise PuzzleoptError(f"{where}: missing {', '.join(missing)}; an instance needs d, l, start and target")
    d, l = entry["d"], entry["l"]  # noqa: E741
    if not _whole(d) or not 1 <= d <= 6:
        raise PuzzleoptError(f"{where}: d={d!r} must be a whole number from 1 to 6")
    p = 1 << d
    if not _whole(l) or not 0 <= l < p:
        raise PuzzleoptError(f"{where}: l={l!r} must be a whole number from 0 to {p - 1} (the empty vertices)")
    sides = {}
    for side in ("start", "target"):
        pairs = entry[side]
        if not isinstance(pairs, list) or not all(isinstance(x, list) and len(x) == 2 for x in pairs):
            raise PuzzleoptError(f"{where}: {side} must be a list of [vertex, colour] pairs")
        for v, c in pairs:
            if not _whole(v) or not 0 <= v < p:
                raise PuzzleoptError(f"{where}: {side} vertex {v!r} is not a vertex of the {d}-cube (0..{p - 1})")
            if not isinstance(c, str) or len(c) != 1:
                raise PuzzleoptError(f"{where}: {side} colour {c!r} must be one letter (r p g b y o ...)")
        verts = [v for v, _ in pairs]
        cols = [c for _, c in pairs]
        if len(set(verts)) != len(verts) or len(set(cols)) != len(cols):
            raise PuzzleoptError(f"{where}: {side} puts two rings on one vertex or repeats a colour")
        if len(pairs) != p - l:
            raise PuzzleoptError(f"{where}: {side} has {len(pairs)} rings, but d={d}, l={l} means {p - l}")
        sides[side] = tuple((int(v), str(c)) for v, c in pairs)
    if {c for _, c in sides["start"]} != {c for _, c in sides["target"]}:
        raise PuzzleoptError(f"{where}: start and target must use the same ring colours")
    return Instance(str(entry.get("name", where)), d, l, sides["start"], sides["target"])


@lru_cache(maxsize=1)
def shipped_instances() -> dict[str, Instance]:
    """The paper's instances, by name (typed from its Appendix B)."""
    text = resources.files("instances").joinpath("hypercube.json").read_text()
    data = json.loads(text)
    return {e["name"]: parse_instance(e, f"instances/hypercube.json {e.get('name')}") for e in data["instances"]}


def instance_names() -> list[str]:
    """Names of the shipped instances."""
    return list(shipped_instances())


def load_instance(name_or_path: str) -> Instance:
    """A shipped instance by name, or the one instance entry held in a JSON file.

    The file may hold one entry, or ``{"instances": [...]}`` with exactly one entry.
    """
    shipped = shipped_instances()
    if name_or_path in shipped:
        return shipped[name_or_path]
    path = Path(name_or_path)
    if not path.is_file():
        raise PuzzleoptError(
            f"--instance {name_or_path!r} is neither a shipped instance ({', '.join(shipped)}) nor a JSON file"
        )
    try:
        data = json.loads(read_text(path, "--instance"))
    except json.JSONDecodeError as exc:
        raise PuzzleoptError(f"--instance {name_or_path!r}: not JSON ({exc})") from None
    if isinstance(data, dict) and "instances" in data:
        entries = data["instances"]
        if not isinstance(entries, list) or len(entries) != 1:
            raise PuzzleoptError(f"--instance {name_or_path!r}: the file must hold exactly one instance entry")
        data = entries[0]
    return parse_instance(data, f"--instance {name_or_path!r}")
