"""Every benchmark command quoted in docs/benchmarks is alive (issue 65): its script exists, each
flag it passes is one its ``--help`` lists, and the page it writes exists; a command quoted as it
was run, whose page has since become a section, is followed by a ``Rerun as:`` command that is."""

from __future__ import annotations

import contextlib
import io
import re
import runpy
import shlex
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs" / "benchmarks").glob("*.md"))
QUOTED = re.compile(r"^(Command|Rerun as): `(python [^`]+)`", re.M)


def _quoted() -> list[tuple[str, str, str, str | None]]:
    """(page, kind, command, the Rerun-as command that follows it before the next Command)."""
    out = []
    for page in PAGES:
        found = QUOTED.findall(page.read_text())
        for i, (kind, cmd) in enumerate(found):
            if kind == "Command":
                after = found[i + 1] if i + 1 < len(found) else None
                out.append((page.name, kind, cmd, after[1] if after and after[0] == "Rerun as" else None))
    return out


@cache
def _help(script: str) -> str:
    """The ``--help`` text of a benchmark script, run in this process (one import of torch for all)."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = [script, "--help"]
    try:
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
            runpy.run_path(str(ROOT / script), run_name="__main__")
    finally:
        sys.argv = argv
    return out.getvalue()


def _dead(cmd: str) -> str | None:
    """Why ``cmd`` cannot be run now, or ``None``."""
    words = shlex.split(cmd)
    if len(words) < 2 or words[0] != "python" or not words[1].startswith("benchmarks/"):
        return None  # a module command (python -m ...): the CLI tests cover those
    script = words[1]
    if not (ROOT / script).is_file():
        return f"{script} does not exist"
    text = _help(script)
    for flag in (w.split("=")[0] for w in words[2:] if w.startswith("--")):
        if not re.search(rf"(^|[\s,\[]){re.escape(flag)}([\s,=\]]|$)", text, re.M):
            return f"{script} has no flag {flag}"
    if "--out" in words:
        target = words[words.index("--out") + 1]
        if target.startswith("docs/") and not (ROOT / target).exists():
            return f"--out {target} does not exist"
        if target.startswith("/tmp/"):
            return f"--out {target} is outside the repository"
    return None


@pytest.mark.parametrize(("page", "kind", "cmd", "rerun"), _quoted(), ids=lambda v: str(v)[:60])
def test_a_quoted_benchmark_command_runs_or_says_how_to_rerun(page, kind, cmd, rerun) -> None:
    why = _dead(cmd)
    if why is None:
        return
    assert rerun is not None, f"{page}: `{cmd}`: {why}, and no 'Rerun as:' command follows it"
    assert _dead(rerun) is None, f"{page}: its 'Rerun as:' `{rerun}`: {_dead(rerun)}"
