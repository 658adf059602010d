"""Method flags generated from the declarations (:class:`exact.options.Option`): one flag per
option, named as the option with dashes (``piece_time_limit`` -> ``--piece-time-limit``), typed by
its kind (a yes/no flag is ``--split``/``--no-split``), its help and default the declaration's.
Every solving command builds its method flags here (:mod:`exact.cli.solve`), so a setting has one
name and one default wherever a user enters; ``--method-option KEY=VALUE`` reaches the options
no flag shows (Python objects: ``patterns``, ``solver_options``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from exact import cli
from exact.errors import PuzzleoptError
from exact.options import Option

# The kinds a command line cannot spell: given as --method-option KEY=JSON.
_NO_FLAG = ("object",)


@dataclass(frozen=True)
class MethodFlags:
    """The flags generated for some options, and how to read them back.

    Attributes:
        options: The options that have a flag, by name.
        owners: For each, the methods that declare it (in the help).
        defaults: A preset's own defaults (shown in the help; given to the method when the flag
            is not).
    """

    options: dict[str, Option] = field(default_factory=dict)
    owners: dict[str, list[str]] = field(default_factory=dict)
    defaults: dict[str, Any] = field(default_factory=dict)

    def values(self, args: argparse.Namespace) -> dict[str, Any]:
        """The options the command line gives, each read as its kind (and so set back on
        ``args``), and the preset's defaults for those it does not; options left unset are
        absent (the method's default applies).

        Raises:
            PuzzleoptError: naming the flag, its text and what it takes.
        """
        out = dict(self.defaults)
        for name, option in self.options.items():
            value = getattr(args, name, None)
            if value is not None:
                out[name] = option.read_flag(value, f"--{flag_name(name)}")
                setattr(args, name, out[name])
        return out

    def given_for(
        self, args: argparse.Namespace, method: str, where: str, shared: tuple[str, ...] = (),
        takes: Iterable[str] | None = None,
    ) -> dict:  # fmt: skip
        """The options the command line gives for ``method`` (less ``shared``, which the command
        reads itself).

        Args:
            args: The parsed command line (read by :meth:`values` first).
            method: The method that runs.
            where: How the user chose it, for the error (``"--method"``).
            shared: Options the command reads itself.
            takes: The options the method's variant for this puzzle takes (default: those the
                flags' help names it for).

        Raises:
            PuzzleoptError: a flag given that ``method`` does not take, named with ``where``
                so the user sees which choice it belongs to.
        """
        given = {k: getattr(args, k) for k in self.options if k not in shared and getattr(args, k, None) is not None}
        if takes is not None:  # the variant's own options, and those every method takes
            from exact.options import COMMON

            known = set(takes) | {o.name for o in COMMON}
        else:
            known = {k for k in given if {method, "every method"} & set(self.owners[k])}
        foreign = [k for k in given if k not in known]
        if foreign:
            raise PuzzleoptError(f"--{flag_name(foreign[0])} is not an option of {where} {method}; drop it")
        return given


def flag_name(option: str) -> str:
    """``piece_time_limit`` -> ``piece-time-limit``."""
    return option.replace("_", "-")


def add_method_flags(
    p: argparse.ArgumentParser,
    declared: Iterable[tuple[str, Option]],
    *,
    defaults: Mapping[str, Any] | None = None,
    aliases: Mapping[str, tuple[str, ...]] | None = None,
    skip: Iterable[str] = (),
    title: str = "method options",
) -> MethodFlags:
    """Add a flag for each declared option (``(method, option)`` pairs; an option several methods
    declare gets one flag, its help naming them).

    Args:
        p: The parser.
        declared: ``(method name, option)`` pairs.
        defaults: A preset's defaults, by option name (``progress=True`` for ``exact.solve``).
        aliases: More spellings of a flag, by option name (``horizon``: ``("--turns",)``).
        skip: Options the command spells its own way (a command's ``--seed`` is its walk's).
        title: The help section's title.

    Returns:
        What :meth:`MethodFlags.values` reads back.
    """
    flags = MethodFlags(defaults=dict(defaults or {}))
    mixed: dict[str, str] = {}
    taken = set(p._option_string_actions)  # a flag the command already has keeps its meaning
    for method, option in declared:
        spelt = {f"--{flag_name(option.name)}", f"--no-{flag_name(option.name)}"}
        if option.kind in _NO_FLAG or option.name in skip or spelt & taken:
            continue
        flags.owners.setdefault(option.name, [])
        if method not in flags.owners[option.name]:
            flags.owners[option.name].append(method)
        known = flags.options.get(option.name)
        if known is not None and known.kind != option.kind:
            raise PuzzleoptError(f"option {option.name!r} is a {known.kind} and a {option.kind}: declare it once")
        if known is None:
            flags.options[option.name] = option
        elif known.help != mixed.get(option.name) and (known.default, known.choices) != (
            option.default,
            option.choices,
        ):
            # each method keeps its own default: the help says so, once
            # the help without its own default, which is one method's: "threads (unset: every core)"
            mixed[option.name] = re.sub(r"\s*\((unset|default)[^)]*\)$", "", known.help) + " (default: the method's)"
            flags.options[option.name] = Option(option.name, option.kind, None, mixed[option.name])
    group = p.add_argument_group(title)
    for name, option in flags.options.items():
        _add(group, option, flags.owners[name], flags.defaults.get(name, option.default), (aliases or {}).get(name, ()))
    return flags


def _add(group, option: Option, owners: list[str], default: Any, aliases: tuple[str, ...]) -> None:
    """One option's flag: ``--name`` (and ``--no-name`` for a yes/no flag), unset by default."""
    names = [f"--{flag_name(option.name)}", *aliases]
    shown = "" if default is None else f" (default: {_shown(default)})"
    who = f" [{', '.join(owners)}]" if len(owners) < 3 else ""
    text = f"{option.help}{shown}{who}".replace("%", "%%")
    if option.kind == "flag":
        group.add_argument(*names, dest=option.name, action=argparse.BooleanOptionalAction, default=None, help=text)
        return
    # read as its kind by MethodFlags.values (Option.read_flag), whose errors name the flag
    kind = cli.seconds if option.kind == "seconds" else str
    group.add_argument(*names, dest=option.name, type=kind, default=None, choices=option.choices or None,
                       metavar=option.name.upper(), help=text)  # fmt: skip


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def declared_by(methods: Iterable[Any]) -> list[tuple[str, Option]]:
    """The ``(method, option)`` pairs of ``methods`` (registered :class:`exact.contract.Method`
    s), the options every method takes first."""
    from exact.options import COMMON

    pairs: list[tuple[str, Option]] = [("every method", o) for o in COMMON]
    return pairs + [(m.name, o) for m in methods for o in m.options]


__all__ = ["MethodFlags", "add_method_flags", "declared_by", "flag_name"]
