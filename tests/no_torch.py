"""Run a command as tests/test_bad_input.py does, as if the learned extra (torch) were not
installed: ``python tests/no_torch.py puzzleopt SUB ...`` (the console script) or ``python
tests/no_torch.py MODULE ...`` (``python -m MODULE ...``)."""

import importlib.util
import runpy
import sys

sys.modules["torch"] = None
_find = importlib.util.find_spec
importlib.util.find_spec = lambda name, package=None: None if name.split(".")[0] == "torch" else _find(name, package)
if sys.argv[1] == "-c":
    exec(sys.argv[2])
    sys.exit(0)
if sys.argv[1] == "puzzleopt":
    from puzzleopt.console import main

    sys.exit(main(sys.argv[2:]))
mod = sys.argv[1]
sys.orig_argv = [sys.executable, "-m", *sys.argv[1:]]
sys.argv = [mod] + sys.argv[2:]
runpy.run_module(mod, run_name="__main__", alter_sys=True)
