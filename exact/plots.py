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


def histogram(values: Sequence[int], xlabel: str, title: str):
    """A :class:`~matplotlib.figure.Figure`: a histogram of whole numbers, one bar per value
    (empty axes without values); in a notebook it shows as the cell's result."""
    fig = new_figure(6, 4)
    ax = fig.subplots()
    if len(values):
        ax.hist(values, bins=np.arange(min(values), max(values) + 2) - 0.5)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("instances")
    ax.set_title(title)
    return fig


def histogram_png(values: Sequence[int], xlabel: str, title: str) -> bytes:
    """:func:`histogram` as PNG bytes (for an atomic write)."""
    return png_bytes(histogram(values, xlabel, title))


def svg_figure(svg_text: str, scale: float = 1.0):
    """A :class:`~matplotlib.figure.Figure` drawing a picture of :mod:`exact.svg` (its rects,
    polygons, circles and text; groups with ``translate`` or ``visibility="hidden"``), one SVG
    unit to ``scale`` pixels at 100 dpi: the pictures become PNG without an SVG library
    (:func:`png_bytes`)."""
    import xml.etree.ElementTree as ET

    from matplotlib.patches import Circle, Polygon, Rectangle

    root = ET.fromstring(svg_text)
    w, h = float(root.get("width")), float(root.get("height"))
    fig = new_figure(w * scale / 100, h * scale / 100)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(h, 0)
    ax.axis("off")

    def colour(v: str | None):
        return "none" if v in (None, "none") else v

    def draw(el, dx: float, dy: float) -> None:
        tag = el.tag.split("}")[-1]
        if el.get("visibility") == "hidden":
            return
        line = float(el.get("stroke-width", 1)) * 0.72 * scale
        edge = colour(el.get("stroke", "none" if tag in ("text", "circle") else "#222"))
        if tag == "g":
            t = el.get("transform", "")
            if t.startswith("translate("):
                a, b = (float(v) for v in t[len("translate(") : -1].split(","))
                dx, dy = dx + a, dy + b
            for child in el:
                draw(child, dx, dy)
        elif tag == "rect":
            x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
            ax.add_patch(Rectangle((x, y), float(el.get("width")), float(el.get("height")),
                                   facecolor=colour(el.get("fill")), edgecolor=edge, linewidth=line))  # fmt: skip
        elif tag == "polygon":
            pts = [tuple(float(v) for v in p.split(",")) for p in el.get("points").split()]
            pts = [(x + dx, y + dy) for x, y in pts]
            ax.add_patch(Polygon(pts, closed=True, facecolor=colour(el.get("fill")), edgecolor=edge, linewidth=line))
        elif tag == "circle":
            c = (float(el.get("cx")) + dx, float(el.get("cy")) + dy)
            fill = colour(el.get("fill"))
            ax.add_patch(Circle(c, float(el.get("r")), facecolor=fill, edgecolor=edge, linewidth=line))
        elif tag == "text" and el.text:
            ax.text(float(el.get("x")) + dx, float(el.get("y")) + dy, el.text, ha="center", va="center",
                    fontsize=float(el.get("font-size", 12)) * 0.72 * scale, color=el.get("fill", "#222"))  # fmt: skip

    for child in root:
        draw(child, 0.0, 0.0)
    return fig
