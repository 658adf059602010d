"""One registry from puzzle names to puzzle objects.

Nothing in puzzleopt branches on puzzle names: code asks :func:`get` for a
:class:`~exact.puzzle.Puzzle` and uses its move table and protocol. New puzzles register a factory
here (see ``docs/architecture.md``). Factories are called lazily, so importing this module does
no work.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle


@dataclass(frozen=True)
class Spec:
    """A puzzle's identity: its registry key and the options it was built with.

    ``registry.get(spec.name, **spec.options)`` (or :func:`rebuild` on :meth:`to_dict`) builds
    the same puzzle again. Results, model cards and certificates store :meth:`to_dict`.
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"name": key, **options}``, JSON-ready (arrays as lists)."""
        out: dict[str, Any] = {"name": self.name}
        for k, v in self.options:
            out[k] = v.tolist() if isinstance(v, np.ndarray) else v
        return out

    def __str__(self) -> str:
        opts = ", ".join(f"{k}={v.tolist() if isinstance(v, np.ndarray) else v!r}" for k, v in self.options)
        return self.name + (f"({opts})" if opts else "")


@dataclass(frozen=True)
class Entry:
    """A registered puzzle: its factory and a one-line description."""

    name: str
    factory: Callable[..., Puzzle]
    description: str


_ENTRIES: dict[str, Entry] = {}
_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Puzzle] = {}


def register(name: str, factory: Callable[..., Puzzle], description: str) -> None:
    """Register ``factory`` (called with the options given to :func:`get`) under ``name``."""
    if name in _ENTRIES:
        raise PuzzleoptError(f"puzzle name {name!r} is already registered")
    _ENTRIES[name] = Entry(name, factory, description)


def names() -> list[str]:
    """All registered puzzle names, in registration order."""
    return list(_ENTRIES)


def entries() -> list[Entry]:
    """All registry entries, in registration order."""
    return list(_ENTRIES.values())


def get(name: str, **options: Any) -> Puzzle:
    """The puzzle registered under ``name``, built with ``options`` (cached per options).

    Example:
        ``get("cube3")`` (face turns, quarter-turn metric), ``get("cube3", moves="layers")``,
        ``get("tiles15")``.

    Raises:
        PuzzleoptError: unknown name, listing the known ones.
    """
    entry = _ENTRIES.get(name)
    if entry is None and name.startswith(SANTA):
        if options:
            raise PuzzleoptError(f"puzzle {name!r} is a Santa 2023 type: it takes no options ({', '.join(options)})")
        return santa(name)
    if entry is None and _is_definition(name):
        if options:
            raise PuzzleoptError(f"puzzle {name!r} is a definition file: it takes no options ({', '.join(options)})")
        return from_file(name)
    if entry is None:
        raise PuzzleoptError(
            f"unknown puzzle {name!r}; known puzzles: {', '.join(_ENTRIES)}, a definition file (PATH.tws) or a "
            "Santa 2023 type (santa:cube_3/3/3)"
        )
    key = (name, tuple(sorted((k, _frozen(v)) for k, v in options.items())))
    if key not in _CACHE:
        try:
            inspect.signature(entry.factory).bind(**options)
        except TypeError as exc:  # an option the factory does not take
            shown = ", ".join(f"{k}={v!r}" for k, v in options.items())
            raise PuzzleoptError(f"puzzle {name!r} with options {shown}: {exc}; {entry.description}") from None
        puzzle = entry.factory(**options)
        puzzle.spec = Spec(name, _frozen_options(options))  # the identity results and cards store
        _CACHE[key] = puzzle
    return _CACHE[key]


def rebuild(spec: Mapping[str, Any] | Spec) -> Puzzle:
    """The puzzle of a stored spec (``{"name": ..., **options}``, as :meth:`Spec.to_dict` writes;
    a definition file's is ``{"name": "file", "path": ..., "sha256": ...}``, and the file must
    still hold what it held)."""
    d = dict(spec.to_dict() if isinstance(spec, Spec) else spec)
    if "name" not in d:
        raise PuzzleoptError(f"a puzzle spec needs a 'name' (a registry key), got {d!r}")
    if d["name"] == FILE:
        puzzle = from_file(str(d.get("path")))
        if d.get("sha256") is not None and puzzle.spec.to_dict().get("sha256") != d["sha256"]:
            raise PuzzleoptError(f"definition file {d.get('path')!r} has changed since this record was made")
        return puzzle
    return get(d.pop("name"), **d)


FILE = "file"
"""The spec name of a puzzle read from a definition file (:func:`from_file`)."""


def _is_definition(name: str) -> bool:
    from exact.definitions.puzzle import READERS

    return name.startswith("tws:") or Path(name).suffix.lower() in READERS


def from_file(path: str | Path) -> Puzzle:
    """The puzzle a definition file defines (:mod:`exact.definitions`: ``.tws``; ``tws:NAME``: a
    shipped sample), cached per file content; its spec records the path and the content's sha256.

    Raises:
        DefinitionError: the file cannot be read or defines no puzzle (``FILE:LINE: reason``).
    """
    import hashlib

    from exact.definitions.puzzle import DefinitionPuzzle, read_definition, sample_path

    shown = str(path)  # a shipped sample's spec keeps its name: the same on every machine
    if isinstance(path, str) and path.startswith("tws:"):
        path = sample_path(path)
    definition = read_definition(path)  # names the file and the line of any fault
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    key = (FILE, (("path", (shown, str(Path(path).resolve()))), ("sha256", digest)))
    if key not in _CACHE:
        puzzle = DefinitionPuzzle(definition)
        puzzle.spec = Spec(FILE, (("path", shown), ("sha256", digest)))
        _CACHE[key] = puzzle
    return _CACHE[key]


SANTA = "santa:"
"""The prefix of a Santa 2023 puzzle type's name: ``santa:cube_3/3/3``, ``santa:wreath_6/6``."""


def santa(name: str) -> Puzzle:
    """A Santa 2023 type (``santa:globe_1/8``) under the competition's move names, solved as the
    competition's colour puzzles of that type are (:mod:`exact.puzzles.santa`).

    Raises:
        PuzzleoptError: no such type.
    """
    from exact.definitions.puzzle import DefinitionPuzzle
    from exact.puzzles.santa.instances import definition

    key = (name, ())
    if key not in _CACHE:
        puzzle = DefinitionPuzzle(definition(name.removeprefix(SANTA)))
        puzzle.spec = Spec(name, ())
        _CACHE[key] = puzzle
    return _CACHE[key]


def _frozen_options(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The options as sorted (key, value) pairs with arrays made read-only copies, so that a
    caller changing its array afterwards cannot change the cached puzzle's identity."""
    out = []
    for k, v in sorted(options.items()):
        if isinstance(v, np.ndarray):
            v = v.copy()
            v.setflags(write=False)
        out.append((k, v))
    return tuple(out)


def _frozen(value: Any) -> Any:
    """A hashable stand-in for an option value, equal for equal values (arrays by dtype, shape
    and contents; lists and tuples by their items; dicts by their sorted items)."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(_frozen(v) for v in value)))
    return value


def _register_builtins() -> None:
    from exact.puzzles.cube.puzzle import CubePuzzle
    from exact.puzzles.tiles.puzzle import TilesPuzzle

    for n in range(2, 8):
        register(
            f"cube{n}", partial(CubePuzzle, n), f"{n}x{n}x{n} Rubik's cube (default: face turns, quarter-turn metric)"
        )
    for side in range(3, 8):
        register(
            f"tiles{side * side - 1}",
            partial(TilesPuzzle, side, side),
            f"{side}x{side} sliding tiles ({side * side - 1}-puzzle)",
        )
    register("lightsout", _lightsout, "Lights Out on an R x C board (default 7 x 7; options rows=, cols=)")
    register(
        "hypercube",
        _hypercube,
        "the cubical sliding puzzle (d, k, l) (options: instance= a shipped name and k=, or d=, k=, target=)",
    )
    register("pyraminx", _pyraminx, "the Pyraminx (option tips=False: without its tips; WCA notation U L R B, u l r b)")
    register("pancake", _pancake, "a stack of n pancakes sorted by flips (options n= (default 10), burnt=)")
    register(
        "sokoban",
        _sokoban,
        "Sokoban on an H x W grid (default 10 x 10 with 4 boxes, Boxoban's; options height=, width=, boxes=)",
    )


def _lightsout(rows: int = 7, cols: int | None = None) -> Puzzle:
    from exact.puzzles.lightsout.puzzle import LightsOutPuzzle

    return LightsOutPuzzle(rows, cols)


def _hypercube(**options: Any) -> Puzzle:
    from exact.puzzles.hypercube.puzzle import HypercubePuzzle

    return HypercubePuzzle.from_options(**options)


def _pyraminx(tips: bool = True) -> Puzzle:
    from exact.puzzles.pyraminx.puzzle import PyraminxPuzzle

    return PyraminxPuzzle(tips)


def _pancake(n: int = 10, burnt: bool = False) -> Puzzle:
    from exact.puzzles.pancake.puzzle import PancakePuzzle

    return PancakePuzzle(n, burnt)


def _sokoban(height: int = 10, width: int = 10, boxes: int = 4) -> Puzzle:
    from exact.puzzles.sokoban.puzzle import SokobanPuzzle

    return SokobanPuzzle(height, width, boxes)


_register_builtins()
