"""Shared test settings: reproducible hypothesis runs and the path of the shared reference data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "puzzleopt", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("puzzleopt")

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session")
def distance_tables() -> dict:
    """The published distance distributions in ``../shared/data/distance_tables.json``."""
    path = SHARED_DATA / "distance_tables.json"
    if not path.exists():
        pytest.skip(f"reference data {path} is not present (it lives beside the repository, in ../shared/data)")
    return json.loads(path.read_text())
