"""Figures the toolkit writes: rendered off-screen (Agg) into PNG bytes, for an atomic write."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np


def histogram_png(values: Sequence[int], xlabel: str, title: str) -> bytes:
    """A histogram of whole numbers, one bar per value, as PNG bytes (empty axes without values)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    if len(values):
        ax.hist(values, bins=np.arange(min(values), max(values) + 2) - 0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("instances")
    ax.set_title(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()
