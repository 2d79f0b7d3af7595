"""What the players are told of FullPlate's own events (systems/fullplate/players.py; docs/players.md): a kept
foe's hit points, damage and ammunition never; the game master's words written from each event's data
(systems/fullplate/narrate.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import EXAMPLES
from tests.fights.helpers import kinds, load
from tests.fights.players_told import audience, numbers, told_of
from tests.fights.test_fullplate_fight import fight, fighter
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

FIGHT = load_fight(EXAMPLES / "fights" / "fullplate-skirmish.yaml")
EVENTS = narrate(FIGHT, seed=1).events
ORCS = ("Orc chief", "Orc")


def _of(kind: str, who: str) -> dict[str, Any]:
    return next(e for e in EVENTS if e["kind"] == kind and who in (e.get("combatant"), e.get("attacker")))


def test_a_kept_foes_hp_loss_is_told_as_its_health_word_never_its_damage_nor_hit_points() -> None:
    hit = _of("damage", "Orc chief")
    said = told_of(FIGHT, hit, audience(FIGHT, EVENTS, secret=ORCS))
    assert said == "Orc chief loses HP: wounded" and not numbers(said or "", FIGHT.roster.names)
    down = next(e for e in EVENTS if e["kind"] == "damage" and e["changes"][0]["to"] == 0 and e["combatant"] in ORCS)
    said = told_of(FIGHT, down, audience(FIGHT, EVENTS, secret=ORCS))
    assert said == f"{down['combatant']} loses HP: down, out of the fight"


def test_a_shown_combatants_hp_loss_is_told_in_the_game_masters_words() -> None:
    hit = _of("damage", "Archer")
    assert told_of(FIGHT, hit, audience(FIGHT, EVENTS, secret=ORCS)) == hit["text"] == "Archer loses 3 HP (14 -> 11)"
    orc = _of("damage", "Orc chief")
    assert told_of(FIGHT, orc, audience(FIGHT, EVENTS)) == orc["text"] == "Orc chief loses 6 HP (18 -> 12)"


def test_magical_ammunition_recovered_by_a_kept_foe_is_told_without_its_count_nor_enhancement() -> None:
    back = _of("recovered", "Archer")
    assert back["text"].startswith("Archer recovers 2 piece(s) of ammunition from longbow that hit: Enhancement +2")
    said = told_of(FIGHT, back, audience(FIGHT, EVENTS, secret=["Archer"]))
    assert said == "Archer recovers its magical ammunition from longbow"
    assert told_of(FIGHT, back, audience(FIGHT, EVENTS, secret=ORCS)) == back["text"]


def test_a_hit_with_magical_ammunition_holds_no_number_and_is_told_as_written() -> None:
    hit = _of("ammunition", "Archer")
    assert told_of(FIGHT, hit, audience(FIGHT, EVENTS, secret=["Archer"])) == hit["text"]
    assert not numbers(hit["text"], FIGHT.roster.names)


def test_an_attack_by_a_foe_hidden_entirely_is_told_as_the_pages_unseen_foe() -> None:
    attack = next(e for e in EVENTS if e["kind"] == "attack" and e["attacker"] == "Orc chief")
    said = told_of(FIGHT, attack, audience(FIGHT, EVENTS, absent=["Orc chief"]))
    assert said == f"an unseen foe attacks {attack['target']}: {attack['outcome']['result']}" + (
        f", {attack['outcome']['damage']} damage" if attack["outcome"].get("damage") else ""
    )


def test_a_stray_shot_into_a_creature_not_in_the_fight_is_told_from_its_data() -> None:
    archer = fighter("Archer", attacker={"weapon": {"damage": "1d6", "kind": "bow_like"}}, attacks=[{"name": "bow"}])
    orc = fighter("Orc", target={"ac": 6, "engaged_with": [{"name": "Goblin", "ac": 3}]})
    data = fight([archer], [orc])
    log = narrate(load(data), seed=1, script=[{"to_hit": [18], "damage": [3], "pick": [1]}])
    stray = kinds(log, "stray")[0]
    assert stray["text"] == "the shot hits a creature that is not in this fight" and stray["attacker"] == "Archer"
    said = told_of(load(data), stray, audience(load(data), log.events, secret=["Archer", "Orc"]))
    assert said == stray["text"]
