"""Outside reference solvers, run as subprocesses for tests and benchmarks (never at run time).

* ``rubiks_optimal`` (Debian package ``rubiks``): Michael Reid's optimal 3x3x3 solver, in the
  quarter-turn metric. It reads one position per line in Singmaster notation
  (:mod:`exact.puzzles.cube.singmaster`), builds its tables once at start-up, prints every
  optimal solution as it finds them (``" F' R ... F2  (18q*, 17f)"``), then
  ``"depth 18q completed"``.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import subprocess
import time
from dataclasses import dataclass

import numpy as np

from exact.errors import PuzzleoptError
from exact.puzzles.cube.singmaster import format_singmaster

PROMPT = b"enter cube"
_SOLUTION = re.compile(rb"^\s*([URFDLB2' ]+?)\s*\((\d+)q\*?,\s*(\d+)f\)\s*$", re.M)


@dataclass(frozen=True)
class PeerResult:
    """What the peer printed for one position.

    Attributes:
        moves: its first optimal solution, in face-turn notation (``"F' R F2"``); ``""`` if solved.
        length: quarter turns of that solution (``None`` when the time limit came first).
        first_seconds: seconds from sending the position to the first solution (the lower bound is
            proven by then, as in IDA*); ``all_seconds``: to the end of that depth (every optimal
            solution listed).
    """

    moves: str
    length: int | None
    first_seconds: float
    all_seconds: float


class ReidOptimal:
    """A running ``rubiks_optimal``; use as a context manager. Start-up (table building) happens
    in :meth:`start`, timed as ``startup_seconds``."""

    def __init__(self, executable: str = "rubiks_optimal") -> None:
        self.executable = executable
        self.proc: subprocess.Popen | None = None
        self.startup_seconds = float("nan")

    @staticmethod
    def available(executable: str = "rubiks_optimal") -> bool:
        return shutil.which(executable) is not None and shutil.which("stdbuf") is not None

    def start(self) -> ReidOptimal:
        if not self.available(self.executable):
            raise PuzzleoptError(f"{self.executable} not found; install the Debian package 'rubiks'")
        t0 = time.perf_counter()
        # its stdout is a pipe, so ask for line buffering or nothing arrives before exit
        self.proc = subprocess.Popen(
            ["stdbuf", "-oL", self.executable], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        self._read_until(PROMPT, None)
        self.startup_seconds = time.perf_counter() - t0
        return self

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> ReidOptimal:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_until(self, marker: bytes, deadline: float | None, on_chunk=None) -> bytes | None:
        buf = b""
        fd = self.proc.stdout.fileno()
        while marker not in buf:
            wait = None if deadline is None else deadline - time.perf_counter()
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise PuzzleoptError(f"{self.executable} exited unexpectedly; its last output: {buf[-300:]!r}")
            buf += chunk
            if on_chunk is not None:
                on_chunk(buf)
        return buf

    def solve(self, state: np.ndarray, time_limit: float | None = None) -> PeerResult:
        """Solve a 3x3x3 state (centres home). On a time-out the process is restarted for the next call."""
        if self.proc is None:
            self.start()
        line = format_singmaster(state).encode() + b"\n"
        first = [float("nan")]
        t0 = time.perf_counter()

        def seen(buf: bytes) -> None:
            if first[0] != first[0] and (_SOLUTION.search(buf) or b"already solved" in buf):
                first[0] = time.perf_counter() - t0

        self.proc.stdin.write(line)
        self.proc.stdin.flush()
        out = self._read_until(PROMPT, None if time_limit is None else t0 + time_limit, seen)
        elapsed = time.perf_counter() - t0
        if out is None:
            self.close()
            return PeerResult("", None, first[0], elapsed)
        if b"already solved" in out:
            return PeerResult("", 0, first[0], elapsed)
        m = _SOLUTION.search(out)
        if m is None:
            raise PuzzleoptError(f"could not read a solution in the output of {self.executable}: {out[-300:]!r}")
        return PeerResult(" ".join(m.group(1).decode().split()), int(m.group(2)), first[0], elapsed)
