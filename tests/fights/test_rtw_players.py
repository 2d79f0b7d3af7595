"""What the players are told of Reclaim the Wild's own events (systems/rtw/players.py; docs/players.md): a kept
creature's Health, Hearts, Durability and damage never; one hidden entirely is "someone"; a shown one's in the
game master's words, written from each event's data (systems/rtw/narrate.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import EXAMPLES
from tests.fights.helpers import kinds, load
from tests.fights.players_told import audience, numbers, told_of
from tests.fights.test_rtw_fight import HIT, MISS, creature, fight
from tests.fights.test_rtw_map_fight import creature as map_creature
from tests.fights.test_rtw_map_fight import fight as map_fight
from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

CAMP = load_fight(EXAMPLES / "fights" / "rtw-bokoblin-camp.yaml")
CAMP_EVENTS = narrate(CAMP, seed=2).events
TRICK = load_fight(EXAMPLES / "fights" / "rtw-wizzrobe-trick.yaml")
TRICK_EVENTS = narrate(TRICK, seed=1).events


def _both(fight: LoadedFight, events: list[dict[str, Any]], event: dict[str, Any]) -> tuple[str, str]:
    """The players' words of `event` with its creature's numbers kept from them, and with nobody kept."""
    kept = told_of(fight, event, audience(fight, events, secret=[event["combatant"]]))
    shown = told_of(fight, event, audience(fight, events))
    assert kept is not None and shown is not None
    return kept, shown


def _first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["kind"] == kind)


def test_a_kept_creatures_health_lost_is_its_health_word_never_the_damage() -> None:
    hit = _first(CAMP_EVENTS, "damage")
    kept, shown = _both(CAMP, CAMP_EVENTS, hit)
    assert shown == hit["text"] == f"{hit['combatant']} loses {hit['damage']} Health" + hit["text"].split("Health")[1]
    assert kept.startswith(f"{hit['combatant']} loses Health: ") and not numbers(kept, CAMP.roster.names)


def test_a_kept_creature_in_peril_is_told_without_its_health_against_its_hearts() -> None:
    peril = _first(CAMP_EVENTS, "peril")
    assert _both(CAMP, CAMP_EVENTS, peril) == (f"{peril['combatant']} is in Peril", peril["text"])


def test_a_kept_creature_that_falls_is_told_helpless_or_perishing_without_its_health() -> None:
    falls = _first(CAMP_EVENTS, "falls")
    kept, shown = _both(CAMP, CAMP_EVENTS, falls)
    assert shown == falls["text"] and kept in (f"{falls['combatant']} perishes", f"{falls['combatant']} falls Helpless")
    assert not numbers(kept, CAMP.roster.names)


def test_a_kept_creatures_weapon_used_and_worn_is_told_without_its_durability() -> None:
    used, worn = _first(CAMP_EVENTS, "weapon_used"), _first(CAMP_EVENTS, "durability")
    kept, shown = _both(CAMP, CAMP_EVENTS, used)
    assert kept == f"{used['combatant']}'s {used['weapon']} was used successfully: it wears when the encounter ends"
    assert shown == used["text"]
    kept, shown = _both(CAMP, CAMP_EVENTS, worn)
    assert kept.startswith(f"end of the encounter: {worn['combatant']}'s {worn['weapon']} loses Durability")
    assert shown == worn["text"] and not numbers(kept, CAMP.roster.names)


def test_a_kept_creatures_burning_weapon_that_shatters_is_told_without_its_durability() -> None:
    burning = {"name": "fire rod", "attack_power": 6, "acc": 3, "damage_type": "sharp", "durability": 1}
    a = creature("A", attacks=[{"name": "Strike", "attacker": {"weapon": {**burning, "burning": True}}}])
    data = load(fight([a], [creature("B", target={"health": 60, "hearts": 20})]))
    log = narrate(data, seed=1, script=[HIT, MISS, MISS])
    worn = kinds(log, "durability")[0]
    assert worn["text"].startswith("the Burning weapon loses 1 Durability (1 -> 0): it shatters")
    assert _both(data, log.events, worn) == ("A's Burning weapon loses Durability: it shatters", worn["text"])


def test_a_distraction_by_one_hidden_entirely_is_by_someone() -> None:
    status = next(e for e in TRICK_EVENTS if e["kind"] == "status" and e["distracted_by"] == "Bokoblin")
    said = told_of(TRICK, status, audience(TRICK, TRICK_EVENTS, absent=["Bokoblin"]))
    assert said == status["text"].replace("by Bokoblin", "by someone") and "Bokoblin" not in said
    assert told_of(TRICK, status, audience(TRICK, TRICK_EVENTS, secret=["Bokoblin"])) == status["text"]


def test_events_without_a_number_are_told_as_written() -> None:
    for kind in ("status_ends", "cost"):
        event = next(e for e in [*TRICK_EVENTS, *CAMP_EVENTS] if e["kind"] == kind)
        assert not numbers(event["text"], CAMP.roster.names + TRICK.roster.names)
        assert _both(TRICK, TRICK_EVENTS, event) == (event["text"], event["text"])


def test_an_attack_by_a_creature_hidden_entirely_strikes_from_the_dark() -> None:
    heroes = CAMP_EVENTS[0]["sides"]["Heroes"]
    attack = next(e for e in CAMP_EVENTS if e["kind"] == "attack" and e["attacker"] not in heroes)
    said = told_of(CAMP, attack, audience(CAMP, CAMP_EVENTS, absent=[attack["attacker"]]))
    assert said is not None and said.startswith(f"something strikes {attack['target']} from the dark")


def test_standing_up_prone_and_halted_and_holding_ground_are_told_as_written_of_a_kept_creature() -> None:
    data = load(fight([creature("A")], [creature("B", target={"prone": True, "halted": True})], max_rounds=2))
    log = narrate(data, seed=1, script=[MISS, MISS, MISS])
    for kind in ("prone", "status_ends", "stands_up"):
        event = kinds(log, kind)[0]
        assert event["combatant"] == "B" and _both(data, log.events, event) == (event["text"], event["text"])
    foes = [map_creature("Goblin", [1, 0], target={"health": 9}), map_creature("Far", [4, 0], target={"health": 1})]
    on_map = map_fight(["....."], [map_creature("Knight", [0, 0])], foes, max_rounds=3)
    on_map["sides"][0]["policy"] = "weakest"
    log = narrate(load(on_map), seed=1, script=[HIT])
    held = kinds(log, "hold")[0]
    assert held["text"].startswith(f"{held['combatant']} has no foe in reach and holds its ground")
    assert _both(load(on_map), log.events, held) == (held["text"], held["text"])
