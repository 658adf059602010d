"""Griffe extension (mkdocs.yml, mkdocstrings' ``extensions:``): the docstrings' cross-references
(``:class:`~exact.result.SolveResult```, ``:func:`solve```, the roles Sphinx and most Python
projects write) become links in the site.

Each role becomes an autorefs reference to the name resolved in the docstring's own scope, so a
short name (``:meth:`to_dict```) links to the member beside it. A reference is marked optional:
a name the site does not render (a private helper) shows as code, never as raw role text, and
never fails the strict build. ``~`` keeps only the last part of the name as the shown text, as in
Sphinx. The docstrings themselves stay as they are (they read well in ``help()``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`(?P<tilde>~?)(?P<name>[^`]+)`")


def _target(obj: griffe.Object, name: str) -> str:
    """The full path of ``name`` as seen from ``obj``'s docstring; the name itself if unknown."""
    name = name.strip().rstrip("()")
    for scope in (obj, obj.parent):
        if scope is None:
            continue
        try:
            return scope.resolve(name)
        except Exception:  # noqa: BLE001 (griffe raises several kinds for a name it cannot place)
            continue
    return name


def _rewrite(obj: griffe.Object, text: str) -> str:
    def link(match: re.Match[str]) -> str:
        name = " ".join(match["name"].split())
        shown = name.rstrip("()").rsplit(".", 1)[-1] if match["tilde"] else name
        target = html.escape(_target(obj, name), quote=True)
        return f'<autoref identifier="{target}" optional><code>{html.escape(shown)}</code></autoref>'

    return ROLE.sub(link, text)


class SphinxRoles(griffe.Extension):
    """Turns Sphinx cross-reference roles in every docstring into optional autorefs links."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = _rewrite(obj, obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, seen)
