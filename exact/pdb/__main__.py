"""``python -m exact.pdb``: build, list, verify and remove stored pattern databases.

::

    python -m exact.pdb build tiles15-555-a        # build (or just verify) named catalog tables
    python -m exact.pdb build all --force          # rebuild every catalog table
    python -m exact.pdb list                       # what is stored, with sizes and status, and checkpoints
    python -m exact.pdb --json verify              # check every stored table (sha256 included)
    python -m exact.pdb rm tiles15-555-a           # delete a stored table

Tables live in :func:`exact.pdb.store.default_dir` unless ``--pdb-dir`` says otherwise. Names
come from :func:`exact.catalog.catalog`; ``verify`` checks a stored table against its
catalog spec when the catalog knows it, else its own metadata only (format, size, sha256); it
also checks that ``max_value`` and ``value_counts`` describe the data, and runs the spec's audit
(no value above the cost of a known path, by random walks from the goal), so a table whose
values were changed and its sha256 recomputed fails. Every load runs the audit too.

Exit codes: 0 done (``verify``: every table is ok), 2 bad input (a name that is no catalog table
and no stored one, a bad option; one line on stderr), 5 ``verify`` found a bad or missing catalog
table (1 is kept for bugs).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from exact import cli
from exact.catalog import catalog
from exact.errors import PuzzleoptError
from exact.pdb import partial
from exact.pdb.store import PdbError, check, check_stored, default_dir, list_tables, load, remove, stored_names
from exact.userfiles import output_folder

EXIT_BAD_TABLE = cli.EXIT_FINDINGS
EPILOG = "exit codes: 0 done, 2 bad input (a name that no stored table has), 5 verify found a bad table"


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("python -m exact.pdb", "Build, list, verify and remove stored pattern databases.")
    p.epilog = EPILOG
    p.add_argument(
        "--pdb-dir", type=Path, default=None, metavar="DIR", help=f"where tables live (default {default_dir()})"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar while building")
    sub = p.add_subparsers(dest="command", required=True, metavar="{build,list,verify,rm}")
    b = sub.add_parser("build", help="build catalog tables that are missing or invalid")
    b.add_argument("names", nargs="+", metavar="NAME", help="catalog table names, or 'all'")
    b.add_argument("--force", action="store_true", help="rebuild even when the stored table is valid")
    sub.add_parser("list", help="one line per stored table")
    v = sub.add_parser("verify", help="check stored tables (all if no NAME is given)")
    v.add_argument("names", nargs="*", metavar="NAME", help="stored table names (default: every one)")
    r = sub.add_parser("rm", help="delete stored tables")
    r.add_argument("names", nargs="+", metavar="NAME", help="stored table names")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand (see the module docstring); returns the exit code."""
    args = _parser().parse_args(argv)
    directory = default_dir() if args.pdb_dir is None else output_folder(args.pdb_dir, "--pdb-dir")
    if args.command == "build":
        return _build(args.names, directory, args.force, not args.no_progress, args.json)
    if args.command == "list":
        return _list(directory, args.json)
    if args.command == "verify":
        return _verify(args.names, directory, args.json)
    return _rm(args.names, directory, args.json)


def _build(names: list[str], directory: Path, force: bool, progress: bool, as_json: bool) -> int:
    specs = catalog()
    if "all" in names:
        names = sorted(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        known = ", ".join(sorted(specs))
        raise PdbError(f"unknown table name(s) {', '.join(unknown)}; known names: {known}; 'all' builds every one")
    report = []
    for name in dict.fromkeys(names):  # keeps order, drops repeats
        announced: list[str] = []

        def log(message: str, announced: list[str] = announced) -> None:
            announced.append(message)
            print(message, file=sys.stderr)

        table = load(specs[name](), directory, rebuild=force, progress=progress, log=log)
        # load() announces every build through log, so a silent load found a valid table.
        report.append({**table.meta, "built": bool(announced)})
        del table
    if as_json:
        print(json.dumps(report))
    for meta in [] if as_json else report:
        how = f"built in {meta['build_seconds']:.1f} s" if meta["built"] else "already valid"
        print(f"{meta['name']}: {how}, {meta['entries']} entries, {meta['bytes'] / 1e6:.1f} MB in {directory}")
    return cli.EXIT_OK


def _list(directory: Path, as_json: bool) -> int:
    tables = list_tables(directory)
    checkpoints = partial.stored(directory)
    if as_json:
        print(json.dumps(tables + [{**c, "status": "checkpoint"} for c in checkpoints]))
        return cli.EXIT_OK
    if not tables:
        print(f"no tables in {directory}")
    else:
        _print_tables(tables)
    for c in checkpoints:
        done = "?" if c["progress"] is None else f"{c['progress']}/{c['parts'] or '?'} parts"
        secs = "" if c["seconds"] is None else f", {c['seconds']:.0f} s"
        print(f"{c['name']}: the checkpoint of a build under way or stopped ({done}{secs}, "
              f"{c['bytes'] / 1e6:,.1f} MB): 'build {c['name']}' resumes it, 'rm {c['name']}' deletes it")  # fmt: skip
    return cli.EXIT_OK


def _print_tables(tables: list[dict]) -> None:
    rows = [("name", "entries", "packed", "MB", "build s", "status")]
    for t in tables:
        size = f"{t['bytes'] / 1e6:.1f}" if isinstance(t.get("bytes"), int) else "?"
        secs = t.get("build_seconds")
        secs = f"{secs:.1f}" if isinstance(secs, (int, float)) else "?"
        rows.append((t["name"], str(t.get("entries", "?")), str(t.get("packed", "?")), size, secs, t["status"]))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))), r[5])


def _verify(names: list[str], directory: Path, as_json: bool) -> int:
    specs = catalog()
    if not names:
        names = stored_names(directory)
    results = []
    stored = set(stored_names(directory))
    unknown = [n for n in names if n not in specs and n not in stored]
    if unknown:
        raise PuzzleoptError(
            f"verify: no stored table is named {unknown[0]!r} in {directory}, nor any catalog table; "
            "see python -m exact.pdb list"
        )
    for name in dict.fromkeys(names):
        reason = (
            check(specs[name](), directory, deep=True) if name in specs else check_stored(name, directory, deep=True)
        )
        results.append({"name": name, "status": "ok" if reason is None else reason})
    if as_json:
        print(json.dumps(results))
    elif not results:
        print(f"no tables in {directory}")
    for r in [] if as_json else results:
        print(f"{r['name']}: {r['status']}")
    return cli.EXIT_OK if all(r["status"] == "ok" for r in results) else EXIT_BAD_TABLE


def _rm(names: list[str], directory: Path, as_json: bool) -> int:
    stored = set(stored_names(directory)) | {c["name"] for c in partial.stored(directory)}
    missing = [n for n in names if n not in stored]
    if missing:
        # Nothing is removed unless every name is there, so a typo does not half-run the command.
        raise PdbError(
            f"no stored table named {', '.join(missing)} in {directory}; 'python -m exact.pdb list' shows what is there"
        )
    removed = [n for n in dict.fromkeys(names) if remove(n, directory)]
    if as_json:
        print(json.dumps({"removed": removed, "directory": str(directory)}))
    else:
        for name in removed:
            print(f"removed {name} from {directory}")
    return cli.EXIT_OK


if __name__ == "__main__":
    sys.exit(cli.run(main))
