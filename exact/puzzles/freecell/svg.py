"""A FreeCell board as an SVG picture: the free cells (lettered ``a``...) and the foundations
(C D H S) on top, the eight cascades fanned below, bottom card first. Cards show rank and suit
symbol, hearts and diamonds in red. Each card's ``<rect>`` has ``data-card`` (its name, ``"KH"``)
and ``data-place`` (``"cell a"``, ``"home H"``, ``"cascade 3"``, as :mod:`exact.puzzles.freecell`
names places)."""

from __future__ import annotations

from exact import svg
from exact.puzzles.freecell.board import FREECELL_LETTERS, Board
from exact.puzzles.freecell.cards import NAMES, RED, SUITS

SYMBOL = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
TABLE, CARD, SLOT = "#1f6b3a", "#ffffff", "#2f8a4f"
W, H, FAN = 44.0, 60.0, 22.0


def _card(g, x: float, y: float, c: int, place: str) -> None:
    name = NAMES[c]
    svg.rect(g, x, y, W, H, CARD, rx=5, data_card=name, data_place=place)
    ink = "#c0282d" if RED[c] else "#111"
    svg.text(g, x + W / 2, y + 11, name[0].replace("T", "10") + SYMBOL[name[1]], 13, fill=ink)


def board_svg(board: Board) -> str:
    """The board as SVG."""
    slots = max(8, board.num_freecells + 4)
    gap = 8.0
    tallest = max([len(col) for col in board.cascades] + [1])
    width = gap + slots * (W + gap)
    height = gap + H + 2 * gap + (tallest - 1) * FAN + H + gap
    root = svg.document(width, height)
    svg.rect(root, 0, 0, width, height, TABLE, stroke="none")
    g = svg.group(root)
    for i, c in enumerate(board.freecells):
        x = gap + i * (W + gap)
        if c is None:
            svg.rect(g, x, gap, W, H, SLOT, rx=5, data_place=f"cell {FREECELL_LETTERS[i]}")
        else:
            _card(g, x, gap, c, f"cell {FREECELL_LETTERS[i]}")
    for s, top in enumerate(board.foundations):
        x = gap + (slots - 4 + s) * (W + gap)
        if top == 0:
            svg.rect(g, x, gap, W, H, SLOT, rx=5, data_place=f"home {SUITS[s]}")
            svg.text(g, x + W / 2, gap + H / 2, SYMBOL[SUITS[s]], 20, fill="#9fd3af")
        else:
            _card(g, x, gap, 4 * (top - 1) + s, f"home {SUITS[s]}")
    y0 = gap + H + 2 * gap
    for k, col in enumerate(board.cascades):
        x = gap + k * (W + gap)
        if not col:
            svg.rect(g, x, y0, W, H, SLOT, rx=5, data_place=f"cascade {k + 1}")
        for j, c in enumerate(col):
            _card(g, x, y0 + j * FAN, c, f"cascade {k + 1}")
    return svg.to_string(root)
