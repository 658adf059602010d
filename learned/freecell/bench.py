"""Benchmark runs: staged deepening with given weights, and ``fc-solve``, on a list of deals.

:func:`run_solver` solves each deal with :func:`~learned.freecell.hsd.solve_hsd` (on an
:class:`~exact.executor.Executor`, default this process; each process solves deal 1 first, untimed,
so numba's cache load is not charged to a deal) and
:func:`run_fc_solve` runs ``fc-solve -l lg -m -snx`` on each deal's board text (printed by
:func:`exact.puzzles.freecell.format_board`, piped in), replaying its solution on the board model.
A deal is solved when a solution came within the time limit; seconds are the median of
``repeats`` runs (a run that hit the limit is not repeated: it would hit it again).
:func:`summary` turns the rows into one line of a table.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

from exact.errors import PuzzleoptError
from exact.executor import Executor, InProcess
from exact.progress import bar as progress_bar
from exact.puzzles.freecell import format_board, ms_deal, parse_moves, replay
from learned.freecell.hsd import solve_hsd
from learned.freecell.weights import Weights

FC_SOLVE_PRESET = "lg"
_STATES = re.compile(r"Total number of states checked is (\d+)")


def solve_row(deal: int, weights: Weights, time_limit: float, repeats: int = 1, shorten: bool = True) -> dict[str, Any]:
    """One deal with one heuristic: status, solution length, nodes and the median seconds of ``repeats`` runs."""
    runs = []
    for _ in range(repeats):
        r = solve_hsd(deal, weights.vector, k=weights.k, tt_limit=weights.tt_limit, time_limit=time_limit,
                      shorten=shorten)  # fmt: skip
        runs.append(r)
        if not r.status.has_solution:
            break
    r = runs[0]
    return {
        "deal": deal,
        "solved": r.status.has_solution and r.seconds <= time_limit,
        "status": r.status.value,
        "length": r.length,
        "raw_length": r.extra.get("raw_length"),
        "nodes": r.nodes,
        "seconds": statistics.median(x.seconds for x in runs),
        "runs": len(runs),
    }


_WARMED: set = set()


def _solve_task(shared: tuple, deal: int) -> dict[str, Any]:
    weights, time_limit, repeats = shared
    if (weights.k, weights.tt_limit) not in _WARMED:  # numba's cache loaded once per process, untimed
        solve_hsd(1, weights.vector, k=weights.k, tt_limit=weights.tt_limit, time_limit=None, node_limit=1000)
        _WARMED.add((weights.k, weights.tt_limit))
    return solve_row(deal, weights, time_limit, repeats)


def _map(fn: Callable, items: list, shared: Any, executor: Executor | None, desc: str, progress: bool) -> list:
    out: list = [None] * len(items)
    with progress_bar(progress, total=len(items), desc=desc) as bar:
        for i, row in (executor or InProcess()).map(fn, items, shared):
            out[i] = row
            bar.update(1)
    return out


def run_solver(
    deals: Sequence[int],
    weights: Weights,
    *,
    time_limit: float = 10.0,
    repeats: int = 1,
    executor: Executor | None = None,
    progress: bool = True,
    desc: str = "hsd",
) -> list[dict[str, Any]]:
    """:func:`solve_row` for every deal, on ``executor`` (:mod:`exact.executor`; default: one
    deal after the other in this process), rows in the order of ``deals``."""
    return _map(_solve_task, list(deals), (weights, time_limit, repeats), executor, desc, progress)


def fc_solve_path() -> str:
    """The ``fc-solve`` executable.

    Raises:
        PuzzleoptError: it is not installed.
    """
    path = shutil.which("fc-solve")
    if path is None:
        raise PuzzleoptError(
            "fc-solve is not on PATH; install freecell-solver (e.g. apt-get install freecell-solver-bin)"
        )
    return path


def fc_solve_row(deal: int, time_limit: float, repeats: int = 1, executable: str | None = None) -> dict[str, Any]:
    """One deal with ``fc-solve -l lg -m -snx``: status, solution length (replayed), states checked, and
    the median wall-clock seconds of ``repeats`` runs (process start included)."""
    exe = executable or fc_solve_path()
    board = ms_deal(deal)
    text = format_board(board)
    times = []
    out = ""
    timed_out = False
    for _ in range(repeats):
        t = time.perf_counter()
        try:
            done = subprocess.run(
                [exe, "-l", FC_SOLVE_PRESET, "-m", "-snx", "-"],
                input=text,
                capture_output=True,
                text=True,
                timeout=time_limit,
                check=False,
            )
        except subprocess.TimeoutExpired:
            times.append(time.perf_counter() - t)
            timed_out = True
            break
        times.append(time.perf_counter() - t)
        out = done.stdout
    solved = "This game is solveable." in out
    length = None
    if solved:
        body = out.split("-=-=-=-=-=-=-=-=-=-=-=-", 1)[-1].split("This game is solveable.")[0]
        moves = parse_moves(body.split(), board)
        if not replay(board, moves).is_solved():  # parse_moves checked every move; this checks the end
            raise RuntimeError(f"fc-solve's solution of deal {deal} does not solve it")
        length = len(moves)
    states = _STATES.search(out)
    return {
        "deal": deal,
        "solved": solved and not timed_out,
        "status": "solved" if solved else ("timeout" if timed_out else "unsolved"),
        "length": length,
        "nodes": int(states.group(1)) if states else None,
        "seconds": statistics.median(times),
        "runs": len(times),
    }


def _fc_solve_task(shared: tuple, deal: int) -> dict[str, Any]:
    time_limit, repeats, exe = shared
    return fc_solve_row(deal, time_limit, repeats, exe)


def run_fc_solve(
    deals: Sequence[int],
    *,
    time_limit: float = 10.0,
    repeats: int = 1,
    executor: Executor | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """:func:`fc_solve_row` for every deal, on ``executor`` (default: in this process)."""
    exe = fc_solve_path()
    return _map(_fc_solve_task, list(deals), (time_limit, repeats, exe), executor, "fc-solve", progress)


def _stats(xs: Sequence[float], fmt: str) -> str:
    if not xs:
        return "-"
    return " / ".join(format(v, fmt) for v in (statistics.mean(xs), statistics.median(xs), max(xs)))


SUMMARY_HEADER = [
    "solver",
    "deals",
    "solved",
    "seconds mean / median / max",
    "length mean / median",
    "nodes mean / median / max",
    "not solved",
]


def summary(name: str, rows: list[dict[str, Any]]) -> list[str]:
    """One table row (:data:`SUMMARY_HEADER`) for a solver's rows."""
    solved = [r for r in rows if r["solved"]]
    lengths = [r["length"] for r in solved]
    nodes = [r["nodes"] for r in rows if r["nodes"] is not None]
    missed = [str(r["deal"]) for r in rows if not r["solved"]]
    return [
        name,
        str(len(rows)),
        f"{len(solved)} ({100 * len(solved) / max(len(rows), 1):.1f}%)",
        _stats([r["seconds"] for r in rows], ".3f"),
        f"{statistics.mean(lengths):.1f} / {statistics.median(lengths):g}" if lengths else "-",
        _stats(nodes, ",.0f"),
        (", ".join(missed[:12]) + (f" (+{len(missed) - 12})" if len(missed) > 12 else "")) or "none",
    ]


def format_table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(r) + " |" for r in [header, ["---"] * len(header), *rows]]
    return "\n".join(lines)
