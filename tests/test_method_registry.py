"""The one method registry: methods register beside their code, apply by declared capabilities,
rank for ``auto`` by their declared rank, and a name may have a puzzle's own variant."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from exact import registry, solvers
from exact.contract import Method
from exact.errors import PuzzleoptError
from exact.puzzles.tiles.puzzle import TilesPuzzle
from exact.result import SolveResult, Status

ROOT = Path(__file__).resolve().parents[1]


def test_each_builtin_method_is_registered_by_its_own_module() -> None:
    where = {m.name: m.run.__module__ for m in solvers.methods()}
    assert where["cube3-optimal"] == where["ida*-cube"] == "exact.cube.methods"
    assert where["cp-sat"] == "exact.cpsat.methods" and where["mip"] == "exact.mip.methods"
    assert where["bfs"] == "exact.bidirectional" and where["table-walk"] == "exact.tablewalk"
    assert where["ida*"] == "exact.ida.methods" and where["ida*-goal"] == "exact.goals"
    assert {where[n] for n in ("lightsout", "lightsout-mip", "lightsout-cpsat")} == {"exact.lightsout.methods"}
    assert not (ROOT / "exact" / "methods.py").exists()  # no central list of built-ins


def test_the_listing_is_in_rank_order_and_imports_no_solver() -> None:
    ranks = [m.rank for m in solvers.methods()]
    assert ranks == sorted(ranks)
    code = "import sys\nfrom exact import solvers\nsolvers.methods()\n"
    code += "print(sorted(m for m in ('pyomo', 'ortools', 'highspy', 'torch') if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr[-2000:]


def test_a_puzzle_gets_the_variant_its_capabilities_ask_for() -> None:
    korf, last = registry.get("tiles8"), TilesPuzzle(3, 3, goal="blank-last")
    assert "korf-tiles" in korf.capabilities and not last.capabilities
    assert solvers.choose(korf, "ida*").run.__module__ == "exact.tiles.methods"
    assert solvers.choose(last, "ida*").run.__module__ == "exact.ida.methods"
    assert solvers.choose(registry.get("pancake", n=8), "ida*").needs is None
    # the kernels solve to the puzzle's own goal: a partial goal declares no capability
    from exact.goals import with_goal

    cube = registry.get("cube3")
    assert "cube3-coordinates" in cube.capabilities
    assert not with_goal(cube, "cross").capabilities
    assert "cube3-coordinates" not in registry.get("cube3", moves="layers").capabilities
    start = korf.table.apply(korf.goal, "R D R D L U")
    both = [solvers.solve(p, start, method="ida*") for p in (korf, TilesPuzzle(3, 3))]
    assert [r.length for r in both] == [6, 6] and both[0].solver == both[1].solver


class _Marked(TilesPuzzle):
    capabilities = frozenset({"test-capability"})


def _first_move(puzzle, start, limits, *, stop_at=None, pdb_dir=None, progress=False) -> SolveResult:
    """A test method that proves what the table walk proves."""
    return solvers.solve(puzzle, start, method="table-walk")


@pytest.fixture
def scratch_registry(monkeypatch):
    saved = {k: list(v) for k, v in solvers._METHODS.items()}
    yield
    solvers._METHODS.clear()
    solvers._METHODS.update(saved)


def test_register_method_ranks_variants_and_refuses_duplicates(scratch_registry) -> None:
    p = _Marked(3, 3)
    added = solvers.register_method("test-own", _first_move, needs="test-capability", rank=1)
    assert added.description == "A test method that proves what the table walk proves." and added.proves
    assert solvers.methods(p)[0].name == "test-own"  # rank 1 goes before every built-in, in what auto walks
    assert "test-own" not in [m.name for m in solvers.methods(registry.get("tiles8"))]
    start = p.table.apply(p.goal, "R D")
    assert solvers.solve(p, start).status is Status.OPTIMAL
    with pytest.raises(PuzzleoptError, match="already registered"):
        solvers.register_method("test-own", _first_move, needs="test-capability")
    with pytest.raises(PuzzleoptError, match="already registered"):
        solvers.register_method(Method("bfs", lambda p: True, True, _first_move))
    variant = solvers.register_method("bfs", _first_move, needs="test-capability", rank=80)
    assert solvers.choose(p, "bfs") is variant
    assert solvers.choose(registry.get("tiles8"), "bfs") is not variant
    assert [m.name for m in solvers.methods()].count("bfs") == 1


def test_a_highs_run_that_highs_refuses_raises() -> None:
    import highspy

    from exact.mip.adapters import run_highs

    class Refusing:
        def run(self):
            return highspy.HighsStatus.kError

        def getModelStatus(self):  # noqa: N802 - highspy's name
            return highspy.HighsModelStatus.kNotset

    with pytest.raises(RuntimeError, match="refused"):
        run_highs(Refusing())


def test_no_engine_branches_on_puzzle_names() -> None:
    """Applicability comes from declared capabilities: outside the puzzles' own packages nothing
    reads a move table's ``metadata["puzzle"]``."""
    puzzle_dirs = ("puzzles", "cube", "tiles", "sokoban", "freecell", "lightsout", "hypercube")
    hits = []
    for path in sorted((ROOT / "exact").rglob("*.py")):
        rel = path.relative_to(ROOT / "exact")
        if rel.parts[0] in puzzle_dirs:
            continue
        text = path.read_text()
        if any(b in text for b in ('metadata.get("puzzle")', 'metadata["puzzle"]', '.get("puzzle") ==')):
            hits.append(str(rel))
    assert not hits, hits


# ----------------------------------------------------------------------------- options, declared once
def _every_method() -> list[Method]:
    solvers.methods(registry.get("cube2"))  # loads the built-in modules and the plugins
    return [m for variants in solvers._METHODS.values() for m in variants]


def test_every_option_is_declared_once_with_the_default_its_function_takes() -> None:
    """Each method's options are declared where it registers (kind, default, help); the function
    that runs it takes each as a keyword with that same default, or hands it on (``**options``)
    to a function whose default it is."""
    import inspect

    from exact.options import COMMON, KINDS

    methods = _every_method()
    assert len(methods) >= 15
    for m in methods:
        names = [o.name for o in m.options]
        assert len(names) == len(set(names)), f"{m.name}: an option declared twice: {names}"
        params = inspect.signature(m.run).parameters
        forwards = any(p.kind is p.VAR_KEYWORD for p in params.values())
        for o in (*COMMON, *m.options):
            assert o.kind in KINDS and o.help, (m.name, o)
            if o.name in params:
                assert params[o.name].default == o.default, (
                    f"{m.name}: {o.name} defaults to {params[o.name].default!r} "
                )
                f"in its function, {o.default!r} in its declaration"
            else:
                assert forwards, f"{m.name}: declares {o.name}, which its function does not take"


def test_the_mip_options_object_defaults_as_its_declarations() -> None:
    """``solve_mip``'s one option object (not 19 keywords) has the ``mip`` method's defaults:
    ``solve_mip(puzzle, start, T)`` solves as ``method="mip"`` does."""
    import dataclasses

    from exact.mip.options import OPTIONS, MipOptions

    declared = {o.name: o.default for o in OPTIONS}
    fields = {f.name: f.default for f in dataclasses.fields(MipOptions)}
    assert set(fields) == set(declared) - {"horizon", "hint", "hint_source"}
    assert fields == {k: declared[k] for k in fields}
    assert solvers.get_method("mip").options == OPTIONS


def test_lightsout_options_default_as_the_solve_functions_they_are_handed_to() -> None:
    import inspect

    from exact.lightsout.cpsat import solve_lightsout_cpsat
    from exact.lightsout.gf2 import solve_gf2
    from exact.lightsout.mip import solve_lightsout_mip

    functions = {"lightsout": solve_gf2, "lightsout-mip": solve_lightsout_mip, "lightsout-cpsat": solve_lightsout_cpsat}
    for name, function in functions.items():
        params = inspect.signature(function).parameters
        for o in solvers.get_method(name, registry.get("lightsout")).options:
            assert params[o.name].default == o.default, (name, o.name, params[o.name].default, o.default)


def test_an_option_value_is_read_as_its_declared_kind() -> None:
    p = registry.get("tiles8")
    mip = solvers.get_method("mip")
    assert solvers.check_options(mip, {"split": "no", "horizon": "7", "formulation": "tight"}) == {
        "split": False, "horizon": 7, "formulation": "tight",
    }  # fmt: skip
    with pytest.raises(PuzzleoptError, match="option formulation is 'loose': use one of tight, pairs, seed"):
        solvers.check_options(mip, {"formulation": "loose"})
    with pytest.raises(PuzzleoptError, match="takes no option width; its options: stop_at, pdb_dir, progress, horizon"):
        solvers.check_options(mip, {"width": 3})
    assert solvers.get_method("bfs", p).option("max_depth").default == 40


def test_each_method_declares_the_limits_it_keeps_to() -> None:
    """``Method.limits``: time always; nodes where its function hands ``limits.nodes`` on (the
    commands offer --node-limit from this), stored where declared."""
    import inspect

    for m in _every_method():
        source = inspect.getsource(inspect.getmodule(m.run))
        assert m.limits[0] == "time" and ("nodes" in m.limits) == m.nodes, m.name
        if m.nodes:
            assert "limits.nodes" in source, f"{m.name} declares a node limit it never reads"
    declared = {m.name for m in _every_method() if m.nodes}
    assert {"ida*", "cube3-optimal", "sokoban", "bwas"} <= declared
    assert not declared & {"mip", "cp-sat", "lightsout", "table-walk"}
