"""Shared test helpers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.entry_points import GamePackages
from tohit.engine import registry
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


@pytest.fixture
def game_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[GamePackages]:
    """Fake installed packages for the registry (tests/entry_points.py), gone after the test:
    `game_packages.register(name, "package.module:SYSTEM", dist=...)` registers a game by entry point in group
    `tohit.systems`, as an installed package registers it."""
    root = tmp_path / "site-packages"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    registry.systems.cache_clear()
    yield GamePackages(root)
    registry.systems.cache_clear()
