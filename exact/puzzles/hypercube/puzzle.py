"""The cubical sliding puzzle in the batched :class:`~exact.puzzle.Puzzle` protocol."""

from __future__ import annotations

from typing import Any

import numpy as np

from exact.errors import PuzzleoptError, StateError
from exact.puzzle import Puzzle
from exact.puzzles.hypercube.instances import COLOURS, Instance, load_instance
from exact.puzzles.hypercube.moves import check_dk, hypercube_moves


class HypercubePuzzle(Puzzle):
    """The ``(d, k, l)`` puzzle with a given target (conventions in :mod:`exact.puzzles.hypercube`).

    Args:
        d: Dimension of the cube.
        k: Dimension of the faces rings slide in.
        target: The goal state, uint8 ``(2^d,)``: 0 empty, ``1..R`` the rings.
        colours: The colour letter of each ring label (default :data:`COLOURS`), for text.
        name: The registry or instance name.
    """

    capabilities = frozenset({"hypercube-configurations"})
    """Its states rank as ring configurations: the bidirectional BFS of :mod:`exact.hypercube`."""

    def __init__(self, d: int, k: int, target: np.ndarray, colours: str = COLOURS, name: str | None = None) -> None:
        d, k = check_dk(d, k)
        t = np.asarray(target)
        if t.shape != (1 << d,):
            raise StateError(f"hypercube target must have {1 << d} entries (one per vertex), got shape {t.shape}")
        rings = t[t > 0]
        if len(np.unique(rings)) != len(rings) or (len(rings) and (rings.max() != len(rings) or rings.min() != 1)):
            raise StateError(f"hypercube target must hold each ring label 1..R once, got {t.tolist()}")
        self.d, self.k, self.colours = d, k, colours
        self.num_rings = len(rings)
        super().__init__(name or f"hypercube-d{d}k{k}", hypercube_moves(d, k), t, num_labels=self.num_rings + 1)

    @classmethod
    def from_instance(cls, instance: Instance, k: int) -> HypercubePuzzle:
        """The puzzle of a paper instance (its target) for slides in k-faces."""
        return cls(instance.d, k, instance.state("target"), instance.colours, f"{instance.name}-k{k}")

    @classmethod
    def from_options(cls, instance: str | None = None, k: int = 1, **rest: Any) -> HypercubePuzzle:
        """The registry's factory: ``instance=`` a shipped name or file and ``k=``, or ``d=``,
        ``k=`` and ``target=`` (a state)."""
        if instance is not None:
            if rest:
                raise PuzzleoptError(f"hypercube: give instance= and k= only, not also {', '.join(rest)}")
            return cls.from_instance(load_instance(instance), k)
        if "d" not in rest or "target" not in rest:
            raise PuzzleoptError("hypercube: give instance=NAME (and k=), or d=, k= and target=")
        return cls(rest.pop("d"), k, np.asarray(rest.pop("target")), **rest)

    def __repr__(self) -> str:
        return f"HypercubePuzzle(d={self.d}, k={self.k}, rings={self.num_rings})"

    def format_state(self, state: np.ndarray) -> str:
        """``"4:r 1:p 5:b 6:g"``: each ring's vertex and colour, in label order."""
        s = np.asarray(state)
        where = {int(s[v]): v for v in np.flatnonzero(s)}
        return " ".join(f"{where[i]}:{self.colours[i - 1]}" for i in sorted(where))

    def parse_state(self, text: str) -> np.ndarray:
        """Read ``"vertex:colour ..."`` (the form of :meth:`format_state`, any order)."""
        s = np.zeros(self.num_positions, dtype=np.uint8)
        seen = set()
        for token in text.split():
            v, sep, c = token.partition(":")
            if not sep or not v.isdigit() or c not in self.colours[: self.num_rings]:
                raise StateError(
                    f"{self.name}: cannot read {token!r} in {text!r}; write vertex:colour with a colour of "
                    f"{self.colours[: self.num_rings]!r}, e.g. '4:r'"
                )
            vertex = int(v)
            if vertex >= self.num_positions or s[vertex] or c in seen:
                raise StateError(f"{self.name}: {token!r} in {text!r} is off the cube or repeats a vertex or colour")
            s[vertex] = self.colours.index(c) + 1
            seen.add(c)
        if len(seen) != self.num_rings:
            raise StateError(f"{self.name}: {text!r} places {len(seen)} rings; this puzzle has {self.num_rings}")
        return s
