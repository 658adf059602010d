"""The reinforcement-learning (RL) search of Merleau, O'Malley, Roldan & Mukherjee for the cubical puzzle.

1. **Prior from the target.** A breadth-first search from the target labels up to ``P``
   configurations (whole layers; the last layer is cut at ``P``) with their distance ``c`` and
   gives each the weight ``1 / 2^c``. Slides are reversible, so ``c`` is also the distance *to*
   the target. Every configuration the BFS did not reach gets ``1 / 2^(D + 1)``, ``D`` the
   deepest layer reached: further than anything labelled.
2. **Weighted random walks.** Each episode walks from the start; at each step it takes one of the
   legal slides with probability proportional to the value of the configuration it leads to. The
   value table ``V`` starts at the weights of step 1; a configuration keeps its weight until an
   update touches it. (Implementation: the episodes run in the numba kernel ``_episode`` on an
   open-addressing hash table in numpy arrays that starts with the BFS weights.)
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
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.hypercube.space import RingSpace, check_start
from exact.puzzles.hypercube.puzzle import HypercubePuzzle
from exact.result import SolveResult, Status
from learned.hypercube.ea import as_generator

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
        new, _, _ = space.next_layer(layer, seen)
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


_PRIORS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _prior(puzzle: HypercubePuzzle, space: RingSpace, goal: int, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bfs_prior`, kept for the last few (puzzle, P): it is deterministic, and many runs share it."""
    key = (puzzle.d, puzzle.k, puzzle.goal.tobytes(), limit)
    if key not in _PRIORS:
        if len(_PRIORS) >= 4:
            _PRIORS.pop(next(iter(_PRIORS)))
        _PRIORS[key] = bfs_prior(space, goal, limit)
    return _PRIORS[key]


_EMPTY = -1
_SEEN = 1 << 62  # flag on a key: that configuration has been expanded (codes use at most 62 bits)
_CODE = _SEEN - 1


@njit(cache=True)
def _slot(keys, code):  # pragma: no cover - numba
    """The slot of ``code`` in the open-addressing table ``keys`` (linear probing, ``-1`` empty,
    ``len(keys)`` a power of two): where it is, or the empty slot where it would go."""
    m = len(keys) - 1
    x = code ^ (code >> 31)
    x *= -7046029254386353131  # 0x9E3779B97F4A7C15, a Fibonacci multiplier (wraps)
    x ^= x >> 29
    i = x & m
    while keys[i] != _EMPTY and (keys[i] & _CODE) != code:
        i = (i + 1) & m
    return i


@njit(cache=True)
def _fill(keys, vals, codes, weights):  # pragma: no cover - numba
    """Put ``codes`` (distinct) with values ``weights`` into the empty table ``keys``/``vals``."""
    for i in range(len(codes)):
        s = _slot(keys, codes[i] & _CODE)
        keys[s] = codes[i]
        vals[s] = weights[i]


@njit(cache=True)
def _episode(
    u, cap, start, goal, alpha, floor, gpow, keys, vals, meta, seq, rows, dest, mask, row, d, rings
):  # pragma: no cover - numba
    """One episode (steps 2-4 of the module docstring), updating the value table in place.

    ``keys``/``vals``: the hash table of values, code to value. It starts with the BFS weights; a
    configuration not in it has the value ``floor`` (the weight of every configuration the BFS
    missed), so adding one with its prior weight changes nothing. A key with ``_SEEN`` set has been
    expanded. ``meta``: entries in the table, configurations expanded. ``u``: ``cap`` uniform
    numbers, one per step. Writes the rows walked to ``rows`` and the configurations reached to
    ``seq``; returns ``(T, reached)``. The caller leaves room for ``cap + 1`` new entries.
    """
    width = dest.shape[1]
    kids = np.empty(rings * width, np.int64)
    krow = np.empty(rings * width, np.int64)
    cum = np.empty(rings * width, np.float64)
    vmask = (1 << d) - 1
    code = start
    t = 0
    while code != goal and t < cap:
        s = _slot(keys, code)
        if keys[s] == _EMPTY:
            keys[s] = code | _SEEN
            vals[s] = floor
            meta[0] += 1
            meta[1] += 1
        elif keys[s] < _SEEN:
            keys[s] |= _SEEN
            meta[1] += 1
        # the legal slides (RingSpace.children's rules) and the cumulative values of the configurations they reach
        occ = 0
        for r in range(rings):
            occ |= 1 << ((code >> (d * r)) & vmask)
        n = 0
        acc = 0.0
        for r in range(rings):
            v = (code >> (d * r)) & vmask
            for j in range(width):
                if dest[v, j] >= 0 and (occ & mask[v, j]) == 0:
                    c = code - (v << (d * r)) + (dest[v, j] << (d * r))
                    q = _slot(keys, c)
                    acc += floor if keys[q] == _EMPTY else vals[q]
                    kids[n] = c
                    krow[n] = row[v, j]
                    cum[n] = acc
                    n += 1
        if n == 0:
            break
        x = u[t] * acc
        j = 0  # bisect_right: the first cumulative value above x
        while j < n and cum[j] <= x:
            j += 1
        if j > n - 1:
            j = n - 1
        code = kids[j]
        seq[t] = code
        rows[t] = krow[j]
        t += 1
    reached = code == goal
    for i in range(t):
        s = _slot(keys, seq[i])
        if keys[s] == _EMPTY:
            keys[s] = seq[i]
            vals[s] = floor
            meta[0] += 1
        v = vals[s]
        if reached:
            vals[s] = v + alpha * (gpow[t - 1 - i] - v)
        else:
            vals[s] = v - alpha * v
    return t, reached


def _table(codes: np.ndarray, weights: np.ndarray, entries: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty-enough hash table (load at most 1/2 with ``entries``) holding ``codes``/``weights``."""
    size = 1 << 10
    while size < 2 * entries:
        size *= 2
    keys = np.full(size, _EMPTY, np.int64)
    vals = np.zeros(size, np.float64)
    _fill(keys, vals, codes, weights)
    return keys, vals


def solve_rl(
    puzzle: HypercubePuzzle,
    start: np.ndarray,
    settings: RLSettings | None = None,
    *,
    seed: int | np.random.Generator | None = None,
) -> SolveResult:
    """The shortest path the RL search finds (see the module docstring).

    The episodes run in a numba kernel (:func:`_episode`) on a hash table of values in numpy
    arrays. Each episode draws its block of ``cap`` uniform numbers (one per step, ``cap`` the
    episode's step limit) from the generator, so the same seed gives the same walks.

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
    weights = 0.5 ** depth.astype(np.float64)
    at = int(np.searchsorted(codes, a))
    start_in_bfs = at < len(codes) and int(codes[at]) == a
    alpha, gamma = float(settings.alpha), float(settings.gamma)
    gpow = np.array([gamma**i for i in range(settings.max_steps + 1)], dtype=np.float64)
    keys, vals = _table(codes, weights, len(codes) + settings.max_steps + 1)
    meta = np.array([len(codes), 0], np.int64)  # entries in the table, configurations expanded
    seq = np.zeros(settings.max_steps, np.int64)
    rows = np.zeros(settings.max_steps, np.int64)
    slides = (space.dest, space.mask, space.row, space.d, space.rings)
    best: list[int] | None = None
    first_ep = best_ep = None
    walked = successes = 0
    for episode in range(settings.episodes):
        cap = settings.max_steps if best is None else len(best)
        # one block of uniform numbers per episode: the same seed gives the same walks
        u = rng.random(cap)
        if 2 * (int(meta[0]) + cap + 1) > len(keys):  # keep the load at most 1/2
            live = keys != _EMPTY
            keys, vals = _table(keys[live], vals[live], int(meta[0]) + cap + 1)
        t, reached = _episode(u, cap, a, goal, alpha, floor, gpow, keys, vals, meta, seq, rows, *slides)
        walked += int(t)
        if reached:
            successes += 1
            if best is None or t < len(best):
                best, best_ep = rows[:t].tolist(), episode
                first_ep = episode if first_ep is None else first_ep
    extra = {
        "bfs_configurations": int(len(codes)),
        "bfs_depth": deepest,
        "start_in_bfs": start_in_bfs,
        "first_episode": first_ep,
        "best_episode": best_ep,
        "successes": successes,
        "configurations_seen": int(meta[1]),
    }
    if best is None:
        return done([], Status.LIMIT, None, walked, extra)
    return done(best, Status.FEASIBLE, None, walked, extra)
