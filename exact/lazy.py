"""Package exports that load on first use (PEP 562), so that importing a package to register its
methods (:mod:`exact.solvers`) or to read one constant does not import numba kernels, Pyomo or
OR-Tools."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def exports(package: str, modules: Mapping[str, Iterable[str]]) -> tuple[Callable[[str], Any], Callable[[], list]]:
    """``__getattr__`` and ``__dir__`` for ``package``, whose public names live in submodules.

    Args:
        package: The package's ``__name__``.
        modules: Submodule name -> the names it exports through the package.

    Returns:
        The pair to assign to the package's ``__getattr__`` and ``__dir__``.
    """
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name]), name)
        setattr(sys.modules[package], name, value)  # later lookups skip this function
        return value

    def __dir__() -> list:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
