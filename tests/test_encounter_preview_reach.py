"""Multi and area attacks preview every creature they will reach, each with its odds (issue 29)."""

from __future__ import annotations

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.engine.encounter import Encounter


def encounter(name: str) -> Encounter:
    return Encounter.create(yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text()), seed=1)


@pytest.mark.parametrize(
    ("name", "attacker", "attack", "target", "reached"),
    [
        ("last-odyssey-cops", "Ilse", "Fire Wave", "Cop 1", ["Cop 1", "Cop 2", "Cop 3"]),
        ("rtw-bokoblin-camp", "Zelda", "Fireball", "Bokoblin 1", ["Bokoblin 1", "Bokoblin 2"]),
        ("rtw-map", "Zelda", "Fireball", "Bokoblin", ["Bokoblin", "Link"]),
        ("rtw-bokoblin-camp", "Link", "Strike", "Moblin", ["Moblin"]),
        ("kaiser-duel", "Ceil", None, "Bandit chief", ["Bandit chief"]),
    ],
)
def test_preview_of_a_multi_or_area_attack_shows_every_creature_it_reaches(
    name: str, attacker: str, attack: str | None, target: str, reached: list[str]
) -> None:
    """Last Odyssey's Fire Wave (Multi) previews all three cops; rtw's Fireball previews every foe its area
    catches, and on the map Link too; a one-target attack previews its target. Each with its exact odds, and the
    attack then reaches exactly those."""
    enc = encounter(name)
    rows = enc.preview(attacker, attack, [target])
    assert [r["name"] for r in rows] == reached
    assert all(sum(r["result"].values()) + r["beyond_depth"] == 1 for r in rows)
    events = enc.act({"kind": "attack", "attacker": attacker, "attack": attack, "targets": [target]})
    hit = [e["target"] for e in events if e["kind"] == "attack" and e.get("attacker") == attacker]
    assert sorted(hit) == sorted(reached)


def test_preview_changes_nothing() -> None:
    enc = encounter("last-odyssey-cops")
    before, seq = enc.state_json(), enc.seq
    enc.preview("Ilse", "Fire Wave", ["Cop 1"])
    assert enc.state_json() == before and enc.seq == seq


def test_preview_of_an_attack_the_rules_refuse_now_is_its_targets_alone() -> None:
    """An attack the turn would refuse (a foe's attack on its ally) previews its one target, never an error."""
    enc = encounter("rtw-bokoblin-camp")
    assert [r["name"] for r in enc.preview("Zelda", "Fireball", ["Link"])] == ["Link"]
