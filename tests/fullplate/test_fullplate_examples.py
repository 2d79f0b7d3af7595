"""The bundled examples (examples/fullplate/, one per worked example of the page): roll gives the page's numbers
with the forced dice, and each runs through odds and simulate."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import EXAMPLES
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import load
from tohit.engine.simulate import simulate

FOLDER = EXAMPLES / "fullplate"


def _rows(name: str) -> dict[str, dict[str, Any]]:
    return {t.name: t.row for t in roll(load(FOLDER / name), seed=7).targets}


def test_fullplate_example_longbow_behind_cover() -> None:
    rows = _rows("longbow-behind-cover.yaml")
    wall, leather = rows["Bandit behind the wall"], rows["Bandit in leather"]
    assert (wall["effective_thac0"], wall["to_hit_roll"], wall["result"]) == (17, 6, "miss")
    assert (wall["natural_needed"], wall["natural_chance_pct"]) == (12, 45)
    assert (leather["result"], leather["damage"]) == ("hit", 5)


def test_fullplate_example_back_attack() -> None:
    bandit = _rows("back-attack.yaml")["Bandit"]
    assert (bandit["effective_thac0"], bandit["natural_needed"], bandit["natural_chance_pct"]) == (11, 6, 75)
    assert bandit["result"] == "hit"


def test_fullplate_example_shadow_dragon() -> None:
    rows = _rows("shadow-dragon.yaml")
    lit, dark = rows["Shadow dragon in torchlight"], rows["Shadow dragon in the dark"]
    assert (lit["to_hit_roll"], lit["result"], lit["halvings"], lit["damage"]) == (-2, "hit", 0, 8)
    assert (dark["to_hit_roll"], dark["result"], dark["halvings"], dark["damage"]) == (0, "hit", 1, 4)


def test_fullplate_example_critical_hit() -> None:
    orc = _rows("critical-hit.yaml")["Orc chieftain"]
    assert (orc["to_hit_roll"], orc["critical"], orc["severity"], orc["damage"]) == (-4, True, 3 + 2, 7)


def test_fullplate_example_bow_and_arrows() -> None:
    wight = _rows("bow-and-arrows.yaml")["Wight"]
    assert (wight["effective_thac0"], wight["damage"], wight["ammunition_enhancement"]) == (13, 7, 1)


def test_fullplate_example_prone_crossbow() -> None:
    raider = _rows("prone-crossbow.yaml")["Raider in the gully"]
    assert (raider["effective_thac0"], raider["result"]) == (10, "hit")


def test_fullplate_example_knight_and_orcs() -> None:
    knight = _rows("knight-and-orcs.yaml")["Knight"]
    assert (knight["creature_hit"], knight["hp_left"]) == ("Orc bandit 1", 25)
    result = odds(load(FOLDER / "knight-and-orcs.yaml")).targets[0]
    hit = result.probability("result", "hit")
    assert [result.probability("creature_hit", w) for w in ("Orc bandit 1", "Orc bandit 2", "Knight")] == [hit / 3] * 3


def test_fullplate_example_knight_and_ogres() -> None:
    assert _rows("knight-and-ogres.yaml")["Knight"]["creature_hit"] == "Knight"
    result = odds(load(FOLDER / "knight-and-ogres.yaml")).targets[0]
    hit = result.probability("result", "hit")
    shares = [result.probability("creature_hit", w) / hit for w in ("Ogre 1", "Ogre 2", "Knight")]
    assert shares == [Fraction(4, 10), Fraction(4, 10), Fraction(2, 10)]


def test_fullplate_example_magic_missile() -> None:
    cultist = _rows("magic-missile.yaml")["Cultist"]
    assert (cultist["result"], cultist["damage"], cultist["hp_left"]) == ("hit", 4, 5)


@pytest.mark.parametrize("path", sorted(FOLDER.glob("*.yaml")), ids=lambda p: p.name)
def test_fullplate_examples_run_through_odds_and_simulate(path: Path) -> None:
    """Every example loads, and its exact odds sum to 1 and agree roughly with a small simulation."""
    loaded = load(path)
    exact = odds(loaded)
    sim = simulate(loaded, 20_000, seed=3)
    for t in exact.targets:
        total = sum(p for _, p in t.distribution("result"))
        assert total == 1
        s = sim.target(t.name)
        assert abs(s.frequency("result", "hit") / s.n - float(t.probability("result", "hit"))) < 0.02
