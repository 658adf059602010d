"""A solution as an animation: one picture per position (:meth:`exact.puzzle.Puzzle.svg`),
shown in turn.

Two forms, both self-contained text: :func:`animation_svg`, one SVG whose frames take turns by
SVG's own timing (SMIL; no script, so it plays wherever SVG is shown: a browser, a notebook, a
README), and :func:`player_html`, the same frames with buttons and a slider to step through them
(a few lines of inline JavaScript; notebooks run it once trusted).
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import numpy as np

from exact import svg
from exact.atomic import write_chunks
from exact.errors import PuzzleoptError
from exact.userfiles import output_file

_ids = itertools.count()


def frames(puzzle, start: np.ndarray, moves: Sequence[str] | str) -> tuple[list[str], list[str]]:
    """The pictures of ``start`` and of the position after each move, and their captions.

    Raises:
        PuzzleoptError: the puzzle draws no picture.
        NotationError: a move is unknown or does not apply.
    """
    state = np.asarray(start)
    rows = puzzle.table.parse(moves, state) if len(moves) else []
    pictures, captions = [], ["start"]
    first = puzzle.svg(state)
    if first is None:
        raise PuzzleoptError(f"{puzzle.name} has no picture to animate")
    pictures.append(first)
    for k, r in enumerate(rows):
        state = puzzle.table.apply(state, [r])
        pictures.append(puzzle.svg(state))
        captions.append(f"{k + 1}. {puzzle.table.names[r]}")
    return pictures, captions


def animation_svg(pictures: Sequence[str], seconds: float = 0.8) -> str:
    """One SVG showing ``pictures`` (SVG documents of one size) in turn, ``seconds`` each,
    looping."""
    if not pictures:
        raise PuzzleoptError("animation_svg: no frames")
    docs = [ET.fromstring(p) for p in pictures]
    w, h = docs[0].get("width"), docs[0].get("height")
    root = svg.document(float(w), float(h))
    n = len(docs)
    for k, doc in enumerate(docs):
        g = svg.group(root, {"data-frame": k, "visibility": "visible" if k == 0 else "hidden"})
        for child in list(doc):
            if child.tag.split("}")[-1] != "title":
                g.append(child)
        if n == 1:
            continue
        if k == 0:
            values, times = "visible;hidden", f"0;{1 / n:.6f}"
        elif k == n - 1:
            values, times = "hidden;visible", f"0;{k / n:.6f}"
        else:
            values, times = "hidden;visible;hidden", f"0;{k / n:.6f};{(k + 1) / n:.6f}"
        ET.SubElement(g, f"{{{svg.SVG_NS}}}animate", {
            "attributeName": "visibility", "values": values, "keyTimes": times, "calcMode": "discrete",
            "dur": f"{n * seconds:g}s", "repeatCount": "indefinite",
        })  # fmt: skip
    return svg.to_string(root)


def player_html(pictures: Sequence[str], captions: Sequence[str]) -> str:
    """The frames with buttons (first, back, play/pause, forward) and a slider."""
    if not pictures or len(pictures) != len(captions):
        raise PuzzleoptError("player_html: one caption per frame, at least one frame")
    uid = f"po-anim-{next(_ids)}"
    frames_html = "".join(
        f'<div class="frame" data-caption="{escape(c)}" style="display:{"block" if i == 0 else "none"}">{p}</div>'
        for i, (p, c) in enumerate(zip(pictures, captions))
    )
    last = len(pictures) - 1
    return f"""<div id="{uid}" class="puzzleopt-animation">{frames_html}
<div><button data-go="first">&#x23EE;</button><button data-go="back">&#x25C0;</button>
<button data-go="play">&#x25B6;</button><button data-go="fwd">&#x25B6;&#x25B6;</button>
<input type="range" min="0" max="{last}" value="0"/> <span class="caption">{escape(captions[0])}</span></div>
<script>(function(){{var r=document.getElementById("{uid}"),f=r.querySelectorAll(".frame"),
s=r.querySelector("input"),c=r.querySelector(".caption"),i=0,t=null;
function show(k){{i=Math.max(0,Math.min({last},k));f.forEach(function(e,j){{e.style.display=j==i?"block":"none";}});
s.value=i;c.textContent=f[i].dataset.caption;}}
r.querySelectorAll("button").forEach(function(b){{b.onclick=function(){{var g=b.dataset.go;
if(g=="first")show(0);if(g=="back")show(i-1);if(g=="fwd")show(i+1);
if(g=="play"){{if(t){{clearInterval(t);t=null;}}else{{if(i=={last})show(0);
t=setInterval(function(){{if(i>={last}){{clearInterval(t);t=null;}}else show(i+1);}},700);}}}}}};}});
s.oninput=function(){{show(+s.value);}};}})();</script></div>"""


@dataclass(frozen=True)
class Animation:
    """A solution's frames (SVG documents) and captions; shown in Jupyter as the player.

    Attributes:
        pictures: One SVG per position, the start first.
        captions: ``"start"``, then ``"1. R"``, ``"2. U'"``, ...
        seconds: Time per frame in :meth:`svg`.
    """

    pictures: tuple[str, ...] = field(repr=False)
    captions: tuple[str, ...] = field(repr=False)
    seconds: float = 0.8

    def __repr__(self) -> str:
        """One line (the frames stay out of it): ``Animation(12 frames: start ... 11. R', 0.8 s a frame)``."""
        last = f" ... {self.captions[-1]}" if len(self.captions) > 1 else ""
        first = self.captions[0] if self.captions else "-"
        return f"Animation({len(self.pictures)} frames: {first}{last}, {self.seconds:g} s a frame)"

    @classmethod
    def of(cls, puzzle, start: np.ndarray, moves: Sequence[str] | str, seconds: float = 0.8) -> Animation:
        """The animation of ``moves`` from ``start``, ``seconds`` per frame (a finite number > 0).

        Raises:
            PuzzleoptError: ``seconds`` is not a finite number above 0.
        """
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float, np.integer, np.floating)):
            raise TypeError(f"animate: seconds must be a number, got {type(seconds).__name__}")
        if not (math.isfinite(seconds) and seconds > 0):
            raise PuzzleoptError(f"animate: seconds per frame must be a finite number above 0, got {seconds!r}")
        pictures, captions = frames(puzzle, start, moves)
        return cls(tuple(pictures), tuple(captions), seconds)

    def svg(self) -> str:
        """The looping SVG (:func:`animation_svg`)."""
        return animation_svg(self.pictures, self.seconds)

    def html(self) -> str:
        """The player (:func:`player_html`)."""
        return player_html(self.pictures, self.captions)

    def _repr_html_(self) -> str:
        return self.html()

    def save(self, path: str | Path) -> Path:
        """Write the animation, atomically: ``.svg`` the looping picture, ``.html`` the player
        (in a page of its own).

        Raises:
            PuzzleoptError: another suffix, or a folder that does not exist.
        """
        file = output_file(path, "animation file")
        suffix = file.suffix.lower()
        if suffix == ".svg":
            text = self.svg()
        elif suffix in (".html", ".htm"):
            head = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>puzzleopt</title></head>'
            text = f"{head}<body>{self.html()}</body></html>"
        else:
            raise PuzzleoptError(f"animation file {str(path)!r}: name a .svg (looping picture) or .html (player) file")
        return write_chunks(file, [text.encode()])
