"""The ``puzzleopt`` program: subcommands, --version, usage lines that name what was typed."""

from __future__ import annotations

import json

import pytest

from exact import __version__, cli
from puzzleopt.console import SUBCOMMANDS, main


def test_version_and_the_subcommand_list(capsys) -> None:
    assert main(["--version"]) == cli.EXIT_OK
    assert capsys.readouterr().out.strip() == f"puzzleopt {__version__}"
    assert main(["--help"]) == cli.EXIT_OK
    out = capsys.readouterr().out
    assert all(f"    {name}" in out for name in SUBCOMMANDS)
    for name in ("ida", "lightsout", "sokoban", "freecell", "hypercube", "train", "evaluate", "verify"):
        assert name in SUBCOMMANDS


def test_an_unknown_or_missing_subcommand_is_one_line_and_exit_2(capsys) -> None:
    assert main(["nope"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'nope'" in err[0] and "solve" in err[0]
    assert main([]) == cli.EXIT_BAD_INPUT


def test_a_subcommand_names_itself_as_typed_and_takes_the_puzzle_spelling(capsys) -> None:
    assert main(["solve", "--puzzle", "tiles8", "--tiles", "1 0 2 3 4 5 6 7 8", "--json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["length"] == 1  # --tiles is --state's alias
    assert main(["solve", "--puzzle", "tiles8", "--bogus"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("puzzleopt solve: error:") and "python -m" not in err
    assert main(["ida", "--help"]) == cli.EXIT_OK
    assert capsys.readouterr().out.startswith("usage: puzzleopt ida ")
    assert cli.typed("python -m exact.ida") == "python -m exact.ida"  # outside puzzleopt: the module's name


def test_no_help_shows_a_flag_default(capsys) -> None:
    for name in SUBCOMMANDS:
        assert main([name, "--help"]) == cli.EXIT_OK, name
        out = capsys.readouterr().out
        assert out.startswith(f"usage: puzzleopt {name}") and "(default: True)" not in out, name


def test_horizon_and_turns_are_one_option_everywhere(capsys) -> None:
    assert main(["cpsat", "--size", "2", "--horizon", "3", "--scramble", "R U F", "--json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["length"] == 3
    argv = ["solve", "--puzzle", "cube2", "--scramble", "R U", "--method", "cp-sat", "--turns", "3", "--json"]
    assert main(argv) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["length"] == 2


@pytest.mark.parametrize(
    ("name", "options", "state"),
    [
        ("tiles8", {}, "1 0 2 3 4 5 6 7 8"),
        ("pancake", {"n": 6}, "3 1 2 6 5 4"),
        ("lightsout", {"rows": 3, "cols": 3}, None),
        ("pyraminx", {}, None),
        ("cube2", {}, None),
    ],
)
def test_every_entry_point_picks_the_same_method_with_the_same_defaults(name, options, state, tmp_path, capsys):
    import numpy as np

    from exact import registry, solvers
    from exact.solve import main as solve_main
    from hybrid.verify import main as verify_main
    from puzzleopt import State

    p = registry.get(name, **options)
    if state is None:
        state = p.format_state(p.random_walk(1, 6, np.random.default_rng(1))[0])
    flags = [x for k, v in options.items() for x in ("--option", f"{k}={v}")]
    argv = ["--puzzle", name, *flags, "--state", state, "--json"]
    notebook = State.from_board(name, state, **options).solve()
    assert solve_main(argv) == cli.EXIT_OK
    module = json.loads(capsys.readouterr().out)
    assert main(["solve", *argv]) == cli.EXIT_OK
    console = json.loads(capsys.readouterr().out)
    seen = {(r["solver"], json.dumps(r["settings"], sort_keys=True)) for r in (module, console)}
    assert seen == {(notebook.solver, json.dumps(notebook.settings, sort_keys=True))}
    assert notebook.status.value == "optimal"
    (tmp_path / "one.txt").write_text(state + "\n")
    (tmp_path / "sol.txt").write_text(" ".join(notebook.moves) + "\n")
    verify = ["--puzzle", name, *flags, "--instances", str(tmp_path / "one.txt"), "--solutions",
              str(tmp_path / "sol.txt"), "--out", str(tmp_path / "v"), "--no-progress", "--json"]  # fmt: skip
    assert verify_main(verify) == cli.EXIT_OK
    capsys.readouterr()
    (cert,) = [json.loads(x) for x in (tmp_path / "v" / "certificates.jsonl").read_text().splitlines()[1:]]
    assert cert["verdict"] == "optimal" and cert["method"] == solvers.choose(p, "auto", {}).name == "auto"
    assert notebook.extra["portfolio"][-1]["solver"] == notebook.solver  # the step that answered


SMALL = [("tiles8", {}), ("pancake", {"n": 6}), ("lightsout", {"rows": 3, "cols": 3}), ("pyraminx", {}), ("cube2", {})]


def _pairs() -> list[tuple[str, dict, str]]:
    from exact import registry, solvers

    return [(name, options, m.name) for name, options in SMALL
            for m in solvers.methods(registry.get(name, **options)) if m.extra is None]  # fmt: skip


@pytest.mark.parametrize(("name", "options", "method"), _pairs(), ids=[f"{n}-{m}" for n, _, m in _pairs()])
def test_the_notebook_and_the_command_solve_a_scramble_with_the_same_settings(
    name, options, method, tmp_path, tmp_path_factory, capsys
):
    """Every (puzzle, method) pair, from a scramble: the notebook and ``python -m exact.solve``
    run the same method with the same settings (a model's horizon and incumbent from the
    scramble, by one rule: :func:`exact.horizon.from_scramble`) and give the same answer."""
    from conftest import cube2_table

    from exact.solve import main as solve_main
    from puzzleopt import State

    if (name, method) == ("cube2", "table-walk"):  # the run's shared 2x2x2 table, not a new build
        tmp_path = cube2_table(tmp_path_factory, "qtm")[1]

    state = State(name, **options).scramble(3, 5)
    notebook = state.solve(method, pdb_dir=str(tmp_path))
    flags = [x for k, v in options.items() for x in ("--option", f"{k}={v}")]
    argv = ["--puzzle", name, *flags, "--scramble", " ".join(state.path), "--method", method, "--pdb-dir",
            str(tmp_path), "--json", "--no-progress"]  # fmt: skip
    assert solve_main(argv) == cli.EXIT_OK
    command = json.loads(capsys.readouterr().out)
    assert command["solver"] == notebook.solver and command["settings"] == json.loads(json.dumps(notebook.settings))
    assert (command["status"], command["length"]) == (notebook.status.value, notebook.length)
    assert notebook.status.value == "optimal" and notebook.length <= 3, notebook


@pytest.mark.parametrize("module", ["exact.solve", "exact.ida.__main__"])
def test_first_and_count_take_the_first_instances_in_every_command_that_reads_a_file(module, tmp_path, capsys):
    import importlib

    main_of = importlib.import_module(module).main
    boards = ["1 0 2 3 4 5 6 7 8", "1 2 0 3 4 5 6 7 8", "3 1 2 0 4 5 6 7 8"]
    (tmp_path / "three.txt").write_text("\n".join(boards) + "\n")
    for flag in ("--first", "--count"):
        argv = ["--puzzle", "tiles8", "--instances", str(tmp_path / "three.txt"), flag, "2", "--json"]
        assert main_of(argv) == cli.EXIT_OK
        rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert [r.get("length") for r in rows if "summary" not in r] == [1, 2], rows
    for ids, first, lengths in (("2", [], [2]), ("3,2", [], [2, 1]), ("2-3", ["--first", "1"], [2])):
        argv = ["--puzzle", "tiles8", "--instances", str(tmp_path / "three.txt"), "--ids", ids, *first, "--json"]
        assert main_of(argv) == cli.EXIT_OK  # --ids: line numbers from 1, in the file's order; then --first
        rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
        assert [r.get("length") for r in rows if "summary" not in r] == lengths, rows
    assert cli.run(main_of, ["--puzzle", "tiles8", "--instances", str(tmp_path / "three.txt"), "--ids", "3-5"]) == 2
    assert "has no instance with id 4-5; its ids run from 1 to 3" in capsys.readouterr().err
    for flag in ("--first", "--ids"):
        assert cli.run(main_of, ["--puzzle", "tiles8", "--state", boards[0], flag, "1"]) == cli.EXIT_BAD_INPUT
        assert f"{flag} goes with --instances" in capsys.readouterr().err


def test_state_names_the_start_in_the_puzzle_commands_too(capsys) -> None:
    from exact.lightsout.__main__ import main as lightsout_main
    from exact.sokoban.__main__ import main as sokoban_main

    assert lightsout_main(["--size", "3", "--state", "110001000", "--json"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["status"] == "optimal"
    assert sokoban_main(["--state", "######\n#@ $.#\n######", "--json"]) == cli.EXIT_OK
    got = json.loads(capsys.readouterr().out)
    assert got["status"] == "optimal" and got["length"] == 2


def test_exact_ida_takes_method_options_as_exact_solve_does(capsys) -> None:
    from exact.ida.__main__ import main as ida_main

    argv = ["--puzzle", "tiles8", "--tiles", "1 0 2 3 4 5 6 7 8", "--json"]
    assert ida_main([*argv, "--method-option", "heuristic=manhattan"]) == cli.EXIT_OK
    assert json.loads(capsys.readouterr().out)["settings"]["heuristic"] == "manhattan"
    assert cli.run(ida_main, [*argv, "--method-option", "heuristic=manhattan", "--heuristic", "manhattan"]) == 2
    assert "repeats --heuristic" in capsys.readouterr().err
