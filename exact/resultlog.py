"""Results written as they arrive, one JSON line a record, and read back to resume a run.

A batch command's results come back in any order (:mod:`exact.executor`); each is appended to
its file at once, as one line written whole and then fsynced, so a crash or Ctrl-C loses at most
the line being written. Each record carries the file's ``format`` (name and version) and its own
``sha256`` (:func:`exact.atomic.sealed`): a torn last line fails its seal and is dropped (its
instance is run again by ``--resume``), while a damaged line elsewhere, or a file of another
kind, is an error that names the file and the line. When the run ends, the file is rewritten
atomically in instance order, so a finished file does not depend on the order the tasks ended in.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from exact.atomic import seal_holds, sealed, write_chunks
from exact.errors import PuzzleoptError


class ResultLog:
    """An append-only JSON Lines file of records keyed by ``"id"``.

    Args:
        path: The file.
        format: The record format, e.g. ``"puzzleopt-certificate/1"``.
    """

    def __init__(self, path: str | os.PathLike, format: str) -> None:
        self.path = Path(path)
        self.format = format
        self._fh = None

    def read(self) -> list[dict[str, Any]]:
        """The records in the file (none where it does not exist); a torn last line is dropped
        with a warning on stderr.

        Raises:
            PuzzleoptError: a line other than the last is not a sealed record of this format.
        """
        if not self.path.exists():
            return []
        lines = self.path.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out = []
        for n, raw in enumerate(lines, 1):
            try:
                doc = json.loads(raw)
                ok = isinstance(doc, dict) and seal_holds(doc)
            except (json.JSONDecodeError, UnicodeDecodeError):
                doc, ok = None, False
            if ok and doc.get("format") != self.format:
                raise PuzzleoptError(
                    f"{self.path}: line {n} is a {doc.get('format')!r} record, not {self.format!r}; "
                    "name another output folder"
                )
            if not ok:
                if n == len(lines):
                    print(f"{self.path}: line {n} was cut short (an interrupted write); run again", file=sys.stderr)
                    break
                raise PuzzleoptError(
                    f"{self.path}: line {n} is damaged (not a sealed {self.format!r} record); "
                    "remove the file or that line to start over"
                )
            out.append({k: v for k, v in doc.items() if k not in ("format", "sha256")})
        return out

    def start(self, keep: Sequence[dict[str, Any]] = ()) -> None:
        """Open for appending, the file rewritten first to hold exactly ``keep`` (so a torn line
        is gone before new ones follow)."""
        self.rewrite(keep)
        self._fh = open(self.path, "ab")  # noqa: SIM115 - held open for the run, closed in close()

    def append(self, record: dict[str, Any]) -> None:
        """Write one record and fsync it."""
        if self._fh is None:
            raise RuntimeError("ResultLog.append before start()")
        self._fh.write(self._line(record))
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def rewrite(self, records: Iterable[dict[str, Any]]) -> None:
        """Replace the file's contents with ``records``, atomically."""
        write_chunks(self.path, [b"".join(self._line(r) for r in records)])

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _line(self, record: dict[str, Any]) -> bytes:
        plain = json.loads(json.dumps(record, default=str))  # paths and the like as text, as read back
        return (json.dumps(sealed({"format": self.format, **plain})) + "\n").encode()


def order(records: Iterable[dict[str, Any]], ids: Sequence[str]) -> list[dict[str, Any]]:
    """``records`` in the order of ``ids`` (each id once; records of other ids dropped)."""
    by_id = {str(r["id"]): r for r in records}
    return [by_id[i] for i in ids if i in by_id]
