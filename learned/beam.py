"""Batched beam search over the puzzle protocol, guided by a cost-to-go (CayleyPy's solver).

Each step expands every state of the beam (:meth:`~exact.puzzle.Puzzle.expand`), drops the move
that undoes a state's last one, removes children seen in this layer or the two before (by a
64-bit hash of the state), stops as soon as a child is a goal, and keeps the ``width`` children
the heuristic scores lowest. A step limit, a time limit or an empty layer ends it as ``limit``.
A solution is replayed (:meth:`SolveResult.build`) and is ``feasible``, never ``optimal``:
a beam proves nothing about length.

With a :class:`GoalBall` (every state within ``depth`` moves of the goal, by BFS) the beam meets
the goal side: it stops as soon as a child lies in the ball, and the ball's distances give the
exact rest of the way (checked move by move, and replayed).

With ``inverse=True`` a second beam searches from the start's inverse
(:meth:`~exact.puzzle.Puzzle.inverse_state`: the state the start's solutions reach from the
goal); its solution, reversed and inverted, solves the start, and the shorter of the two is
returned. The two beams make different choices, so the pair is often shorter than either (on the
3x3, more often than one beam of twice the width: ``docs/learned.md``). The second beam stops one
layer before the first one's length: a beam meets the ball (or the goal) at the ball's rim the
first time, so a solution of the same length or longer is all it could find after that. Where
every solution of the start has one length parity (:meth:`~exact.puzzle.Puzzle.length_parity`:
the cubes in quarter turns, whose every turn is an odd permutation), it stops two layers before,
since a solution one move shorter cannot exist.

With ``symmetries=k`` the beam also searches from the start's conjugates by the puzzle's first
``k`` symmetries (:meth:`~exact.puzzle.Puzzle.symmetries`: on the cube, rotations and reflections
of space, the colours and turns renamed with them), and with ``inverse`` from the inverse's
conjugates too. A conjugate is exactly as far from the goal as the start, and its solutions map
back move by move; the network ranks its states differently, so each one is another try. Every
further beam stops one layer (two, with a length parity) before the best solution so far.

The ball is built once and stored with the pattern databases (:func:`cached_goal_ball`,
:mod:`learned.ballstore`): the 3x3's of radius 6 (983,926 states) took 1 s to build on
one core and is read back, verified, in a fraction of that. The registered method is
:mod:`learned.methods`'s ``beam``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from exact.errors import PuzzleoptError
from exact.invariants import checked_start, unsolvable_result
from exact.progress import SearchProgress
from exact.provenance import toolkit
from exact.puzzle import Puzzle
from exact.result import SolveResult, Status
from learned.ballstore import cached_goal_ball  # noqa: F401 - re-exported: learned.beam is where users look
from learned.beam_parts import (  # noqa: F401 - re-exported, as above
    HASH_SEED,
    GoalBall,
    _descend,
    _path,
    goal_ball,
    goal_states,
    state_hashes,
)


def beam_search(
    puzzle: Puzzle,
    start: np.ndarray,
    heuristic: Callable[[np.ndarray], np.ndarray],
    *,
    width: int = 1024,
    max_steps: int = 1000,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    ball: GoalBall | None = None,
    restarts: int = 0,
    patience: int | None = None,
    inverse: bool = False,
    symmetries: int = 0,
    device: str | None = None,
    progress: bool = False,
) -> SolveResult:
    """A solution of ``start`` by beam search (see the module docstring).

    Args:
        puzzle: The puzzle.
        start: The start, labels ``(P,)``.
        heuristic: Batched cost-to-go: states ``(B, P)`` -> float ``(B,)`` (lower is nearer).
        width: ``W``, states kept per step.
        max_steps: Steps (moves) of one beam before it counts as stagnant.
        time_limit: Seconds before giving up, restarts included (``None``: none).
        max_nodes: States expanded before giving up, restarts included (``None``: none).
        ball: The goal side to meet (:func:`goal_ball`), or ``None``.
        restarts: Beams started again from ``start`` after one stagnates, each with the states
            of every stagnant beam so far banned (CayleyPy's restarts).
        patience: A beam stagnates when its best score has not gone down for this many steps
            (``None``: only at ``max_steps``).
        inverse: Also search from the start's inverse and return the shorter solution (see the
            module docstring); the puzzle must define :meth:`~exact.puzzle.Puzzle.inverse_state`
            and have one goal state.
        symmetries: Also search from the start's conjugates by the puzzle's first ``symmetries``
            symmetries after the identity (:meth:`~exact.puzzle.Puzzle.symmetries`), and with
            ``inverse`` from the inverse's too; the shortest solution wins (module docstring).
        device: ``None``: the layers in numpy, ``heuristic`` any batched function. A torch
            device: every step there (:mod:`learned.beam_torch`); ``heuristic`` must then be a
            :class:`learned.values.NetHeuristic` and every move must always apply.
        progress: show the step and the states expanded as the search runs (:mod:`exact.progress`).

    Returns:
        ``feasible`` with a replayed solution (``extra``: steps, restarts, the layer where it met
        the ball, and with ``inverse`` or ``symmetries`` which beam found it: ``way``), ``unsolvable`` where an
        invariant rules the goal out, ``optimal`` only for a start that is solved, else ``limit``.
    """
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 1:
        raise PuzzleoptError(f"beam width must be a whole number >= 1, got {width!r}")
    if isinstance(symmetries, bool) or not isinstance(symmetries, (int, np.integer)) or symmetries < 0:
        raise PuzzleoptError(f"beam symmetries must be a whole number >= 0, got {symmetries!r}")
    if restarts < 0 or (patience is not None and patience < 1):
        raise PuzzleoptError(f"beam restarts={restarts} must be >= 0 and patience={patience} >= 1 (or None)")
    t0 = time.perf_counter()
    start, why = checked_start(puzzle, start)
    settings = {"width": int(width), "max_steps": int(max_steps), "time_limit": time_limit, "max_nodes": max_nodes,
                "restarts": int(restarts), "patience": patience}  # fmt: skip
    if ball is not None:
        settings["ball"] = ball.depth
    if inverse:
        settings["inverse"] = True
    if symmetries:
        settings["symmetries"] = int(symmetries)
    if isinstance(getattr(heuristic, "precision", None), str):  # a network's arithmetic: part of what ran
        settings["precision"] = heuristic.precision
    if why is not None:
        return unsolvable_result(puzzle, start, why, solver="beam", settings=settings, since=t0)
    ways = _ways(puzzle, start, inverse, int(symmetries))
    done = SolveResult.recorder(puzzle, start, solver="beam", solver_version=toolkit(), settings=settings, since=t0)
    if puzzle.solved(start):
        return done([], Status.OPTIMAL, 0, 0)
    met = _meet(puzzle, start[None], ball)
    if met is not None:  # the start is in the ball: its way down is all there is
        return done(met[1], Status.FEASIBLE, None, 0, {"steps": 0, "met_at": 0, "from_ball": len(met[1])})
    until = None if time_limit is None else t0 + time_limit
    run = _beam(puzzle, heuristic, int(width), ball, until, max_nodes, device)
    with SearchProgress(f"beam {puzzle.name} (width {width})", progress, unit="expanded states", stage="step") as w:
        run.watch = w
        path, extra = _restarts(run, start, int(max_steps), patience, int(restarts))
        if ways:
            path, extra = _other_ways(puzzle, run, start, ways, (path, extra), int(max_steps), patience, int(restarts))
        result = (
            done(path, Status.FEASIBLE, None, run.expanded, extra)
            if path is not None
            else done([], Status.LIMIT, None, run.expanded, extra)
        )
        w.close(result.status.value, result.nodes)
    return result


def _restarts(run, start: np.ndarray, max_steps: int, patience: int | None, restarts: int) -> tuple[list | None, dict]:
    """The beam from ``start``, and again after each stagnation with its states banned:
    ``(path, extra)``, ``path`` ``None`` at a limit."""
    banned = np.empty(0, dtype=np.uint64)
    for attempt in range(restarts + 1):
        path, extra, stagnant = run.descend(start, max_steps, patience, banned)
        if path is not None:
            return path, {**extra, "restarts": attempt}
        if stagnant is None:  # a limit, or nothing left to expand
            break
        banned = np.union1d(banned, stagnant)
    return None, {"restarts": attempt, "banned": int(banned.size)}


def _inverse_start(puzzle: Puzzle, start: np.ndarray) -> np.ndarray:
    """The start's inverse (:meth:`~exact.puzzle.Puzzle.inverse_state`), or a one-line refusal."""
    back = puzzle.inverse_state(start)
    if back is None:
        raise PuzzleoptError(
            f"beam inverse=True: {puzzle.name} defines no inverse state (its moves are guarded or its items "
            "cannot be told apart); search without inverse"
        )
    if (goals := len(goal_states(puzzle))) != 1:
        raise PuzzleoptError(
            f"beam inverse=True: {puzzle.name} has {goals} goal states (turns of the whole puzzle), so a solution "
            "of the inverse need not solve the start; search without inverse"
        )
    return back


def _ways(puzzle: Puzzle, start: np.ndarray, inverse: bool, symmetries: int) -> list[tuple[str, np.ndarray, Callable]]:
    """The other starts to search, in order, each with its name and the function that turns its
    solution into one of ``start``: the inverse, then each symmetry's conjugate of the start and
    (with ``inverse``) of the inverse."""
    out: list[tuple[str, np.ndarray, Callable]] = []
    back = _inverse_start(puzzle, start) if inverse else None
    if back is not None:
        out.append(("inverse", back, puzzle.table.undoing))
    syms = puzzle.symmetries()[1:]
    if symmetries > len(syms):
        raise PuzzleoptError(
            f"beam symmetries={symmetries}: {puzzle.name} has {len(syms)} symmetries besides the identity "
            f"(its move set and goal); give at most {len(syms)}"
        )
    undo = puzzle.table.undoing
    for k, c in enumerate(syms[:symmetries], 1):
        out.append((f"symmetry {k}", c.apply(start), c.back))
        if back is not None:
            out.append((f"symmetry {k} of the inverse", c.apply(back), lambda rows, c=c: undo(c.back(rows))))
    return out


def _other_ways(puzzle: Puzzle, run, start, ways, first, max_steps: int, patience, restarts: int):
    """The shortest of ``first`` (the beam from ``start``) and the beams from ``ways``
    (:func:`_ways`), each solution turned into one of ``start`` and replayed. After a first
    solution each further beam gets one layer fewer than the best took and no restarts: a beam
    meets the ball's rim the first time, so the same layer or a later one gives nothing shorter.
    Where every solution's length has one parity (:meth:`~exact.puzzle.Puzzle.length_parity`,
    the 3x3 in quarter turns), one layer fewer gives nothing shorter either: two fewer."""
    path, extra = first
    if path is not None:
        extra = {**extra, "way": "start"}
    gap = 1 if puzzle.length_parity(start) is None else 2
    for name, state, turn in ways:
        cap = max_steps if path is None else extra["steps"] - gap
        if cap < 1:
            break
        other, more = _restarts(run, state, cap, patience, restarts if path is None else 0)
        if other is None:
            continue
        turned = turn(other)
        if puzzle.solved(puzzle.table.apply(start, turned)) and (path is None or len(turned) < len(path)):
            path, extra = turned, {**more, "way": name}
    return path, extra


def _beam(puzzle: Puzzle, heuristic, width: int, ball, until, max_nodes, device):
    if device is None:
        return _Beam(puzzle, heuristic, width, ball, until, max_nodes)
    from torch import device as torch_device

    from learned.beam_torch import TorchBeam
    from learned.diffusion import TorchWalks

    if not hasattr(heuristic, "scores") or not TorchWalks.applies(puzzle):
        raise PuzzleoptError(
            f"beam on device {device!r} needs a network heuristic and a puzzle whose moves always apply; "
            f"{puzzle.name} with {type(heuristic).__name__}: leave device out"
        )
    if torch_device(heuristic.device) != torch_device(device):
        raise PuzzleoptError(
            f"beam on device {device!r} with a network on {heuristic.device!r}: make the heuristic on {device!r}"
        )
    return TorchBeam(puzzle, heuristic, width, ball, until, max_nodes, device)


class _Beam:
    """One configured beam; :meth:`descend` runs it from a start, counting into ``expanded``."""

    def __init__(self, puzzle: Puzzle, heuristic, width: int, ball, until: float | None, max_nodes) -> None:
        self.puzzle, self.heuristic, self.width, self.ball = puzzle, heuristic, width, ball
        self.until, self.max_nodes, self.expanded = until, max_nodes, 0
        self.watch = None  # a SearchProgress told each step (exact.progress)
        self.inverse = np.asarray(puzzle.table.inverse, dtype=np.int64)
        self.per_state = 0.0  # seconds per state expanded and scored, in the last layer
        self._began = None

    def _out_of_budget(self, beam: np.ndarray) -> bool:
        """Whether the next layer would pass a limit; a layer is not started that the last one's
        pace says would end past the time limit (a 33-cube's full layer scores 200,000 states)."""
        now = time.perf_counter()
        if self._began is not None:
            self.per_state = (now - self._began[0]) / max(self._began[1], 1)
        self._began = (now, len(beam))
        late = self.until is not None and now + self.per_state * len(beam) > self.until
        return late or (self.max_nodes is not None and self.expanded + len(beam) > self.max_nodes)

    def descend(self, start: np.ndarray, max_steps: int, patience: int | None, banned: np.ndarray):
        """``(path, extra, None)`` when a solution is found; ``(None, {}, keys)`` when the beam
        stagnates (``keys``: the hashes of every state it kept, to ban); ``(None, {}, None)`` at
        a limit."""
        puzzle = self.puzzle
        beam, last = start[None].copy(), np.array([-1])
        self._began = None  # a restart's first layer is not timed against the last one's end
        parents: list[tuple[np.ndarray, np.ndarray]] = []  # per step: (index into the beam before, move row)
        recent: list[np.ndarray] = [state_hashes(beam)]
        kept: list[np.ndarray] = []  # every layer's states: a stagnant beam bans them all
        best, since_best = np.inf, 0
        for step in range(max_steps):
            if self.watch is not None:
                self.watch.update(step, self.expanded)
            if self._out_of_budget(beam):
                return None, {}, None
            children, rows = puzzle.expand(beam)
            self.expanded += len(beam)
            ok = (rows >= 0) & (rows != np.where(last >= 0, self.inverse[np.maximum(last, 0)], -2)[:, None])
            parent, action = np.nonzero(ok)
            kids, moves = children[parent, action], rows[parent, action]
            keys = state_hashes(kids)
            _, first = np.unique(keys, return_index=True)
            first = first[~np.isin(keys[first], np.concatenate([*recent, banned]))]
            kids, moves, parent, keys = kids[first], moves[first], parent[first], keys[first]
            if len(kids) == 0:
                return None, {}, None
            goal = np.flatnonzero(puzzle.is_goal(kids))
            if goal.size:
                parents.append((parent, moves))
                return _path(parents, int(goal[0])), {"steps": len(parents)}, None
            met = _meet(puzzle, kids, self.ball, keys)
            if met is not None:
                parents.append((parent, moves))
                extra = {"steps": len(parents), "met_at": len(parents), "from_ball": len(met[1])}
                return _path(parents, met[0]) + met[1], extra, None
            if len(kids) > self.width:
                scores = np.asarray(self.heuristic(kids), dtype=np.float64)
                keep = np.sort(np.argpartition(scores, self.width - 1)[: self.width])  # the beam in hash order
                kids, moves, parent, keys, low = kids[keep], moves[keep], parent[keep], keys[keep], scores[keep].min()
                best, since_best = (low, 0) if low < best else (best, since_best + 1)
                if patience is not None and since_best >= patience:
                    return None, {}, np.concatenate([*kept, keys])
            parents.append((parent, moves))
            recent = [*recent[-1:], keys]  # this layer and the one before
            kept.append(keys)
            beam, last = kids, moves
        return None, {}, np.concatenate(kept) if kept else None


def _meet(
    puzzle: Puzzle, kids: np.ndarray, ball: GoalBall | None, keys: np.ndarray | None = None
) -> tuple[int, list[int]] | None:
    """The child nearest the goal among those in the ball, and its way down; ``None``.
    ``keys``: the children's :func:`state_hashes`, where the caller has them."""
    if ball is None:
        return None
    d = ball.lookup(kids) if keys is None else ball.lookup_keys(keys)
    for i in np.flatnonzero(d >= 0)[np.argsort(d[d >= 0], kind="stable")]:
        rest = _descend(puzzle, kids[i], ball)
        if rest is not None:
            return int(i), rest
    return None
