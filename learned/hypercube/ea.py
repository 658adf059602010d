"""The evolutionary algorithm (EA) of Merleau, O'Malley, Roldan & Mukherjee for the cubical puzzle.

An *agent* is a list of slides applied from the start. Each generation keeps the best 10% of the
population unchanged (elitism), draws the other 90% as parents in proportion to their selection
score and mutates each child: a Zipf-distributed number ``n`` of slides (``n = rng.zipf(c)``,
``c = 1.8``: mostly one or two slides, now and then a long jump) is appended to it, or replaces
its last ``n`` slides. An agent whose configuration reaches the target is a solution; the
shortest solution seen in any generation is returned.

The paper leaves some details open; this module reads them as follows.

* **Only legal slides.** Every slide an agent gains is drawn uniformly among the slides legal in
  the configuration the agent has reached (the rows of :class:`~exact.hypercube.space.RingSpace`),
  so every agent is a valid move sequence by construction. A configuration with no legal slide
  ends the mutation early.
* **Append or change.** A mutation appends ``n`` slides with probability 1/2 and otherwise
  *changes* the agent's last ``n`` slides (cuts them and grows ``n`` new ones from the
  configuration left): changing a slide in the middle would make the slides after it illegal.
  An agent that is already a solution is always changed, never appended to (appending can only
  undo it). ``n`` is clipped to ``max_length``, the longest agent allowed.
* **Stop at the target.** A mutation stops as soon as the agent reaches the target, so a
  solution never walks on past it.
* **Selection score.** With ``H`` the Hamming distance between the agent's configuration and the
  target (the number of vertices whose label differs, uint8 state vectors) and ``L`` its number
  of slides, the score mixes fitness and length with the selection force ``alpha``::

      score = (1 - alpha) / (1 + H) + alpha * (1 - L / L_max)

  ``L_max`` is the longest agent of the current population (the length term is 1 when every agent
  is empty). Both terms lie in ``[0, 1]``; ``alpha = 0`` is pure fitness selection.
* **Elites** are the ``round(elitism * population)`` agents of highest score (ties: smaller
  ``H``, then fewer slides) and are copied without mutation.
* **Generations.** Generation 0 mutates every (empty) agent once, giving the random initial
  population; then ``generations`` rounds of selection and mutation follow. All generations run:
  the paper reports the distribution of the best length, not a time to first solution.

Randomness comes only from the ``numpy.random.Generator`` passed in (or made from a seed): the
numba kernel receives its uniform numbers from it, so the same seed gives the same result.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from exact.errors import PuzzleoptError
from exact.hypercube.space import check_start
from exact.puzzles.hypercube.puzzle import HypercubePuzzle
from exact.result import SolveResult, Status

SOLVER_VERSION = "1"


@dataclass(frozen=True)
class EASettings:
    """Settings of :func:`solve_ea`, named as in the paper (defaults: the paper's).

    Attributes:
        population: Number of agents ``N`` (paper: 1000).
        generations: Rounds of selection and mutation (paper: 1000).
        c: Exponent of the Zipf law of the number of slides per mutation (paper: 1.8; must be > 1).
        alpha: Selection force: weight of the length term in the score (paper: 0.2).
        elitism: Fraction of the population copied unchanged to the next generation (paper: 10%).
        max_length: Most slides an agent may hold (ours; the paper states none). Also clips ``n``.
    """

    population: int = 1000
    generations: int = 1000
    c: float = 1.8
    alpha: float = 0.2
    elitism: float = 0.1
    max_length: int = 256

    def __post_init__(self) -> None:
        for name in ("population", "generations", "max_length"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise PuzzleoptError(f"EA setting {name}={v!r} must be a whole number")
        if self.population < 2:
            raise PuzzleoptError(f"EA population={self.population} must be at least 2")
        if self.generations < 0:
            raise PuzzleoptError(f"EA generations={self.generations} must be 0 or more")
        if self.max_length < 1:
            raise PuzzleoptError(f"EA max_length={self.max_length} must be at least 1")
        if not self.c > 1:
            raise PuzzleoptError(f"EA Zipf exponent c={self.c} must be greater than 1 (numpy's zipf needs it)")
        if not 0 <= self.alpha <= 1:
            raise PuzzleoptError(f"EA selection force alpha={self.alpha} must be from 0 to 1")
        if not 0 <= self.elitism < 1:
            raise PuzzleoptError(f"EA elitism={self.elitism} must be a fraction from 0 to below 1 (0.1 = 10%)")


def as_generator(seed: int | np.random.Generator | None) -> np.random.Generator:
    """``seed`` itself if it is a Generator, else ``numpy.random.default_rng(seed)``."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
        raise PuzzleoptError(f"seed={seed!r} must be a whole number >= 0 or a numpy Generator")
    return np.random.default_rng(seed)


@njit(cache=True)
def _mutate(paths, moves, lengths, agents, counts, change, u, dest, mask, row, d, rings, goal):  # pragma: no cover
    """Mutate ``agents`` in place (see the module docstring); returns the number of slides made.

    ``paths`` int64 ``(N, cap + 1)``: the configuration codes along each agent; ``moves`` int64
    ``(N, cap)``: its table rows; ``lengths`` int64 ``(N,)``. ``counts``/``change``: the ``n`` and
    the mode of each mutation; ``u``: ``sum(counts)`` uniform numbers, one per slide drawn.
    """
    cap = moves.shape[1]
    vmask = (1 << d) - 1
    width = dest.shape[1]
    made = 0
    off = 0
    for a in range(agents.shape[0]):
        i = agents[a]
        n = counts[a]
        length = lengths[i]
        if change[a] or paths[i, length] == goal:
            length = max(0, length - n)
        for t in range(n):
            if length >= cap:
                break
            code = paths[i, length]
            occ = 0
            for r in range(rings):
                occ |= 1 << ((code >> (d * r)) & vmask)
            legal = 0
            for r in range(rings):
                v = (code >> (d * r)) & vmask
                for j in range(width):
                    if dest[v, j] >= 0 and (occ & mask[v, j]) == 0:
                        legal += 1
            if legal == 0:
                break
            pick = min(int(u[off + t] * legal), legal - 1)
            done = False
            for r in range(rings):
                v = (code >> (d * r)) & vmask
                for j in range(width):
                    if dest[v, j] >= 0 and (occ & mask[v, j]) == 0:
                        if pick == 0:
                            paths[i, length + 1] = code - (v << (d * r)) + (dest[v, j] << (d * r))
                            moves[i, length] = row[v, j]
                            done = True
                            break
                        pick -= 1
                if done:
                    break
            length += 1
            made += 1
            if paths[i, length] == goal:
                break
        off += n
        lengths[i] = length
    return made


def solve_ea(
    puzzle: HypercubePuzzle,
    start: np.ndarray,
    settings: EASettings | None = None,
    *,
    seed: int | np.random.Generator | None = None,
) -> SolveResult:
    """The shortest solution the EA finds (see the module docstring).

    Args:
        puzzle: The puzzle (its ``k`` and target).
        start: The start state, uint8 ``(2^d,)``: 0 empty, ``1..R`` the rings of the target.
        settings: :class:`EASettings` (default: the paper's).
        seed: An int seed or a ``numpy.random.Generator``: the only source of randomness.

    Returns:
        ``feasible`` with the shortest solution found (not proven optimal), or ``limit`` if no
        agent reached the target. ``nodes`` counts the slides made; ``extra`` holds the generation
        of the first and of the best solution and the number of solved agents at the end.
    """
    settings = settings or EASettings()
    rng = as_generator(seed)
    t0 = time.perf_counter()
    space, s, a, goal = check_start(puzzle, start)
    cfg = {"k": puzzle.k, "d": puzzle.d, "seed": seed if not isinstance(seed, np.random.Generator) else "generator"}
    done = SolveResult.recorder(
        puzzle, s, solver="ea", solver_version=SOLVER_VERSION, settings=asdict(settings) | cfg, since=t0
    )
    if a == goal:
        return done([], Status.FEASIBLE, 0, 0, {"first_generation": 0, "best_generation": 0})
    n, cap = settings.population, settings.max_length
    n_elite = round(settings.elitism * n)
    paths = np.full((n, cap + 1), a, dtype=np.int64)
    moves = np.full((n, cap), -1, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    tpos = space.positions(np.array([goal]))[0]
    made = 0
    best: np.ndarray | None = None
    first_gen = best_gen = None

    def mutate(agents: np.ndarray) -> int:
        counts = np.minimum(rng.zipf(settings.c, size=len(agents)), cap).astype(np.int64)
        change = rng.random(len(agents)) < 0.5
        u = rng.random(int(counts.sum()))
        return int(
            _mutate(paths, moves, lengths, agents, counts, change, u, space.dest, space.mask, space.row,
                    space.d, space.rings, goal)
        )  # fmt: skip

    made += mutate(np.arange(n, dtype=np.int64))
    for gen in range(settings.generations + 1):
        ends = paths[np.arange(n), lengths]
        solved = np.flatnonzero(ends == goal)
        if len(solved):
            i = int(solved[np.argmin(lengths[solved])])
            if best is None or lengths[i] < len(best):
                best, best_gen = moves[i, : lengths[i]].copy(), gen
                first_gen = gen if first_gen is None else first_gen
        if gen == settings.generations:
            break
        # Hamming distance of the label vectors: a ring off its target mismatches on its own vertex and on its target's
        pos = space.positions(ends)
        off = pos != tpos
        wrong = np.zeros((n, 1 << space.d), dtype=bool)
        rows = np.broadcast_to(np.arange(n)[:, None], pos.shape)
        wrong[rows[off], pos[off]] = True
        wrong[rows[off], np.broadcast_to(tpos, pos.shape)[off]] = True
        ham = wrong.sum(axis=1)
        longest = int(lengths.max())
        length_term = 1.0 - lengths / longest if longest else np.ones(n)
        score = (1 - settings.alpha) / (1.0 + ham) + settings.alpha * length_term
        order = np.lexsort((lengths, ham, -score))
        total = score.sum()
        p = score / total if total > 0 else None
        idx = np.concatenate([order[:n_elite], rng.choice(n, size=n - n_elite, p=p)])
        paths, moves, lengths = paths[idx], moves[idx], lengths[idx]
        made += mutate(np.arange(n_elite, n, dtype=np.int64))
    extra = {
        "first_generation": first_gen,
        "best_generation": best_gen,
        "solved_agents_at_end": int(len(solved)),
    }
    if best is None:
        return done([], Status.LIMIT, None, made, extra)
    return done(best.tolist(), Status.FEASIBLE, None, made, extra)
