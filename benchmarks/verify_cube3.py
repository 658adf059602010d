"""The shipped 3x3 network's CPU ``best`` answers on DeepCubeA's 1,000 QTM cubes, certified by
``python -m hybrid.verify`` with the H48 solver (issue 67): the verdict section of
docs/benchmarks/learned_cube3.md.

The long run (the beam, then the proof; the card measured the beam at a median of 53.0 s a cube
on 2 cores), resumable with ``--resume`` and run in the background::

    nohup python -m hybrid.verify --puzzle cube3 --instances deepcubea-cube3 --learned-method beam \\
        --quality best --precision int8 --threads 2 --method cube3-h48 --method-option threads=2 \\
        --out docs/benchmarks/data/verify_cube3_best --resume --no-progress > /tmp/verify.log 2>&1 &

then the section, from one or more such folders (a run sealed on another machine goes on in a
new folder there, with ``--ids`` naming the cubes still to do: ``--resume`` needs the key that
sealed the log)::

    python benchmarks/verify_cube3.py docs/benchmarks/data/verify_cube3_best [MORE ...]

Nothing is taken on the log's word, and so not on its seal either: every certificate is re-checked
against its DeepCubeA cube (:func:`hybrid.certify.certificate_from_record`: the network's answer
and the best one replayed, verdict, bound and gap consistent with them), its known optimum must be
the file's, no certificate may contradict that optimum, and where our own certification
(``docs/benchmarks/data/deepcubea_h48.jsonl``, ``benchmarks/deepcubea_h48.py``) proved the cube's
optimum, the two must agree. The folders must have run the same network with the same settings.

Exit codes: 0 done; 2 bad input (no such folder, no log in it, folders of different runs); 6 a
certificate fails its re-check or contradicts an optimum (named by its cube).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.common import markdown_table, write_page  # noqa: E402
from benchmarks.deepcubea_h48 import checked, cubes, read_rows  # noqa: E402
from exact import registry  # noqa: E402
from exact.errors import PuzzleoptError  # noqa: E402
from exact.rates import Rate  # noqa: E402
from hybrid.certify import Certificate, certificate_from_record  # noqa: E402
from hybrid.report import length_tables, markdown, summarise  # noqa: E402
from instances.files import Instance, parse_states, read_instances  # noqa: E402

PAGE = ROOT / "docs" / "benchmarks" / "learned_cube3.md"
SECTION = "verified-best"
EXIT_BAD_INPUT, EXIT_CONTRADICTION = 2, 6
CUBES = 1000  # DeepCubeA's QTM test set
PUBLISHED = "DeepCubeA 60.3% (published), CayleyPy's 4M ResMLP at W = 2^18 75.4% and at W = 2^24 97.3% (published)"


class Contradiction(ValueError):
    """A certificate that fails its re-check, named by its cube."""


def read_folder(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run header and the records of ``folder/certificates.jsonl`` (a torn last line, from a
    stop during a write, left out). The seals are not checked here: every record is re-checked."""
    path = folder / "certificates.jsonl"
    if not path.is_file():
        raise PuzzleoptError(f"{folder}: no certificates.jsonl; is it a hybrid.verify --out folder?")
    lines = [ln for ln in path.read_text().splitlines() if ln.strip()]
    docs = []
    for n, ln in enumerate(lines, 1):
        try:
            docs.append(json.loads(ln))
        except ValueError:
            if n < len(lines):
                raise PuzzleoptError(f"{path}: line {n} is not JSON; the file is damaged") from None
    if not docs or "run" not in docs[0]:
        raise PuzzleoptError(f"{path}: its first line is no run header")
    return docs[0]["run"], [{k: v for k, v in d.items() if k not in ("format", "mac")} for d in docs[1:]]


def same_run(headers: list[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    """The one run the folders hold: the same puzzle, network and settings in each."""
    (first, run), *rest = headers
    for folder, other in rest:
        if (other.get("puzzle"), other.get("learned")) != (run.get("puzzle"), run.get("learned")):
            raise PuzzleoptError(f"{folder} ran another network or settings than {first}; render them apart")
    if not run.get("learned"):
        raise PuzzleoptError(f"{first}: its solutions came from a file, not from the network")
    return run


def recheck(records: list[dict[str, Any]], certified: dict[str, int]) -> list[Certificate]:
    """Each cube's certificate (the last of each), re-checked; DeepCubeA's order.

    Raises:
        Contradiction: one fails, named by its cube.
    """
    p = registry.get("cube3")
    items = read_instances("deepcubea-cube3")
    starts = dict(zip((x.id for x in items), parse_states(p, items, "deepcubea-cube3")))
    known = {x.id: x for x in items}
    back = certificate_from_record(p)
    latest = {str(r.get("id")): r for r in records}
    out = []
    for ident, r in sorted(latest.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else -1):
        item: Instance | None = known.get(ident)
        if item is None:
            raise Contradiction(f"cube {ident!r} is not one of DeepCubeA's")
        if r.get("known_optimal") != item.optimal:
            raise Contradiction(f"cube {ident}: the log says its optimum is {r.get('known_optimal')}, "
                                f"DeepCubeA's file {item.optimal}")  # fmt: skip
        try:
            c = back(r, (item, starts[ident], None))
        except (PuzzleoptError, ValueError, KeyError, TypeError) as exc:
            raise Contradiction(f"cube {ident}: {exc}") from None
        why = c.contradiction() or _against(c, certified.get(ident))
        if why:
            raise Contradiction(why)
        out.append(c)
    return out


def _against(c: Certificate, proven: int | None) -> str | None:
    """Why ``c`` disagrees with our certification's proven optimum of its cube, or ``None``."""
    if proven is None or c.verdict not in ("optimal", "suboptimal"):
        return None
    if (c.lower_bound or 0) > proven or (c.best_length is not None and c.best_length < proven):
        return f"cube {c.id}: certified against a proven optimum of {proven} moves (deepcubea_h48.jsonl)"
    return None


def certified_optima() -> dict[str, int]:
    """The optima our certification proved (its rows re-checked against DeepCubeA's file)."""
    p = registry.get("cube3", moves="faces", metric="qtm")
    known = {c["id"]: c for c in cubes(CUBES)}
    rows = checked(p, read_rows(), known)
    return {r["id"]: r["length"] for r in rows if r["status"] == "optimal"}


def coverage(n: int) -> str:
    """How much of the set ``n`` certificates cover, in words (a run still going says so)."""
    return f"all {CUBES:,} certified" if n == CUBES else f"{n:,} of {CUBES:,} certified so far"


def settings_said(run: dict[str, Any]) -> str:
    """The network and search the run's header names, in words."""
    learned = run["learned"]
    opts = dict(learned.get("options") or {})
    said = ", ".join(f"{k} {v}" for k, v in sorted(opts.items()))
    model = "the shipped network" if learned.get("model") == "shipped" else f"network {learned.get('model')}"
    return f"{model}, {learned.get('method')} ({said or 'its defaults'}), certified by {run.get('method')}"


def gap_rows(certs: list[Certificate]) -> list[list[str]]:
    """The histogram of exact gaps (moves over the optimum) as table rows."""
    gaps = Counter(c.gap for c in certs if c.gap is not None and c.gap_exact)
    n = sum(gaps.values())
    return [[str(g), f"{k:,}", f"{100 * k / n:.1f}%"] for g, k in sorted(gaps.items())]


def commands(folders: list[Path]) -> list[str]:
    """Each folder's hybrid.verify command, as its summary.md names it."""
    out = []
    for folder in folders:
        text = (folder / "summary.md").read_text() if (folder / "summary.md").is_file() else ""
        m = re.search(r"Command: `([^`]*)`", text)
        out.append(m.group(1) if m else f"(no summary.md in {folder})")
    return out


def render(
    folders: list[Path], run: dict[str, Any], certs: list[Certificate], certified: dict[str, int],
    ids: list[set[str]],
) -> list[str]:  # fmt: skip
    """The section's lines (``ids``: the cubes of each folder)."""
    summary = summarise(certs)
    learned = [c.learned_seconds for c in certs if c.learned_seconds is not None]
    proven = sum(1 for c in certs if c.id in certified)
    rate = Rate(summary["optimal"]["successes"], summary["instances"])
    rel = [str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f) for f in folders]
    return [
        "# The shipped network's CPU best, certified (issue 67)", "",
        *[f"Command: `{c}`  " for c in commands(folders)],
        f"Rendered by: `python benchmarks/verify_cube3.py {' '.join(rel)}`", "",
        f"What ran: {settings_said(run)}. DeepCubeA's QTM cubes, in the file's order; {coverage(len(certs))}. "
        f"Optimal: {rate} (95% Wilson), against {PUBLISHED}. Every certificate was re-checked "
        f"here (both solutions replayed, verdict and gap consistent with them and with DeepCubeA's optimum); "
        f"{proven:,} of these cubes' optima are also proven by our own certification "
        "(`docs/benchmarks/data/deepcubea_h48.jsonl`), and agree.", "",
        markdown(summary), "",
        f"Median seconds a cube: the beam {statistics.median(learned):.1f} s, the proof "
        f"{statistics.median(c.certify_seconds for c in certs):.1f} s (2 cores)" + _by_folder(ids, certs, rel)
        if learned else "", "",
        "The gaps (the network's length minus the optimum; QTM lengths differ by even numbers):", "",
        *markdown_table(["gap (moves)", "cubes", "share"], gap_rows(certs)), "",
        length_tables(summary), "",
    ]  # fmt: skip


def _by_folder(ids: list[set[str]], certs: list[Certificate], rel: list[str]) -> str:
    """Where the folders ran on different machines, each one's medians (the sentence's end)."""
    if len(ids) < 2:
        return "."
    parts = []
    for name, mine in zip(rel, ids):
        beam = [(b, c.certify_seconds) for c in certs if c.id in mine and (b := c.learned_seconds) is not None]
        if beam:
            cubes = f"{len(beam):,} cube{'s' * (len(beam) != 1)}"
            parts.append(f"`{name}` ({cubes}) {statistics.median(b for b, _ in beam):.1f} s and "
                         f"{statistics.median(p for _, p in beam):.1f} s")  # fmt: skip
    return "; by folder, each run on its own machine: " + ", ".join(parts) + "."


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path, help="hybrid.verify --out folders of the one run")
    ap.add_argument("--out", type=Path, default=PAGE)
    ap.add_argument("--section", default=SECTION)
    args = ap.parse_args(argv)
    try:
        read = [(f, *read_folder(f)) for f in args.folders]
        run = same_run([(f, h) for f, h, _ in read])
        certified = certified_optima()
        certs = recheck([r for _, _, recs in read for r in recs], certified)
    except Contradiction as exc:
        print(f"contradiction: {exc}", file=sys.stderr)
        return EXIT_CONTRADICTION
    except PuzzleoptError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not certs:
        print(f"error: {', '.join(map(str, args.folders))}: no certificates yet", file=sys.stderr)
        return EXIT_BAD_INPUT
    ids = [{str(r.get("id")) for r in recs} for _, _, recs in read]
    write_page(args.out, render(args.folders, run, certs, certified, ids), section=args.section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
