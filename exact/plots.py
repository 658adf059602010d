"""Figures the toolkit writes, as PNG bytes for an atomic write.

Figures are :class:`matplotlib.figure.Figure` objects rendered straight to PNG: pyplot is never
imported and ``matplotlib.use`` never called, so a user's backend (svg, an interactive one in a
notebook) is left as it was.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np


def new_figure(width: float, height: float):
    """An empty :class:`~matplotlib.figure.Figure` of ``width`` x ``height`` inches, off pyplot."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def png_bytes(fig, dpi: int = 100) -> bytes:
    """``fig`` rendered as PNG."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def histogram_png(values: Sequence[int], xlabel: str, title: str) -> bytes:
    """A histogram of whole numbers, one bar per value, as PNG bytes (empty axes without values)."""
    fig = new_figure(6, 4)
    ax = fig.subplots()
    if len(values):
        ax.hist(values, bins=np.arange(min(values), max(values) + 2) - 0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("instances")
    ax.set_title(title)
    return png_bytes(fig)
