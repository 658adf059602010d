"""The command line shared by ``python -m exact.mip`` and ``python -m exact.cpsat``.

Exit codes: 0 solved (optimal or feasible), 2 bad input, 3 proven infeasible within T,
4 limit reached without a solution, 130 interrupted (Ctrl-C; the MIP reports what it proved).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import numpy as np

from exact import cli, registry, solvers
from exact.cli.flags import MethodFlags
from exact.cli.options import (
    add_goal_option,
    add_puzzle_options,
    add_ray_option,
    add_start_options,
    goal_from,
    puzzle_from,
    start_from,
)
from exact.cli.solve import Preset, add_solve_flags, solve_settings
from exact.errors import PuzzleoptError
from exact.horizon import from_scramble, solve_at_method_horizon
from exact.puzzles.cube import net, scramble, to_facelets
from exact.result import SolveResult
from exact.timeindexed import check_hint, check_horizon

# Spelt the commands' own way: --turns (with auto), --hint (moves as text), -v, --json's
# silence; the executor is --ray.
SKIPPED = ("horizon", "hint", "hint_source", "verbose", "progress", "executor")

MIP = Preset(method="mip", skip=SKIPPED)  # its limits: the time (a model counts no nodes)
CPSAT = Preset(method="cp-sat", skip=SKIPPED)


def parser(prog: str, description: str, preset: Preset) -> tuple[argparse.ArgumentParser, MethodFlags]:
    """The command's own flags (the cube size, ``--turns auto``, the net), then the method flags
    generated from the method's declarations (:mod:`exact.cli.solve`)."""
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
    add_goal_option(p)
    p.add_argument(
        "--hint",
        help="a known solution: the incumbent; the solver looks only for shorter ones (default: the scramble's "
        "inverse where the start is a scramble that fits within T)",
    )
    p.add_argument("--color", action="store_true", help="draw the net with ANSI colours")
    cli.add_svg(p, "the start (a cube's net, a board)")
    _auto_options(p)
    if preset.method == "mip":
        add_ray_option(p, "the split's pieces")
    return p, add_solve_flags(p, preset)


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


def horizon(text: str) -> int | None:
    """The horizon ``--turns`` asks for, checked; ``None`` for ``auto``."""
    if text == "auto":
        return None
    try:
        T = int(text)
    except ValueError:
        raise PuzzleoptError(f"--turns {text!r} must be a whole number of moves") from None
    return check_horizon(T)


def main_for(prog: str, description: str, preset: Preset, horizon_default: str | None = None):
    """A ``main(argv)`` for one of the two model commands: a preset of the one solve command
    with the method fixed, solving through the registry (:func:`exact.solvers.solve`).

    ``--turns auto`` takes its horizon from a registered method: ``--horizon-method``, else
    ``horizon_default`` where it applies (``puzzleopt mip`` passes ``"bwas"``, the learned
    method), else the first that proves optimality on the puzzle.
    """

    def main(argv: Sequence[str] | None = None) -> int:
        p, flags = parser(prog, description, preset)
        args = p.parse_args(argv)
        svg_path = cli.svg_target(args)
        T = horizon(args.turns)
        puzzle, start, text = _start(args, T)
        puzzle = goal_from(puzzle, args)
        cli.write_svg(svg_path, puzzle.svg(start))
        name, limits, options = solve_settings(args, preset, flags)
        method = solvers.choose(puzzle, name)
        options.update(verbose=args.verbose > 0, progress=not args.json, **_executor(args, options))
        if args.hint is not None:
            options.update(hint=puzzle.table.parse(args.hint, start), **_source(method, "--hint"))
            if T is not None:
                check_hint(puzzle, start, options["hint"], T)
        if T is not None:
            options["horizon"] = T
            # the scramble's inverse as the incumbent: the rule of every entry point
            options.update(from_scramble(puzzle, method, None if text is None else text.split(), options, "--turns T"))
        if not args.json:
            _header(puzzle, start, text, args, T)
        if T is None:
            chosen = _horizon_method(args, horizon_default, puzzle)
            res = _solve_auto(puzzle, start, method, args, options, limits, chosen)
        else:
            res = solvers.solve(puzzle, start, method=method.name, limits=limits, **options)
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


def _source(method: solvers.Method, source: str) -> dict[str, Any]:
    """``hint_source`` where the method reports where its incumbent came from."""
    return {"hint_source": source} if "hint_source" in method.option_names else {}


def _executor(args, options: dict[str, Any]) -> dict[str, Any]:
    """``--ray [ADDRESS]`` as the split's executor (with ``--threads``: the CPUs of a new local Ray)."""
    if getattr(args, "ray", None) is None:
        return {}
    from exact.executor import Ray, ray_module

    ray_module()  # fail at once where Ray is missing
    return {"executor": Ray(args.ray, num_cpus=options.get("threads") if args.ray == "auto" else None)}


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


def _solve_auto(puzzle, start, method: solvers.Method, args, options: dict[str, Any], limits: solvers.Limits,
                horizon_method: str) -> SolveResult:  # fmt: skip
    """``--turns auto``: the horizon and the incumbent from the registered ``horizon_method``."""
    if "hint" in options:
        raise PuzzleoptError("--turns auto finds its own incumbent; give --hint with a number of --turns instead")
    chosen = solvers.choose(puzzle, horizon_method)
    own = {"model": str(args.model)} if args.model is not None and "model" in chosen.option_names else {}
    if args.model is not None and not own:
        raise PuzzleoptError(
            f"--model is for a learned --horizon-method (beam, bwas); {horizon_method!r} takes no model"
        )
    options = {**options, **_source(method, f"--turns auto ({chosen.name})")}

    def model(puzzle, start, T: int, *, hint, time_limit=None, **given) -> SolveResult:
        return solvers.solve(puzzle, start, method=method.name, limits=solvers.Limits(time=time_limit), horizon=T,
                             hint=hint, **given)  # fmt: skip

    return solve_at_method_horizon(
        puzzle, start, model, horizon_method, {**options, "time_limit": limits.time}, progress=not args.json,
        time_limit=args.bwas_time_limit, method_options=own,
    )  # fmt: skip


def _horizon_method(args, default: str | None, puzzle) -> str:
    """The method ``--turns auto`` takes its horizon from: the named one, else ``default`` where it
    is registered and applies, else the registry's first method that proves optimality."""
    if args.horizon_method is None and default is not None:
        if any(m.name == default for m in solvers.methods(puzzle)):
            return default
    return solvers.choose(puzzle, args.horizon_method or "auto").name


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
