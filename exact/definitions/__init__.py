"""Permutation puzzles from definition files: ksolve/twsearch ``.tws`` (:mod:`.tws`), read into
one model (:mod:`.model`) and turned into a move table by one generator (:mod:`.generate`), so
that every method of the registry works on them (:func:`exact.registry.from_file`,
``--puzzle PATH.tws`` on every command)."""

from exact.lazy import exports

__getattr__, __dir__ = exports(
    __name__,
    {
        "exact.definitions.model": ("Definition", "DefinitionError"),
        "exact.definitions.puzzle": ("DefinitionPuzzle", "read_definition"),
    },
)

__all__ = ["Definition", "DefinitionError", "DefinitionPuzzle", "read_definition"]
