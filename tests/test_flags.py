"""Method flags generated from the declarations (exact/cli/flags.py): every solving command's
method flags are the registered options, with their names, kinds and defaults; the model commands
are presets of the one solve command and solve as ``method="mip"``/``"cp-sat"`` does."""

from __future__ import annotations

import json

import pytest

from exact import cli, solvers
from exact.cli.flags import flag_name


def _flags(parser) -> set[str]:
    return set(parser._option_string_actions)


def _declared(methods) -> dict[str, str]:
    return {o.name: o.kind for m in methods for o in m.options if o.kind != "object"}


def test_every_declared_option_is_a_flag_of_exact_solve() -> None:
    """An option a method declares is a flag of exact.solve with no more code; the two names the
    command spells its own way: ``seed`` (its --seed seeds the random walk, as in every command;
    CP-SAT's is --method-option seed=N) and ``verbose`` (-v, which also shows the log)."""
    from exact.options import COMMON
    from exact.solve import _parser

    parser, flags = _parser()
    names = _flags(parser)
    every = [v for m in solvers.methods() for v in solvers.variants(m.name)]
    declared = _declared(every) | {o.name: o.kind for o in COMMON}
    missing = {n for n in declared if f"--{flag_name(n)}" not in names or n not in flags.options}
    assert missing == {"seed", "verbose"}, missing
    for name, kind in declared.items():
        if kind == "flag" and name not in missing:
            assert f"--no-{flag_name(name)}" in names, name


@pytest.mark.parametrize(("module", "method"), [("exact.mip.__main__", "mip"), ("exact.cpsat.__main__", "cp-sat")])
def test_the_model_commands_have_their_method_s_options_as_flags(module: str, method: str) -> None:
    from exact.cli.models import CPSAT, MIP, SKIPPED, parser

    p, flags = parser("x", "y", MIP if method == "mip" else CPSAT)
    want = set(_declared([solvers.get_method(method)])) - set(SKIPPED) - {"seed"}
    assert want <= set(flags.options), want - set(flags.options)
    assert {"--turns", "--horizon", "--hint", "--time-limit", "--method-option"} <= _flags(p)
    if method == "mip":  # the documented spellings keep working
        assert {"--no-split", "--piece-time-limit", "--confirm-infeasible", "--write-model", "--ray"} <= _flags(p)


def test_the_mip_command_solves_as_the_notebook_and_the_method_do(capsys) -> None:
    """``python -m exact.mip`` is a preset of the one solve command: the same settings record,
    the same answer and the same incumbent rule as ``State.solve(method="mip")``."""
    from exact.mip.__main__ import main as mip_main
    from puzzleopt import State

    state = State("cube2").apply("R U F'")
    notebook = state.solve("mip", horizon=4)
    argv = ["--puzzle", "cube2", "--scramble", "R U F'", "--turns", "4", "--json"]
    assert mip_main(argv) == cli.EXIT_OK
    command = json.loads(capsys.readouterr().out)
    assert command["settings"] == json.loads(json.dumps(notebook.settings))
    assert (command["status"], command["moves"]) == (notebook.status.value, list(notebook.moves))
    assert command["extra"]["proof"]["incumbent_source"] == notebook.extra["proof"]["incumbent_source"]
    assert notebook.extra["proof"]["incumbent_source"].startswith("the scramble's inverse")
    assert mip_main([*argv, "--no-split"]) == cli.EXIT_OK
    whole = json.loads(capsys.readouterr().out)
    assert "proof" not in whole["extra"] and whole["settings"] == json.loads(
        json.dumps(state.solve("mip", horizon=4, split=False).settings)
    )


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--threads", "0"], "--threads 0 must be a whole number >= 1"),
        (["--threads", "300"], "--threads 300 must be in 1..256"),
        (["--formulation", "loose"], "invalid choice: 'loose'"),
        (["--piece-time-limit", "-1"], "--piece-time-limit: -1 must be a finite number of seconds above 0"),
        (["--split", "--method-option", "split=maybe"], "split is a yes/no flag"),
    ],
)
def test_a_bad_flag_value_is_one_line_naming_the_flag(argv: list[str], needle: str, capsys) -> None:
    from exact.mip.__main__ import main as mip_main

    code = cli.run(mip_main, ["--size", "2", "--turns", "3", "--scramble", "R U", *argv])
    err = capsys.readouterr().err
    assert code == cli.EXIT_BAD_INPUT and len(err.strip().splitlines()) == 1 and needle in err, err


def test_a_flag_of_another_method_is_refused_where_the_method_is_chosen(capsys) -> None:
    from exact.ida.__main__ import main as ida_main

    argv = ["--puzzle", "tiles8", "--tiles", "1 0 2 3 4 5 6 7 8", "--edge", "slice"]
    assert cli.run(ida_main, argv) == cli.EXIT_BAD_INPUT
    assert "--edge is not an option of tiles8's method ida*" in capsys.readouterr().err
