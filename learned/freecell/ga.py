"""GA-FreeCell: a genetic algorithm with Hillis-style coevolution that evolves the heuristic's weights.

Two populations evolve together (Elyasaf, Hauptman & Sipper, after Hillis' host-parasite scheme):

* **Solvers**: each is the 9 weights of :mod:`learned.freecell.heuristics`, each in ``[0, 1)``,
  drawn uniformly at first.
* **Deal individuals**: each is ``deals_per_individual`` (6) training deals
  (:func:`learned.freecell.deals.training_deals`), drawn uniformly at first.

Each generation every solver meets ``opponents`` deal individuals (a fresh random permutation of
the deal population per round, so every deal individual is met about equally often) and runs
:func:`~learned.freecell.hsd.search_hsd` on their deals with a node limit ``L`` (the paper's
2-minute cut-off; nodes, unlike seconds, make the GA deterministic and independent of the load).
Heineman's heuristic alone (HSDH) runs on every deal once (cached): ``n_H`` nodes, or ``L`` when
it fails. With ``n`` the solver's nodes, or ``penalty * L`` when it fails:

* a solver's fitness is its mean node reduction against HSDH, ``1 - n / n_H`` per deal, clipped to
  ``[-2, 1]`` so that one failure on a deal easy for HSDH does not outweigh everything else;
* a deal individual's fitness is how hard it was: the mean of ``n / (penalty * L)`` over the
  solver runs on its deals (1 = nobody solved it).

Each population then breeds on its own: the ``elite`` best are copied; the others are children of
two parents picked by tournaments of ``tournament``. Solvers: one-point crossover (probability
``crossover``), then each weight, with probability ``mutation``, moves by a normal step of
``mutation_step`` (clipped into ``[0, 1)``). Deal individuals: one-point crossover, then each deal,
with probability ``mutation``, is replaced by a random training deal.

After the last generation the best solver of every generation and the ``finalists`` best of the
last population are run on ``validation`` training deals (the same for all, seeded; each with the
node limit); the one that solves most, then with the fewest mean nodes, is the result.

The run is deterministic given the seed: all randomness comes from one ``numpy.random.Generator``
in the main process (evaluations, in worker processes or not, are pure). After every generation a
JSON checkpoint (settings, populations, the generator's state, the HSDH cache, the history) is
written atomically; :func:`evolve` with ``resume=True`` continues from it and ends exactly where an
uninterrupted run would have.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from exact.atomic import seal_holds, sealed, write_chunks
from exact.errors import PuzzleoptError
from exact.executor import Executor, InProcess
from exact.progress import bar as progress_bar
from exact.puzzles.freecell import autoplay, ms_deal
from learned.freecell.deals import SPLIT_SEED, training_deals
from learned.freecell.heuristics import HSDH, NAMES, NUM_FEATURES
from learned.freecell.hsd import search_hsd
from learned.freecell.weights import Weights

CHECKPOINT_FORMAT = "puzzleopt-freecell-ga-checkpoint"
CHECKPOINT_VERSION = 2  # 2: with a sha256 of the rest (exact.atomic.sealed)
_TOP = np.nextafter(1.0, 0.0)  # weights live in [0, 1)


@dataclass(frozen=True)
class GASettings:
    """Settings of :func:`evolve` (the paper's in brackets; ours are scaled to a 2-core machine).

    Attributes:
        population: Solvers (paper: 40-60).
        deal_population: Deal individuals.
        deals_per_individual: Deals per deal individual (paper: 6).
        opponents: Deal individuals each solver meets per generation.
        generations: Generations.
        node_limit: Nodes per deal before a run counts as failed (paper: 2 minutes).
        penalty: A failed run counts as ``penalty * node_limit`` nodes.
        k: Stage depth of the search.
        tt_limit: Transposition-table size (paper: 200,000, for its memory; ours takes 8 bytes a key).
        elite: Individuals copied unchanged into the next generation (each population).
        tournament: Tournament size of parent selection.
        crossover: Probability of one-point crossover.
        mutation: Probability that a weight is changed (a deal replaced).
        mutation_step: Standard deviation of a weight's change.
        finalists: Best solvers of the last generation that enter the final validation.
        validation: Training deals of the final validation.
        training_size: How many of the training deals the deal individuals draw from (all 1,000
            by default; fewer for tests).
    """

    population: int = 30
    deal_population: int = 30
    deals_per_individual: int = 6
    opponents: int = 2
    generations: int = 20
    node_limit: int = 1_000_000
    penalty: float = 2.0
    k: int = 4
    tt_limit: int = 4_000_000
    elite: int = 2
    tournament: int = 3
    crossover: float = 0.7
    mutation: float = 0.15
    mutation_step: float = 0.15
    finalists: int = 4
    validation: int = 100
    training_size: int = 1000

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.type == "int" and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                if not (f.name in ("elite",) and isinstance(v, int) and v == 0):
                    raise PuzzleoptError(f"GA setting {f.name} must be an integer >= 1, got {v!r}")
        for name in ("crossover", "mutation"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise PuzzleoptError(f"GA setting {name} must be a probability in [0, 1], got {v!r}")
        if self.mutation_step <= 0 or self.penalty < 1:
            raise PuzzleoptError("GA settings: mutation_step must be > 0 and penalty >= 1")
        if self.elite >= self.population or self.elite >= self.deal_population:
            raise PuzzleoptError(f"GA setting elite={self.elite} must be below both population sizes")
        if self.training_size > len(training_deals()) or self.validation > self.training_size:
            raise PuzzleoptError(
                f"GA settings: training_size (<= {len(training_deals())}) must hold the validation deals "
                f"({self.validation})"
            )


# --------------------------------------------------------------------------------------------- evaluation
def run_deal(weights: tuple[float, ...], deal: int, k: int, node_limit: int, tt_limit: int) -> tuple[bool, int]:
    """Whether staged deepening with ``weights`` solves ``deal`` within ``node_limit`` nodes, and its nodes."""
    start, _ = autoplay(ms_deal(deal))
    if start.is_solved():
        return True, 0
    out = search_hsd(start, np.array(weights, dtype=np.float64), k=k, node_limit=node_limit, tt_limit=tt_limit)
    return out.codes is not None, out.nodes


def _run_task(shared: tuple[int, int, int], pair: tuple[tuple[float, ...], int]) -> tuple[bool, int]:
    k, node_limit, tt_limit = shared
    return run_deal(pair[0], pair[1], k, node_limit, tt_limit)


class _Evaluator:
    """Runs (weights, deal) pairs on an executor (:mod:`exact.executor`) and caches the answers."""

    def __init__(self, settings: GASettings, executor: Executor, progress: bool) -> None:
        self.s = settings
        self.executor = executor
        self.progress = progress
        self.cache: dict[tuple[tuple[float, ...], int], tuple[bool, int]] = {}

    def run(self, pairs: Iterable[tuple[tuple[float, ...], int]], what: str) -> None:
        todo = list(dict.fromkeys(p for p in pairs if p not in self.cache))
        if not todo:
            return
        shared = (self.s.k, self.s.node_limit, self.s.tt_limit)
        with progress_bar(self.progress, total=len(todo), desc=what, leave=False) as bar:
            for i, res in self.executor.map(_run_task, todo, shared):
                self.cache[todo[i]] = res
                bar.update(1)


def _key(w: np.ndarray | Iterable[float]) -> tuple[float, ...]:
    return tuple(float(x) for x in w)


def _reduction(solved: bool, nodes: int, base: tuple[bool, int], s: GASettings) -> float:
    n = nodes if solved else s.penalty * s.node_limit
    n_h = base[1] if base[0] else s.node_limit
    return float(np.clip(1.0 - n / max(n_h, 1), -2.0, 1.0))


def _hardness(solved: bool, nodes: int, s: GASettings) -> float:
    n = nodes if solved else s.penalty * s.node_limit
    return float(n / (s.penalty * s.node_limit))


# --------------------------------------------------------------------------------------------- breeding
def _tournament(rng: np.random.Generator, fitness: np.ndarray, size: int) -> int:
    picks = rng.integers(0, len(fitness), size=size)
    return int(picks[np.argmax(fitness[picks])])


def _one_point(rng: np.random.Generator, a: list, b: list, p: float) -> list:
    if len(a) > 1 and rng.random() < p:
        cut = int(rng.integers(1, len(a)))
        return a[:cut] + b[cut:]
    return list(a)


def _breed_solvers(rng: np.random.Generator, pop: np.ndarray, fitness: np.ndarray, s: GASettings) -> np.ndarray:
    order = np.argsort(-fitness, kind="stable")
    out = [pop[i].copy() for i in order[: s.elite]]
    while len(out) < s.population:
        a = pop[_tournament(rng, fitness, s.tournament)]
        b = pop[_tournament(rng, fitness, s.tournament)]
        child = np.array(_one_point(rng, list(a), list(b), s.crossover))
        hit = rng.random(NUM_FEATURES) < s.mutation
        child = np.where(hit, child + rng.normal(0.0, s.mutation_step, NUM_FEATURES), child)
        child = np.clip(child, 0.0, _TOP)
        if not np.any(child > 0):
            child[0] = rng.random()
        out.append(child)
    return np.array(out)


def _breed_deals(
    rng: np.random.Generator, pop: list[list[int]], fitness: np.ndarray, pool: tuple[int, ...], s: GASettings
) -> list[list[int]]:
    order = np.argsort(-fitness, kind="stable")
    out = [list(pop[i]) for i in order[: s.elite]]
    while len(out) < s.deal_population:
        a = pop[_tournament(rng, fitness, s.tournament)]
        b = pop[_tournament(rng, fitness, s.tournament)]
        child = _one_point(rng, a, b, s.crossover)
        for i in range(len(child)):
            if rng.random() < s.mutation:
                child[i] = int(pool[int(rng.integers(0, len(pool)))])
        out.append(child)
    return out


# --------------------------------------------------------------------------------------------- checkpoint
def _write_checkpoint(path: Path, state: dict[str, Any]) -> None:
    doc = sealed({"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, **state})
    write_chunks(path, [(json.dumps(doc) + "\n").encode()])


def _read_checkpoint(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PuzzleoptError(f"checkpoint {path} does not exist; run without --resume to start afresh") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PuzzleoptError(f"checkpoint {path} cannot be read ({exc}); delete it and start afresh") from None
    if not isinstance(doc, dict) or doc.get("format") != CHECKPOINT_FORMAT or doc.get("version") != CHECKPOINT_VERSION:
        raise PuzzleoptError(
            f"checkpoint {path} is not a GA-FreeCell checkpoint of version {CHECKPOINT_VERSION}; "
            "give the file that 'evolve' wrote, or start afresh without --resume"
        )
    if not seal_holds(doc):
        raise PuzzleoptError(
            f"checkpoint {path} is damaged or edited: its contents do not match its sha256; delete it and start afresh"
        )
    return {k: v for k, v in doc.items() if k != "sha256"}


@dataclass(frozen=True)
class EvolveResult:
    """What :func:`evolve` made: the chosen weights (with their training record) and the history."""

    weights: Weights
    history: list[dict[str, Any]]
    checkpoint: Path


def default_checkpoint(out: str | Path) -> Path:
    """The checkpoint beside a weights file: ``ga.json`` -> ``ga.checkpoint.json``."""
    out = Path(out)
    return out.with_name(out.stem + ".checkpoint.json")


def evolve(
    settings: GASettings | None = None,
    *,
    seed: int = 0,
    checkpoint: str | Path,
    resume: bool = False,
    executor: Executor | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> EvolveResult:
    """Evolve heuristic weights (module docstring).

    Args:
        settings: The GA's settings (default :class:`GASettings`).
        seed: Seed of the one ``numpy.random.Generator`` of the run.
        checkpoint: The JSON checkpoint, rewritten atomically after every generation.
        resume: Continue from ``checkpoint`` (its settings and seed must match, except that
            ``generations`` may grow).
        executor: Where the searches run (:mod:`exact.executor`; default: in this process). The
            result does not depend on it. A given executor is left open for its owner to close.
        progress: Show tqdm progress bars.
        log: Called with one line per generation (e.g. ``print``).

    Returns:
        The :class:`EvolveResult`; save its ``weights`` with :func:`learned.freecell.weights.save`.
    """
    s = settings or GASettings()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise PuzzleoptError(f"seed must be an integer >= 0, got {seed!r}")
    checkpoint = Path(checkpoint)
    pool = training_deals()[: s.training_size]
    g = _resumed(checkpoint, s, seed) if resume else _fresh(s, seed, pool)
    executor = executor or InProcess()
    ev = _Evaluator(s, executor, progress)
    hsdh = _key(HSDH)
    ev.cache.update({(hsdh, d): v for d, v in g.baseline.items()})
    bar = progress_bar(progress, total=s.generations, initial=min(g.generation, s.generations), desc="generations")
    while g.generation < s.generations:
        _generation(g, s, ev, hsdh, pool, log)
        _write_checkpoint(checkpoint, g.to_dict(s, seed))
        bar.update(1)
    bar.close()
    weights = _chosen(g, s, ev, hsdh, seed, pool, executor)
    return EvolveResult(weights, g.history, checkpoint)


@dataclass
class _GA:
    """The state of a run between generations: what a checkpoint holds."""

    rng: np.random.Generator
    generation: int
    solvers: np.ndarray  # (population, NUM_FEATURES) float64
    deal_pop: list[list[int]]
    baseline: dict[int, tuple[bool, int]]
    history: list[dict]
    ranking: list[list[float]]
    seconds: float

    def to_dict(self, s: GASettings, seed: int) -> dict:
        return {
            "settings": asdict(s), "seed": seed, "generation": self.generation, "rng": self.rng.bit_generator.state,
            "solvers": self.solvers.tolist(), "deal_population": self.deal_pop,
            "baseline": {str(d): list(v) for d, v in sorted(self.baseline.items())}, "history": self.history,
            "ranking": self.ranking, "seconds": self.seconds,
        }  # fmt: skip


def _fresh(s: GASettings, seed: int, pool) -> _GA:
    rng = np.random.default_rng(seed)
    solvers = np.clip(rng.random((s.population, NUM_FEATURES)), 0.0, _TOP)
    deal_pop = [[int(pool[int(i)]) for i in rng.integers(0, len(pool), s.deals_per_individual)]
                for _ in range(s.deal_population)]  # fmt: skip
    return _GA(rng, 0, solvers, deal_pop, {}, [], [], 0.0)


def _resumed(checkpoint: Path, s: GASettings, seed: int) -> _GA:
    """The run a checkpoint holds, checked against the settings and seed asked for."""
    doc = _read_checkpoint(checkpoint)
    try:
        theirs = dict(doc["settings"])
        same = {k: v for k, v in theirs.items() if k != "generations"} == {
            k: v for k, v in asdict(s).items() if k != "generations"
        }
        if not same or doc["seed"] != seed:
            raise PuzzleoptError(
                f"checkpoint {checkpoint} was made with seed {doc['seed']} and settings {theirs}; resume with "
                "the same seed and settings (only --generations may change), or start afresh without --resume"
            )
        rng = np.random.default_rng(seed)
        rng.bit_generator.state = doc["rng"]
        g = _GA(
            rng, int(doc["generation"]), np.array(doc["solvers"], dtype=np.float64),
            [list(map(int, d)) for d in doc["deal_population"]],
            {int(d): (bool(v[0]), int(v[1])) for d, v in doc["baseline"].items()},
            list(doc["history"]), list(doc["ranking"]), float(doc["seconds"]),
        )  # fmt: skip
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, PuzzleoptError):
            raise
        raise PuzzleoptError(
            f"checkpoint {checkpoint} is damaged ({type(exc).__name__}: {exc}); delete it and start afresh"
        ) from None
    if g.generation > s.generations:
        raise PuzzleoptError(
            f"checkpoint {checkpoint} already holds {g.generation} generations, more than the {s.generations} asked "
            "for; ask for at least as many"
        )
    if g.solvers.shape != (s.population, NUM_FEATURES) or len(g.deal_pop) != s.deal_population:
        raise PuzzleoptError(f"checkpoint {checkpoint} is damaged (population sizes); delete it and start afresh")
    return g


def _generation(g: _GA, s: GASettings, ev: _Evaluator, hsdh, pool, log) -> None:
    """One generation: every solver meets ``opponents`` deal individuals; fitness, history, then
    the next populations bred."""
    t0 = time.perf_counter()
    # Who meets whom: `opponents` rounds, each a permutation of the deal individuals.
    meets: list[list[int]] = [[] for _ in range(s.population)]
    for _ in range(s.opponents):
        perm = g.rng.permutation(s.deal_population)
        for i in range(s.population):
            meets[i].append(int(perm[i % s.deal_population]))
    keys = [_key(w) for w in g.solvers]
    deals_of = [[d for j in meets[i] for d in g.deal_pop[j]] for i in range(s.population)]
    ev.run([(hsdh, d) for ds in deals_of for d in ds], f"gen {g.generation}: HSDH")
    for ds in deals_of:
        for d in ds:
            g.baseline[d] = ev.cache[(hsdh, d)]
    ev.run([(keys[i], d) for i in range(s.population) for d in deals_of[i]], f"gen {g.generation}: solvers")
    fit, solved = np.zeros(s.population), np.zeros(s.population)
    hard_sum, hard_n = np.zeros(s.deal_population), np.zeros(s.deal_population)
    for i in range(s.population):
        red = []
        for j in meets[i]:
            for d in g.deal_pop[j]:
                ok, n = ev.cache[(keys[i], d)]
                red.append(_reduction(ok, n, g.baseline[d], s))
                hard_sum[j] += _hardness(ok, n, s)
                hard_n[j] += 1
                solved[i] += ok
        fit[i] = float(np.mean(red))
    deal_fit = hard_sum / np.maximum(hard_n, 1)
    best = int(np.argmax(fit))
    g.seconds += time.perf_counter() - t0
    g.history.append({
        "generation": g.generation, "best_fitness": round(float(fit[best]), 6),
        "mean_fitness": round(float(fit.mean()), 6), "best_weights": [float(x) for x in g.solvers[best]],
        "best_solved": f"{int(solved[best])}/{len(deals_of[best])}",
        "mean_deal_hardness": round(float(deal_fit.mean()), 6), "seconds": round(g.seconds, 1),
    })  # fmt: skip
    if log is not None:
        h = g.history[-1]
        log(
            f"generation {g.generation}: best fitness {h['best_fitness']:.4f} (solved {h['best_solved']}), "
            f"mean {h['mean_fitness']:.4f}, deal hardness {h['mean_deal_hardness']:.3f}, {g.seconds:.0f} s"
        )
    g.generation += 1
    # The ranking of the population just evaluated (the finalists come from the last one).
    g.ranking = [[float(x) for x in g.solvers[i]] for i in np.argsort(-fit, kind="stable")[: s.finalists]]
    g.solvers = _breed_solvers(g.rng, g.solvers, fit, s)
    g.deal_pop = _breed_deals(g.rng, g.deal_pop, deal_fit, pool, s)


def _chosen(g: _GA, s: GASettings, ev: _Evaluator, hsdh, seed: int, pool, executor) -> Weights:
    """The final choice: each generation's best and the last generation's finalists, on
    validation deals; the weights with their training record."""
    t0 = time.perf_counter()
    vrng = np.random.default_rng([seed, 1])
    vdeals = sorted(int(d) for d in vrng.choice(np.array(pool), size=s.validation, replace=False))
    cands = list(dict.fromkeys([_key(h["best_weights"]) for h in g.history] + [_key(w) for w in g.ranking]))
    ev.run([(c, d) for c in [hsdh, *cands] for d in vdeals], "validation")
    table = []
    for c in [hsdh, *cands]:
        res = [ev.cache[(c, d)] for d in vdeals]
        n_ok = sum(ok for ok, _ in res)
        mean_nodes = float(np.mean([n if ok else s.penalty * s.node_limit for ok, n in res]))
        table.append((c, n_ok, mean_nodes))
    best_c, best_ok, best_nodes = min(table[1:], key=lambda t: (-t[1], t[2]))
    seconds = g.seconds + time.perf_counter() - t0
    hsdh_row = table[0]
    training = {
        "method": "GA-FreeCell: genetic algorithm with Hillis-style coevolution of solvers and deal individuals",
        "settings": asdict(s),
        "seed": seed,
        "generations": len(g.history),
        "training_deals": (
            f"the first {s.training_size} of learned.freecell.deals.training_deals() (split seed {SPLIT_SEED}; "
            "no test deal)"
        ),
        "deals_met": len(g.baseline),
        "validation_deals": vdeals,
        "validation": {
            "chosen": {"solved": best_ok, "mean_nodes": round(best_nodes, 1)},
            "hsdh": {"solved": hsdh_row[1], "mean_nodes": round(hsdh_row[2], 1)},
            "candidates": len(cands),
            "node_limit": s.node_limit,
        },
        "fitness": [
            {k: h[k] for k in ("generation", "best_fitness", "mean_fitness", "best_solved", "seconds")}
            for h in g.history
        ],
        "seconds": round(seconds, 1),
        "features": list(NAMES),
        "executor": executor.label,
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
    }
    return Weights(np.array(best_c), s.k, s.tt_limit, training)
