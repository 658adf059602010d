"""``python -m learned.hypercube``: the paper's EA or RL search over many seeded runs, beside the exact optimum.

Examples::

    python -m learned.hypercube ea --instance d3-level0 --k 1 --runs 20 --population 200 --generations 100
    python -m learned.hypercube rl --instance d5 --k 2 --runs 5 --seed 7 --json

``--instance`` is a shipped instance (d3-level0..3, d4-row1..3, d5) or a JSON file of one
instance. The report gives the min/median/max solution length over the runs, the success rate,
the CPU time and the exact optimum (bidirectional BFS). Exit codes: 0 at least one run found a
solution, 2 bad input, 3 no run found one and the exact search proved the instance unsolvable,
4 no run found one otherwise.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from exact import cli
from exact.errors import PuzzleoptError
from exact.hypercube.solve import solve_bibfs
from exact.puzzles.hypercube import HypercubePuzzle, load_instance
from learned.hypercube import make_settings, run_many


def _parser():
    p = cli.parser("python -m learned.hypercube", "The paper's EA or RL search on the cubical sliding puzzle.")
    p.add_argument("method", choices=["ea", "rl"], help="ea: evolutionary algorithm; rl: RL search")
    p.add_argument("--instance", required=True, help="a shipped instance (d3-level0 ... d5) or a JSON file")
    p.add_argument("--k", type=int, required=True, help="face dimension, 1..d")
    p.add_argument(
        "--runs", type=cli.count(1), default=150, help="independent seeded runs (default 150, as in the paper)"
    )
    p.add_argument("--seed", type=cli.count(0), default=0, help="root seed of the runs (default 0)")
    ea = p.add_argument_group("EA settings (default: the paper's)")
    ea.add_argument("--population", type=int, help="agents (default 1000)")
    ea.add_argument("--generations", type=int, help="generations (default 1000)")
    ea.add_argument("--max-length", type=int, help="most slides per agent (default 256)")
    rl = p.add_argument_group("RL settings")
    rl.add_argument("--P", dest="P", type=int, help="configurations labelled by the BFS from the target (100000)")
    rl.add_argument("--episodes", type=int, help="random walks (default 1000)")
    rl.add_argument("--max-steps", type=int, help="longest walk before a solution is known (default 1000)")
    p.add_argument("--no-optimum", action="store_true", help="skip the exact optimum (bidirectional BFS)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    ea_opts = {"population": args.population, "generations": args.generations, "max_length": args.max_length}
    rl_opts = {"P": args.P, "episodes": args.episodes, "max_steps": args.max_steps}
    mine, other = (ea_opts, rl_opts) if args.method == "ea" else (rl_opts, ea_opts)
    given = [k for k, v in other.items() if v is not None]
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in given)
        raise PuzzleoptError(f"{flags} belong(s) to the other method, not {args.method}")
    settings = make_settings(args.method, **mine)
    inst = load_instance(args.instance)
    puzzle = HypercubePuzzle.from_instance(inst, args.k)  # checks k before any run
    optimum = None
    if not args.no_optimum:
        t = time.perf_counter()
        exact = solve_bibfs(puzzle, inst.state("start"))
        optimum = {"status": exact.status.value, "length": exact.length, "seconds": time.perf_counter() - t}
    summary = run_many(args.method, inst, args.k, runs=args.runs, seed=args.seed, settings=settings)
    if args.json:
        print(json.dumps(summary.to_dict() | {"optimum": optimum}))
    else:
        print(f"{args.method.upper()} on {inst.name} (d={inst.d}, k={args.k}), {summary.runs} runs, seed {args.seed}")
        if summary.solved:
            print(f"  length min/median/max: {summary.min} / {summary.median:g} / {summary.max}")
        else:
            print("  no run found a solution")
        print(f"  success rate: {summary.solved}/{summary.runs} ({100 * summary.success_rate:.0f}%)")
        if optimum is not None:
            opt = optimum["length"] if optimum["length"] is not None else optimum["status"]
            print(f"  exact optimum (bidirectional BFS): {opt} ({optimum['seconds']:.2f} s)")
        per = summary.cpu_seconds / summary.runs
        print(f"  CPU time: {summary.cpu_seconds:.2f} s ({per:.3f} s per run)")
        print(f"  settings: {summary.settings}")
    if summary.solved:
        return cli.EXIT_OK
    if optimum is not None and optimum["status"] == "unsolvable":  # proven: no run could have succeeded
        return cli.EXIT_NO_SOLUTION
    return cli.EXIT_LIMIT


if __name__ == "__main__":
    raise SystemExit(cli.run(main))
