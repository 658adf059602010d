"""The Pyraminx move table (conventions in :mod:`exact.puzzles.pyraminx`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from exact.movetable import MoveTable
from exact.options import flag
from exact.puzzles.pyraminx.geometry import VERTICES, clockwise, stickers, turned


def pyraminx_moves(tips: bool = True) -> MoveTable:
    """The Pyraminx's moves: ``U U' L L' R R' B B'`` and, with tips, ``u u' l l' r r' b b'``.

    Every row is a permutation (no guards): ``new_state = state[perm]``. ``axis`` is the vertex
    turned; ``layer`` is a bitmask (bit 0 the tip, bit 1 the layer below it), so a tip turn and
    the big turn at the same vertex commute and the move rules order them.

    Args:
        tips: Include the tips (36 stickers, 16 moves) or not (24 stickers, 8 moves).
    """
    return _table(flag(tips, "pyraminx option tips"))


@cache
def _table(tips: bool) -> MoveTable:
    all_ = stickers(tips)
    index = {s: i for i, s in enumerate(all_)}
    names, perms, axis, layer = [], [], [], []
    kinds = {"big": ("tip", "axial", "edge"), "tip": ("tip",)}
    for which in ("big", "tip") if tips else ("big",):
        for a, v in enumerate(VERTICES):
            sigma = clockwise(v)
            perm = np.arange(len(all_), dtype=np.int64)
            for i, s in enumerate(all_):
                if s.kind in kinds[which] and v in s.at and (s.kind == "edge" or s.at == (v,)):
                    perm[index[turned(s, sigma)]] = i  # the sticker at i moves to its turned place
            name = v if which == "big" else v.lower()
            for suffix, p in (("", perm), ("'", perm[perm])):
                names.append(name + suffix)
                perms.append(p)
                axis.append(a)
                layer.append(3 if which == "big" else 1)
    return MoveTable(
        names=tuple(names),
        perms=np.stack(perms),
        axis=np.array(axis),
        layer=np.array(layer),
        description="pyraminx" + ("" if tips else " without tips"),
        metadata={"puzzle": "pyraminx", "tips": tips},
    )
