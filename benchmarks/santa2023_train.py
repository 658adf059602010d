"""Per-type networks for Santa 2023's beam (:func:`learned.santa.train_type`): each type's
diffusion network trained on this machine's CPU for at most ``--seconds``, with walks up to the
winning team's longest solution of the type.

Writes ``benchmarks/santa2023/models/<type>/`` (a second run resumes each from its checkpoint).
Usage::

    python benchmarks/santa2023_train.py --types wreath_21/21,globe_1/8 --seconds 1800
    python benchmarks/santa2023.py --redo 314-318,338-347 --beam-models benchmarks/santa2023/models
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from exact.puzzles.santa.instances import instances  # noqa: E402
from learned.runtime import configure  # noqa: E402

MODELS = ROOT / "benchmarks" / "santa2023" / "models"
WINNER = ROOT / "tests" / "data" / "santa2023" / "winner_scores.csv"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--types", required=True, help="comma-separated Santa types")
    ap.add_argument("--seconds", type=float, default=1800.0, help="training seconds per type (this run)")
    ap.add_argument("--threads", type=int, default=2, help="torch threads")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--root", type=Path, default=MODELS)
    args = ap.parse_args(argv)
    from learned.santa import train_type

    configure("cpu", args.threads)
    winner = {int(r["input"]): int(r["score"]) for r in csv.DictReader(WINNER.open())}
    for name in args.types.split(","):
        longest = max(winner[i.id] for i in instances() if i.type == name)
        summary = train_type(name, args.root, seconds=args.seconds, max_walk=longest, seed=args.seed)
        print(json.dumps({"type": name, "max_walk": longest} | {k: summary[k] for k in ("steps", "seconds", "loss")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
