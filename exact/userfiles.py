"""Reading the files users name on the command line.

:func:`read_text` is the one way a text input (instances, boards, levels, weights, solutions) is
read: a missing path, a folder, a file without read permission or one that is not UTF-8 text
fails with a :class:`~exact.errors.PuzzleoptError` that names the option, the file and the fix,
instead of a bare ``'utf-8' codec can't decode byte 0xb7``.
"""

from __future__ import annotations

import os
from pathlib import Path

from exact.errors import PuzzleoptError


def read_text(path: str | Path, what: str = "file") -> str:
    """The text of ``path``, read as UTF-8 (a leading byte-order mark dropped).

    Args:
        path: The file.
        what: How the input is named in errors, e.g. ``"--instances"``.

    Raises:
        PuzzleoptError: ``path`` is missing, a folder, unreadable, or not UTF-8 text.
    """
    file = Path(path)
    where = f"{what} {str(path)!r}"
    if file.is_dir():
        raise PuzzleoptError(f"{where} is a folder; give the path of a file")
    if not file.exists():
        raise PuzzleoptError(f"{where}: no such file")
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise PuzzleoptError(f"{where} cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is not the first column's name
    except UnicodeDecodeError as exc:
        raise PuzzleoptError(
            f"{where} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "is it a binary file, or saved in another encoding?"
        ) from None


def output_file(path: str | Path, what: str) -> Path:
    """``path`` checked as a file to write: named, not a folder, in a folder that exists.

    Folders are not created for a file the user names: a typo in a path should fail, not leave
    a new tree of folders behind.

    Raises:
        PuzzleoptError: naming ``what`` (the option) and the fix.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} is a file name (str or path), got {type(path).__name__}")
    if not str(path).strip():
        raise PuzzleoptError(f"{what} is empty; give the name of the file to write")
    file = Path(path)
    if file.is_dir():
        raise PuzzleoptError(f"{what} {str(path)!r} is a folder; give a file name inside it")
    parent = file.parent
    if not parent.is_dir():
        why = "is a file, not a folder" if parent.exists() else "does not exist"
        raise PuzzleoptError(f"{what} {str(path)!r}: its folder {str(parent)!r} {why}; create it first")
    return file


def output_folder(path: str | Path, what: str) -> Path:
    """``path`` checked as a folder to write into (created later, with its parents, if missing).

    Raises:
        PuzzleoptError: ``path`` is empty, or it or one of its parents is a file.
    """
    if not str(path).strip():
        raise PuzzleoptError(f"{what} is empty; give a folder")
    folder = Path(path)
    for p in (folder, *folder.parents):
        if p.exists() and not p.is_dir():
            part = "" if p == folder else f" (its part {str(p)!r} is a file)"
            raise PuzzleoptError(f"{what} {str(path)!r} must be a folder, but it is a file{part}; give another path")
    return folder
