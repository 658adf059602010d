"""A small SVG builder for the pictures of puzzle states (no dependency beyond the standard library).

Pictures are built as :mod:`xml.etree.ElementTree` trees, so that every document is well formed
and every attribute escaped; :func:`document` starts one, :func:`rect` and :func:`text` add the
two shapes the boards need, :func:`to_string` serialises it. Each puzzle's drawing lives with its
rules (``exact/puzzles/<p>/svg.py``); this module knows no puzzle.

Conventions: coordinates in SVG user units (1 unit = 1 CSS pixel at 100%), origin top-left; the
shapes a test or a notebook may want to find again carry ``data-*`` attributes (a sticker's face,
row and column, a cell's index).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

SVG_NS = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG_NS)  # written as the default namespace, once, on the root


def _q(tag: str) -> str:
    return f"{{{SVG_NS}}}{tag}"


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def document(width: float, height: float, title: str | None = None) -> ET.Element:
    """An empty ``<svg>`` of ``width`` x ``height`` units (with a ``<title>`` when given)."""
    root = ET.Element(
        _q("svg"),
        {
            "width": _fmt(width),
            "height": _fmt(height),
            "viewBox": f"0 0 {_fmt(width)} {_fmt(height)}",
        },
    )
    if title:
        ET.SubElement(root, _q("title")).text = title
    return root


def rect(parent: ET.Element, x: float, y: float, w: float, h: float, fill: str, **attrs: object) -> ET.Element:
    """A rectangle with a thin dark outline; ``attrs`` become attributes (``data_face`` ->
    ``data-face``; ``rx`` rounds the corners)."""
    a = {"x": x, "y": y, "width": w, "height": h, "fill": fill, "stroke": "#222", "stroke-width": 1}
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    return ET.SubElement(parent, _q("rect"), {k: _fmt(v) for k, v in a.items()})


def text(parent: ET.Element, x: float, y: float, s: str, size: float, **attrs: object) -> ET.Element:
    """Text centred on ``(x, y)`` in a sans-serif font of ``size`` units."""
    a: dict[str, object] = {
        "x": x,
        "y": y,
        "font-size": size,
        "font-family": "sans-serif",
        "text-anchor": "middle",
        "dominant-baseline": "central",
    }
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    el = ET.SubElement(parent, _q("text"), {k: _fmt(v) for k, v in a.items()})
    el.text = s
    return el


def polygon(parent: ET.Element, points: list[tuple[float, float]], fill: str, **attrs: object) -> ET.Element:
    """A closed polygon through ``points`` with a thin dark outline."""
    a: dict[str, object] = {"points": " ".join(f"{_fmt(float(x))},{_fmt(float(y))}" for x, y in points)}
    a.update({"fill": fill, "stroke": "#222", "stroke-width": 1, "stroke-linejoin": "round"})
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    return ET.SubElement(parent, _q("polygon"), {k: _fmt(v) for k, v in a.items()})


def circle(parent: ET.Element, x: float, y: float, r: float, fill: str, **attrs: object) -> ET.Element:
    """A circle of radius ``r`` centred on ``(x, y)``."""
    a: dict[str, object] = {"cx": x, "cy": y, "r": r, "fill": fill}
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    return ET.SubElement(parent, _q("circle"), {k: _fmt(v) for k, v in a.items()})


def group(parent: ET.Element, attrs: Mapping[str, object] | None = None) -> ET.Element:
    """A ``<g>`` (for a frame of an animation, or a board's cells)."""
    return ET.SubElement(parent, _q("g"), {k.replace("_", "-"): _fmt(v) for k, v in (attrs or {}).items()})


def to_string(root: ET.Element) -> str:
    """The document as a string (UTF-8 text, no XML declaration: ready to embed in HTML)."""
    return ET.tostring(root, encoding="unicode")


def grid(
    rows: int,
    cols: int,
    fills: list[str],
    labels: list[str] | None = None,
    *,
    cell: float = 40.0,
    ink: list[str] | None = None,
    names: list[str] | None = None,
    title: str | None = None,
) -> ET.Element:
    """A board of ``rows`` x ``cols`` square cells, row-major: cell ``i`` filled ``fills[i]``,
    with ``labels[i]`` in ink ``ink[i]`` (default dark) at its centre where the label is not
    empty. Each cell's ``<rect>`` has ``data-cell`` (its index) and ``data-name`` (``names[i]``
    when given)."""
    pad = cell / 8
    root = document(cols * cell + 2 * pad, rows * cell + 2 * pad, title)
    g = group(root, {"data-board": f"{rows}x{cols}"})
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        x, y = pad + c * cell, pad + r * cell
        extra = {"data_cell": i}
        if names is not None:
            extra["data_name"] = names[i]
        rect(g, x, y, cell, cell, fills[i], rx=cell / 10, **extra)
        if labels is not None and labels[i]:
            text(g, x + cell / 2, y + cell / 2, labels[i], cell * 0.45, fill=ink[i] if ink else "#222")
    return root
