"""The configuration graph of a small ``(d, k, l)`` puzzle, analysed with networkx.

Nodes are the placements of ``R = 2^d - l`` distinct rings on the vertices; edges are slides
(a slide can always be undone, so the graph is undirected). The paper asks for its "God's
number": here the diameter of each connected component, and the largest of them. The diameters
come from a breadth-first search from every node, compiled (:func:`diameters`): networkx's
``diameter`` took 21 s on the 1,680 placements of ``(3, 1, 4)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations
from math import perm

import networkx as nx
import numpy as np
from numba import njit

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


def diameters(g: nx.Graph, components: list[set]) -> list[int]:
    """The diameter of each of ``components`` of the undirected graph ``g`` (0 for one node)."""
    index = {node: i for i, node in enumerate(g)}
    comp = np.empty(len(index), dtype=np.int64)
    for c, nodes in enumerate(components):
        comp[[index[v] for v in nodes]] = c
    ends = np.array([(index[u], index[v]) for u, v in g.edges()], dtype=np.int64).reshape(-1, 2)
    src = np.concatenate([ends[:, 0], ends[:, 1]])
    dst = np.concatenate([ends[:, 1], ends[:, 0]])
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(len(index) + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=len(index)), out=indptr[1:])
    return _eccentricity_max(indptr, dst[order], comp, len(components)).tolist()


@njit(cache=True)
def _eccentricity_max(indptr, neighbours, comp, num_components):  # pragma: no cover - compiled
    """The largest eccentricity in each component: a breadth-first search from every node of the
    graph in CSR form (``indptr (n + 1,)``, ``neighbours (2E,)``, ``comp (n,)``; int64)."""
    n = len(indptr) - 1
    dist = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    out = np.zeros(num_components, dtype=np.int64)
    for s in range(n):
        dist[s], queue[0], head, tail = 0, s, 0, 1
        while head < tail:
            u = queue[head]
            head += 1
            for j in range(indptr[u], indptr[u + 1]):
                v = neighbours[j]
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue[tail] = v
                    tail += 1
        far = dist[queue[tail - 1]]  # the last node reached is a farthest one
        if far > out[comp[s]]:
            out[comp[s]] = far
        for i in range(tail):
            dist[queue[i]] = -1
    return out


def analyse(d: int, k: int, l: int, max_placements: int = MAX_PLACEMENTS) -> GraphReport:  # noqa: E741
    """Components, their sizes and diameters (see :class:`GraphReport`)."""
    g = configuration_graph(d, k, l, max_placements)
    comps = sorted(nx.connected_components(g), key=len, reverse=True)
    diams = diameters(g, comps)
    return GraphReport(
        d=int(d),
        k=int(k),
        l=int(l),
        rings=(1 << int(d)) - int(l),
        nodes=g.number_of_nodes(),
        edges=g.number_of_edges(),
        component_sizes=[len(c) for c in comps],
        diameters=diams,
        gods_number=max(diams, default=0),
        isolated=sum(1 for c in comps if len(c) == 1),
    )
