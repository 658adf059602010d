"""The command line shared by ``python -m exact.mip`` and ``python -m exact.cpsat``.

Exit codes: 0 solved (optimal or feasible), 2 bad input, 3 proven infeasible within T,
4 limit reached without a solution, 130 interrupted (Ctrl-C; the MIP reports what it proved).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from exact import cli, registry, solvers
from exact.cli.options import (
    add_goal_option,
    add_puzzle_options,
    add_ray_option,
    add_start_options,
    goal_from,
    puzzle_from,
    start_from,
)
from exact.errors import PuzzleoptError
from exact.horizon import solve_at_method_horizon
from exact.progress import ModelProgress
from exact.puzzles.cube import net, scramble, to_facelets
from exact.result import SolveResult
from exact.timeindexed import check_hint, check_horizon


def parser(prog: str, description: str, mip: bool) -> argparse.ArgumentParser:
    p = cli.parser(prog, description, verbose="-v also shows the solver's own log")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--size", type=int, help="cube size N (2 or more), with --moves and --metric")
    add_puzzle_options(p, group=which, what="any registered puzzle instead of a cube size, with --option KEY=VALUE")
    p.add_argument(
        "--turns",
        "--horizon",
        dest="turns",
        required=True,
        help="horizon T: the most moves allowed; 'auto': T = the length of the solution --horizon-method "
        "finds, which is also the incumbent (--horizon: the same, as exact.solve spells it)",
    )
    p.add_argument(
        "--horizon-method",
        metavar="NAME",
        help="--turns auto: a registered method (`python -m exact.solve --list-methods`): an exact one (e.g. "
        "cube3-optimal) or a learned one (beam, bwas; the learned extra). Default: bwas under puzzleopt where it "
        "applies, else the first registered method that proves optimality on the puzzle",
    )
    add_start_options(p, p.add_mutually_exclusive_group(), length_default="default: T; for --size, the cube scrambles")
    p.add_argument(
        "--moves",
        choices=["faces", "layers", "wide"],
        help="--size: move set (default faces: the six outer faces, as Cube(n) and every other command; "
        "layers: every layer, slices included, the seed MIP case study's model)",
    )
    p.add_argument("--metric", choices=["qtm", "htm"], help="--size: metric (default qtm)")
    p.add_argument("--time-limit", type=cli.seconds, default=None, help="seconds in all (default: none)")
    add_goal_option(p)
    if mip:
        p.add_argument(
            "--threads",
            type=int,
            default=None,
            help="worker processes of the split proof, one HiGHS thread each (default: none, the pieces run one "
            f"after another in this process; --threads {cli.cores()}: every core here); with --ray, the CPUs of a new "
            "local Ray; with --no-split, HiGHS threads (default 1)",
        )
    else:
        p.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    p.add_argument(
        "--hint",
        help="a known solution: the incumbent; the solver looks only for shorter ones (default for the MIP: "
        "the scramble's inverse where the start is a scramble)",
    )
    p.add_argument("--color", action="store_true", help="draw the net with ANSI colours")
    cli.add_svg(p, "the start (a cube's net, a board)")
    _auto_options(p)
    (_mip_options if mip else _cpsat_options)(p)
    return p


def _auto_options(p: argparse.ArgumentParser) -> None:
    """What ``--turns auto`` takes: the learned method's model and time."""
    p.add_argument(
        "--model", help="--turns auto with a learned --horizon-method: a model.safetensors (default: the shipped one)"
    )
    p.add_argument(
        "--bwas-time-limit",
        "--horizon-time-limit",
        dest="bwas_time_limit",
        type=cli.seconds,
        help="--turns auto: seconds for the --horizon-method (default: none beyond --time-limit)",
    )


def _mip_options(p: argparse.ArgumentParser) -> None:
    """The MIP's own options: formulation, solver, the split and its incumbent."""
    from exact.mip.build import FORMULATIONS

    p.add_argument(
        "--formulation",
        default="pairs",
        choices=list(FORMULATIONS),
        help="MIP formulation (default pairs, the fastest measured on cubes; docs/mip.md)",
    )
    p.add_argument("--solver", default="highs", help="Pyomo solver name (default highs; e.g. cbc where installed)")
    p.add_argument("--write-model", metavar="FILE", help="also write the model to FILE.lp or FILE.mps")
    p.add_argument(
        "--no-split",
        dest="split",
        action="store_false",
        help="solve the whole model in one solver run instead of proving the bound piece by piece (the "
        "seed formulation and solvers other than highs always do)",
    )
    p.add_argument(
        "--piece-time-limit",
        type=cli.seconds,
        default=10.0,
        help="seconds of one piece of the split before it is split again on one more move (default 10)",
    )
    p.add_argument(
        "--confirm-infeasible",
        action="store_true",
        help="accept HiGHS's infeasibility claims only when HiGHS without presolve agrees (slower; "
        "docs/mip.md, 'Infeasibility claims')",
    )
    add_ray_option(p, "the split's pieces")
    p.add_argument(
        "--incumbent",
        default="bfs",
        choices=["bfs", "mip"],
        help="find the incumbent, or a shorter one than --hint or the scramble's inverse, by "
        "bidirectional BFS (default) or by the split MIP itself",
    )


def _cpsat_options(p: argparse.ArgumentParser) -> None:
    """CP-SAT's own option: the strategy."""
    p.add_argument(
        "--strategy",
        default="deepen",
        choices=["deepen", "minimise"],
        help="deepen: T = 1, 2, ... until feasible (default); minimise: one model of horizon T",
    )


def horizon(text: str) -> int | None:
    """The horizon ``--turns`` asks for, checked; ``None`` for ``auto``."""
    if text == "auto":
        return None
    try:
        T = int(text)
    except ValueError:
        raise PuzzleoptError(f"--turns {text!r} must be a whole number of moves") from None
    return check_horizon(T)


def main_for(
    prog: str,
    description: str,
    mip: bool,
    solve: Callable[..., SolveResult],
    horizon_default: str | None = None,
):
    """A ``main(argv)`` for one of the two model CLIs.

    ``--turns auto`` takes its horizon from a registered method (:mod:`exact.solvers`):
    ``--horizon-method``, else ``horizon_default`` where it applies (``puzzleopt mip`` passes
    ``"bwas"``, the learned method), else the first that proves optimality on the puzzle.
    """

    def main(argv: Sequence[str] | None = None) -> int:
        args = parser(prog, description, mip).parse_args(argv)
        svg_path = cli.svg_target(args)
        T = horizon(args.turns)
        puzzle, start, text = _start(args, T)
        puzzle = goal_from(puzzle, args)
        cli.write_svg(svg_path, puzzle.svg(start))
        method = _horizon_method(args, horizon_default, puzzle) if T is None else None
        table = puzzle.table
        split = mip and args.split and args.formulation != "seed" and args.solver == "highs"
        if mip and args.ray is not None and not split:
            raise PuzzleoptError("--ray runs the split's pieces: it needs the split (no --no-split, solver highs, "
                                 "formulation tight or pairs)")  # fmt: skip
        # In this process unless worker processes are asked for: a single solve starts none by default.
        threads = args.threads if args.threads is not None else 1
        _check_numbers(args, threads, mip)
        hint, source = None, None
        if args.hint is not None:
            hint, source = table.parse(args.hint), "--hint"
            if T is not None:
                check_hint(puzzle, start, hint, T)
        elif mip and text is not None and T is not None and len(text.split()) <= T:
            undo = table.inverse[table.parse(text, puzzle.goal)][::-1]
            # a table without inverse rows gives no incumbent this way, nor a --goal the solved state misses
            if (undo >= 0).all() and puzzle.solved(puzzle.goal):
                hint, source = [int(m) for m in undo], "the scramble's inverse"
        kwargs: dict[str, Any] = dict(time_limit=args.time_limit, threads=threads, hint=hint, verbose=args.verbose > 0)
        if mip:
            kwargs.update(formulation_name=args.formulation, solver=args.solver, write_model=args.write_model)
            if split:
                kwargs.update(
                    split=True,
                    hint_source=source if T is not None else f"--turns auto ({method})",
                    piece_time_limit=args.piece_time_limit,
                    confirm_infeasible=args.confirm_infeasible,
                    incumbent=args.incumbent,
                )
                if args.ray is not None:
                    from exact.executor import Ray, ray_module

                    ray_module()  # fail at once where Ray is missing
                    # --threads given: the CPUs of a new local Ray (a cluster has its own)
                    cpus = args.threads if args.ray == "auto" else None
                    kwargs["executor"] = Ray(args.ray, num_cpus=cpus)
            else:
                kwargs.update(confirm_infeasible=args.confirm_infeasible)
        else:
            kwargs.update(strategy=args.strategy)
        if not args.json:
            _header(puzzle, start, text, args, T)
        printer = None if args.json or (mip and not kwargs.get("split")) else ModelProgress()
        if printer is not None:
            kwargs["progress"] = printer
        try:
            if T is None:
                res = _solve_auto(puzzle, start, solve, args, kwargs, method)
            else:
                res = solve(puzzle, start, T, **kwargs)
        finally:
            if printer is not None:
                printer.close()
        code = 130 if res.extra.get("interrupted") else res.exit_code
        if args.json:
            if args.size is None:
                print(res.to_json(scramble=text, start_text=puzzle.format_state(start)))
            else:
                facelets = to_facelets(start)
                print(res.to_json(scramble=text, start_facelets=facelets, moves_set=args.moves, metric=args.metric))
            return code
        _report(res, puzzle, start, text, args)
        return code

    main.__module__ = prog.removeprefix("python -m ")  # error lines name the command the user typed
    return main


def _start(args, T: int | None) -> tuple[Any, np.ndarray, str | None]:
    """The puzzle, the start and the scramble text (``None`` for a given state) the options name."""
    if args.puzzle is not None:
        given = [f for f in ("moves", "metric") if getattr(args, f) is not None]
        if given:
            raise PuzzleoptError(
                f"--{given[0]} goes with --size; with --puzzle give the puzzle's options as --option KEY=VALUE"
            )
        puzzle = puzzle_from(args)
    else:
        if args.option:
            raise PuzzleoptError("--option goes with --puzzle; --size takes --moves and --metric")
        args.moves, args.metric = args.moves or "faces", args.metric or "qtm"
        puzzle = _cube(args.size, args.moves, args.metric)
    if args.state is None and args.scramble is None and args.scramble_length is None:
        if T is None:
            raise PuzzleoptError("--turns auto needs a start: give --scramble, --state or --scramble-length")
        args.scramble_length = T
    if args.puzzle is None and args.state is None and args.scramble is None:
        # the cube's own scrambles (the case study's seeds), not a random walk over the table
        start, text = scramble(
            args.size, args.scramble_length, np.random.default_rng(args.seed), args.moves, args.metric
        )
        return puzzle, start, text
    return (puzzle, *start_from(puzzle, args))


def _cube(n: int, moves: str, metric: str):
    if 2 <= n <= 7:
        return registry.get(f"cube{n}", moves=moves, metric=metric)
    from exact.puzzles.cube import CubePuzzle

    return CubePuzzle(n, moves, metric)


def _solve_auto(puzzle, start, solve, args, kwargs, method: str) -> SolveResult:
    """``--turns auto``: the horizon and the incumbent from the registered ``method``."""
    if kwargs.get("hint") is not None:
        raise PuzzleoptError("--turns auto finds its own incumbent; give --hint with a number of --turns instead")
    options = {k: v for k, v in kwargs.items() if k != "hint"}
    chosen = solvers.choose(puzzle, method)
    own = {"model": str(args.model)} if args.model is not None and "model" in chosen.option_names else {}
    if args.model is not None and not own:
        raise PuzzleoptError(f"--model is for a learned --horizon-method (beam, bwas); {method!r} takes no model")
    return solve_at_method_horizon(
        puzzle, start, solve, method, options, progress=not args.json, time_limit=args.bwas_time_limit,
        method_options=own,
    )  # fmt: skip


def _horizon_method(args, default: str | None, puzzle) -> str:
    """The method ``--turns auto`` takes its horizon from: the named one, else ``default`` where it
    is registered and applies, else the registry's first method that proves optimality."""
    if args.horizon_method is None and default is not None:
        if any(m.name == default for m in solvers.methods(puzzle)):
            return default
    return solvers.choose(puzzle, args.horizon_method or "auto").name


def _check_numbers(args, threads: int, mip: bool) -> None:
    """The numeric options, checked before anything is built or printed."""
    if not 1 <= threads <= cli.MAX_THREADS:
        raise PuzzleoptError(
            f"--threads {threads} must be in 1..{cli.MAX_THREADS} (this machine has {cli.cores()} cores)"
        )


def _header(puzzle, start, text, args, T) -> None:
    print(f"{puzzle.table.description}, horizon T = {'auto' if T is None else T}")
    if text is not None:
        print(f"scramble ({len(text.split())} moves): {text or '(none)'}")
    if args.size is None:
        print(f"start: {puzzle.format_state(start)}", flush=True)
        return
    print(net(start, args.size, color=args.color))
    print(f"facelets: {to_facelets(start)}", flush=True)


def _report(res: SolveResult, puzzle, start, text, args) -> None:
    what = {
        "optimal": "optimal (proven)",
        "feasible": f"feasible, not proven optimal (lower bound {res.lower_bound})",
        "infeasible_within_horizon": f"no solution within {res.settings.get('horizon')} moves (proven)",
        "unsolvable": f"unsolvable (proven: {res.extra.get('unsolvable') or 'no solution exists'})",
        "limit": f"limit reached without a solution (lower bound {res.lower_bound})",
    }[res.status.value]
    found = res.extra.get("horizon_solver")
    if found and found.get("length") is not None:
        print(
            f"horizon from {found['method']}: {found['length']} moves ({found['status']}, {found['seconds']:.2f} s), "
            "given to the solver as its incumbent"
        )
    if res.moves:
        print(f"solution ({res.length} moves): {' '.join(res.moves)}")
    print(f"status: {what}")
    proof = res.extra.get("proof")
    if proof:
        src = proof["incumbent_source"]
        print(f"incumbent from: {src if src else 'none found'}")
        print(f"proof (HiGHS, split on the first moves): {proof['summary']}")
    model = res.extra.get("model")
    if model:
        print(
            f"model: {model['variables']} variables ({model['integer_variables']} integer), "
            f"{model['constraints']} constraints"
        )
    if res.extra.get("interrupted"):
        print("interrupted: every worker stopped; the bound above is what was proven")
    counted = "-" if res.nodes is None else f"{res.nodes:,}"  # none where no solver run counts them
    print(
        f"build {res.extra.get('build_seconds', 0.0):.2f} s, solve {res.extra.get('solve_seconds', 0.0):.2f} s, "
        f"total {res.seconds:.2f} s ({res.solver} {res.solver_version}); "
        f"{'nodes' if res.solver != 'cp-sat' else 'conflicts'}: {counted}"
    )
    print("settings: " + ", ".join(f"{k} {_shown(v)}" for k, v in res.settings.items() if v is not None))


def _shown(value) -> str:
    """A setting as a person reads it: lists and mappings joined, not JSON."""
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k} {_shown(v)}" for k, v in value.items()) + ")"
    if isinstance(value, (list, tuple)):
        return f"{len(value)} moves" if all(isinstance(x, int) for x in value) else " ".join(map(str, value))
    return str(value)
