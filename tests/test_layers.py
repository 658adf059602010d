"""The layering rule: ``exact`` (and ``instances``) never import torch; ``learned`` may import ``exact``."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_exact_never_imports_torch() -> None:
    import exact

    names = [m.name for m in pkgutil.walk_packages(exact.__path__, "exact.")] + ["instances.files"]
    code = "import importlib, sys\n"
    code += "".join(f"importlib.import_module({n!r})\n" for n in names)
    code += "bad = [m for m in sys.modules if m == 'torch' or m.startswith(('torch.', 'learned', 'hybrid'))]\n"
    code += "assert not bad, bad\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
