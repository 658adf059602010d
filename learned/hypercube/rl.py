"""The reinforcement-learning (RL) search of Merleau, O'Malley, Roldan & Mukherjee for the cubical puzzle.

1. **Prior from the target.** A breadth-first search from the target labels up to ``P``
   configurations (whole layers; the last layer is cut at ``P``) with their distance ``c`` and
   gives each the weight ``1 / 2^c``. Slides are reversible, so ``c`` is also the distance *to*
   the target. Every configuration the BFS did not reach gets ``1 / 2^(D + 1)``, ``D`` the
   deepest layer reached: further than anything labelled.
2. **Weighted random walks.** Each episode walks from the start; at each step it takes one of the
   legal slides with probability proportional to the value of the configuration it leads to. The
   value table ``V`` starts at the weights of step 1 (kept as sorted arrays) and holds one
   entry per configuration an update has touched.
3. **Rewards and decays.** An episode that reaches the target after ``T`` slides rewards every
   configuration ``s_t`` on its path (``t = 1..T``: the configuration after ``t`` slides; every
   visit counts) towards the discounted return, and an episode cut short decays the
   configurations it visited towards 0 (its return)::

       success:  V(s_t) <- V(s_t) + alpha * (gamma^(T - t) - V(s_t))
       failure:  V(s_t) <- V(s_t) + alpha * (0 - V(s_t))

   with ``alpha = 0.05`` and ``gamma = 0.95`` (the paper's). This is the natural reading of the
   paper's "rewards and decays"; it states neither the exact update nor ``P``.
4. **Cut.** An episode is cut when it grows longer than the best path found so far (before any
   solution: longer than ``max_steps``). The search runs ``episodes`` episodes and returns the
   shortest path found. Paths are reported as walked, revisits included (the paper does not say
   that it shortens them).

``P`` defaults to 100,000 (ours: the paper gives no value). All randomness comes from the
``numpy.random.Generator`` passed in (or made from a seed).
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import asdict, dataclass
from itertools import accumulate

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.hypercube.space import RingSpace
from exact.puzzles.hypercube.puzzle import HypercubePuzzle
from exact.result import SolveResult, Status
from learned.hypercube.ea import as_generator, check_start

SOLVER_VERSION = "1"


@dataclass(frozen=True)
class RLSettings:
    """Settings of :func:`solve_rl`, named as in the paper where it names them.

    Attributes:
        P: Most configurations the BFS from the target labels with ``1 / 2^c`` (ours: 100,000).
        alpha: Learning rate of the rewards and decays (paper: 0.05).
        gamma: Discount of the reward along a successful path (paper: 0.95).
        episodes: Random walks from the start (ours: 1000).
        max_steps: Longest episode before any solution is found (ours: 1000).
    """

    P: int = 100_000  # noqa: N815 - the paper's name
    alpha: float = 0.05
    gamma: float = 0.95
    episodes: int = 1000
    max_steps: int = 1000

    def __post_init__(self) -> None:
        for name in ("P", "episodes", "max_steps"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise PuzzleoptError(f"RL setting {name}={v!r} must be a whole number >= 1")
        if not 0 < self.alpha <= 1:
            raise PuzzleoptError(f"RL alpha={self.alpha} must be in (0, 1] (a learning rate)")
        if not 0 < self.gamma <= 1:
            raise PuzzleoptError(f"RL gamma={self.gamma} must be in (0, 1] (a discount)")


def bfs_prior(space: RingSpace, goal: int, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """The BFS from the target over up to ``limit`` configurations (step 1 of the module docstring).

    Returns:
        ``(codes, depth)``: int64 ``(n,)`` each, ``codes`` sorted, ``depth[i]`` the distance of
        ``codes[i]`` to the target; ``n <= limit``. The last layer, if cut, keeps its lowest codes.
    """
    layer = np.array([goal], dtype=np.int64)
    seen, layers = layer.copy(), [layer]
    total = 1
    while total < limit:
        child, _, _ = space.children(layer)
        child = np.unique(child)
        at = np.searchsorted(seen, child)
        new = child[(at >= len(seen)) | (seen[np.minimum(at, len(seen) - 1)] != child)]
        if len(new) == 0:
            break
        new = new[: limit - total]
        layers.append(new)
        total += len(new)
        seen = np.union1d(seen, new)
        layer = new
    codes = np.concatenate(layers)
    depth = np.concatenate([np.full(len(x), i, dtype=np.int64) for i, x in enumerate(layers)])
    order = np.argsort(codes)
    return codes[order], depth[order]


@njit(cache=True)
def _slides(code, dest, mask, row, d, rings):  # pragma: no cover - numba
    """The legal slides of one configuration: ``(children, rows)``, int64 each (RingSpace's rules)."""
    vmask = (1 << d) - 1
    occ = 0
    for r in range(rings):
        occ |= 1 << ((code >> (d * r)) & vmask)
    out_c = np.empty(rings * dest.shape[1], np.int64)
    out_r = np.empty(rings * dest.shape[1], np.int64)
    n = 0
    for r in range(rings):
        v = (code >> (d * r)) & vmask
        for j in range(dest.shape[1]):
            if dest[v, j] >= 0 and (occ & mask[v, j]) == 0:
                out_c[n] = code - (v << (d * r)) + (dest[v, j] << (d * r))
                out_r[n] = row[v, j]
                n += 1
    return out_c[:n], out_r[:n]


_PRIORS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _prior(puzzle: HypercubePuzzle, space: RingSpace, goal: int, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bfs_prior`, kept for the last few (puzzle, P): it is deterministic, and many runs share it."""
    key = (puzzle.d, puzzle.k, puzzle.goal.tobytes(), limit)
    if key not in _PRIORS:
        if len(_PRIORS) >= 4:
            _PRIORS.pop(next(iter(_PRIORS)))
        _PRIORS[key] = bfs_prior(space, goal, limit)
    return _PRIORS[key]


def solve_rl(
    puzzle: HypercubePuzzle,
    start: np.ndarray,
    settings: RLSettings | None = None,
    *,
    seed: int | np.random.Generator | None = None,
) -> SolveResult:
    """The shortest path the RL search finds (see the module docstring).

    Args:
        puzzle: The puzzle (its ``k`` and target).
        start: The start state, uint8 ``(2^d,)``: 0 empty, ``1..R`` the rings of the target.
        settings: :class:`RLSettings` (default: the paper's where it gives them).
        seed: An int seed or a ``numpy.random.Generator``: the only source of randomness.

    Returns:
        ``feasible`` with the shortest path found (not proven optimal), or ``limit`` if no episode
        reached the target. ``nodes`` counts the slides walked; ``extra`` holds the BFS size and
        depth, the episode of the first and of the best solution and the number of successes.
    """
    settings = settings or RLSettings()
    rng = as_generator(seed)
    t0 = time.perf_counter()
    space, s, a, goal = check_start(puzzle, start)
    cfg = {"k": puzzle.k, "d": puzzle.d, "seed": seed if not isinstance(seed, np.random.Generator) else "generator"}
    done = SolveResult.recorder(
        puzzle, s, solver="rl", solver_version=SOLVER_VERSION, settings=asdict(settings) | cfg, since=t0
    )
    if a == goal:
        return done([], Status.FEASIBLE, 0, 0, {"first_episode": 0, "best_episode": 0})
    codes, depth = _prior(puzzle, space, goal, settings.P)
    deepest = int(depth.max())
    floor = 0.5 ** (deepest + 1)
    at = int(np.searchsorted(codes, a))
    start_in_bfs = at < len(codes) and int(codes[at]) == a
    cache: dict[int, tuple[list[int], list[int], list[float]]] = {}

    def slides(code: int) -> tuple[list[int], list[int], list[float]]:
        # children and their prior weights are computed once per configuration: walks revisit a lot
        if code not in cache:
            child, row = _slides(code, space.dest, space.mask, space.row, space.d, space.rings)
            i = np.minimum(np.searchsorted(codes, child), len(codes) - 1)
            prior = np.where(codes[i] == child, 0.5 ** depth[i].astype(np.float64), floor)
            cache[code] = (child.tolist(), row.tolist(), prior.tolist())
        return cache[code]

    alpha, gamma = settings.alpha, settings.gamma
    values: dict[int, float] = {}  # learned values; a configuration not in it has its prior weight
    best: list[int] | None = None
    first_ep = best_ep = None
    walked = successes = 0
    for episode in range(settings.episodes):
        cap = settings.max_steps if best is None else len(best)
        code, path, priors, rows = a, [], [], []
        # one block of uniform numbers per episode: the same seed gives the same walks
        u = rng.random(cap).tolist()
        while code != goal and len(rows) < cap:
            child, row, prior = slides(code)
            if not child:
                break
            cum = list(accumulate(values.get(c, w) for c, w in zip(child, prior)))
            j = min(bisect_right(cum, u[len(rows)] * cum[-1]), len(child) - 1)
            path.append(code)
            code = child[j]
            priors.append(prior[j])
            rows.append(row[j])
        walked += len(rows)
        # path[t] is the configuration reached by rows[t]; the start keeps its value (never chosen)
        path = path[1:] + [code]
        if code == goal:
            successes += 1
            t_end = len(rows)
            for t, (c, w) in enumerate(zip(path, priors), start=1):
                v = values.get(c, w)
                values[c] = v + alpha * (gamma ** (t_end - t) - v)
            if best is None or len(rows) < len(best):
                best, best_ep = rows, episode
                first_ep = episode if first_ep is None else first_ep
        else:
            for c, w in zip(path, priors):
                v = values.get(c, w)
                values[c] = v - alpha * v
    extra = {
        "bfs_configurations": int(len(codes)),
        "bfs_depth": deepest,
        "start_in_bfs": start_in_bfs,
        "first_episode": first_ep,
        "best_episode": best_ep,
        "successes": successes,
        "configurations_seen": len(cache),
    }
    if best is None:
        return done([], Status.LIMIT, None, walked, extra)
    return done(best, Status.FEASIBLE, None, walked, extra)
