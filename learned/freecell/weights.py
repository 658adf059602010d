"""Weights files: a heuristic's nine weights, the search settings they were made for, and how.

A weights file is one JSON object (written atomically, read without anything but ``json``)::

    {
      "format": "puzzleopt-freecell-weights",
      "version": 1,
      "features": ["HSDH", "NumberWellPlaced", ...],      # the order of the weights
      "weights": [0.91, 0.02, ...],                       # 9 finite numbers >= 0, not all 0
      "search": {"k": 4, "tt_limit": 200000},            # staged deepening settings
      "training": {...},                                  # how they were made (free form)
      "sha256": "..."                                     # of the rest (exact.atomic.json_digest)
    }

From version 2 the checksum is required and checked, so a changed digit fails to load;
version 1 files (no checksum) still load.

:func:`load` checks every field and fails with a :class:`WeightsError` (a
:class:`~exact.errors.PuzzleoptError`) that names the file, what is wrong and what a good file
looks like. The shipped weights are ``learned/freecell/weights/ga.json`` (:func:`shipped`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from exact.atomic import seal_holds, sealed, write_chunks
from exact.errors import PuzzleoptError
from exact.userfiles import read_text
from learned.freecell.heuristics import HSDH, NAMES, NUM_FEATURES, check_weights
from learned.freecell.hsd import DEFAULT_K, DEFAULT_TT_LIMIT

FORMAT = "puzzleopt-freecell-weights"
FORMAT_VERSION = 2
SHIPPED = Path(__file__).resolve().parent / "weights" / "ga.json"


class WeightsError(PuzzleoptError):
    """A weights file that cannot be used."""


@dataclass(frozen=True, eq=False)
class Weights:
    """A heuristic for :func:`~learned.freecell.hsd.solve_hsd` and what it was made with.

    Attributes:
        vector: The 9 weights, in the order of :data:`~learned.freecell.heuristics.NAMES`.
        k: Stage depth the weights were made for.
        tt_limit: Transposition-table size they were made for.
        training: How they were made (settings, deals, generations, fitness, seconds, seed).
    """

    vector: np.ndarray
    k: int = DEFAULT_K
    tt_limit: int = DEFAULT_TT_LIMIT
    training: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "vector", check_weights(self.vector))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "features": list(NAMES),
            "weights": [float(x) for x in self.vector],
            "search": {"k": int(self.k), "tt_limit": int(self.tt_limit)},
            "training": self.training,
        }


def hsdh(k: int = DEFAULT_K, tt_limit: int = DEFAULT_TT_LIMIT) -> Weights:
    """The baseline: Heineman's heuristic alone."""
    return Weights(HSDH.copy(), k, tt_limit, {"note": "HSDH alone (the baseline), not trained"})


def save(path: str | Path, weights: Weights) -> Path:
    """Write ``weights`` to ``path`` atomically (JSON, one object)."""
    return write_chunks(path, [_dumps(sealed(weights.to_dict())).encode()])


def _dumps(doc: dict[str, Any], indent: str = "") -> str:
    """JSON with one key per line for the top two levels, each value on one line."""
    lines = []
    for k, v in doc.items():
        body = _dumps(v, indent + "  ").rstrip("\n") if isinstance(v, dict) and not indent and v else json.dumps(v)
        lines.append(f"{indent}  {json.dumps(k)}: {body}")
    return "{\n" + ",\n".join(lines) + f"\n{indent}}}" + ("\n" if not indent else "")


def _fail(path: Path, what: str) -> WeightsError:
    return WeightsError(
        f"weights file {path}: {what}; a weights file is a JSON object with format {FORMAT!r}, version "
        f"{FORMAT_VERSION}, features {list(NAMES)} and {NUM_FEATURES} weights >= 0 (write one with "
        "'python -m learned.freecell evolve')"
    )


def _positive_int(path: Path, name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _fail(path, f"search.{name} is {value!r}, not an integer >= 1")
    return value


def load(path: str | Path) -> Weights:
    """Read a weights file, checking every field.

    Raises:
        WeightsError: missing or unreadable, not JSON, another format or version, features in
            another order, or weights that are not 9 finite numbers >= 0 (not all 0).
    """
    path = Path(path)
    if not path.exists():
        raise _fail(path, "it does not exist")
    try:
        text = read_text(path, "weights file")
    except PuzzleoptError as exc:  # a folder, unreadable, not UTF-8
        raise WeightsError(f"{exc} (weights files are written by 'python -m learned.freecell evolve')") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(path, f"it is not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise _fail(path, f"it holds a JSON {type(doc).__name__}, not an object")
    if doc.get("format") != FORMAT:
        raise _fail(path, f"its format is {doc.get('format')!r}")
    if doc.get("version") not in (1, FORMAT_VERSION):
        raise _fail(path, f"its version is {doc.get('version')!r}, this code reads versions 1 and {FORMAT_VERSION}")
    if doc.get("features") != list(NAMES):
        raise _fail(path, f"its features are {doc.get('features')!r}")
    raw = doc.get("weights")
    if (
        not isinstance(raw, list)
        or len(raw) != NUM_FEATURES
        or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in raw)
    ):
        raise _fail(path, f"its weights are {raw!r}")
    try:
        vector = check_weights(raw)
    except PuzzleoptError as exc:
        raise _fail(path, str(exc)) from None
    search = doc.get("search", {})
    if not isinstance(search, dict):
        raise _fail(path, f"its search settings are {search!r}, not an object")
    k = _positive_int(path, "k", search.get("k", DEFAULT_K))
    tt_limit = _positive_int(path, "tt_limit", search.get("tt_limit", DEFAULT_TT_LIMIT))
    training = doc.get("training", {})
    if not isinstance(training, dict):
        raise _fail(path, f"its training record is {type(training).__name__}, not an object")
    if doc["version"] >= 2 and not seal_holds(doc):  # last: a well-formed file with a changed digit
        raise WeightsError(
            f"weights file {path} is damaged or edited: its contents do not match its sha256 (or it has none); "
            "use the file as written, or evolve new weights"
        )
    return Weights(vector, k, tt_limit, training)


def shipped() -> Weights:
    """The weights shipped with the package (``learned/freecell/weights/ga.json``)."""
    return load(SHIPPED)


def resolve(spec: str | Path | None) -> Weights:
    """Weights from a command line value: ``None`` or ``"ga"`` the shipped ones, ``"hsdh"`` the
    baseline, anything else a file."""
    if spec is None or str(spec) == "ga":
        return shipped()
    if str(spec).lower() == "hsdh":
        return hsdh()
    return load(spec)
