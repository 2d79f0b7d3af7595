"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tohit.engine.scenario import Loaded, from_dict

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def scenario(data: dict[str, Any]) -> Loaded:
    """Validate a scenario given as a dict (as the Python API does)."""
    return from_dict(data, source="test")


@pytest.fixture
def examples() -> Path:
    return EXAMPLES
