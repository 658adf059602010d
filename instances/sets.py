"""The public instance sets the project benchmarks on, shipped as package data.

Each set is a file under ``instances/data/`` copied byte for byte from its source (the table in
``instances/data/README.md`` gives sources and licences), with its SHA-256 recorded here: a file
that does not match (edited, truncated, a foreign file in its place) is refused, not read.

    >>> from instances import load          # instances.files.load
    >>> boards = load("korf100")            # list[Instance]: id, text, optimal length
    >>> boards[0].id, boards[0].optimal
    ('1', 57)

Commands take a set's name wherever they take an instance file (``--instances korf100``,
``--level boxoban-test:0``); :func:`resolve` turns a name into the shipped file's path.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from exact.errors import PuzzleoptError

__all__ = ["INSTANCES_HELP", "InstanceSet", "SETS", "entry", "file_path", "names", "path", "resolve", "shipped_name"]

INSTANCES_HELP = (
    "a file of starts (one state per line, or a TSV with a header) or a shipped set's name: korf100, "
    "deepcubea-cube3, deepcubea-tiles15, ... (python -m instances lists them)"
)


@dataclass(frozen=True)
class InstanceSet:
    """One shipped set.

    Attributes:
        name: what users type (``korf100``).
        file: the file under ``instances/data/`` (the same relative path as in the project's
            reference data, ``../shared/data/``).
        puzzle: the registry name of the puzzle its states belong to ("" for a table of figures).
        what: one line saying what it holds.
        count: how many instances (or rows) it holds.
        source: where it comes from.
        licence: its licence.
        sha256: the file's SHA-256, checked before the file is read.
        kind: ``tsv`` (a header names the columns), ``json-states`` (DeepCubeA's larger boards),
            ``levels`` (Sokoban levels, ``; N`` headers), or ``table`` (published figures, read
            with :func:`path`; :func:`load` refuses it).
        state_column: the TSV column holding the state, where it is not a usual name.
        length_column: the TSV column holding the optimal length, where it is not a usual name.
    """

    name: str
    file: str
    puzzle: str
    what: str
    count: int
    source: str
    licence: str
    sha256: str
    kind: str = "tsv"
    state_column: str | None = None
    length_column: str | None = None


_DCA = "DeepCubeA test data (Agostinelli et al. 2019, github.com/forestagostinelli/DeepCubeA)"
_BOXOBAN = "Boxoban levels (Guez et al. 2018, github.com/deepmind/boxoban-levels)"

SETS: dict[str, InstanceSet] = {
    s.name: s
    for s in (
        InstanceSet(
            "korf100", "tiles/korf100.tsv", "tiles15", "Korf's 100 random 15-puzzles, optimal lengths (sum 5305)",
            100, "Korf 1985, Artificial Intelligence 27", "published instances (no licence)",
            "7a7bafd10ea62b0fc6b26e4e5e18984d4ec1903d445c06b850b9fa0f0c38fe66",
        ),
        InstanceSet(
            "korf24", "tiles/korf24_50.tsv", "tiles24",
            "Korf & Felner's 50 random 24-puzzles, optimal lengths (mean 100.78)",
            50, "Korf & Felner 2002, Artificial Intelligence 134", "published instances (no licence)",
            "5e3248afc126c6993c28f7075067bda6464a58128bf89a8e774ef76ea2e82d3d",
        ),
        InstanceSet(
            "fifteen80", "tiles/fifteen_80.tsv", "tiles15", "the 17 15-puzzle positions at distance 80 (the diameter)",
            17, "Korf & Schultze 2005 (count); positions from a public enumeration", "published positions (no licence)",
            "55ccba675c00c6db77919b2fb5e2317164a4b2a75ef7f0aaade5f58c6d5e17cc",
        ),
        InstanceSet(
            "deepcubea-tiles15", "tiles/deepcubea_puzzle15_500.tsv", "tiles15",
            "DeepCubeA's 15-puzzle test set, optimal lengths (mean 52.022)", 500, _DCA, "MIT",
            "acd49cb93af6b9ec0e94915d837929c2c13830baaaf6be2dcbce622f2604304e",
        ),
        InstanceSet(
            "deepcubea-tiles24", "tiles/deepcubea_puzzle24_496.tsv", "tiles24",
            "DeepCubeA's 24-puzzle test set, optimal lengths (mean 89.411)", 496, _DCA, "MIT",
            "644eff2541bb93e52e76c966a91ee500d0a944daddb48d45028aa685ab6a3a31",
        ),
        InstanceSet(
            "deepcubea-tiles35", "tiles/deepcubea_puzzle35_500.json", "tiles35",
            "DeepCubeA's 35-puzzle test states (no optimal lengths known)", 500, _DCA, "MIT",
            "295b0b881a4ae4bd77c99e84ae5683b4d40dde6f68c6bd5646832ca949123097", kind="json-states",
        ),
        InstanceSet(
            "deepcubea-tiles48", "tiles/deepcubea_puzzle48_500.json", "tiles48",
            "DeepCubeA's 48-puzzle test states (no optimal lengths known)", 500, _DCA, "MIT",
            "33482137d3c00f3aa9940043a801a52a829b5236b69aec92a1a98623e5c5ce6b", kind="json-states",
        ),
        InstanceSet(
            "deepcubea-cube3", "cube/deepcubea_cube3_qtm_1000.tsv", "cube3",
            "DeepCubeA's 3x3 test set: facelets, optimal QTM lengths (mean 20.637), an optimal solution",
            1000, _DCA, "MIT", "3dd53111edd7d51b7879f7f8a56a3514f4e467e33c5ba879c5c487b43d5c00c4",
        ),
        InstanceSet(
            "cube3-htm-optimal", "cube/cube3_htm_optimal_hkociemba.tsv", "cube3",
            "12 cubes with optimal half-turn lengths (10 random, the superflip, a hardest position)",
            12, "published results of H. Kociemba's optimal solver", "published positions (no licence)",
            "a9016d28979c044620add439e4dd29f6075abb4869b64e0724520fdfe62b9eba",
        ),
        InstanceSet(
            "deepcubea-lightsout7", "lightsout/deepcubea_lightsout7_500.tsv", "lightsout",
            "DeepCubeA's Lights Out 7x7 test set, optimal press counts (mean 24.26)", 500, _DCA, "MIT",
            "9dd4503cf5c9edcd5fa976aaf27572544e263f309ed01b92950ac63a0ac80537",
            state_column="lights_rowmajor_7x7", length_column="optimal_presses",
        ),
        InstanceSet(
            "boxoban-test", "sokoban/boxoban_unfiltered_test_000.txt", "sokoban",
            "Boxoban's unfiltered test levels (10x10, 4 boxes; DeepCubeA's Sokoban test set)", 1000, _BOXOBAN,
            "Apache-2.0", "272928a4e7c185fdf84daa523b298750b6ff08703cb0c20d3be7eff93acc5256", kind="levels",
        ),
        InstanceSet(
            "boxoban-medium", "sokoban/boxoban_medium_valid_000.txt", "sokoban",
            "Boxoban's medium validation levels, file 000", 1000, _BOXOBAN, "Apache-2.0",
            "b30ccde2aeb8192a0b49e53a016fe744ae4a67eb01560b1d0bec251695e03e5b", kind="levels",
        ),
        InstanceSet(
            "boxoban-hard", "sokoban/boxoban_hard_000.txt", "sokoban", "Boxoban's hard levels, file 000", 1000,
            _BOXOBAN, "Apache-2.0", "c320e8b1f5a26be7a85dff18147a7decae3c5e765c38ff56e30ebf8551d331f4", kind="levels",
        ),
        InstanceSet(
            "hypercube-paper", "hypercube/seed002_instances.json", "",
            "the cubical sliding puzzle paper's 8 instances, its rules and its reported results (Appendix B)",
            8, "Merleau, O'Malley, Roldan & Mukherjee, Approximately Optimal Search on a Higher-dimensional "
            "Sliding Puzzle", "typed from the paper (figures, no licence)",
            "efede58ff3f96d9aae39faec0f6ac5d62481337ebeee8db45a33a6529f659a37", kind="table",
        ),
        InstanceSet(
            "helmert-pancake", "pancake/helmert2010_gap_ida.tsv", "",
            "IDA* with the gap heuristic on random n-pancake stacks, n = 2..60: mean optimal length, nodes",
            59, "Helmert 2010, Landmark Heuristics for the Pancake Problem (SoCS), Table 1",
            "typed from the paper (figures, no licence)",
            "335e8f95bd03d2012ebcdfc4aa3f80f3ca6cac4bf77a216902b11d02be1d4a5e", kind="table",
        ),
    )
}  # fmt: skip

_CHECKED: set[str] = set()


def names() -> list[str]:
    """The shipped sets' names, in catalogue order."""
    return list(SETS)


def entry(name: str) -> InstanceSet:
    """The catalogue entry of set ``name``; an unknown name lists the sets."""
    try:
        return SETS[name]
    except KeyError:
        raise PuzzleoptError(
            f"instance set {name!r} is not shipped; the sets are {', '.join(SETS)} (or give a file's path)"
        ) from None


def path(name: str) -> Path:
    """The shipped file of set ``name``, checked against its SHA-256 (once per process).

    Raises:
        PuzzleoptError: no set of that name, or the file is missing or not the shipped one.
    """
    known = entry(name)
    where = Path(str(resources.files("instances").joinpath("data", known.file)))
    if name not in _CHECKED:
        try:
            digest = hashlib.sha256(where.read_bytes()).hexdigest()
        except OSError as exc:
            raise PuzzleoptError(
                f"instance set {name!r}: {where} cannot be read ({exc}); reinstall puzzleopt"
            ) from None
        if digest != known.sha256:
            raise PuzzleoptError(
                f"instance set {name!r}: {where} is not the shipped file (SHA-256 {digest[:12]}..., "
                f"expected {known.sha256[:12]}...); restore it from the repository or reinstall puzzleopt"
            )
        _CHECKED.add(name)
    return where


def file_path(file: str) -> Path:
    """The checked path of the shipped set whose file is ``file`` (its path under
    ``instances/data``, as in ``../shared/data``: ``"sokoban/boxoban_hard_000.txt"``).

    Raises:
        PuzzleoptError: no shipped set has that file.
    """
    for name, known in SETS.items():
        if known.file == file:
            return path(name)
    raise PuzzleoptError(
        f"no shipped set has the file {file!r}; the files are {', '.join(s.file for s in SETS.values())}"
    )


def resolve(spec: str | os.PathLike) -> Path:
    """``spec`` as a path: a shipped set's name gives its checked file, anything else is a path.

    An existing file wins over a set of the same name, so a user's ``korf100`` file is theirs.
    """
    name = shipped_name(spec)
    return Path(os.fspath(spec)) if name is None else path(name)


def shipped_name(spec: str | os.PathLike) -> str | None:
    """The set ``spec`` names, or None: a path (an existing file wins over a set of its name)."""
    text = os.fspath(spec)
    return text if text in SETS and not os.path.exists(text) else None
