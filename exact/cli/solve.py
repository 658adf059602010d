"""The one solve command's flags: every command that solves (``exact.solve``, ``exact.mip``,
``exact.cpsat``, ...) is a :class:`Preset` of it, fixing the method or the puzzle family and its
own defaults, and builds its method flags from the registry's declarations
(:mod:`exact.cli.flags`). The same names, kinds and defaults wherever a user enters: the limits
(``--time-limit``, ``--node-limit``, ``--stored-limit``), the method's options and
``--method-option KEY=VALUE``."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from exact import cli, solvers
from exact.cli.flags import MethodFlags, add_method_flags, declared_by
from exact.cli.options import add_method_options, method_options_from


@dataclass(frozen=True)
class Preset:
    """A solving command as a preset of the one solve command.

    Attributes:
        method: The method it fixes (``"mip"``); ``None``: ``--method`` (default ``auto``), or
            the command's own choice where ``choose`` is false.
        methods: The methods whose flags it shows (``None``: the fixed one, else every one).
        choose: Whether it offers ``--method`` (where no method is fixed).
        defaults: Its own defaults, by option name (``exact.solve`` shows progress).
        aliases: More spellings of a method flag, by option name.
        skip: Options it spells its own way (``exact.mip``'s ``--turns auto``).
        limits: The limit flags it offers (``None``: those its fixed method keeps to,
            :attr:`exact.contract.Method.limits`, else all three).
        older: A limit flag's older spelling that still works (``{"stored": "--max-states"}``).
        per: What one limit applies to, in the help (a start, a board).
    """

    method: str | None = None
    methods: tuple[str, ...] | None = None
    choose: bool = True
    defaults: Mapping[str, Any] = field(default_factory=dict)
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    skip: tuple[str, ...] = ()
    limits: tuple[str, ...] | None = None
    older: Mapping[str, str] = field(default_factory=dict)
    per: str = "start"


LIMIT_FLAGS = {
    "time": ("--time-limit", cli.seconds, "seconds per start, set-up included (default: none)"),
    "node": ("--node-limit", cli.count(1), "expanded nodes per start (default: none; the models count none)"),
    "stored": ("--stored-limit", cli.count(1), "states held at once (default: the method's)"),
}
"""The :class:`~exact.contract.Limits` as flags: ``--time-limit`` (``Limits.time``),
``--node-limit`` (``nodes``), ``--stored-limit`` (``stored``)."""


def add_solve_flags(p: argparse.ArgumentParser, preset: Preset) -> MethodFlags:
    """The limits, ``--method`` (where the preset leaves it open), the method flags generated
    from the declarations and ``--method-option``."""
    fixed = None if preset.method is None else solvers.get_method(preset.method)
    kept = ("time", "node", "stored") if fixed is None else tuple(k.removesuffix("s") for k in fixed.limits)
    add_limit_flags(p, preset.limits if preset.limits is not None else kept, per=preset.per, older=preset.older)
    if fixed is None and preset.choose:
        p.add_argument("--method", default="auto", help="a registered method, or auto (see --list-methods)")
    if preset.methods is not None:
        chosen = [v for name in preset.methods for v in solvers.variants(name)]
    else:
        names = [m.name for m in solvers.methods()] if fixed is None else [fixed.name]
        chosen = [v for name in names for v in solvers.variants(name)]
    flags = add_method_flags(p, declared_by(chosen), defaults=preset.defaults, aliases=preset.aliases,
                             skip=preset.skip)  # fmt: skip
    add_method_options(p)
    return flags


def add_limit_flags(
    p: argparse.ArgumentParser, which: tuple[str, ...] = ("time", "node", "stored"), per: str = "start",
    older: Mapping[str, str] | None = None,
) -> None:  # fmt: skip
    """The limit flags ``which`` (:data:`LIMIT_FLAGS`: ``args.time_limit``, ``args.node_limit``,
    ``args.stored_limit``), each per ``per`` (a start, a board); ``older``: a flag's older
    spelling that still works (``{"node": "--max-nodes"}``)."""
    for key in which:
        name, kind, text = LIMIT_FLAGS[key]
        text = text.replace("per start", f"per {per}")
        names = [name] + ([older[key]] if older and key in older else [])
        if len(names) > 1:
            text += f" ({names[1]}: its older name)"
        p.add_argument(*names, type=kind, dest=f"{key}_limit", help=text)


def solve_settings(args: argparse.Namespace, preset: Preset, flags: MethodFlags) -> tuple[str, solvers.Limits, dict]:
    """The method name, the limits and the options the command line gives (the flags, then
    ``--method-option``, which may name any declared option)."""
    options = flags.values(args)
    options.update(method_options_from(args))
    limits = solvers.Limits(time=getattr(args, "time_limit", None), nodes=getattr(args, "node_limit", None),
                            stored=getattr(args, "stored_limit", None))  # fmt: skip
    return preset.method or args.method, limits, options


__all__ = ["LIMIT_FLAGS", "Preset", "add_limit_flags", "add_solve_flags", "solve_settings"]
