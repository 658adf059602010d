"""Bad input across every command line: one clear line on stderr, exit code 2, no traceback.

Each row is a mistake a new user makes (most from the audit in issue 25): the command, its
arguments (``{file}``: an existing file, ``{dir}``: an existing folder, ``{binary}``: a file that
is not text, ``{tiles}``: a valid 8-puzzle instance file, ``{hyper}``: a hypercube file with
``"d": true``), and a piece of the line the user must see. Everything runs in-process through
:func:`exact.cli.run`, as ``python -m`` would.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from exact import cli

ROOT = Path(__file__).resolve().parents[1]

TILES = "1 2 0 3 4 5 6 7 8"
ROTATED_SOLVED = "FFFFFFFFFRRRRRRRRRDDDDDDDDDBBBBBBBBBLLLLLLLLLUUUUUUUUU"

CASES = [
    # thread counts beyond what a solver takes
    ("exact.cpsat", "--size 3 --turns 4 --scramble R --threads 100000", "--threads 100000 must be in 1..256"),
    ("exact.mip", "--size 3 --turns 4 --scramble R --threads 100000", "--threads 100000 must be in 1..256"),
    (
        "exact.lightsout",
        "--size 3 --lights 101010101 --method cpsat --threads 100000",
        "--threads 100000 must be in 1..256",
    ),
    # --first that would silently drop instances or run nothing
    ("learned.evaluate", "--puzzle tiles8 --instances {tiles} --first -1", "--first/--count: -1 must be at least 1"),
    ("learned.evaluate", "--puzzle tiles8 --instances {tiles} --count 0", "--first/--count: 0 must be at least 1"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --first -1", "--first/--count: -1 must be at least 1"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --count 0", "--first/--count: 0 must be at least 1"),
    # output paths that are folders, files, missing folders or empty
    ("exact.moves", "--export-json {dir}", "is a folder"),
    ("exact.moves", "--export-csv {dir}/no/such/x.csv", "does not exist; create it first"),
    ("exact.moves", "--export-json=", "--export-json is empty"),
    ("learned.train", "--puzzle tiles8 --out {file}", "must be a folder, but it is a file"),
    ("learned.evaluate", "--puzzle tiles8 --instances {tiles} --out {file}", "must be a folder, but it is a file"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --out {file}", "must be a folder, but it is a file"),
    ("exact.pdb", "--pdb-dir {file} build tiles8-1.2.3.4", "must be a folder, but it is a file"),
    ("exact.ida", "--puzzle tiles8 --tiles '" + TILES + "' --pdb-dir {file}", "must be a folder, but it is a file"),
    # devices that are not there
    ("learned.solve", "--puzzle tiles8 --tiles '" + TILES + "' --device gpu", "invalid choice: 'gpu'"),
    ("learned.train", "--puzzle tiles8 --device gpu", "invalid choice: 'gpu'"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --device gpu", "invalid choice: 'gpu'"),
    # a puzzle the command does not solve
    ("exact.ida", "--puzzle lightsout --tiles '1 0 1'", "exact.ida solves the puzzles one of"),
    # counts of zero
    ("learned.freecell", "bench --deals 1 --repeats 0", "--repeats: 0 must be at least 1"),
    ("learned.freecell", "bench --deals 1 --jobs 0", "--jobs: 0 must be at least 1"),
    # unbounded numbers that used to run for minutes or forever
    ("exact.moves", "--scramble-length 100000000", "is above the most this command takes"),
    ("exact.cpsat", "--size 3 --turns 4 --scramble-length 100000000", "is above the most this command takes"),
    # limits of zero, below zero or NaN
    ("exact.ida", "--puzzle tiles8 --tiles '" + TILES + "' --time-limit -1", "finite number of seconds above 0"),
    ("exact.ida", "--puzzle tiles8 --tiles '" + TILES + "' --time-limit nan", "finite number of seconds above 0"),
    ("exact.ida", "--puzzle tiles8 --tiles '" + TILES + "' --node-limit 0", "--node-limit: 0 must be at least 1"),
    ("exact.ida", "--puzzle tiles8 --tiles '" + TILES + "' --node-limit -5", "--node-limit: -5 must be at least 1"),
    ("exact.hypercube", "solve --instance d3-level0 --k 1 --time-limit -5", "finite number of seconds above 0"),
    ("exact.hypercube", "solve --instance d3-level0 --k 1 --max-states 0", "--max-states: 0 must be at least 1"),
    ("exact.hypercube", "solve --instance d3-level0 --k 1 --max-states -10", "--max-states: -10 must be at least 1"),
    ("learned.solve", "--puzzle tiles8 --tiles '" + TILES + "' --max-nodes 0", "--max-nodes: 0 must be at least 1"),
    ("learned.solve", "--puzzle tiles8 --tiles '" + TILES + "' --time-limit -1", "finite number of seconds above 0"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --time-limit -1", "finite number of seconds above 0"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --node-limit -1", "--node-limit: -1 must be at least 1"),
    ("learned.train", "--puzzle tiles8 --threshold nan --out {dir}/run", "threshold (--threshold) nan"),
    ("exact.freecell", "--deal 1 --time-limit 0", "finite number of seconds above 0"),
    ("exact.sokoban", "--level x --node-limit 0", "--node-limit: 0 must be at least 1"),
    # one-liners that now say which input and what is wrong
    ("learned.evaluate", "--puzzle tiles8 --instances {binary}", "is not UTF-8 text"),
    ("hybrid.verify", "--puzzle tiles8 --instances {binary}", "is not UTF-8 text"),
    ("exact.ida", "--puzzle tiles8 --instances {binary}", "is not UTF-8 text"),
    ("exact.freecell", "--board {binary}", "is not UTF-8 text"),
    ("exact.moves", "--seed -1", "argument --seed: -1 must be at least 0"),
    ("exact.hypercube", "solve --instance {hyper} --k 1", "d=True must be a whole number"),
    ("learned.train", "--puzzle tiles8 --eval-depths 0 --out {dir}/run", "eval_depths (--eval-depths) '0'"),
    # the audit of issue 42 (docs/reliability.md)
    ("exact.solve", "--puzzle pancake --option n=4 --option burnt=true --state '2 --1 3 4'", "'--1' is not a pancake"),
    ("exact.solve", "--puzzle pancake --option n=4 --option burnt=maybe --scramble-length 2", "a yes/no flag"),
    ("exact.solve", "--puzzle pyraminx --option tips=off2 --scramble-length 2", "a yes/no flag"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method bfs --method-option max_depth=abc", "whole number"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method bfs --method-option progress=7", "a yes/no flag"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method table-walk --stored-limit 1", "cannot keep to"),
    ("exact.solve", "--puzzle pancake --option n=3 --option bogus=1 --scramble-length 2", "unexpected keyword"),
    ("exact.solve", "--puzzle tiles8 --instances {tiles} --out ''", "--out: is empty"),
    ("exact.solve", "--puzzle tiles8 --instances {tiles} --out {file}", "must be a folder, but it is a file"),
    ("exact.ida", "--puzzle tiles8 --instances {tiles} --out ''", "--out: is empty"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --solutions {sols5}", "has 5 lines for 1 instances"),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --solutions {long}", "more than the 100,000"),
    (
        "hybrid.verify",
        "--puzzle tiles8 --instances {tiles} --solutions {sols1} --method cp-sat --method-option horizon=1",
        "sets the horizon",
    ),
    ("hybrid.verify", "--puzzle tiles8 --instances {tiles} --solutions {sols1} --bwas-time-limit 3", "sets BWAS"),
    ("exact.mip", "--size 2 --turns 2 --scramble R --bwas-time-limit 0", "finite number of seconds above 0"),
    ("exact.cpsat", "--size 2 --turns 2 --scramble R --time-limit nan", "finite number of seconds above 0"),
    ("exact.pdb", "verify nosuch-table", "no stored table is named 'nosuch-table'"),
    ("exact.ida", "--puzzle cube3 --scramble 'R U' --goal " + "U" * 4 + "." * 50, "IDA* searches to goals that fix"),
    # the audit of issue 63
    ("exact.solve", "--puzzle pancake --option n=4 --instances {nostate}", "line 3: no state in its 'state' cell"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method beam --method-option width=abc", "whole number >= 1"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method beam --method-option ball=-3", "whole number >= 0"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method beam --method-option inverse=maybe", "yes/no flag"),
    ("exact.solve", "--puzzle tiles8 --scramble-length 3 --method bwas --method-option weight=nan", "finite number"),
    ("hybrid.verify", "--puzzle tiles8 --instances {three} --solutions {sols5} --first 2", "(or 2, one for each"),
    # a solver Pyomo does not know: one line, not Pyomo's logged traceback first
    (
        "exact.mip",
        "--size 2 --turns 2 --scramble R --solver nosuchsolver --no-split",
        "solver 'nosuchsolver' is not known",
    ),
]


@pytest.fixture
def paths(tmp_path):
    file = tmp_path / "a_file.txt"
    file.write_text("not a folder\n")
    binary = tmp_path / "binary.bin"
    binary.write_bytes(bytes([0xB7, 0x00, 0xFF, 0x10]) * 8)
    tiles = tmp_path / "boards.txt"
    tiles.write_text(TILES + "\n")
    sols1 = tmp_path / "sols1.txt"
    sols1.write_text("L\n")
    three = tmp_path / "three.txt"
    three.write_text(TILES + "\n" + TILES + "\n" + TILES + "\n")
    nostate = tmp_path / "nostate.tsv"
    nostate.write_text("id\tstate\np0\t2 1 3 4\np1\n")
    sols5 = tmp_path / "sols5.txt"
    sols5.write_text("L\nL\nL\nL\nL\n")
    long = tmp_path / "long.txt"
    long.write_text("L R " * 50_001 + "\n")
    hyper = tmp_path / "hyper.json"
    hyper.write_text(json.dumps({"d": True, "l": 1, "start": [[0, "r"]], "target": [[1, "r"]]}))
    return {"file": file, "dir": tmp_path, "binary": binary, "tiles": tiles, "hyper": hyper, "sols1": sols1,
            "sols5": sols5, "long": long, "nostate": nostate, "three": three}  # fmt: skip


def _argv(text: str, paths) -> list[str]:
    import shlex

    return shlex.split(text.format(**{k: str(v) for k, v in paths.items()}))


@pytest.mark.parametrize(("module", "args", "needle"), CASES, ids=[f"{m} {a}" for m, a, _ in CASES])
def test_bad_input_is_one_line_and_exit_2(module, args, needle, paths, capsys) -> None:
    mod = importlib.import_module(module)
    if hasattr(mod, "__path__"):  # a package: its command is its __main__
        mod = importlib.import_module(f"{module}.__main__")
    main = mod.main
    code = cli.run(main, _argv(args, paths))
    err = capsys.readouterr().err
    assert code == cli.EXIT_BAD_INPUT, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert needle in err, err


def test_json_errors_are_json_on_stdout(paths, capsys) -> None:
    from exact.ida.__main__ import main

    assert cli.run(main, ["--puzzle", "tiles8", "--tiles", "1 2 3", "--json"]) == cli.EXIT_BAD_INPUT
    out = json.loads(capsys.readouterr().out)
    assert out["exit_code"] == 2 and "expected 9 numbers" in out["error"]
    assert cli.run(main, ["--puzzle", "tiles8", "--node-limit", "0", "--tiles", TILES, "--json"]) == 2
    assert "must be at least 1" in json.loads(capsys.readouterr().out)["error"]


def test_cuda_without_cuda_is_one_line(capsys, monkeypatch) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # the same on a machine with a GPU
    from learned.solve import main

    assert cli.run(main, ["--puzzle", "tiles8", "--tiles", TILES, "--device", "cuda"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "--device cuda:" in err and "use --device cpu or auto" in err and len(err.strip().splitlines()) == 1


def test_a_bug_keeps_its_traceback_and_exit_1() -> None:
    def main(argv):
        raise ValueError("an internal numpy-style failure, not the user's fault")

    with pytest.raises(ValueError, match="internal"):
        cli.run(main, [])


def test_a_closed_pipe_is_quiet(tmp_path) -> None:
    import subprocess
    import sys

    cmd = (
        f"{sys.executable} -m exact.moves --size 3 --json | head -c 1 >/dev/null; "
        f'{sys.executable} -c "import sys; from exact import cli; '
        "sys.exit(cli.run(lambda a: [print('x' * 100000) for _ in range(50)] and 0, []))\" | head -c 1"
    )
    out = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in out.stderr and "BrokenPipe" not in out.stderr, out.stderr


# ------------------------------------------------------------------ a sweep generated from the parsers
MODULES = [
    "exact.moves",
    "exact.mip",
    "exact.cpsat",
    "exact.lightsout",
    "exact.ida",
    "exact.pdb",
    "exact.freecell",
    "exact.sokoban",
    "exact.hypercube",
    "learned.solve",
    "learned.evaluate",
    "learned.train",
    "learned.freecell",
    "learned.hypercube",
    "hybrid.verify",
]


class _Captured(Exception):
    pass


def _main_of(module: str):
    mod = importlib.import_module(module)
    if hasattr(mod, "__path__"):
        mod = importlib.import_module(f"{module}.__main__")
    return mod.main


def _parser_of(module: str, monkeypatch):
    """The command's parser, caught as it starts parsing (parsers are built inside ``main``)."""
    got = {}

    def catch(self, args=None, namespace=None):
        got["parser"] = self
        raise _Captured

    with monkeypatch.context() as m:
        m.setattr(cli.OneLineParser, "parse_known_args", catch)
        with pytest.raises(_Captured):
            _main_of(module)([])
    return got["parser"]


def _typed_options(parser, prefix=()):
    """``(argv prefix, option, type)`` for every option that takes a number, subcommands included."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _typed_options(sub, (*prefix, name))
        elif action.option_strings and action.nargs is None and _numeric(action.type):
            yield prefix, action.option_strings[-1], action.type


def _numeric(kind) -> bool:
    return kind in (int, float, cli.seconds) or getattr(kind, "__name__", "").startswith("whole number >=")


def _sweep(monkeypatch) -> list[tuple[str, list[str], str]]:
    rows = []
    for module in MODULES:
        for prefix, option, kind in _typed_options(_parser_of(module, monkeypatch)):
            bad = ["abc", "1e999x"]
            name = getattr(kind, "__name__", "")
            if name.startswith("whole number >="):
                bad += ["2.5", str(int(name.rsplit(" ", 1)[1]) - 1)]
            if kind is cli.seconds:
                bad += ["0", "-1", "nan", "inf"]
            rows += [(module, [*prefix, f"{option}={value}"], option) for value in bad]
    return rows


def test_every_numeric_option_of_every_command_rejects_nonsense(monkeypatch, capsys) -> None:
    """Each number a command takes, given text, a fraction, a value below its least or a
    non-finite time: one line naming the option, exit 2, before any work is done."""
    rows = _sweep(monkeypatch)
    assert {m for m, _, _ in rows} == set(MODULES) - {"exact.pdb"}  # exact.pdb takes no number
    assert len(rows) > 150
    for module, argv, option in rows:
        code = cli.run(_main_of(module), argv)
        err = capsys.readouterr().err
        assert code == cli.EXIT_BAD_INPUT, (module, argv, err)
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, (module, argv, err)
        assert option in err, (module, argv, err)


@pytest.mark.parametrize("module", MODULES)
def test_help_shows_defaults_and_explains_every_option(module, monkeypatch, capsys) -> None:
    import argparse

    from exact.cli import HelpWithDefaults

    assert cli.run(_main_of(module), ["--help"]) == cli.EXIT_OK
    assert "``" not in capsys.readouterr().out  # no reST markup
    for action in _all_actions(_parser_of(module, monkeypatch)):
        if not action.option_strings or isinstance(action, argparse._HelpAction):
            continue
        assert action.help, (module, action.option_strings)
        shown = HelpWithDefaults(module)._get_help_string(action)
        if isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
            assert "(default: " not in shown, (module, action.option_strings, shown)  # a flag is off unless given
        elif action.default not in (None, False):
            assert "default" in shown, (module, action.option_strings, shown)


def _all_actions(parser):
    import argparse

    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _all_actions(sub)


def test_a_folder_where_a_table_file_belongs_is_one_line(tmp_path, capsys) -> None:
    from exact.ida.__main__ import main

    (tmp_path / "tiles8-1.2.3.4.json").mkdir()
    argv = ["--puzzle", "tiles8", "--tiles", TILES, "--heuristic", "pdb-44", "--pdb-dir", str(tmp_path)]
    assert cli.run(main, [*argv, "--no-progress"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].endswith("Is a directory (it is a folder; give a file name)")


def test_cpsat_says_each_horizon_as_it_is_decided(capsys) -> None:
    from exact.cpsat.__main__ import main

    assert cli.run(main, ["--size", "2", "--turns", "4", "--scramble", "R U F"]) == cli.EXIT_OK
    captured = capsys.readouterr()
    lines = [ln.removeprefix("cp-sat cube2: ") for ln in captured.err.splitlines()]
    lines = [ln for ln in lines if ln.startswith("T = ")]
    # the scramble's inverse (3 moves) is the incumbent: horizons 1 and 2 refuted prove it
    assert [ln.split(":")[0] for ln in lines] == ["T = 1", "T = 2"], captured.err
    assert "INFEASIBLE" in lines[0] and "INFEASIBLE (parity)" in lines[1]
    assert "status: optimal (proven)" in captured.out and "solution (3 moves)" in captured.out


# ----------------------------------------------------------------------------- --resume attacks
# A result log is an input (exact.resultlog): each batch command's log is attacked the ways a user
# or a bug could: a record edited (with no seal, the old sha256 seal, a stranger's key, or resealed
# with this user's key but wrong inside), a log of another kind, another command line, and other
# instances under the same ids. Each attack either ends as one line and exit 2 naming the log, or
# gives the answers a fresh run gives.
BOARDS = ["1 2 0 3 4 5 6 7 8", "3 1 2 0 4 5 6 7 8", "1 4 2 3 0 5 6 7 8"]  # 8-puzzle, optimal 2, 1, 2


def _write(path, lines):
    path.write_text("id\tstate\n" + "".join(f"b{i}\t{s}\n" for i, s in enumerate(lines)))
    return path


def _solutions(path, moves):
    path.write_text("".join(m + "\n" for m in moves))
    return path


BATCH = {
    "exact.solve": ("results.jsonl", "--puzzle tiles8 --method bfs --instances {inst} --out {out} --no-progress"),
    "exact.ida": ("results.jsonl", "--puzzle tiles8 --instances {inst} --out {out} --no-progress"),
    "hybrid.verify": (
        "certificates.jsonl",
        "--puzzle tiles8 --method bfs --instances {inst} --solutions {sols} --out {out} --no-progress",
    ),
    "learned.evaluate": ("results.jsonl", "--puzzle tiles8 --instances {inst} --out {out} --no-progress --threads 1"),
}
OTHER_RUN = {"learned.evaluate": "--batch 50"}  # another command line; the others: --time-limit 30


def _batch(module, tmp_path, capsys, extra="", inst=None, out="out"):
    if module == "learned.evaluate":
        pytest.importorskip("torch")
    name, args = BATCH[module]
    inst = inst or _write(tmp_path / "boards.tsv", BOARDS)
    sols = _solutions(tmp_path / "sols.txt", ["L L", "U R L", "U L"])  # optimal, suboptimal, optimal
    argv = _argv(args + " " + extra, {"inst": inst, "out": tmp_path / out, "sols": sols})
    code = cli.run(_main_of(module), argv)
    return code, capsys.readouterr(), tmp_path / out / name


def _lines(log):
    return [json.loads(ln) for ln in log.read_text().splitlines()]


def _put(log, docs):
    log.write_text("".join(json.dumps(d) + "\n" for d in docs))


def _reseal(doc, how, header=None):
    """``doc`` sealed anew: ``how`` is none, the old sha256, a stranger's key or this user's key
    (a record bound to ``header``, the log's first line, as the toolkit binds it)."""
    from exact.atomic import sealed
    from exact.resultlog import HEADER, run_digest
    from exact.signing import signed, user_key

    body = {k: v for k, v in doc.items() if k != "mac"}
    bound_to = "" if header is None else run_digest(header["format"], header[HEADER])
    if how == "none":
        return body
    if how == "sha256":
        return sealed(body)
    if how == "stranger":
        return signed(body, b"k" * 32, bound_to)
    return signed(body, user_key(), bound_to)


def _edit(module, rec):
    """An edit that would make a record claim what is false."""
    rec = dict(rec)
    if module == "hybrid.verify":
        rec.update(verdict="optimal", gap=0, best_length=rec["given_length"], lower_bound=rec["given_length"])
    else:
        rec.update(status="optimal", lower_bound=rec["length"] + 2)
    return rec


@pytest.mark.parametrize("module", sorted(BATCH))
@pytest.mark.parametrize("how", ["none", "sha256", "stranger", "user"])
def test_an_edited_record_fails_the_resume_by_name(module, how, tmp_path, capsys):
    code, _, log = _batch(module, tmp_path, capsys)
    assert code == 0 and log.exists()
    docs = _lines(log)
    docs[2] = _reseal(_edit(module, docs[2]), how, docs[0])  # the suboptimal certificate; a board
    _put(log, docs)
    code, io, _ = _batch(module, tmp_path, capsys, "--resume")
    assert code == cli.EXIT_BAD_INPUT and len(io.err.strip().splitlines()) == 1, io.err
    assert str(log) in io.err and ("line 3 is damaged or was edited" in io.err or "does not hold" in io.err), io.err


def test_an_edited_last_line_runs_again_like_a_torn_one(tmp_path, capsys):
    code, _, log = _batch("exact.solve", tmp_path, capsys)
    fresh = _lines(log)
    docs = [*fresh[:-1], _edit("exact.solve", fresh[-1])]  # the seal no longer holds
    _put(log, docs)
    code, _, _ = _batch("exact.solve", tmp_path, capsys, "--resume")
    assert code == 0 and [d["lower_bound"] for d in _lines(log)[1:]] == [d["lower_bound"] for d in fresh[1:]]


@pytest.mark.parametrize("module", sorted(BATCH))
def test_records_resealed_with_the_key_are_still_rechecked(module, tmp_path, capsys):
    """A valid seal over a wrong record (a bug, a key that leaked): replayed, checked, refused."""
    code, _, log = _batch(module, tmp_path, capsys)
    assert code == 0
    goal = list(range(9))
    attacks = []
    docs = _lines(log)
    rec = dict(docs[1])
    if module == "hybrid.verify":
        attacks.append({**rec, "verdict": "proven"})  # not a verdict
        attacks.append({**rec, "result": {**rec["result"], "moves": ["R"] * rec["best_length"]}})  # no replay
        attacks.append({**rec, "result": {**rec["result"], "start": goal}})  # another start
    else:
        attacks.append({**rec, "status": "solved"})  # not a status
        attacks.append({**rec, "moves": ["R"] * rec["length"]})  # does not replay
        attacks.append({**rec, "start": goal, "moves": [], "length": 0, "lower_bound": 0})  # the goal for the start
        attacks.append({**rec, "lower_bound": rec["length"] + 1})  # a bound above the length
    for bad in attacks:
        _put(log, [docs[0], _reseal(bad, "user", docs[0]), *docs[2:]])
        code, io, _ = _batch(module, tmp_path, capsys, "--resume")
        assert code == cli.EXIT_BAD_INPUT and "does not hold" in io.err and str(log) in io.err, (bad, io.err)


@pytest.mark.parametrize("module", sorted(BATCH))
def test_another_command_line_cannot_resume_the_log(module, tmp_path, capsys):
    code, _, log = _batch(module, tmp_path, capsys)
    assert code == 0
    change = OTHER_RUN.get(module, "--time-limit 30")
    code, io, _ = _batch(module, tmp_path, capsys, "--resume " + change)
    assert code == cli.EXIT_BAD_INPUT and "holds another run's results" in io.err and str(log) in io.err, io.err


@pytest.mark.parametrize("module", sorted(BATCH))
def test_a_foreign_or_older_log_is_refused_by_name(module, tmp_path, capsys):
    from exact.atomic import sealed

    code, _, log = _batch(module, tmp_path, capsys)
    assert code == 0
    docs = _lines(log)
    other = "puzzleopt-certificate/3" if module != "hybrid.verify" else "puzzleopt-result/3"
    _put(log, [_reseal({**d, "format": other}, "user") for d in docs])
    code, io, _ = _batch(module, tmp_path, capsys, "--resume")
    assert code == cli.EXIT_BAD_INPUT and f"a '{other}' record" in io.err and str(log) in io.err, io.err
    older = docs[0]["format"].replace("/3", "/2")
    _put(log, [sealed({k: v for k, v in d.items() if k != "mac"} | {"format": older}) for d in docs])
    code, io, _ = _batch(module, tmp_path, capsys, "--resume")
    assert code == cli.EXIT_BAD_INPUT and "older puzzleopt" in io.err, io.err


@pytest.mark.parametrize("module", sorted(BATCH))
def test_other_instances_under_the_same_ids_run_again(module, tmp_path, capsys):
    code, _, log = _batch(module, tmp_path, capsys)
    assert code == 0
    moved = ["1 2 5 3 4 0 6 7 8", "3 1 2 6 4 5 0 7 8", "1 4 2 3 7 5 6 0 8"]  # each 2 from the goal... or so
    fresh = tmp_path / "fresh"
    code_a, _, log_a = _batch(module, tmp_path, capsys, inst=_write(tmp_path / "moved.tsv", moved), out="fresh")
    # the same ids, other boards: resuming the first log must give the fresh run's answers
    code_b, _, log_b = _batch(module, tmp_path, capsys, "--resume", inst=_write(tmp_path / "moved2.tsv", moved))
    assert code_b == code_a and fresh.exists()

    def facts(d):
        return {k: d.get(k) for k in ("id", "start", "moves", "status", "lower_bound", "verdict", "given_length")}

    assert [facts(d) for d in _lines(log_b)[1:]] == [facts(d) for d in _lines(log_a)[1:]]


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("exact.cpsat", "--puzzle tiles8 --state '0 2 1 3 4 5 6 7 8' --turns 5"),
        ("exact.mip", "--puzzle tiles8 --state '0 2 1 3 4 5 6 7 8' --turns 5 --no-split"),
        ("exact.solve", "--puzzle tiles8 --state '0 2 1 3 4 5 6 7 8' --method bfs"),
        ("exact.ida", "--puzzle tiles8 --tiles '0 2 1 3 4 5 6 7 8'"),
    ],
)
def test_an_unsolvable_start_exits_3_with_the_reason(module, args, paths, capsys):
    """Not "no solution within T (proven)": the parity rule says no solution exists at all."""
    code = cli.run(_main_of(module), _argv(args, paths))
    out = capsys.readouterr().out
    assert code == cli.EXIT_NO_SOLUTION and "unsolvable" in out and "parity" in out, out


def test_a_resumed_run_reports_the_kept_results_too(tmp_path, capsys):
    code, first, _ = _batch("exact.solve", tmp_path, capsys, "--json")
    code_again, again, _ = _batch("exact.solve", tmp_path, capsys, "--json --resume")
    rows = [json.loads(ln) for ln in again.out.splitlines()]
    assert code == code_again == 0 and [r["id"] for r in rows] == ["b0", "b1", "b2"]
    assert [r["moves"] for r in rows] == [json.loads(ln)["moves"] for ln in first.out.splitlines()]


# ------------------------------------------------------------------ records copied between runs
# Issue 63: each record was sealed alone, so the records of one run, copied under the header of
# another run of the same user, resumed as that run's answers (a face-turn "optimal, 6 moves"
# under a slice-turn header, a cross's "infeasible" under a pair-FR goal). Now a record's seal
# covers its run header's digest. For every ordered pair of distinct settings of every batch
# command, each record of one run is put under the other's header: the resume exits 2 naming the
# line, or (the moved record last, like a torn write) runs that instance again to a fresh answer.
CUBE_SCRAMBLES = ["R U", "F' D", "L B"]
COPY_RUNS = {
    "exact.solve": (
        "results.jsonl",
        "--puzzle cube3 --instances {inst} --out {out} --no-progress",
        ["--method bfs", "--method cp-sat --horizon 3", "--method cp-sat --horizon 4",
         "--method bfs --option metric=htm", "--method bfs --option moves=layers",
         "--method cp-sat --horizon 3 --goal cross", "--method cp-sat --horizon 3 --goal pair-FR"],
    ),
    "exact.ida": (
        "results.jsonl",
        "--puzzle cube3 --instances {inst} --out {out} --no-progress",
        ["--goal cross", "--goal pair-FR", "--goal cross --metric htm", "--goal cross+pair-FR"],
    ),
    "hybrid.verify": (
        "certificates.jsonl",
        "--puzzle cube3 --instances {inst} --solutions {sols} --out {out} --no-progress",
        ["--method bfs", "--method cp-sat", "--method bfs --option metric=htm", "--method bfs --option moves=layers"],
    ),
    "learned.evaluate": (
        "results.jsonl",
        "--puzzle tiles8 --instances {inst} --out {out} --no-progress --threads 1",
        ["", "--batch 50", "--weight 0.5"],
    ),
}  # fmt: skip


def _copy_run(module, tmp_path, capsys, k, extra=""):
    name, args, settings = COPY_RUNS[module]
    if module == "learned.evaluate":
        pytest.importorskip("torch")
        inst = _write(tmp_path / "boards.tsv", BOARDS)
    else:
        from exact.moves import cube_moves
        from exact.puzzles.cube import solved_state, to_facelets

        t = cube_moves(3)
        inst = _write(tmp_path / "cubes.tsv", [to_facelets(t.apply(solved_state(3), s)) for s in CUBE_SCRAMBLES])
    sols = _solutions(tmp_path / "sols.txt", ["U' R'", "D' F", "B' L'"])
    out = tmp_path / f"run{k}"
    code = cli.run(_main_of(module), _argv(f"{args} {settings[k]} {extra}", {"inst": inst, "out": out, "sols": sols}))
    io = capsys.readouterr()
    return code, io, out / name


def _facts(d):
    keys = ("id", "status", "length", "lower_bound", "verdict", "given_length", "best_length", "method", "goal")
    return {k: d.get(k) for k in keys}


@pytest.mark.parametrize("module", sorted(COPY_RUNS))
def test_records_copied_under_another_runs_header_do_not_resume(module, tmp_path, capsys):
    settings = COPY_RUNS[module][2]
    fresh = []
    for k in range(len(settings)):
        code, io, log = _copy_run(module, tmp_path, capsys, k)
        assert code in (0, cli.EXIT_NO_SOLUTION) and log.exists(), io.err
        fresh.append(_lines(log))
    attacks = 0
    for a, b in ((a, b) for a in range(len(settings)) for b in range(len(settings)) if a != b):
        _, log = None, tmp_path / f"run{b}" / COPY_RUNS[module][0]
        head, own = fresh[b][0], fresh[b][1:]
        for n, moved in enumerate(fresh[a][1:]):
            # the record of run a in place of run b's record n: line 2 + n of b's log
            _put(log, [head, *own[:n], moved, *own[n + 1 :]])
            code, io, _ = _copy_run(module, tmp_path, capsys, b, "--resume")
            attacks += 1
            if n < len(own) - 1:
                assert code == cli.EXIT_BAD_INPUT, (a, b, n, io.err)
                assert f"{log}: line {n + 2} " in io.err and "copied from another run" in io.err, io.err
                assert len(io.err.strip().splitlines()) == 1, io.err
            else:  # the last line: run again, as a torn write is, to what a fresh run of b gives
                assert [_facts(d) for d in _lines(log)[1:]] == [_facts(d) for d in own], (a, b, io.err)
    assert attacks == sum(len(f) - 1 for f in fresh) * (len(settings) - 1)


def test_a_log_sealed_under_another_key_says_so(tmp_path, capsys, monkeypatch):
    """A new key (or another user's log) is not tampering: the line says which, and the fix."""
    code, _, log = _batch("exact.solve", tmp_path, capsys)
    assert code == 0
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "newconfig"))  # a key made anew
    code, io, _ = _batch("exact.solve", tmp_path, capsys, "--resume")
    assert code == cli.EXIT_BAD_INPUT and len(io.err.strip().splitlines()) == 1, io.err
    assert "sealed under another key" in io.err and "rerun without --resume" in io.err and str(log) in io.err, io.err


def test_a_record_of_another_method_or_goal_is_refused_even_with_the_key(tmp_path, capsys):
    """Resealed with this user's key under this header (a leaked key): still refused by name."""
    code, _, log = _batch("exact.solve", tmp_path, capsys)
    docs = _lines(log)
    for change in ({"method": "cp-sat"}, {"goal": "cross"}):
        _put(log, [docs[0], _reseal({**docs[1], **change}, "user", docs[0]), *docs[2:]])
        code, io, _ = _batch("exact.solve", tmp_path, capsys, "--resume")
        key = next(iter(change))
        assert code == cli.EXIT_BAD_INPUT and f"its {key} is {change[key]!r}" in io.err, io.err


# ------------------------------------------------------------------ the rest of issue 63's audit
def test_a_summary_with_an_unsolvable_board_has_no_traceback(tmp_path, capsys):
    boards = _write(tmp_path / "odd.tsv", ["0 2 1 3 4 5 6 7 8", "1 2 0 3 4 5 6 7 8"])  # odd parity, then 2 moves
    code = cli.run(_main_of("exact.ida"), ["--puzzle", "tiles8", "--instances", str(boards), "--no-progress"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_NO_SOLUTION and "unsolvable" in out and "1/2 optimal" in out, out


def test_learned_solve_reports_a_setup_that_did_not_fit(tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # no goal ball on disk: it must be built
    argv = ["--puzzle", "cube3", "--scramble", "R U F D L B R U", "--method", "beam", "--ball", "6",
            "--time-limit", "0.3", "--no-progress"]  # fmt: skip
    code = cli.run(_main_of("learned.solve"), argv)
    out = capsys.readouterr().out
    assert code == cli.EXIT_LIMIT and "no node expanded" in out and "did not fit" in out, out


def test_hybrid_verify_first_n_takes_an_n_line_solutions_file(tmp_path, capsys):
    inst = _write(tmp_path / "boards.tsv", BOARDS)
    sols = _solutions(tmp_path / "sols.txt", ["L L", "U R L"])
    argv = ["--puzzle", "tiles8", "--method", "bfs", "--instances", str(inst), "--solutions", str(sols), "--first",
            "2", "--no-progress", "--json"]  # fmt: skip
    code = cli.run(_main_of("hybrid.verify"), argv)
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["instances"] == 2, summary


def test_hybrid_verify_ids_take_their_lines_of_a_whole_or_a_chosen_solutions_file(tmp_path, capsys):
    """``--ids 8-9`` certifies the file's instances 8 and 9 (its second and third lines) with
    their solutions, from a line for every instance or a line for each chosen one; an id the file
    lacks is bad input."""
    inst = tmp_path / "boards.tsv"
    inst.write_text("id\tstate\n" + "".join(f"{i + 7}\t{s}\n" for i, s in enumerate(BOARDS)))
    whole = _solutions(tmp_path / "whole.txt", ["L L", "U R L", "U L"])
    chosen = _solutions(tmp_path / "chosen.txt", ["U R L", "U L"])
    for sols in (whole, chosen):
        argv = ["--puzzle", "tiles8", "--method", "bfs", "--instances", str(inst), "--solutions", str(sols),
                "--ids", "8-9", "--no-progress", "--json"]  # fmt: skip
        code = cli.run(_main_of("hybrid.verify"), argv)
        summary = json.loads(capsys.readouterr().out)
        assert code == 0 and summary["instances"] == 2 and summary["optimal"]["successes"] == 1, summary
    argv[argv.index("8-9")] = "8-10"
    assert cli.run(_main_of("hybrid.verify"), argv) == cli.EXIT_BAD_INPUT
    assert "--ids 8-10: --instances " in (err := capsys.readouterr().err) and "no instance with id 10;" in err


def test_a_results_key_others_can_read_is_made_private(tmp_path, monkeypatch, caplog):
    import os
    import stat

    from exact import signing

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    key = signing.user_key()
    path = signing.key_path()
    os.chmod(path, 0o644)
    assert signing.user_key() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and "readable by others" in caplog.text


def test_no_home_and_no_passwd_entry_is_one_line(tmp_path, monkeypatch, capsys):
    """A container under a bare uid: platformdirs cannot find a home; the run says so, exit 2."""
    import pwd

    def no_entry(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", "not/absolute")  # platformdirs treats a relative HOME as none
    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    code, io, _ = _batch("exact.solve", tmp_path, capsys)
    assert code == cli.EXIT_BAD_INPUT and len(io.err.strip().splitlines()) == 1, io.err
    assert "set HOME" in io.err and "Traceback" not in io.err, io.err


def test_limits_refuse_true_as_a_time():
    from exact.errors import PuzzleoptError
    from exact.solvers import Limits

    for bad in (True, False, float("nan"), "5"):
        with pytest.raises(PuzzleoptError, match="Limits.time"):
            Limits(time=bad)
    assert Limits(time=np.float64(1.5)).time == 1.5


# ----------------------------------------------------------------------------- missing extras
NO_TORCH = [
    ["puzzleopt", "learned", "--help"],
    ["puzzleopt", "train", "--help"],
    ["puzzleopt", "evaluate", "--puzzle", "cube2"],
    ["learned.solve", "--help"],
    ["learned.train", "--help"],
    ["learned.evaluate", "--help"],
    ["exact.solve", "--puzzle", "cube2", "--method", "bwas", "--scramble-length", "3"],
    ["exact.solve", "--puzzle", "tiles8", "--method", "beam", "--scramble-length", "3"],
]


@pytest.mark.parametrize("command", NO_TORCH, ids=" ".join)
def test_without_torch_a_learned_command_says_which_extra_in_one_line(command: list[str]) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "no_torch.py"), *command], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert "needs the 'learned' extra" in lines[0] and "pip install torch==2.13.0" in lines[0], lines[0]
    assert "puzzleopt[learned]" in lines[0] and "Traceback" not in done.stderr


def test_without_torch_a_learned_method_raises_missing_extra_and_auto_still_solves() -> None:
    code = (
        "from exact.errors import MissingExtra\n"
        "from puzzleopt import Cube\n"
        'c = Cube(2).apply("R U")\n'
        "try:\n    c.solve(method='bwas')\nexcept MissingExtra as e:\n    print('missing', e.extra)\n"
        "print(c.solve().status.value)\n"
    )
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "no_torch.py"), "-c", code], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["missing", "learned", "optimal"]


def test_a_missing_extra_is_bad_input_and_an_import_error() -> None:
    from exact.errors import MissingExtra, PuzzleoptError, missing_extra

    e = missing_extra(ModuleNotFoundError("No module named 'gymnasium'", name="gymnasium"), "puzzleopt.gym")
    assert isinstance(e, MissingExtra) and isinstance(e, PuzzleoptError) and isinstance(e, ImportError)
    assert str(e) == "puzzleopt.gym needs the 'gym' extra, which is not installed: pip install 'puzzleopt[gym]'"
    assert missing_extra(ModuleNotFoundError("No module named 'numpy'", name="numpy"), "x") is None
