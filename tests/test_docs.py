"""The documentation site (mkdocs.yml): every page is in its navigation, and every page a help
text or docstring names exists there. `make docs` builds it strictly (CI runs it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("exact", "learned", "hybrid", "puzzleopt", "instances")


def _nav_pages() -> set[str]:
    yaml = pytest.importorskip("yaml")

    class Loader(yaml.SafeLoader):  # mkdocs.yml may hold !ENV and python tags; none are needed here
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    found: set[str] = set()

    def walk(item: object) -> None:
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(config["nav"])
    return found


def test_every_page_is_in_the_navigation() -> None:
    docs = ROOT / "docs"
    pages = {p.relative_to(docs).as_posix() for p in docs.rglob("*.md")} | {
        p.relative_to(docs).as_posix() for p in (docs / "notebooks").glob("*.ipynb")
    }
    pages = {p for p in pages if not p.startswith(("benchmarks/runs/", "benchmarks/data/"))}
    missing = sorted(pages - _nav_pages())
    assert not missing, f"pages the site's navigation (mkdocs.yml) leaves out: {missing}"


def test_every_page_the_code_names_exists_in_the_site() -> None:
    named: dict[str, set[str]] = {}
    for package in SOURCES:
        for path in (ROOT / package).rglob("*.py"):
            for page in re.findall(r"docs/([a-z0-9_/]+\.md)", path.read_text()):
                named.setdefault(page, set()).add(str(path.relative_to(ROOT)))
    assert named, "no help text names a page: the test reads nothing"
    nav = _nav_pages()
    bad = {page: sorted(where) for page, where in named.items() if page not in nav}
    assert not bad, f"pages named in help texts or docstrings that the site does not have: {bad}"


def test_the_pictures_the_docs_show_are_drawn() -> None:
    import importlib.util
    import xml.etree.ElementTree as ET

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    pictures = hooks.pictures()
    shown = set(re.findall(r"\(img/([a-z0-9_]+\.svg)\)", (ROOT / "docs" / "api.md").read_text()))
    assert shown and shown <= set(pictures), f"pictures shown but not drawn by the hook: {shown - set(pictures)}"
    for name, svg in pictures.items():
        assert ET.fromstring(svg).tag.endswith("svg"), name


def _public_modules() -> list[str]:
    found = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "__pycache__" in parts or any(p.startswith("_") and p != "__init__" for p in parts):
                continue
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_public_module_has_a_reference() -> None:
    rendered: set[str] = set()
    for page in (ROOT / "docs" / "reference").glob("*.md"):
        rendered |= set(re.findall(r"^::: (\S+)$", page.read_text(), re.M))
    modules = _public_modules()
    assert len(modules) > 100, "the module walk found too little to check"
    missing = sorted(set(modules) - rendered)
    assert not missing, f"public modules without a reference page (add '::: name' to a docs/reference/*.md): {missing}"


def test_docstring_roles_become_links() -> None:
    griffe = pytest.importorskip("griffe")
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "docs" / "griffe_roles.py")
    roles = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(roles)
    package = griffe.load("exact", search_paths=[str(ROOT)], extensions=griffe.load_extensions(roles.SphinxRoles))
    text = package["solvers"].docstring.value
    assert ":class:`" not in text and ":func:`" not in text and ":mod:`" not in text
    assert '<autoref identifier="exact.result.SolveResult" optional><code>SolveResult</code></autoref>' in text
