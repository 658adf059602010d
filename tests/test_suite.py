"""The suite's own bookkeeping: the slow variants conftest.py names exist and are left out of CI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import SLOW_VARIANTS

ROOT = Path(__file__).resolve().parents[1]


def test_every_slow_variant_named_is_a_test_and_is_marked_slow() -> None:
    files = sorted({nodeid.split("::")[0] for nodeid in SLOW_VARIANTS})
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "slow", "-p", "no:cacheprovider", *files]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    collected = {line.strip() for line in done.stdout.splitlines() if "::" in line}
    missing = sorted(set(SLOW_VARIANTS) - collected)
    assert not missing, f"SLOW_VARIANTS names tests that are not there (renamed?): {missing}"
