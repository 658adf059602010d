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
* every line is sealed with HMAC-SHA256 under the user's key (:mod:`exact.signing`), and each
  record's seal also covers the digest of its run's header (:func:`run_digest`): an edited line,
  or a record copied under another run's header, fails like a torn one. A torn last line is
  dropped (its instance runs again); any other damaged line, or a file of another kind, is an
  error that names the file and the line; a header sealed under another key (another user's, a
  new key) is said to be that;
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
from exact.signing import key_path, mac_holds, signed, user_key

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
        format: The record format, e.g. ``"puzzleopt-certificate/3"``.
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
        self._key_given = key is not None
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
            PuzzleoptError: the file is of another kind or run or sealed under another key, or a
                line other than the last is damaged, edited or copied from another run's log
                (each naming the file and the line).
        """
        if not self.path.exists():
            return []
        lines = self.path.read_bytes().split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        out: list[dict[str, Any]] = []
        bound_to = ""  # the header's digest, which every record's seal covers
        for n, raw in enumerate(lines, 1):
            doc = self._line_doc(raw, n, bound_to)
            if doc is None:
                if n == len(lines):
                    log.warning("%s: line %d was cut short (an interrupted write); it runs again", self.path, n)
                    break
                if n == 1:
                    self._refuse_header(raw, lines[1])
                raise PuzzleoptError(
                    f"{self.path}: line {n} is damaged or was edited, or was copied from another run's log (its seal "
                    "does not hold under this log's header and this user's key); remove the file, or that line, to "
                    "run its instances again"
                )
            if n == 1:
                self._check_header(doc)
                bound_to = run_digest(doc["format"], doc[HEADER])
            elif HEADER in doc:
                raise PuzzleoptError(f"{self.path}: line {n} is a second header; remove the file to start over")
            else:
                out.append({k: v for k, v in doc.items() if k not in ("format", "mac")})
        return out

    def _line_doc(self, raw: bytes, n: int, bound_to: str = "") -> dict[str, Any] | None:
        """The sealed object on line ``n`` (its seal covering ``bound_to``), ``None`` if it is not
        one; another format is an error."""
        doc = _json_object(raw)
        if doc is None:
            return None
        fmt = doc.get("format")
        if fmt != self.format and isinstance(fmt, str) and ("mac" in doc or "sha256" in doc):
            older = fmt.split("/")[0] == self.format.split("/")[0]
            raise PuzzleoptError(
                f"{self.path}: line {n} is a {_short(fmt)} record, not {self.format!r}"
                + ("; it was written by an older puzzleopt, whose logs cannot be resumed" if older else "")
                + "; name another output folder"
            )
        return doc if mac_holds(doc, self.key, bound_to) else None

    def _refuse_header(self, raw: bytes, second: bytes) -> None:
        """Raise for a whole header line whose seal does not hold: sealed under another key,
        unless the next record holds under this key (then the header itself was edited)."""
        head = _json_object(raw)
        if head is None or HEADER not in head or not isinstance(head.get("format"), str):
            raise PuzzleoptError(f"{self.path}: line 1 is not a run header; remove the file to start over")
        record = _json_object(second)
        if record is not None and mac_holds(record, self.key, run_digest(head["format"], head[HEADER])):
            raise PuzzleoptError(
                f"{self.path}: line 1, the run header, was edited (its seal does not hold); "
                "remove the file to start over"
            )
        raise PuzzleoptError(
            f"{self.path} was sealed under another key (another user's, or a key made anew since; this user's is "
            f"{_key_name(self._key_given)}): rerun without --resume, or name another --out"
        )

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
        return self._seal({"format": self.format, **_plain(record)}, run_digest(self.format, self.run))

    def _seal(self, doc: dict[str, Any], bound_to: str = "") -> bytes:
        return (json.dumps(signed(doc, self.key, bound_to)) + "\n").encode()


def run_digest(format: str, run: Any) -> str:
    """sha256 of a log's record format and run header (canonical JSON): what every record's
    seal covers besides the record, so that a record is valid only under its own run's header."""
    body = json.dumps({"format": format, HEADER: run}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _json_object(raw: bytes) -> dict[str, Any] | None:
    """The JSON object on a line, ``None`` where the line is none (torn, or other JSON)."""
    try:
        doc = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _key_name(given: bool) -> str:
    """Where this user's key is, for an error (a key given in code has no file)."""
    return "the key given in code" if given else repr(str(key_path()))


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
