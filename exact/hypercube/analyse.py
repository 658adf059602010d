"""The configuration graph of a small ``(d, k, l)`` puzzle, analysed with networkx.

Nodes are the placements of ``R = 2^d - l`` distinct rings on the vertices; edges are slides
(a slide can always be undone, so the graph is undirected). The paper asks for its "God's
number": here the diameter of each connected component, and the largest of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from math import perm

import networkx as nx
import numpy as np

from exact.errors import PuzzleoptError
from exact.hypercube.space import RingSpace
from exact.puzzles.hypercube.moves import check_dk
from exact.puzzles.hypercube.puzzle import HypercubePuzzle

MAX_PLACEMENTS = 200_000


@dataclass(frozen=True)
class GraphReport:
    """What :func:`analyse` found.

    Attributes:
        d, k, l: The puzzle.
        rings: ``2^d - l``.
        nodes: Placements of the rings (``(2^d)! / l!``).
        edges: Slides between them (undirected).
        component_sizes: Sizes of the connected components, largest first.
        diameters: The diameter of each component, in the same order.
        gods_number: The largest diameter: no solvable instance needs more moves.
        isolated: Placements with no slide at all.
    """

    d: int
    k: int
    l: int  # noqa: E741 - the paper's name
    rings: int
    nodes: int
    edges: int
    component_sizes: list[int]
    diameters: list[int]
    gods_number: int
    isolated: int


def configuration_graph(d: int, k: int, l: int, max_placements: int = MAX_PLACEMENTS) -> nx.Graph:  # noqa: E741
    """The configuration graph; nodes are ring-position codes (see :mod:`exact.hypercube.space`).

    Raises:
        PuzzleoptError: bad ``d``, ``k``, ``l``, or more than ``max_placements`` placements.
    """
    d, k = check_dk(d, k)
    p = 1 << d
    if isinstance(l, bool) or not isinstance(l, (int, np.integer)) or not 0 <= l < p:
        raise PuzzleoptError(f"l={l!r} (empty vertices) must be a whole number from 0 to {p - 1}")
    rings = p - int(l)
    n = perm(p, rings)
    if n > max_placements:
        raise PuzzleoptError(
            f"(d={d}, k={k}, l={l}) has {n:,} placements, more than max_placements={max_placements:,}; analyse a "
            "smaller puzzle or raise --max-placements (memory grows about 1 kB a placement)"
        )
    target = np.zeros(p, dtype=np.uint8)
    target[:rings] = np.arange(1, rings + 1)
    space = RingSpace.of(HypercubePuzzle(d, k, target))
    codes = np.array(
        [sum(v << (d * i) for i, v in enumerate(placement)) for placement in permutations(range(p), rings)],
        dtype=np.int64,
    )
    child, parent, _ = space.children(codes)
    g = nx.Graph()
    g.add_nodes_from(codes.tolist())
    g.add_edges_from(zip(codes[parent].tolist(), child.tolist()))
    return g


def analyse(d: int, k: int, l: int, max_placements: int = MAX_PLACEMENTS) -> GraphReport:  # noqa: E741
    """Components, their sizes and diameters (see :class:`GraphReport`)."""
    g = configuration_graph(d, k, l, max_placements)
    comps = sorted(nx.connected_components(g), key=len, reverse=True)
    diameters = [nx.diameter(g.subgraph(c)) if len(c) > 1 else 0 for c in comps]
    return GraphReport(
        d=int(d),
        k=int(k),
        l=int(l),
        rings=(1 << int(d)) - int(l),
        nodes=g.number_of_nodes(),
        edges=g.number_of_edges(),
        component_sizes=[len(c) for c in comps],
        diameters=diameters,
        gods_number=max(diameters, default=0),
        isolated=sum(1 for c in comps if len(c) == 1),
    )
