"""The contract suite's games: every registered game, and the toy sixth game registered by entry point."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.entry_points import GamePackages
from tohit.core.system import AnySystem
from tohit.engine import registry

TOY_ROOT = Path(__file__).resolve().parents[1] / "toy_game"
TOY = "toy-d20"
#: The games the suite runs: the built-in ones as registered, and the toy (a third party's package).
GAMES = [*sorted(registry.systems()), TOY]


@pytest.fixture
def toy_registered(game_packages: GamePackages, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy game installed as a third party installs one: its package importable, its entry point in the
    `tohit.systems` group of a distribution of its own; nothing in tohit names it."""
    monkeypatch.syspath_prepend(str(TOY_ROOT))
    game_packages.register(TOY, "tohit_toy:SYSTEM", dist="tohit-toy")
    yield
    for name in [m for m in sys.modules if m == "tohit_toy" or m.startswith("tohit_toy.")]:
        del sys.modules[name]


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> AnySystem:
    """One game of the suite, found through the registry (the toy: after registering it)."""
    if request.param == TOY:
        request.getfixturevalue("toy_registered")
    return registry.get(request.param)


def examples_root(system: AnySystem) -> Path:
    """Where a game's bundled examples are: examples/<id>/ here, or a plugin's own `examples/` folder."""
    own = EXAMPLES / system.id
    if own.is_dir():
        return own
    return Path(sys.modules[type(system).__module__].__file__ or "").parent / "examples"


def scenario_examples(system: AnySystem) -> list[Path]:
    return sorted(examples_root(system).glob("*.yaml"))


def fight_examples(system: AnySystem) -> list[Path]:
    root = examples_root(system)
    here = EXAMPLES / "fights" if root.parent == EXAMPLES else root / "fights"
    return [p for p in sorted(here.glob("*.yaml")) if yaml.safe_load(p.read_text()).get("system") == system.id]
