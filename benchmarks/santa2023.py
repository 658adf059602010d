"""Kaggle Santa 2023's 398 puzzles: proofs where bidirectional BFS fits, the commutator solver
for the rest, scored as the competition scored them and set beside the winning team's lengths.

Writes ``benchmarks/santa2023/results.jsonl`` (one line per puzzle, appended as each finishes,
so a stopped run resumes where it stopped), ``benchmarks/santa2023/submission.csv``, its plot
and ``docs/benchmarks/santa2023.md``. Usage::

    python benchmarks/santa2023.py --proof-seconds 60
    python benchmarks/santa2023.py --redo 338-372 --proof-seconds 600   # longer proofs for the globes
    python benchmarks/santa2023.py --render-only

The winner's lengths are ``tests/data/santa2023/winner_scores.csv`` (a copy of
``../shared/data/santa2023/winner_scores.csv``); the submission is re-read from disk and scored
before the page is written.
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import load_meter, machine, markdown_table, write_page  # noqa: E402
from exact.progress import bar  # noqa: E402
from exact.puzzles.santa.instances import instances, parse_ids  # noqa: E402
from exact.puzzles.santa.score import read_submission, score  # noqa: E402
from exact.santa.prove import MAX_STORED  # noqa: E402

OUT = ROOT / "benchmarks" / "santa2023"
WINNER = ROOT / "tests" / "data" / "santa2023" / "winner_scores.csv"
PROVE = ("cube_2/2/2", "wreath_6/6", "wreath_7/7", "wreath_12/12", "globe_1/8", "globe_2/6", "globe_3/4")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ids", default="0-397", help="the puzzles to solve")
    ap.add_argument("--redo", default="", help="ids to solve again although results hold them")
    ap.add_argument("--prove-types", default=",".join(PROVE), help="types tried by bidirectional BFS first")
    ap.add_argument("--proof-seconds", type=float, default=60.0, help="seconds for each proof")
    ap.add_argument("--proof-stored", type=int, default=MAX_STORED, help="states each proof may hold")
    ap.add_argument(
        "--solver-seconds",
        type=float,
        default=600.0,
        help="seconds for a type's own solver (the 3x3x3's optimal face-turn search)",
    )
    ap.add_argument(
        "--beam-models",
        type=Path,
        help="folder of per-type networks (benchmarks/santa2023_train.py): "
        "the beam is tried too where its type has one, the shorter answer kept",
    )
    ap.add_argument("--beam-seconds", type=float, default=60.0, help="seconds for each beam")
    ap.add_argument("--render-only", action="store_true", help="write the page from the results only")
    args = ap.parse_args(argv)
    meter = load_meter()
    results = OUT / "results.jsonl"
    if not args.render_only:
        run(parse_ids(args.ids), set(parse_ids(args.redo)) if args.redo else set(), set(args.prove_types.split(",")),
            args.proof_seconds, args.solver_seconds, results, args.beam_models, args.beam_seconds,
            args.proof_stored)  # fmt: skip
    rows = read_results(results)
    submission = OUT / "submission.csv"
    tmp = submission.with_suffix(".tmp")
    tmp.write_text(
        "id,moves\n" + "".join(f"{i},{r['moves']}\n" for i, r in sorted(rows.items()) if r["moves"] is not None)
    )
    os.replace(tmp, submission)
    checked = score(read_submission(submission))  # what is on disk, replayed
    render(rows, checked, args, meter())
    return 0


def run(ids: list[int], redo: set[int], prove_types: set[str], seconds: float, solver_seconds: float,
        results: Path, beam_models: Path | None = None, beam_seconds: float = 60.0,
        stored: int = MAX_STORED) -> None:  # fmt: skip
    from exact.santa.solve import row, solve

    done = read_results(results) if results.exists() else {}
    todo = [i for i in ids if i not in done or i in redo]
    # one write per line on an O_APPEND descriptor: a line lands whole even beside another run's
    fd = os.open(results, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        for i in bar(True, iterable=todo, desc="santa", unit="puzzle"):
            inst = instances()[i]
            t0 = time.perf_counter()
            proof = inst.type in prove_types
            result = solve(inst, proof=proof, time_limit=seconds if proof else solver_seconds, stored=stored)
            if beam_models is not None and result.status.value != "optimal":
                result = _beam(inst, result, beam_models, beam_seconds)
            line = row(inst, result) | {"seconds": round(time.perf_counter() - t0, 3), "proof_seconds": seconds,
                                        "solver_seconds": solver_seconds, "proof_stored": stored}  # fmt: skip
            if beam_models is not None:
                line["beam_seconds"] = beam_seconds
            os.write(fd, (json.dumps(line) + "\n").encode())
            os.fsync(fd)
    finally:
        os.close(fd)


def _beam(inst, result, models: Path, seconds: float):
    """The beam's answer where the type has a network and it is shorter, else ``result``."""
    from learned.santa import beam_solve, model_dir

    model = model_dir(models, inst.type) / "model.safetensors"
    if not model.exists():
        return result
    found = beam_solve(inst, model, time_limit=seconds)
    if found is None or not found.status.has_solution:
        return result
    if result.length is not None and found.length >= result.length:
        return result
    # a proof's bound holds for any answer; what stopped the proof is kept beside it
    told = {k: result.extra[k] for k in ("proof_stop", "proof_used") if k in result.extra}
    return dataclasses.replace(found, lower_bound=result.lower_bound, extra=found.extra | told)


def read_results(path: Path) -> dict[int, dict]:
    """The last line of each id (a redo appends a newer one)."""
    out: dict[int, dict] = {}
    for text in path.read_text().splitlines():
        line = json.loads(text)
        out[line["id"]] = line
    return out


def render(rows: dict[int, dict], checked, args, load: str) -> None:
    winner = {int(r["input"]): int(r["score"]) for r in csv.DictReader(WINNER.open())}
    by = defaultdict(list)
    for inst in instances():
        by[inst.type].append(inst.id)
    valid = {c.id: c for c in checked.checks}
    table = []
    totals = defaultdict(int)
    for name, ids in by.items():
        ours = sum(valid[i].moves for i in ids if valid[i].valid)
        win = sum(winner[i] for i in ids)
        ok = sum(valid[i].valid for i in ids)
        proven = [i for i in ids if rows.get(i, {}).get("status") == "optimal"]
        same = sum(rows[i]["length"] == winner[i] for i in proven)
        shorter = sum(rows[i]["length"] < winner[i] for i in proven)
        secs = sum(rows.get(i, {}).get("seconds", 0.0) for i in ids)
        bounds = [rows[i]["bound"] for i in ids if rows.get(i, {}).get("bound") is not None]
        ratio = f"{ours / win:.2f}" if ok == len(ids) else "-"
        methods = Counter(rows[i]["method"] for i in ids if i in rows)
        by_method = ", ".join(f"{m} {n}" for m, n in methods.most_common())
        table.append([name, str(len(ids)), str(ok), f"{ours:,}", f"{win:,}", ratio, f"{len(proven)}",
                      f"{same}" + (f" (+{shorter} shorter)" if shorter else ""), f"{max(bounds) if bounds else '-'}",
                      f"{secs:,.0f}", by_method])  # fmt: skip
        for k, v in (
            ("n", len(ids)),
            ("ok", ok),
            ("ours", ours),
            ("win", win),
            ("proven", len(proven)),
            ("same", same),
        ):
            totals[k] += v
        totals["secs"] += int(secs)
    table.append(["**all**", str(totals["n"]), str(totals["ok"]), f"{totals['ours']:,}", f"{totals['win']:,}",
                  f"{totals['ours'] / totals['win']:.2f}", str(totals["proven"]), str(totals["same"]), "",
                  f"{totals['secs']:,}", ""])  # fmt: skip
    plot = plot_ratios(rows, checked, winner, by)
    lines = [
        "# Benchmark: Kaggle Santa 2023, all 398 puzzles",
        "",
        f"Page written {date.today()} on {machine()}; {load}. Command: `python benchmarks/santa2023.py --ids IDS "
        "--redo IDS --proof-seconds S --proof-stored N --beam-models benchmarks/santa2023/models --beam-seconds B` "
        "over several runs; the results file keeps each puzzle's last run with the settings it ran under: "
        f"{_settings(rows)}.",
        "",
        "Each puzzle of the types in the proof column is first searched by bidirectional BFS from its initial "
        "state and from every state its wildcards allow (`exact.santa.prove`), for at most the proof seconds; "
        "`optimal` is said only when the two sides meet. Every other puzzle, and every proof that ran out of time, "
        "is solved by its type's own solver where it has one, and else by the commutator solver "
        "(`exact.commutators`): 3-cycles from commutators whose supports share one piece, conjugated by set-up "
        "moves, placed slot by slot. The 3x3x3's own solver (`exact.santa.cube3`, `cube3-optimal+slices` in the "
        "`by` column) solves the cube seen from its centres with the optimal quarter-turn solver and pays the "
        "centres' rotation with slice moves chosen by a dynamic programme; its answers are not proven optimal in "
        "Santa's metric. The submission is written, read back and replayed as the competition scored it "
        "(`puzzleopt santa score`) before this page is written.",
        "",
        f"**{checked.to_dict()['valid']} of 398 valid; {checked.total:,} moves against the winning team's 53,770.** "
        "The winners' lengths (`tests/data/santa2023/winner_scores.csv`) had no proofs; `= winner` counts the proven "
        "optima equal to the winner's length, `bound` the largest lower bound a proof reached in the type.",
        "",
        *markdown_table(
            ["type", "puzzles", "valid", "moves", "winner", "ratio", "proven", "= winner", "bound", "seconds", "by"],
            table,
        ),  # fmt: skip
        "",
        f"![moves per puzzle against the winner's]({plot})",
        "",
        *_cube3_note(rows, valid, winner, by["cube_3/3/3"]),
        *_proof_note(rows, winner, by),
        *_beam_note(rows),
    ]
    write_page(ROOT / "docs" / "benchmarks" / "santa2023.md", lines)


def _cube3_note(rows: dict[int, dict], valid: dict, winner: dict[int, int], ids: list[int]) -> list[str]:
    """What the page says of the 3x3x3s: their total against the winners', and how many the
    optimal solver answered."""
    ours = sum(valid[i].moves for i in ids)
    win = sum(winner[i] for i in ids)
    by_optimal = sum(rows.get(i, {}).get("method") == "cube3-optimal+slices" for i in ids)
    return [f"The {len(ids)} 3x3x3s: {ours:,} moves against the winners' {win:,} "
            f"({'at most' if ours <= win else 'more than'} theirs), {by_optimal} of them by the optimal solver "
            "(each piece read by its labels, so the checkerboard goals of ids 130-139, whose edges wear the next "
            "face's colour, read as plain cubes). The face-turn answer is optimal in quarter turns of the cube seen "
            "from its centres; Santa's count, with its slice moves, is not proven optimal.", ""]  # fmt: skip


def _settings(rows: dict[int, dict]) -> str:
    """The settings the kept runs ran under, with how many puzzles each."""
    told = Counter(
        (r.get("proof_seconds"), r.get("solver_seconds"), r.get("proof_stored", MAX_STORED)) for r in rows.values()
    )
    return "; ".join(f"proof seconds {p:g}, solver seconds {'-' if s is None else f'{s:g}'}, proof stored {n:,} "
                     f"({k} puzzles)" for (p, s, n), k in sorted(told.items(), key=lambda x: -x[1]))  # fmt: skip


def _proof_note(rows: dict[int, dict], winner: dict[int, int], by: dict[str, list[int]]) -> list[str]:
    """What the page says of the proofs: the types all proven, and for each type with unproven
    puzzles the time and memory its proofs had, what stopped them, and their bounds."""
    tried = {t: [rows[i] for i in ids if i in rows] for t, ids in by.items() if t in PROVE}
    full = [t for t, got in tried.items() if got and all(r["status"] == "optimal" for r in got)]
    text = [f"Every proof of {', '.join(full)} met within its proof seconds, and every one equals the winners' "
            "length." if all(r["length"] == winner[r["id"]] for t in full for r in tried[t]) else
            f"Every proof of {', '.join(full)} met within its proof seconds."]  # fmt: skip
    for t, got in tried.items():
        open_ = [r for r in got if r["status"] != "optimal"]
        if not open_ or t in full:
            continue
        stops = Counter("memory" if "stored" in str(r.get("proof_stop")) else "time" if r.get("proof_stop") else
                        "unrecorded" for r in open_)  # fmt: skip
        used = [r["proof_used"] for r in open_ if "proof_used" in r]
        allowed = sorted({r.get("proof_seconds") for r in open_})
        stored = sorted({r.get("proof_stored", MAX_STORED) for r in open_})
        bounds = [r["bound"] for r in open_ if r["bound"] is not None] or ["-"]
        mean = sum(winner[r["id"]] for r in open_) / len(open_)
        text.append(
            f"{t}: {len(got) - len(open_)} of {len(got)} proven; the other {len(open_)} were allowed "
            f"{' or '.join(f'{a:g}' for a in allowed)} s and {' or '.join(f'{m:,}' for m in stored)} stored states, "
            f"stopped by {', '.join(f'{k} ({n})' for k, n in stops.items())}"
            + (f" after at most {max(used):g} s" if used else "")
            + f", with lower bounds {min(bounds)}-{max(bounds)} against the winners' {mean:.0f} moves a puzzle."
        )
    return [" ".join(text) + " The type globe_3/33 holds ids 392-395, which the winners' table calls globe_33/3 "
            "(their 264 positions are globe_3/33's).", ""]  # fmt: skip


def _beam_note(rows: dict[int, dict]) -> list[str]:
    """What the page says of the per-type networks: a table of each one's training and what its
    beam gave, or that none ran."""
    beamed = Counter(r["type"] for r in rows.values() if r["method"] == "beam")
    cards = _network_cards(rows)
    if not cards:
        return ["No beam answer is on this page: the per-type networks (`learned.santa`, `--beam-models`) were not "
                "run for it. The commutator solver's answers are valid but several times the winners' length on the "
                "big cubes, the long wreaths and the globes."]  # fmt: skip
    told = ", ".join(f"{t} ({n})" for t, n in sorted(beamed.items())) or "no type"
    table = []
    for t, card in cards.items():
        kept = _committed(OUT / "models" / t.replace("/", "_") / "model.safetensors")
        table.append([t, f"{card['training_seconds'] / 60:.1f}", f"{card['trained_steps']:,}",
                      f"{card['states_seen_total']:,}", str(beamed.get(t, 0)), kept])  # fmt: skip
    untrained = [t for t in dict.fromkeys(r["type"] for r in rows.values()) if t not in cards]
    fallback = {r["type"] for r in rows.values() if r["method"] == "commutators"}  # neither proven nor own solver
    waiting = [t for t in untrained if t in fallback]
    return [f"The beam with a per-type network (`learned.santa`) gave the shorter answer for {told}: networks "
            "trained on this machine's CPU, one thread, each run asked for at most 30 minutes "
            "(`python benchmarks/santa2023_train.py --types TYPE --seconds S --threads 1`; the table's minutes are "
            "the wall-clock its card records, over 30 where a run was paused beside a benchmark; stored under "
            "`benchmarks/santa2023/models`), the beam tried with `--beam-models` (`--beam-seconds 120` a puzzle on the "
            "wreaths and globes, 10 on the cubes 4 to 33) and kept where shorter than the commutators'. The network "
            "reads the type's colour goal, so the puzzles with other solution states "
            f"(the big cubes' numbered ones) are not beamed. Networks over {BIG // 10**6} MB whose beam kept no "
            "answer (the embedding grows with the positions: 0.6 M weights for the 4-cube, 13 M for the 19-cube, "
            "40 M for the 33-cube) are kept out of the repository; the command remakes them.", "",
            *markdown_table(NETWORK_COLUMNS, table), "",
            f"No network for {', '.join(t for t in untrained if t not in waiting)}: their puzzles are proven "
            "optimal or solved by the type's own solver."
            + (f" No network yet for {', '.join(waiting)}." if waiting else "")]  # fmt: skip


NETWORK_COLUMNS = ["type", "minutes trained", "steps", "states seen", "beam answers kept", "in the repository"]

BIG = 8_000_000
"""Bytes: a network this large whose beam kept no answer is not committed (``.gitignore`` lists
its file): 50 MB of weights that shortened nothing are not worth every clone's time."""


def _committed(path: Path) -> str:
    """``yes`` where git tracks ``path``, ``no`` where not, ``-`` without git."""
    try:
        found = subprocess.run(["git", "ls-files", "--error-unmatch", str(path)], cwd=ROOT, capture_output=True)
    except OSError:
        return "-"
    return "yes" if found.returncode == 0 else "no"


def _network_cards(rows: dict[int, dict]) -> dict[str, dict]:
    """The model card of each type's network, read back verified (:func:`learned.weights.read`)."""
    from learned.weights import read

    cards = {}
    for t in dict.fromkeys(i.type for i in instances() if i.id in rows):  # the types in the page's order
        model = OUT / "models" / t.replace("/", "_") / "model.safetensors"
        if model.exists():
            cards[t] = read(model, "model")[1]["card"]
    return cards


def plot_ratios(rows, checked, winner, by) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(by)
    valid = {c.id: c for c in checked.checks}
    ratio = [sum(valid[i].moves for i in by[n]) / sum(winner[i] for i in by[n]) for n in names]
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.bar(range(len(names)), ratio, color=["tab:green" if r <= 1.0001 else "tab:blue" for r in ratio])
    ax.axhline(1, color="black", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), names, rotation=70, fontsize=7)
    ax.set_ylabel("our moves / winner's moves")
    ax.set_title("Santa 2023: moves per type against the winning submission (green: equal)")
    fig.tight_layout()
    path = ROOT / "docs" / "benchmarks" / "santa2023.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


if __name__ == "__main__":
    sys.exit(main())
