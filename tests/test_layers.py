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


# ---------------------------------------------------------------------------- the import graph
# Every import statement counts, at module level or inside a function (a lazy import is still a
# dependency), read from the source with the AST.
ENGINES = ("exact.bfs", "exact.bidirectional", "exact.tablewalk", "exact.astar", "exact.ida", "exact.pdb",
           "exact.mip", "exact.cpsat", "exact.timeindexed", "exact.heuristic", "exact.ranking", "exact.movetable",
           "exact.puzzle", "exact.result")  # fmt: skip
PUZZLE_PACKAGES = ("exact.puzzles", "exact.cube", "exact.tiles", "exact.sokoban", "exact.freecell",
                   "exact.lightsout", "exact.hypercube")  # fmt: skip
# The CLIs of the engine packages are thin main(argv) over the registries (exact.registry,
# exact.solvers, exact.catalog), which may name puzzles; they still import no puzzle package.


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _graph() -> dict[str, set[str]]:
    import ast

    out: dict[str, set[str]] = {}
    for top in ("exact", "learned", "hybrid", "instances", "puzzleopt"):
        for path in sorted((ROOT / top).rglob("*.py")):
            name = _module_name(path)
            package = name if path.name == "__init__.py" else name.rpartition(".")[0]
            deps: set[str] = set()
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    deps |= {a.name for a in node.names}
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        up = package.split(".")[: len(package.split(".")) - node.level + 1]
                        base = ".".join(up + ([base] if base else []))
                    deps.add(base)
                    deps |= {f"{base}.{a.name}" for a in node.names}
            out[name] = {d for d in deps if d.split(".")[0] in ("exact", "learned", "hybrid", "instances", "puzzleopt")}
    return out


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_exact_imports_neither_learned_nor_hybrid_even_lazily() -> None:
    bad = {m: sorted(d for d in deps if _within(d, ("learned", "hybrid")))
           for m, deps in _graph().items() if _within(m, ("exact", "instances"))}  # fmt: skip
    assert not {m: d for m, d in bad.items() if d}


# The one edge up, named: an instance a notebook loads hands back the notebook's state object
# (issue 64: "Instance.state() returns the object"), imported when that method is called; the
# solvers and commands read Instance.labels() and never load it.
UPWARD = {"instances.files": ("puzzleopt.states",)}


def test_only_notebooks_import_the_object_api() -> None:
    # puzzleopt is the layer on top (it imports all three); nothing below it may import it back
    bad = {m: sorted(d for d in deps if _within(d, ("puzzleopt",)) and not _within(d, UPWARD.get(m, ())))
           for m, deps in _graph().items() if not _within(m, ("puzzleopt",))}  # fmt: skip
    assert not {m: d for m, d in bad.items() if d}


def test_importing_the_object_api_loads_neither_pyomo_nor_torch() -> None:
    code = "import sys, puzzleopt\nfrom puzzleopt import Cube, solve\nCube(3).apply('R U')\n"
    code += "bad = [m for m in sys.modules if m.split('.')[0] in ('torch', 'pyomo', 'ortools', 'matplotlib')]\n"
    code += "assert not bad, bad\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_engines_import_no_puzzle_package() -> None:
    bad = {}
    for m, deps in _graph().items():
        if _within(m, ENGINES):
            hits = sorted(d for d in deps if _within(d, PUZZLE_PACKAGES))
            if hits:
                bad[m] = hits
    assert not bad, bad


def test_the_module_graph_has_no_cycles() -> None:
    import networkx as nx

    graph = _graph()
    g = nx.DiGraph()
    for m, deps in graph.items():
        for d in deps:
            # `from pkg import name` names a module or an attribute; keep the modules
            target = d if d in graph else d.rpartition(".")[0]
            if target in graph and target != m and not m.startswith(target + "."):
                g.add_edge(m, target)
    cycles = list(nx.simple_cycles(g))
    assert not cycles, cycles[:5]


# ---------------------------------------------------------------------------- the command-line layer
CLI_LAYER = ("exact.cli", "learned.cli")  # the shared options and their readers


def _commands() -> set[str]:
    """The modules that are commands: they define ``main`` (a thin ``main(argv)``)."""
    import ast

    out = set()
    for top in ("exact", "learned", "hybrid", "instances", "puzzleopt"):
        for path in (ROOT / top).rglob("*.py"):
            tree = ast.parse(path.read_text())
            if any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
                out.add(_module_name(path))
    return out


# `learned` itself: imported first by `python -m learned.solve`, it ends that command in one line
# where torch is missing (exact.cli.exit_missing_extra), before the command's own imports fail.
AS_A_COMMAND = {"learned"}


def test_only_commands_use_the_command_line_layer() -> None:
    # the whole layer, exact.cli included: library code reads its bounds from exact.resources
    graph = _graph()
    commands = _commands() | AS_A_COMMAND | {m for m in graph if m.endswith(".__main__")}  # python -m packages
    bad = {m: sorted(d for d in deps if _within(d, CLI_LAYER))
           for m, deps in graph.items() if m not in commands and not _within(m, CLI_LAYER)}  # fmt: skip
    assert not {m: d for m, d in bad.items() if d}


def test_no_library_function_takes_an_argparse_namespace() -> None:
    import ast

    commands = _commands()
    hits = []
    for top in ("exact", "learned", "hybrid", "instances", "puzzleopt"):
        for path in (ROOT / top).rglob("*.py"):
            name = _module_name(path)
            if name in commands or _within(name, CLI_LAYER):
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for a in node.args.args + node.args.kwonlyargs:
                        if a.annotation is not None and "Namespace" in ast.unparse(a.annotation):
                            hits.append(f"{name}.{node.name}({a.arg})")
    assert not hits, hits


def test_the_executor_and_the_shared_options_import_no_puzzle() -> None:
    # exact.cli.models is a command (the model commands' --size cube shortcut); the rest is shared
    layer = ("exact.executor", "exact.lazy", "exact.cli.options", "exact.cli.flags", "exact.cli.solve")
    bad = {m: sorted(d for d in deps if _within(d, PUZZLE_PACKAGES + ("learned", "hybrid")))
           for m, deps in _graph().items() if _within(m, layer) or m == "exact.cli"}  # fmt: skip
    assert not {m: d for m, d in bad.items() if d}


def test_functions_stay_short() -> None:
    """No function is over 80 lines of code (its docstring aside), numba kernels excepted."""
    import ast

    long = []
    for top in ("exact", "learned", "hybrid", "instances", "puzzleopt"):
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                if any("jit" in ast.unparse(d) or ast.unparse(d) == "borrowed" for d in node.decorator_list):
                    continue  # numba kernels (exact.memory.borrowed is numba's njit too)
                body = node.body
                if isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
                    body = body[1:]
                if body and body[-1].end_lineno - body[0].lineno + 1 > 80:
                    long.append(f"{_module_name(path)}.{node.name}: {body[-1].end_lineno - body[0].lineno + 1}")
    assert not long, long


def test_the_notebook_apis_all_is_its_exports() -> None:
    """``__all__`` is written out for type checkers; it must name exactly what loads lazily."""
    import puzzleopt

    assert puzzleopt.__all__ == ["__version__", *sorted(puzzleopt._EXPORTS)]
    assert all(getattr(puzzleopt, name) is not None for name in puzzleopt.__all__)
