"""Docs are code: every python block of the README and of docs/*.md runs here, as do the
docstrings' ``>>>`` examples (doctest). A stale example, or a comment turned assert that no longer
holds, fails the suite.

The blocks of one page run in order in one namespace, as a reader runs them in one notebook, in
a fresh working directory. A page marks a block just before its fence with an HTML comment, which
the rendered page does not show:

* ``<!-- docs-test: slow -->``: it runs only in the slow suite (``make test-all``), with the
  page's blocks before it;
* ``<!-- docs-test: needs torch -->``: skipped (saying why) where the torch extra is missing.

tests/test_first_contact.py runs the README's first commands again from an empty cache, under
time budgets.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"(?:<!-- docs-test: (?P<mark>[^>]*?) -->\n)?```python\n(?P<code>.*?)```", re.S)
MARKS = {"slow", "needs torch"}


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    code: str
    marks: frozenset[str]


def blocks(page: Path) -> list[Block]:
    """The python blocks of ``page`` in order, with their marks."""
    text = page.read_text()
    found = []
    for m in FENCE.finditer(text):
        marks = frozenset(x.strip() for x in (m["mark"] or "").split(",") if x.strip())
        assert marks <= MARKS, f"{page.name}: unknown docs-test marks {sorted(marks - MARKS)}"
        found.append(Block(page, text[: m.start("code")].count("\n") + 1, m["code"], marks))
    return found


def _run(chosen: list[Block], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__docs__"}
    for block in chosen:
        if "needs torch" in block.marks and importlib.util.find_spec("torch") is None:
            pytest.skip(f"{block.page.name}:{block.line} needs the torch extra (pip install 'puzzleopt[learned]')")
        where = f"{block.page.relative_to(ROOT)}:{block.line}"
        # blank lines first, so that a traceback's line numbers are the page's
        exec(compile("\n" * (block.line - 1) + block.code, where, "exec"), namespace)


PAGES_WITH_BLOCKS = [p for p in PAGES if blocks(p)]


def test_the_collector_finds_the_pages_blocks() -> None:
    names = {p.name for p in PAGES_WITH_BLOCKS}
    assert {"README.md", "api.md", "hybrid.md", "index.md"} <= names, names
    assert sum(len(blocks(p)) for p in PAGES) >= 12


@pytest.mark.parametrize("page", PAGES_WITH_BLOCKS, ids=lambda p: p.name)
def test_a_pages_python_blocks_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = []
    for block in blocks(page):
        if "slow" in block.marks:
            break  # the blocks after a slow one may use what it made: the slow suite runs them
        fast.append(block)
    _run(fast, tmp_path, monkeypatch)


SLOW_PAGES = [p for p in PAGES_WITH_BLOCKS if any("slow" in b.marks for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", SLOW_PAGES, ids=lambda p: p.name)
def test_a_pages_python_blocks_run_slow_ones_too(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run(blocks(page), tmp_path, monkeypatch)


# ----------------------------------------------------------------------------- docstrings
def _modules_with_examples() -> list[str]:
    found = []
    for package in ("exact", "learned", "hybrid", "puzzleopt", "instances"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts and ">>> " in path.read_text():
                parts = path.relative_to(ROOT).with_suffix("").parts
                found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_docstring_examples_are_found() -> None:
    assert "instances.sets" in _modules_with_examples()


@pytest.mark.parametrize("name", _modules_with_examples())
def test_docstring_examples_run(name: str) -> None:
    if name.startswith("learned") and importlib.util.find_spec("torch") is None:
        pytest.skip(f"{name} needs the torch extra")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name}: its >>> examples were not collected"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} docstring examples failed (above)"
