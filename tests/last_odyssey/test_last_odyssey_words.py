"""Last Odyssey's events as data, told to each audience (issue 37, items 1 and 2; docs/players.md): the game
master's words of each kind the fight emits are written from the event's data alone (systems/last_odyssey/
narrate.py), and the players read of a combatant kept from them what the table sees, never its AP, HP, Shell
points, Health, the damage it takes or its Bonus Tracker's steps (systems/last_odyssey/players.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.players_words import audience, events_of, fight_data, gm_read, loaded, players_read
from tohit.core.fight.contract import LoadedFight

OGRE = loaded(fight_data("last-odyssey-ogre"))
COPS = loaded(fight_data("last-odyssey-cops"))


def _poisoned(combatant: dict[str, Any]) -> None:
    """Poisoned from the start, Initiative 3."""
    combatant["target"].setdefault("statuses", []).append("poisoned")
    combatant["initiative"] = 3


def calling(stem: str) -> LoadedFight:
    """`stem` with everyone Poisoned and the first side's player characters calling initiative."""
    data = fight_data(stem, _poisoned)
    for combatant in data["sides"][0]["combatants"]:
        combatant["call"] = 4
        combatant["attacker"]["player_character"] = True
    for combatant in data["sides"][1]["combatants"]:
        combatant["attacker"]["player_character"] = False
    return loaded(data)


CALLING = calling("last-odyssey-ogre")
KINDS = {"initiative": CALLING, "ap": OGRE, "poison": CALLING, "effects": OGRE, "damage": COPS, "status": OGRE}
KINDS |= {"tracker": OGRE, "rows": COPS}


def kind_events(kind: str, fight: LoadedFight | None = None) -> list[dict[str, Any]]:
    found = list(events_of(fight or KINDS[kind], [kind]))
    assert found, kind
    return found


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_last_odyssey_gm_words_of_each_kind_are_written_from_the_events_data(kind: str) -> None:
    fight = KINDS[kind]
    for event in kind_events(kind):
        assert gm_read(fight, event) == event["text"]


def test_a_status_that_lands_again_and_a_tracker_that_stays_say_so_from_the_events_data() -> None:
    """Statuses: a status is on or off; Buffs and Debuffs: the tracker stops at its ends."""
    status, step = kind_events("status")[0], kind_events("tracker")[0]
    again = {**status, "new": False}
    assert gm_read(OGRE, again).startswith(f"{status['combatant']} is already {status['status']}: a status is on")
    stays = {**step, "now": step["was"]}
    assert f"'s {step['statistic']} stays at {step['was']:+d} on the Bonus Tracker" in gm_read(OGRE, stays)


def kept_said(fight: LoadedFight, kind: str) -> list[tuple[dict[str, Any], str]]:
    """Each event of `kind` told to players who do not read the numbers of the combatant(s) it is about."""
    out = []
    for event in kind_events(kind, fight):
        names = [
            event.get("combatant"),
            *event.get("combatants", []),
            *(c["combatant"] for c in event.get("calls", [])),
        ]
        said = players_read(fight, event, audience(fight, secret=[n for n in names if n]))
        assert said is not None
        out.append((event, said))
    return out


@pytest.mark.parametrize("kind", ["ap", "poison", "effects", "damage", "tracker"])
def test_players_read_a_kept_combatants_last_odyssey_event_with_no_number_and_a_shown_ones_every_number(
    kind: str,
) -> None:
    """AP (a new round's AP is the tier's, the same for all: said), Poisoned damage, Downed, a hit on a Shell and
    HP, the Bonus Tracker: of a kept combatant no number of its own; of one whose numbers the players read, the
    game master's words; of an event stored before it carried its data, never the GM's words of a kept one."""
    fight = KINDS[kind]
    for event, said in kept_said(fight, kind):
        assert said != event["text"] or "combatants" in event
        left = re.sub(r"\d+ AP again", "", said) if "combatants" in event else said
        assert not re.search(r"\d", re.sub("|".join(fight.roster.names), "", left)), (event["text"], said)
        assert players_read(fight, event, audience(fight)) == event["text"]
        if "combatant" in event:  # stored before events carried their data: never the GM's words of a kept one
            stored = {k: event[k] for k in ("kind", "text", "changes")}
            assert players_read(fight, stored, audience(fight, secret=[event["combatant"]])) != event["text"]


def test_players_read_a_kept_combatants_hit_as_its_shell_taking_it_or_breaking_and_its_health_word() -> None:
    said = {s.split(": ", 1)[1] for fight in (COPS, OGRE) for _, s in kept_said(fight, "damage")}
    parts = {p for s in said for p in s.split("; ")}
    assert parts <= {"the hit deals no damage", "its Shell takes the hit", "the Shell breaks", "hurt", "wounded"} | {
        "bloodied", "downed", "its Body Armor is used up", "no effect"
    }  # fmt: skip
    assert {"its Shell takes the hit", "the Shell breaks", "downed"} <= parts


def test_players_read_which_way_a_kept_combatants_bonus_tracker_moves_never_its_steps() -> None:
    for event, said in kept_said(OGRE, "tracker"):
        way = "rises" if event["now"] > event["was"] else "falls"
        assert said == f"{event['combatant']}'s {event['statistic']} {way} on the Bonus Tracker"


def test_players_read_a_kept_combatant_downed_losing_its_statuses_and_its_bonus_tracker_not_its_steps() -> None:
    for event, said in kept_said(OGRE, "effects"):
        assert said.startswith(f"{event['combatant']} is downed: its effects are removed (")
        assert ("its Bonus Tracker" in said) == bool(event["buffs"])
        assert all(status in said for status in event["removed"])


def test_players_read_calling_initiative_without_a_kept_callers_call_nor_one_hidden_entirely() -> None:
    """Starting Battles: the GM's 2d4 is read out to the table; a kept character's call (its Initiative) is left
    out, and one the players do not know of has no place in the order they read."""
    (event,) = kind_events("initiative")[:1]
    caller, foe = event["calls"][0]["combatant"], CALLING.roster.names[-1]
    said = players_read(CALLING, event, audience(CALLING, secret=[caller], absent=[foe]))
    assert said is not None and f"the GM rolls 2d4: {event['roll']}" in said
    assert caller not in said.split(". Order:")[0] and foe not in said
    assert players_read(CALLING, event, audience(CALLING)) == event["text"]


def test_players_read_a_new_rounds_ap_of_those_they_know_of_only() -> None:
    rounds = [e for e in kind_events("ap") if len(e.get("combatants", [])) > 1]
    assert rounds
    for event in rounds:
        gone = event["combatants"][0]
        said = players_read(OGRE, event, audience(OGRE, absent=[gone]))
        assert said is not None and gone not in said and event["combatants"][-1] in said


def test_players_notice_an_attack_by_a_combatant_hidden_entirely_in_last_odysseys_words() -> None:
    attack = next(e for e in events_of(COPS, ["attack"]) if e["target"] != e["attacker"])
    said = players_read(COPS, attack, audience(COPS, absent=[attack["attacker"]]))
    assert said is not None and said.startswith(f"an unseen enemy attacks {attack['target']}")


def test_players_read_a_back_row_coming_forward_as_written_its_side_named_no_number() -> None:
    """Starting Battles, The Combat Round: a side's back row comes forward; its words name the side only."""
    for event in kind_events("rows"):
        moved = [ch["who"] for ch in event["changes"]]
        assert players_read(COPS, event, audience(COPS, secret=moved)) == event["text"]
        assert event["side"] in event["text"]
