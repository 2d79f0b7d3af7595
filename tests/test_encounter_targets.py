"""Several targets chosen where the attack allows (issue 29): Last Odyssey's Multi abilities ("This ability targets
more than one character on the battlefield"), rtw's area attacks in Abstract Combat (a count of foes from the
range), one target everywhere else. The game says how many (`FightRules.max_targets`); the encounter refuses more,
a name twice, and a target the rules do not allow now, each naming `targets`, and appends nothing."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay


def fight_data(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return found


def encounter(name: str, data: dict[str, Any] | None = None) -> Encounter:
    return Encounter.create(data or fight_data(name), seed=1)


def attacked(events: list[dict[str, Any]], attacker: str) -> list[dict[str, Any]]:
    return [e for e in events if e["kind"] == "attack" and e.get("attacker") == attacker]


def refused(enc: Encounter, action: dict[str, Any], words: str) -> None:
    """The action is an InputError naming `targets` whose message has `words`; nothing is appended."""
    seq, state = enc.seq, enc.state_json()
    with pytest.raises(InputError) as err:
        enc.act({"kind": "attack", **action})
    assert err.value.field == "targets" and words in err.value.message, err.value.message
    assert enc.seq == seq and enc.state_json() == state


# -- Last Odyssey: Multi --------------------------------------------------------------------------------------------
def test_a_multi_ability_targets_the_characters_the_gm_names() -> None:
    """Multi: "This ability targets more than one character on the battlefield": Fire Wave on Cop 1 and Cop 3
    attacks those two and not Cop 2."""
    enc = encounter("last-odyssey-cops")
    events = enc.act({"kind": "attack", "attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 3", "Cop 1"]})
    assert [e["target"] for e in attacked(events, "Ilse")] == ["Cop 1", "Cop 3"]
    assert enc.state_json()["combatants"]["Cop 2"] == enc.events[0]["state"]["combatants"]["Cop 2"]


def test_one_roll_of_the_hit_die_serves_every_target_named_each_compared_on_its_own() -> None:
    """ "If the ability in question targets multiple enemies, you only roll the hit die once, and use the resulting
    number to determine whether you hit ... against each one separately": the face typed by hand serves both, each
    compared with its own Evasion."""
    enc = encounter("last-odyssey-cops")
    action = {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 2"], "dice": {"hit": [5]}}
    found = attacked(enc.act({"kind": "attack", **action}), "Ilse")
    assert [e["dice"]["hit"] for e in found] == [[5], [5]]
    for e in found:
        evasion = enc.fight.target(enc.fight.roster.names.index(e["target"])).evasion
        assert e["outcome"]["hit_value"] == e["outcome"]["accuracy_value"] + evasion


def test_one_target_named_for_a_multi_ability_reaches_every_foe_as_before() -> None:
    enc = encounter("last-odyssey-cops")
    events = enc.act({"kind": "attack", "attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 2"]})
    assert sorted(e["target"] for e in attacked(events, "Ilse")) == ["Cop 1", "Cop 2", "Cop 3"]


def test_only_a_multi_ability_targets_more_than_one_character() -> None:
    refused(encounter("last-odyssey-cops"), {"attacker": "Mariana", "targets": ["Cop 1", "Cop 2"]}, "not a Multi")


def test_a_multi_attack_names_no_ally_and_no_fallen_foe() -> None:
    """Fire Wave reaches foes only (the turn's options): an ally named, or a foe at 0 HP, is refused."""
    enc = encounter("last-odyssey-cops")
    refused(enc, {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Mariana"]}, "cannot use")
    enc.act({"kind": "adjust", "combatant": "Cop 3", "stat": "hp", "value": 0})
    refused(enc, {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 3"]}, "cannot use")


# -- Reclaim the Wild: Abstract Combat ------------------------------------------------------------------------------
def test_an_area_attack_in_abstract_combat_hits_the_foes_named_each_with_its_own_roll() -> None:
    """ "If an Attack targets multiple foes, you must roll all To-Hit checks once for each foe": a Blast in a fight
    with no map, two foes named, one attack each (its own dice), the third foe untouched."""
    data = fight_data("rtw-bokoblin-camp")
    zelda = data["sides"][0]["combatants"][1]
    zelda["attacks"][0]["attack"] = {"kind": "basic", "range": "blast", "area": True, "damage": {"trait": "willpower"}}
    enc = encounter("", data)
    dice = [{"to_hit": [1, 2]}, {"to_hit": [6, 5]}]  # typed by hand: one To-Hit check per foe, in order
    action = {"attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin", "Bokoblin 1"], "dice": dice}
    found = attacked(enc.act({"kind": "attack", **action}), "Zelda")
    assert [e["target"] for e in found] == ["Bokoblin 1", "Moblin"]
    assert [e["dice"] for e in found] == dice
    assert enc.state_json()["combatants"]["Bokoblin 2"] == enc.events[0]["state"]["combatants"]["Bokoblin 2"]


def test_an_area_attack_names_no_more_foes_than_its_count() -> None:
    """Abstract Combat: a Blast "Hits 1 target, plus 1 additional target for every 2 in the Range beyond the
    first"; the fight file gives the count (Fireball's `area_size` 2): a third foe is refused in those words."""
    enc = encounter("rtw-bokoblin-camp")
    action = {"attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin 1", "Bokoblin 2", "Moblin"]}
    refused(enc, action, "Fireball hits at most 2 foes in Abstract Combat")


def with_range(rng: dict[str, Any]) -> Encounter:
    """The Bokoblin camp with Zelda's Fireball given a range with its size and no `area_size`."""
    data = fight_data("rtw-bokoblin-camp")
    fireball = data["sides"][0]["combatants"][1]["attacks"][0]
    del fireball["area_size"]
    fireball["attack"]["range"] = rng
    return encounter("", data)


def test_burst_hits_2_targets_for_every_1_in_the_range() -> None:
    """ "Burst: Hits 2 targets for every 1 in the Range": a Burst 1 names 2 foes, not 3; named once, it catches 2."""
    foes = ["Bokoblin 1", "Bokoblin 2", "Moblin"]
    refused(with_range({"type": "burst", "size": 1}), {"attacker": "Zelda", "attack": "Fireball", "targets": foes},
            "Fireball hits at most 2 foes in Abstract Combat (Burst 1)")  # fmt: skip
    enc = with_range({"type": "burst", "size": 1})
    events = enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin"]})
    assert len(attacked(events, "Zelda")) == 2
    enc = with_range({"type": "burst", "size": 2})  # a Burst 2 can hit up to 4 foes: all three here
    events = enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": foes})
    assert [e["target"] for e in attacked(events, "Zelda")] == foes


def test_cone_hits_1_target_plus_1_for_every_2_in_the_range_beyond_the_first() -> None:
    """ "Blast, Cone, Line, or Sweep: Hits 1 target, plus 1 additional target for every 2 in the Range beyond the
    first. For instance, a Cone 2 would hit just one foe, but a Cone 3 hits 2 foes."
    """
    two = ["Bokoblin 1", "Moblin"]
    enc = with_range({"type": "cone", "size": 2})
    refused(enc, {"attacker": "Zelda", "attack": "Fireball", "targets": two}, "at most 1 foe in Abstract Combat")
    enc = with_range({"type": "cone", "size": 3})
    events = enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": two})
    assert [e["target"] for e in attacked(events, "Zelda")] == two
    refused(with_range({"type": "cone", "size": 3}), {"attacker": "Zelda", "attack": "Fireball",
            "targets": [*two, "Bokoblin 2"]}, "at most 2 foes in Abstract Combat (Cone 3)")  # fmt: skip


def test_an_area_attack_with_no_count_may_name_every_foe() -> None:
    data = fight_data("rtw-bokoblin-camp")
    del data["sides"][0]["combatants"][1]["attacks"][0]["area_size"]
    enc = encounter("", data)
    foes = ["Bokoblin 1", "Bokoblin 2", "Moblin"]
    events = enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": foes})
    assert [e["target"] for e in attacked(events, "Zelda")] == foes


def test_melee_and_projectile_hit_1_foe() -> None:
    """ "Melee, Projectile: Hit 1 foe."""
    enc = encounter("rtw-bokoblin-camp")
    refused(enc, {"attacker": "Link", "targets": ["Moblin", "Bokoblin 1"]}, "Strike is not an area attack")
    refused(enc, {"attacker": "Zelda", "attack": "Magic Salvo", "targets": ["Moblin", "Bokoblin 1"]}, "hits 1 foe")


def test_an_area_attack_names_no_ally_and_no_helpless_foe() -> None:
    """An area in a fight names foes that stand: an ally (Link) or a Helpless Bokoblin (0 Health) is refused."""
    enc = encounter("rtw-bokoblin-camp")
    refused(enc, {"attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin", "Link"]}, "cannot use Fireball")
    enc.act({"kind": "adjust", "combatant": "Bokoblin 2", "stat": "health", "value": 0})
    action = {"attacker": "Zelda", "attack": "Fireball", "targets": ["Moblin", "Bokoblin 2"]}
    refused(enc, action, "cannot use Fireball on Bokoblin 2")


def test_on_a_map_whom_an_area_catches_comes_from_its_placement() -> None:
    enc = encounter("rtw-map")
    refused(enc, {"attacker": "Zelda", "attack": "Fireball", "targets": ["Bokoblin", "Link"]}, "on a map")
    assert enc.fight.rules.max_targets(enc.fight, enc.fight.roster.names.index("Zelda"), 0) == 1


# -- every game -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "attacker", "targets"),
    [
        ("kaiser-party-vs-bandits", None, 2),
        ("fullplate-skirmish", None, 2),
        ("wsswnn-kulu-brute", None, 2),
    ],
)
def test_other_games_attacks_take_one_target(name: str, attacker: str | None, targets: int) -> None:
    enc = encounter(name)
    names = enc.fight.roster.names
    me = enc.next_turn() or names[0]
    foes = [n for n in names if enc.fight.roster.side[names.index(n)] != enc.fight.roster.side[names.index(me)]]
    if len(foes) < targets:
        foes = [n for n in names if n != me]
    refused(enc, {"attacker": me, "targets": foes[:targets]}, "takes one target")
    c = names.index(me)
    assert all(enc.fight.rules.max_targets(enc.fight, c, a) == 1 for a in range(len(enc.fight.combatants[c].attacks)))


def test_a_target_named_twice_is_refused() -> None:
    enc = encounter("last-odyssey-cops")
    refused(enc, {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 1"]}, "Cop 1 is named twice")


def test_an_unknown_target_among_several_is_refused() -> None:
    enc = encounter("last-odyssey-cops")
    refused(enc, {"attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 9"]}, "no combatant")


# -- preview, undo, replay ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "attacker", "attack", "targets"),
    [
        ("last-odyssey-cops", "Ilse", "Fire Wave", ["Cop 1", "Cop 3"]),
        ("rtw-bokoblin-camp", "Zelda", "Fireball", ["Bokoblin 1", "Moblin"]),
    ],
)
def test_the_preview_of_several_targets_is_a_row_per_creature_reached(
    name: str, attacker: str, attack: str, targets: list[str]
) -> None:
    enc = encounter(name)
    rows = enc.preview(attacker, attack, targets)
    assert [r["name"] for r in rows] == targets
    assert all(sum(r["result"].values()) + r["beyond_depth"] == 1 for r in rows)


def test_several_targets_undo_and_replay(tmp_path: Path) -> None:
    """An attack on several targets is an action like the others: undo sets back every target, and the log
    replays with `tohit replay`."""
    data = fight_data("last-odyssey-cops")
    enc = Encounter.create(copy.deepcopy(data), seed=2)
    start = enc.state_json()
    enc.act({"kind": "attack", "attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 1", "Cop 3"]})
    assert enc.state_json() != start
    enc.act({"kind": "undo"})
    assert enc.state_json() == start
    enc.act({"kind": "attack", "attacker": "Ilse", "attack": "Fire Wave", "targets": ["Cop 2", "Cop 3"]})
    for _ in range(400):
        if enc.over:
            break
        enc.act({"kind": "auto"})
    assert Encounter.restore(data, enc.events).state_json() == enc.state_json()
    log = tmp_path / "several.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.events)))
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches
