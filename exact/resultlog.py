"""Results written as they arrive, one JSON line a record, and read back to resume a run.

A batch command's results come back in any order (:mod:`exact.executor`); each is appended to
its file at once, as one line written whole and then fsynced, so a crash or Ctrl-C loses at most
the line being written. When the run ends, the file is rewritten atomically in instance order.

A result log is an input, not a truth (``docs/reliability.md``, "Result logs"):

* its first line is the run's header: what every answer depends on (the puzzle, the method and
  its options, the goal, the limits, the toolkit's version). ``--resume`` continues a log only
  under the same header; another command line is refused with one line that names the log and
  the first difference;
* each record carries the digest of its instance's input (the start, and a given solution), so
  a record whose instance changed is run again;
* every line is sealed with HMAC-SHA256 under the user's key (:mod:`exact.signing`): an edited
  line fails like a torn one. A torn last line is dropped (its instance runs again); any other
  damaged line, or a file of another kind, is an error that names the file and the line;
* the caller re-checks every record it keeps (its moves replayed from its start, its status and
  bound), :func:`exact.batch.run_batch`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from exact.atomic import write_chunks
from exact.errors import PuzzleoptError
from exact.logs import get_logger
from exact.provenance import stamp
from exact.result import json_default
from exact.signing import mac_holds, signed, user_key

log = get_logger(__name__)

HEADER = "run"
"""The header line's key: the run's fingerprint (a JSON object)."""
MADE_BY = "made_by"
"""The header's list of the puzzleopt versions and commits that wrote the file
(:func:`exact.provenance.stamp`), one entry per resumed run that changed it; not compared on
resume (the version, which answers may depend on, is in the fingerprint)."""


class ResultLog:
    """An append-only JSON Lines file: a header, then records keyed by ``"id"``.

    Args:
        path: The file.
        format: The record format, e.g. ``"puzzleopt-certificate/2"``.
        run: What the answers depend on (JSON-ready); written as the header and compared on
            resume (``None``: read any run's records).
        key: The sealing key (default: the user's, :func:`exact.signing.user_key`).
    """

    def __init__(
        self, path: str | os.PathLike, format: str, run: Mapping[str, Any] | None = None, key: bytes | None = None
    ) -> None:
        self.path = Path(path)
        self.format = format
        self.run = None if run is None else _plain(dict(run))
        self._key = key
        self._fh = None
        self._made_by: list[dict[str, str]] = []  # the writers before this one, from the header

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = user_key()
        return self._key

    def read(self) -> list[dict[str, Any]]:
        """The records in the file (none where it does not exist), after its header is checked
        against this run's; a torn last line is dropped with a warning.

        Raises:
            PuzzleoptError: the file is of another kind or run, or a line other than the last is
                damaged or edited (each naming the file and the line).
        """
        if not self.path.exists():
            return []
        lines = self.path.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out: list[dict[str, Any]] = []
        for n, raw in enumerate(lines, 1):
            doc = self._line_doc(raw, n)
            if doc is None:
                if n == len(lines):
                    log.warning("%s: line %d was cut short (an interrupted write); it runs again", self.path, n)
                    break
                raise PuzzleoptError(
                    f"{self.path}: line {n} is damaged or was edited (its seal does not hold under this user's key); "
                    "remove the file, or that line, to run its instances again"
                )
            if n == 1:
                self._check_header(doc)
            elif HEADER in doc:
                raise PuzzleoptError(f"{self.path}: line {n} is a second header; remove the file to start over")
            else:
                out.append({k: v for k, v in doc.items() if k not in ("format", "mac")})
        return out

    def _line_doc(self, raw: bytes, n: int) -> dict[str, Any] | None:
        """The sealed object on line ``n``, ``None`` if it is not one; another format is an error."""
        try:
            doc = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            return None
        if not isinstance(doc, dict):
            return None
        fmt = doc.get("format")
        if fmt != self.format and isinstance(fmt, str) and ("mac" in doc or "sha256" in doc):
            older = fmt.split("/")[0] == self.format.split("/")[0]
            raise PuzzleoptError(
                f"{self.path}: line {n} is a {_short(fmt)} record, not {self.format!r}"
                + ("; it was written by an older puzzleopt, whose logs cannot be resumed" if older else "")
                + "; name another output folder"
            )
        return doc if mac_holds(doc, self.key) else None

    def _check_header(self, doc: dict[str, Any]) -> None:
        if HEADER not in doc:
            raise PuzzleoptError(f"{self.path}: line 1 is not a run header; remove the file to start over")
        made_by = doc.get(MADE_BY)
        self._made_by = [m for m in made_by if isinstance(m, dict)] if isinstance(made_by, list) else []
        if self.run is not None and doc[HEADER] != self.run:
            where, theirs, ours = _first_difference(doc[HEADER], self.run)
            raise PuzzleoptError(
                f"--resume: {self.path} holds another run's results: its {where} is {_short(theirs)}, this run's is "
                f"{_short(ours)}; run the same command to continue it, or name another --out"
            )

    def start(self, keep: Sequence[dict[str, Any]] = ()) -> None:
        """Open for appending, the file rewritten first to hold this run's header and exactly
        ``keep`` (so a torn line is gone before new ones follow)."""
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
        """Replace the file's contents with the header and ``records``, atomically."""
        writers = self._made_by if self._made_by[-1:] == [stamp()] else [*self._made_by, stamp()]
        head = self._seal({"format": self.format, HEADER: self.run, MADE_BY: writers})
        write_chunks(self.path, [head + b"".join(self._line(r) for r in records)])

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _line(self, record: dict[str, Any]) -> bytes:
        if HEADER in record:
            raise ValueError(f"a record may not have the key {HEADER!r}")
        return self._seal({"format": self.format, **_plain(record)})

    def _seal(self, doc: dict[str, Any]) -> bytes:
        return (json.dumps(signed(doc, self.key)) + "\n").encode()


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (paths and the like as text, numpy as numbers)."""
    return json.loads(json.dumps(value, default=_default))


def _default(obj: Any) -> Any:
    try:
        return json_default(obj)
    except TypeError:
        return str(obj)  # a path and the like, as its text


def _first_difference(a: Any, b: Any, where: str = "") -> tuple[str, Any, Any]:
    """The first key path where two JSON values differ, with the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k, _MISSING) != b.get(k, _MISSING):
                return _first_difference(a.get(k, _MISSING), b.get(k, _MISSING), f"{where}.{k}" if where else k)
    return where or "header", a, b


class _Missing:
    def __repr__(self) -> str:
        return "(none)"


_MISSING = _Missing()


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def digest(*parts: Any) -> str:
    """sha256 of JSON ``parts`` (arrays as lists): an instance's input, as records carry it."""
    body = json.dumps(_plain(list(parts)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def file_digest(path: str | os.PathLike) -> str:
    """sha256 of a file's bytes (a model named on the command line, say)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_log(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The records of a finished log, whatever its run, each seal checked under this user's key
    (its format is taken from its header).

    Raises:
        PuzzleoptError: not a result log, or a damaged or edited line (naming the file and line).
    """
    file = Path(path)
    try:
        first = json.loads(file.read_bytes().split(b"\n", 1)[0])
        fmt = first["format"]
        if not isinstance(fmt, str) or HEADER not in first:
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError):
        raise PuzzleoptError(f"{file}: not a puzzleopt result log (its first line is no run header)") from None
    return ResultLog(file, fmt).read()


def order(records: Iterable[dict[str, Any]], ids: Sequence[str]) -> list[dict[str, Any]]:
    """``records`` in the order of ``ids`` (each id once; records of other ids dropped)."""
    by_id = {str(r["id"]): r for r in records}
    return [by_id[i] for i in ids if i in by_id]
