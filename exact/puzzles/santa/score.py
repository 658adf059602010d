"""Santa 2023's scoring: replay each row of a submission from its puzzle's initial state and
accept a final state with at most ``num_wildcards`` positions unlike the solution state. The
score is the total number of moves; ``-m`` counts one, as ``m`` does."""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from exact.errors import NotationError, PuzzleoptError
from exact.puzzles.santa.instances import COUNT, Instance, instances, parse_moves, table


class SubmissionError(PuzzleoptError):
    """A submission file that cannot be read: the message names the file, the line and why."""


def read_submission(path: str | Path) -> dict[int, str]:
    """``{id: moves}`` from a submission CSV (header ``id,moves``; moves ``.``-separated).

    Raises:
        SubmissionError: no such file, a wrong header, a bad or repeated id (``FILE:LINE: reason``).
    """
    path = Path(path)
    if not path.is_file():
        raise SubmissionError(f"{path}: no such file; give a submission CSV with the header id,moves")
    out: dict[int, str] = {}
    limit = csv.field_size_limit(1 << 30)  # a 33x33x33's row runs to hundreds of thousands of characters
    try:
        return _rows(path, out)
    except UnicodeDecodeError:
        raise SubmissionError(f"{path}: not a text file; give a submission CSV with the header id,moves") from None
    finally:
        csv.field_size_limit(limit)


def _rows(path: Path, out: dict[int, str]) -> dict[int, str]:
    with path.open(newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or [h.strip() for h in header[:2]] != ["id", "moves"]:
            raise SubmissionError(f"{path}:1: the header must be id,moves; got {','.join(header or [])!r}")
        for line, row in enumerate(reader, start=2):
            if not row:
                continue
            if len(row) != 2 or not row[0].strip().isdigit() or int(row[0]) >= COUNT:
                raise SubmissionError(
                    f"{path}:{line}: expected ID,MOVES with an id 0-{COUNT - 1}; got {','.join(row)[:60]!r}"
                )
            i = int(row[0])
            if i in out:
                raise SubmissionError(f"{path}:{line}: id {i} appears twice; keep one row per puzzle")
            out[i] = row[1].strip()
    return out


@dataclass(frozen=True)
class Check:
    """One puzzle's replay.

    Attributes:
        id: The puzzle.
        type: Its type.
        moves: How many moves the row has.
        valid: Whether the final state is within the wildcards of the solution.
        mismatches: Positions unlike the solution at the end (``-1``: the row was missing or
            named an unknown move).
        reason: Why it is invalid (empty when valid).
    """

    id: int
    type: str
    moves: int
    valid: bool
    mismatches: int
    reason: str = ""


def check(instance: Instance, moves: str | None) -> Check:
    """Replay ``moves`` (Santa's text) on ``instance``."""
    if moves is None:
        return Check(instance.id, instance.type, 0, False, -1, "no row for it")
    try:
        rows = parse_moves(instance.type, moves)
    except NotationError as exc:
        return Check(instance.id, instance.type, 0, False, -1, str(exc).split(" in ", 1)[0])
    start, goal = instance.encoded()
    end = replay(instance.type, start, rows)
    wrong = int((end != goal).sum())
    ok = wrong <= instance.wildcards
    why = "" if ok else f"{wrong} positions differ from the solution, {instance.wildcards} wildcards"
    return Check(instance.id, instance.type, len(rows), ok, wrong, why)


def replay(type_name: str, state: np.ndarray, rows) -> np.ndarray:
    """``state`` after the rows of the type's table, in order (one composed permutation)."""
    perms = table(type_name).perms
    perm = np.arange(len(state))
    for r in rows:
        perm = perm[perms[r]]
    return np.asarray(state)[perm]


@dataclass(frozen=True)
class Score:
    """A submission's score.

    Attributes:
        checks: One :class:`Check` per puzzle, by id.
    """

    checks: tuple[Check, ...] = field(default=())

    @property
    def total(self) -> int:
        """Moves of the valid rows (the competition's score when all are valid)."""
        return sum(c.moves for c in self.checks if c.valid)

    @property
    def invalid(self) -> list[int]:
        return [c.id for c in self.checks if not c.valid]

    def by_type(self) -> dict[str, dict[str, int]]:
        """Per type: ``{"puzzles", "valid", "moves"}`` (moves of its valid rows)."""
        count, valid, moves = Counter[str](), Counter[str](), Counter[str]()
        for c in self.checks:
            count[c.type] += 1
            valid[c.type] += c.valid
            moves[c.type] += c.moves if c.valid else 0
        return {t: {"puzzles": count[t], "valid": valid[t], "moves": moves[t]} for t in count}

    def to_dict(self) -> dict:
        """``{"total", "valid", "invalid": [ids], "by_type"}``."""
        return {"total": self.total, "valid": len(self.checks) - len(self.invalid), "invalid": self.invalid,
                "by_type": self.by_type()}  # fmt: skip


def score(submission: dict[int, str]) -> Score:
    """Every one of the 398 puzzles replayed with its row of ``submission`` (a missing row is
    invalid)."""
    return Score(tuple(check(inst, submission.get(inst.id)) for inst in instances()))


__all__ = ["Check", "Score", "SubmissionError", "check", "read_submission", "replay", "score"]
