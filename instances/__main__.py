"""``python -m instances``: the shipped instance sets, one line each (name, puzzle, count, what).

``python -m instances --markdown`` prints the table of ``instances/data/README.md``.
"""

from __future__ import annotations

import argparse
import sys

from instances.sets import SETS


def table(markdown: bool = False) -> list[str]:
    """The sets as lines: aligned columns, or a Markdown table with sources and licences."""
    if markdown:
        rows = ["| name | file | puzzle | count | what | source | licence |", "|---|---|---|---|---|---|---|"]
        return rows + [
            f"| `{s.name}` | `{s.file}` | {s.puzzle or '-'} | {s.count} | {s.what} | {s.source} | {s.licence} |"
            for s in SETS.values()
        ]
    width = max(map(len, SETS))
    return [f"{s.name:<{width}}  {s.puzzle or '-':<9}  {s.count:>5}  {s.what}" for s in SETS.values()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m instances", description=__doc__.splitlines()[0])
    ap.add_argument("--markdown", action="store_true", help="a Markdown table with sources and licences")
    args = ap.parse_args(argv)
    sys.stdout.write("\n".join(table(args.markdown)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
