"""What a search evaluates: the :class:`Heuristic` protocol.

A heuristic estimates the number of moves from a state to the goal. It *declares* what it
guarantees, and the searches check the declaration before they claim anything:

* ``admissible``: never above the true distance. IDA* (and A* with ``w = 1``) are optimal
  with it; a search refuses to call a solution optimal under a heuristic that is not.
* ``consistent``: ``h(s) <= 1 + h(t)`` for every move ``s -> t``. A* then never reopens a node.

Evaluation is batched: ``h(states)`` takes uint8 ``(B, P)`` and returns int64 ``(B,)``. A
heuristic that the numba IDA* (:mod:`exact.ida.generic`) can call also has ``kernel``: a pair
``(fn, args)`` of a numba function ``fn(state, args) -> int64`` on one state (uint8 ``(P,)``)
and the tuple of arrays it reads. A kernel returns :data:`UNREACHABLE` for a state it proves
cannot reach the goal; IDA* then reports the start ``unsolvable``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from numba import njit

UNREACHABLE = 1 << 40
"""Heuristic value of a state proven unable to reach the goal: far above any real distance or
sum of table values, so a search prunes it."""


@runtime_checkable
class Heuristic(Protocol):
    """A batched heuristic with its guarantees (see the module docstring)."""

    name: str
    admissible: bool
    consistent: bool

    def __call__(self, states: np.ndarray) -> np.ndarray: ...


def kernel_of(h: Heuristic) -> tuple | None:
    """``h.kernel`` (``(fn, args)``) if it has one, else ``None``."""
    return getattr(h, "kernel", None)


@njit(cache=True)
def _zero_kernel(state, args):  # pragma: no cover - numba
    return np.int64(0)


@dataclass(frozen=True)
class Zero:
    """``h = 0``: admissible and consistent, IDA* becomes iterative deepening."""

    name: str = "zero"
    admissible: bool = True
    consistent: bool = True

    def __call__(self, states: np.ndarray) -> np.ndarray:
        return np.zeros(np.atleast_2d(states).shape[0], dtype=np.int64)

    @property
    def kernel(self) -> tuple:
        return _zero_kernel, (np.zeros(1, dtype=np.int64),)
