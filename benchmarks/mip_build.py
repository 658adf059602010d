"""Benchmark: building and writing the MIP models (Pyomo), now and as they were in commit 60669cb.

Writes docs/benchmarks/mip_build.md. Usage:

    python benchmarks/mip_build.py --repeats 3

For each model: :func:`exact.mip.tight.build_tight` (the ``tight`` and ``pairs`` formulations),
then the LP file the split writes for its workers (:func:`exact.mip.split.write_model`), the
median of ``--repeats`` runs, now and before taking turns in each run. The peer is the same code as
it was in commit 60669cb, loaded from git: sums built by Python's ``sum`` (Pyomo grows the
expression a term at a time), each self-loop's capacity row holding every action of its step
(the terms that cancel included), guards added one by one to a ``ConstraintList``, and the LP
file written with Pyomo's symbolic labels. Both models are checked to be the same: equal
variables and rows, and equal LP relaxation values (HiGHS).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import types
from datetime import date
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact import registry  # noqa: E402
from exact.mip import split, tight  # noqa: E402
from exact.mip.adapters import quiet_highs  # noqa: E402
from exact.mip.build import model_size  # noqa: E402
from exact.timeindexed import prepare  # noqa: E402

BEFORE = "60669cb"
SOKOBAN = "\n".join(["#####", "#@  #", "# $ #", "#  .#", "#####"])  # tests/test_sokoban.py's level


def module_before(rev: str = BEFORE) -> types.ModuleType:
    """``exact/mip/tight.py`` as it was at ``rev``, as a module of its own."""
    source = subprocess.run(["git", "show", f"{rev}:exact/mip/tight.py"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout  # fmt: skip
    module = types.ModuleType("tight_before")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, f"{rev}:exact/mip/tight.py", "exec"), module.__dict__)
    return module


def write_before(model, directory: str) -> None:
    """:func:`exact.mip.split.write_model` as it was: symbolic labels, columns found by name."""
    path = os.path.join(directory, "before.lp")
    model.write(path, io_options={"symbolic_solver_labels": True})
    h = quiet_highs()
    h.readModel(path)
    col = {n: i for i, n in enumerate(h.getLp().col_names_)}
    for k, t in model.y.index_set():
        name = model.y[k, t].getname(fully_qualified=True).replace("[", "(").replace("]", ")").replace(",", "_")
        col.get(name)  # the lookup's cost, as the old code paid it


def cases() -> list[tuple[str, object, int, int]]:
    """(name, the problem as the solver models it, T, moves per step) of each model."""
    sok = registry.get("sokoban", height=5, width=5)
    cube = registry.get("cube3")
    pyr = registry.get("pyraminx")
    starts = {
        "sokoban": sok.parse_state(SOKOBAN),
        "cube": cube.table.apply(cube.goal, "R U F' L D2 B' R' U'"),
        "pyraminx": pyr.random_walk(1, 6, np.random.default_rng(3))[0],
    }
    return [
        ("sokoban 5x5, T = 7, pairs", prepare(sok, starts["sokoban"]), 7, 2),
        ("sokoban 5x5, T = 7, tight", prepare(sok, starts["sokoban"]), 7, 1),
        ("3x3 faces QTM, T = 8, pairs", prepare(cube, starts["cube"]), 8, 2),
        ("pyraminx, T = 8, tight", prepare(pyr, starts["pyraminx"]), 8, 1),
    ]


def lp_value(model, directory: str, name: str) -> tuple[int, int, float]:
    """Columns, rows and the LP relaxation's optimum of ``model``'s LP file."""
    path = os.path.join(directory, f"{name}.lp")
    model.write(path, io_options={"symbolic_solver_labels": False})
    h = quiet_highs()
    h.readModel(path)
    lp = h.getLp()
    h.setOptionValue("solve_relaxation", True)
    h.run()
    return lp.num_col_, lp.num_row_, round(h.getInfo().objective_function_value, 6)


def measure(builders: dict, case, repeats: int, tmp: str) -> dict[str, tuple[float, float, object]]:
    """builder name -> (median build seconds, median write seconds, the last model)."""
    _, problem, T, L = case
    times: dict[str, list[tuple[float, float]]] = {b: [] for b in builders}
    models = {}
    for _ in range(repeats):
        for b, (build, write) in builders.items():
            t0 = time.perf_counter()
            models[b] = build(problem.table, problem.start, problem.goal, T, problem.num_labels, moves_per_step=L)
            t1 = time.perf_counter()
            write(models[b], tmp)
            times[b].append((t1 - t0, time.perf_counter() - t1))
    return {b: (statistics.median(x for x, _ in v), statistics.median(y for _, y in v), models[b])
            for b, v in times.items()}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks" / "mip_build.md")
    args = ap.parse_args(argv)
    meter = load_meter()
    old = module_before()
    builders = {
        "before": (old.build_tight, write_before),
        "now": (tight.build_tight, lambda m, d: split.write_model(m, d, "now")),
    }
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases():
            got = measure(builders, case, args.repeats, tmp)
            same = lp_value(got["before"][2], tmp, "b") == lp_value(got["now"][2], tmp, "n")
            if not same:
                raise SystemExit(f"{case[0]}: the models differ")
            size = model_size(got["now"][2])
            (b_build, b_write, _), (n_build, n_write, _) = got["before"], got["now"]
            rows.append([case[0], f"{size['variables']:,}/{size['integer_variables']:,}/{size['constraints']:,}",
                         f"{b_build:.2f} / {b_write:.2f}", f"{n_build:.2f} / {n_write:.2f}",
                         f"{(b_build + b_write) / (n_build + n_write):.1f}"])  # fmt: skip
            print(rows[-1], flush=True)
    command = "python benchmarks/mip_build.py " + " ".join(sys.argv[1:] if argv is None else argv)
    header = ["model", "variables/integer/rows", "before: build / write s", "now: build / write s", "before / now"]
    lines = [
        "# Building and writing the MIP models", "",
        f"Command: `{command}`  ",
        f"Machine: {machine()}; {meter()}  ",
        f"Date: {date.today()}. Each cell the median of {args.repeats} runs, before and now taking turns. "
        f"'before' is `exact/mip/tight.py` and the LP writing of `exact/mip/split.py` as they were in commit {BEFORE} "
        "(see the script's docstring); 'write' is the LP file the split hands its workers. The models of both are "
        "the same: equal variables and rows and equal LP relaxation values, checked in this run. The 3x3 is "
        "`R U F' L D2 B' R' U'`; the Sokoban level is the 5x5 one of `tests/test_sokoban.py`; the Pyraminx start "
        "is a 6-move walk (seed 3).", "",
        *markdown_table(header, rows), "",
    ]  # fmt: skip
    write_page(args.out, lines)


if __name__ == "__main__":
    main()
