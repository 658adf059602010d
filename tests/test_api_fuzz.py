"""The notebook API under a fuzz (tests/fuzz_api.py), in a process of its own: a crash of the
interpreter (a kernel given a state it was never meant to see) fails this test, not the runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")


def test_the_notebook_api_raises_only_documented_errors_and_never_crashes():
    root = Path(__file__).resolve().parents[1]
    r = subprocess.run(
        [sys.executable, str(root / "tests" / "fuzz_api.py"), "--examples", "600"],
        cwd=root, capture_output=True, text=True, timeout=800,
    )  # fmt: skip
    why = f"exit {r.returncode} (a negative code is a signal)\n{r.stdout[-3000:]}\n{r.stderr[-6000:]}"
    assert r.returncode == 0, why
