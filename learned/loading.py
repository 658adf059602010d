"""Loading a network as a search heuristic, and the search options the learned commands share
(``python -m learned.solve`` and ``python -m learned.evaluate``)."""

from __future__ import annotations

import json
from pathlib import Path

from exact.errors import PuzzleoptError
from exact.puzzle import Puzzle
from learned.bwas import quality_settings
from learned.models import load, shipped
from learned.values import NetHeuristic
from learned.weights import load_model


def bwas_settings(
    card: dict | None = None, quality: str | None = None, *, weight: float | None = None, batch: int | None = None,
    max_nodes: int | None = None, time_limit: float | None = None,
) -> dict:  # fmt: skip
    """BWAS's keyword arguments: ``weight``/``batch`` where given, else those of ``quality`` (or
    the model card's default quality), with the node and time limits."""
    q = quality_settings(card or {}, quality)
    return {
        "weight": q["weight"] if weight is None else weight,
        "batch": q["batch"] if batch is None else batch,
        "max_nodes": max_nodes,
        "time_limit": time_limit,
    }


def load_heuristic(
    puzzle: Puzzle, model: str | Path | None = None, device: str = "cpu", key: str | None = None
) -> NetHeuristic:
    """The network heuristic for ``puzzle``: the shipped model for it, or ``model``.

    Args:
        puzzle: The puzzle to search.
        model: A ``model.safetensors`` from ``learned.train`` (default: the shipped one).
        device: Torch device.
        key: The registry name ``puzzle`` was made from (``"sokoban"`` for ``sokoban10x10``), which
            is what ``learned.train`` writes in the card; ``puzzle.name`` is also accepted.

    Raises:
        PuzzleoptError: No model is shipped for the puzzle, or ``model`` was trained on another
            puzzle (or its card does not say which) or takes inputs of another size.
    """
    spec = getattr(puzzle, "spec", None)
    path = spec.to_dict().get("path") if spec is not None else None  # a definition file's, as typed
    names = [n for n in (key, puzzle.name, path) if n]
    if model is not None:
        net, card = load_model(Path(model), device)
        if card.get("puzzle") not in names:
            said = card.get("puzzle")
            raise PuzzleoptError(
                f"--model {model} was trained on {said!r}, not {names[0]!r}; give --puzzle {said}"
                if said
                else f"--model {model} has a card that does not name its puzzle; it cannot be matched to {names[0]!r}"
            )
        _check_spec(model, card, puzzle)
    else:
        net, card = load(names[0] if names[0] in shipped() else puzzle.name, device)
    if net.config.inputs != puzzle.num_positions * puzzle.num_labels:
        raise PuzzleoptError(f"the model takes {net.config.inputs} inputs; {puzzle.name} encodes to a different size")
    heuristic = NetHeuristic(puzzle, net, device)
    heuristic.card = card  # its measured search settings (quality_settings) travel with it
    return heuristic


def _check_spec(model, card: dict, puzzle: Puzzle) -> None:
    """A card's spec (``learned.train`` writes one) must be the puzzle's: the same options."""
    theirs, ours = card.get("spec"), getattr(puzzle, "spec", None)
    if theirs is None or ours is None:
        return  # cards written before specs: the name check above is all there is
    mine = ours.to_dict()
    if theirs != mine:
        flags = " ".join([f"--puzzle {theirs.get('name')}"] + [
            f"--option {k}={json.dumps(v)}" for k, v in theirs.items() if k != "name"
        ])  # fmt: skip
        raise PuzzleoptError(f"--model {model} was trained on {_shown(theirs)}, not {_shown(mine)}; give {flags}")


def _shown(spec: dict) -> str:
    options = ", ".join(f"{k}={v!r}" for k, v in sorted(spec.items()) if k != "name")
    return f"{spec.get('name')}({options})" if options else str(spec.get("name"))
