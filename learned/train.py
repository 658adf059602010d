"""``python -m learned.train --puzzle tiles8 --preset small --steps 2000 --out runs/tiles8``: DAVI training.

``--objective diffusion`` trains CayleyPy's way instead: the network regresses the length of a
non-backtracking random walk from the goal (:mod:`learned.diffusion`), with the ResMLP presets
``resmlp-cpu`` and ``resmlp-gpu``. ``--objective davi --init-from runs/x/model.safetensors``
fine-tunes such a network with DAVI ("diffusion then DAVI").

Shows a progress bar with the loss and the target updates; writes ``log.csv``, ``curves.png``,
checkpoints and, at the end, ``model.safetensors`` into ``--out`` (see :mod:`learned.davi`).
Running the same command again resumes from the last checkpoint; Ctrl-C saves one first.

``kill`` (SIGTERM) stops it like Ctrl-C. A second run on a folder in use is refused.

Exit codes: 0 trained, 2 bad input (a folder in use included), 130 interrupted (the checkpoint is
saved; run again to resume).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from exact import cli
from exact.cli.options import (
    add_executor_options,
    add_puzzle_options,
    executor_from,
    options_from,
    parallel_asked,
    puzzle_from,
)
from exact.errors import PuzzleoptError
from exact.userfiles import output_folder
from learned.cli import add_options
from learned.davi import DAVI_MAX_SCRAMBLE, OBJECTIVES, DaviConfig, train
from learned.nets import PRESETS
from learned.runtime import TRAIN_THREADS, configure

EPILOG = "exit codes: 0 trained, 2 bad input, 130 interrupted (checkpoint saved; run again to resume)"


def _parser() -> argparse.ArgumentParser:
    d = DaviConfig(puzzle="")
    p = cli.parser("python -m learned.train", __doc__.splitlines()[0])
    p.epilog = EPILOG
    add_puzzle_options(p)
    p.add_argument("--preset", default=d.preset, help=f"network preset: {', '.join(PRESETS)} (default {d.preset})")
    p.add_argument("--steps", type=int, default=d.steps, help=f"training steps in all (default {d.steps})")
    p.add_argument("--batch", type=cli.count(1), default=d.batch, help=f"states per step (default {d.batch})")
    p.add_argument(
        "--objective",
        default=d.objective,
        choices=OBJECTIVES,
        help="davi: Bellman targets (DeepCubeA); diffusion: the length of a non-backtracking walk from the goal "
        f"(CayleyPy). Default {d.objective}",
    )
    p.add_argument(
        "--max-scramble",
        type=cli.count(1),
        default=None,
        help=f"K: scrambles (davi) or walks (diffusion) of 1..K moves; default {DAVI_MAX_SCRAMBLE} for davi, the "
        "puzzle's God's number (or a proven bound) for diffusion",
    )
    p.add_argument(
        "--init-from",
        type=cli.path,
        help="start from this model's weights (same preset), e.g. DAVI fine-tuning of a diffusion network",
    )
    p.add_argument("--init-optimizer", type=cli.path, metavar="DIR", help="with --init-from: Adam's moments for "
                   "that network (learned.adam.export_adam), so training goes on as one run")  # fmt: skip
    p.add_argument(
        "--time-limit",
        type=float,
        help="seconds: stop training then (the model is written from the step reached; run again with a larger "
        "limit or without one to go on)",
    )
    p.add_argument("--amp", action="store_true", help="bfloat16 autocast on a GPU (no effect on the CPU)")
    p.add_argument("--lr", type=float, default=d.lr, help="Adam's learning rate at step 0")
    p.add_argument("--lr-decay", type=float, default=d.lr_decay, help="factor on the learning rate after each step")
    p.add_argument("--check-every", type=int, default=d.check_every, help="C: steps between target-update checks")
    p.add_argument("--threshold", type=float, default=d.threshold, help="loss under which the target is updated")
    p.add_argument("--eval-every", type=int, default=d.eval_every, help="steps between greedy solve-rate checks")
    p.add_argument("--eval-depths", default=",".join(map(str, d.eval_depths)), help="comma-separated depths")
    p.add_argument(
        "--checkpoint-seconds",
        type=float,
        default=d.checkpoint_seconds,
        help="seconds between checkpoints (one is also written on Ctrl-C and on kill/SIGTERM)",
    )
    p.add_argument(
        "--checkpoint-steps",
        type=int,
        default=d.checkpoint_steps,
        help="steps between checkpoints, whichever of the two comes first: a SIGKILL or power loss loses at most "
        "this many steps or --checkpoint-seconds of work",
    )
    p.add_argument(
        "--seed", type=cli.count(0), default=d.seed, help="seed of the network's weights and of the scrambles"
    )
    add_options(p, TRAIN_THREADS)
    p.add_argument("--out", type=cli.path, help="training folder (default runs/<puzzle>)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--shards",
        type=cli.count(1),
        default=d.shards,
        help="make each step's batch as this many shards, each from its own seeded generator, so that they can be "
        "made in parallel (--workers, --ray, --ddp); 1 (default): one generator, in this process",
    )
    add_executor_options(p)
    p.add_argument(
        "--ddp",
        type=cli.count(2),
        metavar="N",
        help="train on N processes with torch.distributed (DDP): one per GPU (nccl) where N GPUs are present, "
        "else CPU processes (gloo); --shards a multiple of N",
    )
    return p


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    puzzle_from(args)  # an unknown name or option fails here, listing the known ones
    try:
        depths = tuple(int(x) for x in args.eval_depths.split(",") if x.strip())
    except ValueError:
        raise PuzzleoptError(f"--eval-depths {args.eval_depths!r} must be comma-separated whole numbers") from None
    config = DaviConfig(
        puzzle=args.puzzle,
        options=options_from(args),
        preset=args.preset,
        steps=args.steps,
        batch=args.batch,
        max_scramble=args.max_scramble,
        lr=args.lr,
        lr_decay=args.lr_decay,
        check_every=args.check_every,
        threshold=args.threshold,
        eval_every=args.eval_every,
        eval_depths=depths,
        checkpoint_seconds=args.checkpoint_seconds,
        checkpoint_steps=args.checkpoint_steps,
        seed=args.seed,
        device=configure(args.device, args.threads),
        shards=args.shards,
        objective=args.objective,
        init_from=None if args.init_from is None else str(args.init_from),
        init_optimizer=None if args.init_optimizer is None else str(args.init_optimizer),
        amp=args.amp,
    )
    if config.preset not in PRESETS:
        raise PuzzleoptError(f"--preset {config.preset!r} is unknown; use one of {', '.join(PRESETS)}")
    if args.time_limit is not None and not args.time_limit > 0:
        raise PuzzleoptError(f"--time-limit {args.time_limit} must be a number of seconds > 0")
    out = output_folder(args.out or Path("runs") / args.puzzle, "--out")
    # `kill` (SIGTERM) stops like Ctrl-C: the checkpoint is saved first.
    signal.signal(signal.SIGTERM, _interrupt)
    if args.ddp is not None:
        if parallel_asked(args):
            raise PuzzleoptError("--ddp makes each rank's shards itself; drop --workers and --ray")
        from learned.distributed import train_ddp

        summary = train_ddp(config, out, args.ddp, progress=not args.no_progress, threads=args.threads)
    else:
        if config.shards == 1 and parallel_asked(args):
            raise PuzzleoptError("--workers and --ray make the shards of a batch: give --shards K (K > 1) too")
        with executor_from(args, threads=1) as executor:
            command = " ".join(["python -m learned.train", *(sys.argv[1:] if argv is None else argv)])
            summary = train(
                config, out, progress=not args.no_progress, executor=executor, command=command,
                time_limit=args.time_limit,
            )  # fmt: skip
    if summary.get("note"):
        print(f"note: {summary['note']}", file=sys.stderr)
    if args.json:
        print(json.dumps(summary))
    else:
        rates = ", ".join(f"depth {d}: {r:.0%}" for d, r in summary["greedy"].items())
        loss = "-" if summary["loss"] is None else f"{summary['loss']:.4f}"  # no step taken in this run
        print(
            f"{args.puzzle} ({summary['objective']}): {summary['steps']} steps in {summary['seconds']:.0f} s "
            f"({summary['states_per_second']:,.0f} states/s), loss {loss}, {summary['target_updates']} target "
            f"updates; greedy solve rate {rates or '-'}; model {summary['model']}"
        )
    return cli.EXIT_OK


if __name__ == "__main__":
    sys.exit(cli.run(main))
