"""GAP definitions as cubing.js PuzzleGeometry writes them (and cayleypy ships them), read into a
:class:`Definition`::

    M_F:=(1,2,3,4)(5,6,7,8);      # a generator: sticker 1 goes to 2, 2 to 3, ...
    M_U:=(1,9,10,11);
    Gen:=[M_F,M_U];
    ip:=[[1,2],[5,6]];            # stickers that look alike (the rest: each its own)

The stickers are one set of ``n`` pieces with no orientation (``n``: the largest sticker a
generator moves). Each generator is one move and so is its inverse (named ``F'``; none for a
generator that is its own inverse): the ``listed`` metric, as cayleypy counts (it closes the
generators under inverses).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from exact.definitions.model import Definition, DefinitionError, PieceSet, SetState, definition_text

STICKERS = "STICKER"
"""The one set of a GAP definition."""

_ASSIGN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_']*)\s*:=\s*(.*?);?\s*$", re.S)


def read_gap(path: str | Path) -> Definition:
    """The definition in the GAP file at ``path`` (:func:`parse_gap`).

    Raises:
        DefinitionError: ``FILE:LINE: reason``.
    """
    path = Path(path)
    return parse_gap(definition_text(path, "GAP"), str(path), default_name=path.stem)


def parse_gap(text: str, source: str = "definition", default_name: str = "puzzle") -> Definition:
    """The definition GAP ``text`` states: its ``M_`` generators and ``ip`` list.

    Raises:
        DefinitionError: ``FILE:LINE: reason`` (a cycle that repeats a sticker, a generator
            given twice, an ``ip`` that is not a list of lists of stickers, no generator).
    """
    cycles: dict[str, list[list[int]]] = {}
    lines: dict[str, int] = {}
    identical: list[list[int]] = []
    for statement, line in _statements(text):
        match = _ASSIGN.match(statement)
        if match is None:
            raise DefinitionError(f"{source}:{line}: expected NAME:=VALUE; got {statement[:60]!r}")
        key, value = match.group(1), match.group(2).strip()
        if key.startswith("M_"):
            name = key[2:]
            if name in cycles:
                raise DefinitionError(f"{source}:{line}: generator {name!r} is defined twice; give it once")
            cycles[name], lines[name] = _cycles(value, f"{source}:{line}: generator {name}"), line
        elif key == "ip":
            identical = _identical(value, f"{source}:{line}: ip")
    if not cycles:
        raise DefinitionError(f"{source}: no generator (M_NAME:=(cycles);); a puzzle needs at least one")
    n = max((x for c in cycles.values() for cycle in c for x in cycle), default=0)
    if bad := [x for group in identical for x in group if not 1 <= x <= n]:
        raise DefinitionError(f"{source}: ip names sticker {bad[0]}, but the generators move stickers 1..{n}")
    moves = {name: {STICKERS: _passive(c, n)} for name, c in cycles.items()}
    solved = {STICKERS: SetState(tuple(_colours(n, identical)), (0,) * n)}
    return Definition(default_name, (PieceSet(STICKERS, n, 1),), solved, moves, source, "listed", None, default_name)


def _statements(text: str):
    """Each ``;``-ended statement (comments dropped) with the line it starts on."""
    clean = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    at, line = 0, 1
    for match in re.finditer(r";", clean):
        chunk = clean[at : match.start()]
        if chunk.strip():
            yield chunk.strip(), line + chunk[: len(chunk) - len(chunk.lstrip())].count("\n")
        line += clean[at : match.end()].count("\n")
        at = match.end()
    if clean[at:].strip():
        rest = clean[at:]
        yield rest.strip(), line + rest[: len(rest) - len(rest.lstrip())].count("\n")


def _cycles(value: str, where: str) -> list[list[int]]:
    """``(1,2,3)(4,5)`` as ``[[1, 2, 3], [4, 5]]`` (``()``: the identity)."""
    compact = re.sub(r"\s+", "", value)
    if not re.fullmatch(r"(\((\d+(,\d+)*)?\))+", compact):
        raise DefinitionError(f"{where}: {value[:60]!r} is not a product of cycles such as (1,2,3)(4,5)")
    out = [[int(x) for x in c.split(",")] for c in re.findall(r"\(([\d,]+)\)", compact)]
    seen = [x for c in out for x in c]
    if len(seen) != len(set(seen)) or min(seen, default=1) < 1:
        twice = next(x for x in seen if seen.count(x) > 1 or x < 1)
        raise DefinitionError(f"{where}: sticker {twice} appears twice (or is below 1): not a permutation")
    return out


def _identical(value: str, where: str) -> list[list[int]]:
    try:
        groups = json.loads(value)
    except json.JSONDecodeError:
        raise DefinitionError(
            f"{where}: {value[:60]!r} is not a list of lists of stickers, e.g. [[1,2],[5,6]]"
        ) from None
    if not isinstance(groups, list) or not all(
        isinstance(g, list) and all(isinstance(x, int) for x in g) for g in groups
    ):
        raise DefinitionError(f"{where}: give a list of lists of stickers, e.g. [[1,2],[5,6]]")
    return groups


def _passive(cycles: list[list[int]], n: int) -> SetState:
    """The generator as a move row (slot ``b`` takes the sticker of slot ``a`` for each ``a -> b``)."""
    source = list(range(1, n + 1))
    for cycle in cycles:
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            source[b - 1] = a
    return SetState(tuple(source), (0,) * n)


def _colours(n: int, identical: list[list[int]]) -> list[int]:
    """The solved state: stickers of one ``ip`` group share a piece id, every other its own."""
    out = [0] * n
    colour = 0
    for group in identical:
        colour += 1
        for x in group:
            out[x - 1] = colour
    for i in range(n):
        if out[i] == 0:
            colour += 1
            out[i] = colour
    return out


__all__ = ["STICKERS", "parse_gap", "read_gap"]
