"""The trained models shipped with puzzleopt, loaded offline: ``learned.load("tiles8")``.

Each is ``learned/models/<puzzle>.safetensors`` (a :mod:`learned.weights` model file whose card
says how it was trained and evaluated).
"""

from __future__ import annotations

from pathlib import Path

from exact.errors import PuzzleoptError
from learned.nets import CostToGo
from learned.weights import load_model

MODELS = Path(__file__).resolve().parent / "models"


def shipped() -> list[str]:
    """Puzzles with a shipped model."""
    return sorted(p.stem for p in MODELS.glob("*.safetensors"))


def load(puzzle: str, device: str = "cpu") -> tuple[CostToGo, dict]:
    """The shipped network for ``puzzle`` and its card."""
    path = MODELS / f"{puzzle}.safetensors"
    if not path.is_file():
        have = ", ".join(shipped()) or "none"
        raise PuzzleoptError(
            f"no model is shipped for {puzzle!r} (shipped: {have}); train one with "
            f"`python -m learned.train --puzzle {puzzle}` and pass its model.safetensors with --model"
        )
    net, card = load_model(path, device)
    if card.get("puzzle") != puzzle:
        raise PuzzleoptError(f"shipped model {path} is for {card.get('puzzle')!r}, not {puzzle!r}")
    return net, card
