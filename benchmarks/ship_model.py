"""Ship a trained network: ``learned/models/<puzzle>.safetensors`` with its card extended.

    python benchmarks/ship_model.py runs/gpu46/run2/model.safetensors --card-json card.json

The weights are stored as they are, or in bfloat16 with ``--bf16`` (half the bytes; they load
into the float32 network, and the beam evaluates in bfloat16 anyway where it pays). The JSON file's
keys are added to the model's card (the search defaults measured, the commands that made it);
the file is written through :func:`learned.weights.save_model` (versioned and checksummed) and
read back before this returns.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from learned.models import MODELS  # noqa: E402
from learned.weights import load_model, save_model  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", type=Path)
    ap.add_argument("--card-json", type=Path, required=True, help="keys to add to the card")
    ap.add_argument("--bf16", action="store_true", help="store the weights in bfloat16")
    args = ap.parse_args(argv)
    net, card = load_model(args.model)
    card.update(json.loads(args.card_json.read_text()))
    if args.bf16:
        net = net.to(torch.bfloat16)
        card["stored_dtype"] = "bfloat16"
    out = MODELS / f"{card['puzzle']}.safetensors"
    save_model(out, net, card)
    back, back_card = load_model(out)
    assert back_card == card and all(back.state_dict()[k].shape == v.shape for k, v in net.state_dict().items())
    print(f"{out}: {out.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
