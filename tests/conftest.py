"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tohit.engine.scenario import Loaded, from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# The fuzz suite (tests/test_fuzz.py): a bounded run in `make test`, the long campaign in `make fuzz`
# (`pytest tests/test_fuzz.py --hypothesis-profile=fuzz`).
settings.register_profile("fuzz-quick", max_examples=60, deadline=None, derandomize=True)
settings.register_profile("fuzz", max_examples=3000, deadline=None)


def scenario(data: dict[str, Any]) -> Loaded:
    """Validate a scenario given as a dict (as the Python API does)."""
    return from_dict(data, source="test")


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
