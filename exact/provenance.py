"""Which puzzleopt made a file: its version (single-sourced from the package metadata) and the
git commit of the source tree it ran from, when that is a git checkout.

Results logs, certificates, model cards and benchmark pages carry :func:`stamp`, so a figure can
be traced to the code that produced it.
"""

from __future__ import annotations

import functools
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["commit", "package_version", "stamp", "toolkit"]

_SOURCE = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=1)
def package_version() -> str:
    """puzzleopt's version from its installed metadata (``0.0.0+source`` when not installed)."""
    try:
        return version("puzzleopt")
    except PackageNotFoundError:  # a source tree on sys.path, never installed
        return "0.0.0+source"


def toolkit(*more: str) -> str:
    """``"puzzleopt 0.1.0"`` and ``more`` (``"numba 0.68.1"``): a result's ``solver_version``
    where the solver is puzzleopt's own, so that every record names the version that made it."""
    return " ".join(("puzzleopt", package_version(), *more))


@functools.lru_cache(maxsize=1)
def commit() -> str | None:
    """The source tree's git commit (``<sha>`` or ``<sha>+modified`` when tracked files differ
    from it), or None when the code does not run from a git checkout or git is missing."""
    if not (_SOURCE / ".git").exists():
        return None
    try:
        head = subprocess.run(
            ["git", "-C", str(_SOURCE), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(_SOURCE), "diff", "--quiet", "HEAD", "--"], capture_output=True, timeout=30
        ).returncode
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}+modified" if dirty == 1 else head or None


def stamp() -> dict[str, str]:
    """``{"puzzleopt": version, "commit": sha}`` (no ``commit`` where it is unknown)."""
    out = {"puzzleopt": package_version()}
    if (sha := commit()) is not None:
        out["commit"] = sha
    return out
