"""The first-compile notice of numba kernels: shown when a cache is missing, once, and not after."""

from __future__ import annotations

import importlib
import io
import sys

from exact import kernels


def test_the_notice_comes_once_and_only_before_the_cache_exists(tmp_path, monkeypatch) -> None:
    (tmp_path / "tiny_kernel_mod.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("tiny_kernel_mod")
    try:
        monkeypatch.setattr(kernels, "_shown", False)
        out = io.StringIO()
        assert kernels.notice_first_compile(mod, stream=out) is True
        assert "compiling kernels (first run only" in out.getvalue()
        assert kernels.notice_first_compile(mod, stream=out) is False  # once per process
        assert mod.plus_one(1) == 2  # compiles and writes the cache
        monkeypatch.setattr(kernels, "_shown", False)
        assert kernels.notice_first_compile(mod, stream=io.StringIO()) is False
    finally:
        sys.modules.pop("tiny_kernel_mod", None)
