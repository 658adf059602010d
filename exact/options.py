"""Option values as users write them: strict yes/no flags."""

from __future__ import annotations

from typing import Any

import numpy as np

from exact.errors import PuzzleoptError

TRUE = ("true", "1", "yes", "on")
FALSE = ("false", "0", "no", "off")


def flag(value: Any, what: str) -> bool:
    """``value`` as a bool: ``True``/``False``, the numbers 1/0, or one of the words
    true/false, 1/0, yes/no, on/off (any case). Anything else is refused: ``"maybe"`` or
    ``"Flase"`` must not read as true.

    Args:
        value: The value given.
        what: How the option is named in the error, e.g. ``"pancake option burnt"``.

    Raises:
        PuzzleoptError: naming the option, the value and the words it takes.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)) and int(value) in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:
        return value.strip().lower() in TRUE
    raise PuzzleoptError(f"{what} is a yes/no flag, got {value!r}; write true or false (or yes/no, 1/0)")
