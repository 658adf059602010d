"""The beam of :mod:`learned.beam` with every step on a torch device (a GPU, or the CPU).

For puzzles whose moves always apply (:meth:`learned.diffusion.TorchWalks.applies`: the cube,
the pancakes) the whole layer stays on the device: children by gathering the move table's
permutations, the same 64-bit hashes as :func:`learned.beam.state_hashes` (int64 arithmetic
wraps like numpy's uint64), deduplication by ``torch.unique``, the network scoring the children
where they are, ``torch.topk`` keeping ``W``. Only the parent pointers and the met state come
back to the host. :func:`learned.beam.beam_search` picks it with ``device=``.
"""

from __future__ import annotations

import time

import numpy as np
import torch

from exact.puzzle import Puzzle
from learned.beam_parts import HASH_SEED, GoalBall, _descend, _path, goal_states
from learned.values import INPUT_SHARE, NetHeuristic

_SIGN = -(2**63)


class TorchBeam:
    """One configured beam on ``device``; :meth:`descend` as :class:`learned.beam._Beam`'s.

    ``watch``: a :class:`exact.progress.SearchProgress` told each step and the states expanded.

    Args:
        puzzle: A puzzle whose moves always apply.
        heuristic: A :class:`learned.values.NetHeuristic` on ``device``: its network scores the
            children (:meth:`~learned.values.NetHeuristic.scores`: its precision and chunk).
        width: The beam's width, as :func:`learned.beam.beam_search`'s.
        ball: The goal ball, as there.
        until: The ``time.perf_counter()`` at which to stop; ``None`` for none.
        max_nodes: States expanded before giving up (``None``: none), as there.
        device: Torch device.
    """

    def __init__(self, puzzle: Puzzle, heuristic: NetHeuristic, width: int, ball: GoalBall | None,
                 until: float | None, max_nodes: int | None, device: str) -> None:  # fmt: skip
        self.puzzle, self.width, self.ball, self.until, self.max_nodes = puzzle, width, ball, until, max_nodes
        self.device, self.expanded, self.watch = torch.device(device), 0, None
        self.heuristic, self.net = heuristic, heuristic.net
        t = puzzle.table
        self.perms = torch.tensor(np.asarray(t.perms), device=self.device)
        self.inverse = torch.tensor(np.asarray(t.inverse, dtype=np.int64), device=self.device)
        w = np.random.default_rng(HASH_SEED).integers(1, 2**63, size=puzzle.num_positions, dtype=np.uint64) | 1
        self.hash_w = torch.tensor(w.view(np.int64), device=self.device)
        self.goal_keys = self._sorted(self.hash(torch.tensor(goal_states(puzzle), device=self.device)))
        self.ball_keys = None if ball is None else torch.tensor(ball.keys.view(np.int64), device=self.device)
        if self.ball_keys is not None:
            self.ball_keys, order = torch.sort(self.ball_keys)  # int64 order, not uint64's
            self.ball_dist = torch.tensor(ball.dist, device=self.device)[order]

    def hash(self, states: torch.Tensor) -> torch.Tensor:
        """int64 ``(B,)``: the bits of :func:`learned.beam.state_hashes`."""
        return (states.long() * self.hash_w).sum(dim=1)

    @staticmethod
    def _sorted(keys: torch.Tensor) -> torch.Tensor:
        return torch.sort(keys).values

    @staticmethod
    def _member(keys: torch.Tensor, sorted_keys: torch.Tensor) -> torch.Tensor:
        if sorted_keys.numel() == 0:
            return torch.zeros_like(keys, dtype=torch.bool)
        at = torch.searchsorted(sorted_keys, keys).clamp(max=sorted_keys.numel() - 1)
        return sorted_keys[at] == keys

    def _scores(self, kids: torch.Tensor) -> torch.Tensor:
        step = max(self.heuristic.chunk, INPUT_SHARE)
        parts = [self.heuristic.scores(self.net.device_inputs(c)) for c in torch.split(kids, step)]
        return torch.cat(parts).clamp(min=0)  # as NetHeuristic's

    def _out_of_budget(self, n: int) -> bool:
        late = self.until is not None and time.perf_counter() > self.until
        return late or (self.max_nodes is not None and self.expanded + n > self.max_nodes)

    def descend(self, start: np.ndarray, max_steps: int, patience: int | None, banned: np.ndarray):
        """As :meth:`learned.beam._Beam.descend` (``banned``: uint64 hashes)."""
        dev = self.device
        beam = torch.tensor(np.asarray(start)[None], device=dev)
        last = torch.full((1,), -1, dtype=torch.long, device=dev)
        banned_t = self._sorted(torch.tensor(np.asarray(banned, dtype=np.uint64).view(np.int64), device=dev))
        recent = [self.hash(beam)]
        kept: list[torch.Tensor] = []
        parents: list[tuple[np.ndarray, np.ndarray]] = []
        best, since_best = float("inf"), 0
        m = self.perms.shape[0]
        for step in range(max_steps):
            if self.watch is not None:
                self.watch.update(step, self.expanded)
            if self._out_of_budget(beam.shape[0]):
                return None, {}, None
            self.expanded += beam.shape[0]
            b = beam.shape[0]
            kids = torch.gather(beam[:, None, :].expand(b, m, -1), 2, self.perms[None].expand(b, m, -1))
            moves = torch.arange(m, device=dev).expand(b, m)
            back = torch.where(last >= 0, self.inverse[last.clamp(min=0)], torch.full_like(last, -2))
            ok = moves != back[:, None]
            parent = torch.arange(b, device=dev)[:, None].expand(b, m)[ok]
            kids, moves = kids[ok], moves[ok]
            keys = self.hash(kids)
            # unique in uint64 order (the sign bit flipped), as numpy's: the same beam order, the same parents
            uniq, inv = torch.unique(keys ^ _SIGN, return_inverse=True)
            first = torch.full((uniq.numel(),), kids.shape[0], dtype=torch.long, device=dev)
            first = first.scatter_reduce(0, inv, torch.arange(kids.shape[0], device=dev), reduce="amin")
            old = self._sorted(torch.cat([*recent, banned_t]))
            first = first[~self._member(keys[first], old)]
            kids, moves, parent, keys = kids[first], moves[first], parent[first], keys[first]
            if kids.shape[0] == 0:
                return None, {}, None
            goal = torch.nonzero(self._member(keys, self.goal_keys)).flatten()
            if goal.numel():
                parents.append((parent.cpu().numpy(), moves.cpu().numpy()))
                return _path(parents, int(goal[0])), {"steps": len(parents)}, None
            met = self._meet(kids, keys)
            if met is not None:
                parents.append((parent.cpu().numpy(), moves.cpu().numpy()))
                extra = {"steps": len(parents), "met_at": len(parents), "from_ball": len(met[1])}
                return _path(parents, met[0]) + met[1], extra, None
            if kids.shape[0] > self.width:
                scores = self._scores(kids)
                low, keep = torch.topk(scores, self.width, largest=False, sorted=False)
                keep = torch.sort(keep).values
                kids, moves, parent, keys = kids[keep], moves[keep], parent[keep], keys[keep]
                low = float(low.min())
                best, since_best = (low, 0) if low < best else (best, since_best + 1)
                if patience is not None and since_best >= patience:
                    return None, {}, torch.cat([*kept, keys]).cpu().numpy().view(np.uint64)
            parents.append((parent.cpu().numpy(), moves.cpu().numpy()))
            recent = [*recent[-1:], keys]
            kept.append(keys)
            beam, last = kids, moves
        return None, {}, torch.cat(kept).cpu().numpy().view(np.uint64) if kept else None

    def _meet(self, kids: torch.Tensor, keys: torch.Tensor):
        """The child nearest the goal among those in the ball, and its way down (on the host)."""
        if self.ball_keys is None:
            return None
        inside = self._member(keys, self.ball_keys)
        if not bool(inside.any()):
            return None
        idx = torch.nonzero(inside).flatten()
        at = torch.searchsorted(self.ball_keys, keys[idx])
        order = torch.argsort(self.ball_dist[at], stable=True)
        for i in idx[order].cpu().tolist():
            rest = _descend(self.puzzle, kids[i].cpu().numpy(), self.ball)
            if rest is not None:
                return int(i), rest
        return None
