"""Kaiser's events as data, told to each audience (issue 37, items 1 and 2; docs/players.md): the game master's
words of each kind the fight emits are written from the event's data alone (systems/kaiser/narrate.py), and the
players read of a combatant kept from them what the table sees, never its AP, LP, Counter bonus, Critical level,
PhR check or Degrees of Failure (systems/kaiser/players.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.players_words import audience, events_of, fight_data, gm_read, loaded, players_read

TROLL = loaded(fight_data("kaiser-troll"))


def _big(combatant: dict[str, Any]) -> None:
    """Heavy weapons, deep LP and no PhR given: Criticals above level 20, of 16 DoF or more, resisted at PhR 3."""
    combatant.pop("physical_resistance", None)
    combatant["target"]["lp"] = 400
    combatant["attacker"]["weapon"]["damage"] = 30


BIG = loaded(fight_data("kaiser-troll", _big))
KINDS = ("turn", "ap_spent", "counter", "round", "damage", "ap_lost", "flat_footed", "critical", "penalty_fades")
KINDS += ("defense", "defense_restored")
CRIT = "kaiser: Critical (docs/kaiser.md#silent-critical)]"


def own_events(kind: str, fight: Any = TROLL) -> list[dict[str, Any]]:
    """Kaiser's own events of `kind` (the Counterattack Reaction, not the counterattack: an attack)."""
    found = [e for e in events_of(fight, [kind]) if "attacker" not in e]
    assert found, kind
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_kaiser_gm_words_of_each_kind_are_written_from_the_events_data(kind: str) -> None:
    for event in own_events(kind):
        assert gm_read(TROLL, event) == event["text"]


def test_a_critical_level_above_20_is_halved_in_its_words_from_the_events_level() -> None:
    """Critical: "any amount above 20 halved": the event carries the level's dice, base and level."""
    halved = [e for e in own_events("critical", BIG) if e["level"] != sum(e["level_dice"]) + e["base"]]
    assert halved
    for event in halved:
        raw = sum(event["level_dice"]) + event["base"]
        assert f"= {raw} -> {event['level']} (above 20 halved)" in gm_read(BIG, event) == event["text"]


def test_a_critical_of_16_dof_or_more_says_unconscious_from_the_events_dof() -> None:
    out = [e for e in own_events("critical", BIG) if e["dof"] >= 16]
    assert out
    for event in out:
        assert gm_read(BIG, event).endswith(": unconscious (DoF 16+), out of the fight  [" + CRIT)


def test_a_combatant_without_physical_resistance_resists_at_a_new_characters_phr_in_the_words() -> None:
    for event in own_events("critical", BIG):
        assert event["default_phr"] and event["phr"] == 3
        assert "has no physical_resistance: PhR 3, a new character's" in gm_read(BIG, event)


def hidden_said(fight: Any, kind: str) -> list[tuple[dict[str, Any], str]]:
    """Each event of `kind` told to players who do not read the numbers of the combatant it is about."""
    out = []
    for event in own_events(kind, fight):
        names = event.get("combatants") or [ch["who"] for ch in event["changes"] if ch["who"]]
        said = players_read(fight, event, audience(fight, secret=[event.get("combatant"), *names]))
        assert said is not None
        out.append((event, said))
    return out


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("ap_spent", "{} spends AP"),
        ("counter", "{} takes the Counterattack Reaction"),
        ("ap_lost", "{} loses an AP (a Successful Attack)"),
        ("flat_footed", "{} is Flat-Footed until the round ends"),
        ("defense", "{} has defended this round: its next Defensive Roll is at a Multiple Defense Penalty"),
    ],
)
def test_players_read_what_the_table_sees_of_a_kept_combatants_kaiser_event_and_every_number_of_a_shown_one(
    kind: str, words: str
) -> None:
    """AP spent and lost, the Counterattack Reaction (its Counter bonus: half the margin of a roll against its
    defence), Flat-Footed, the Multiple Defense Penalty: of a kept combatant, no number; of one whose numbers the
    players read, the game master's words; of an event stored before it carried its data, never the game master's
    words about a kept combatant (its changes told)."""
    for event, said in hidden_said(TROLL, kind):
        assert said == words.format(event["combatant"])
        assert players_read(TROLL, event, audience(TROLL)) == event["text"]
        stored = {k: event[k] for k in ("kind", "text", "changes")}  # stored before events carried their data
        assert players_read(TROLL, stored, audience(TROLL, secret=[event["combatant"]])) != event["text"]


def test_players_read_that_a_kept_combatants_all_action_penalty_fades_and_by_how_much_of_a_shown_one() -> None:
    for event, said in hidden_said(TROLL, "penalty_fades"):
        faded = [ch["who"] for ch in event["changes"] if ch["stat"] == "penalty"]
        assert said == "; ".join(f"{who}'s All Action Penalty fades" for who in faded)
        assert players_read(TROLL, event, audience(TROLL)) == event["text"]


def test_players_read_a_kept_combatants_lp_lost_as_a_health_word_or_unconscious_a_shown_ones_lp() -> None:
    said = {s for _, s in hidden_said(TROLL, "damage")}
    assert all(players_read(TROLL, e, audience(TROLL)) == e["text"] for e in own_events("damage"))
    assert said <= {f"{n} is {w}" for n in TROLL.roster.names for w in ("wounded", "bloodied", "hurt")} | {
        f"{n} is unconscious, out of the fight" for n in TROLL.roster.names
    }
    assert any(s.endswith("unconscious, out of the fight") for s in said)


def test_players_read_a_kept_combatants_critical_without_its_level_check_or_dof_a_shown_ones_in_full() -> None:
    said = {s for fight in (TROLL, BIG) for _, s in hidden_said(fight, "critical")}
    assert all(players_read(BIG, e, audience(BIG)) == e["text"] for e in own_events("critical", BIG))
    tails = (": no further effect", ": a penalty to all its actions", ": unconscious, out of the fight")
    assert all(s.endswith(tails) and not re.search(r"\d", s) for s in said), said
    assert {s.split(": ")[1] for s in said} == {t[2:] for t in tails}


def test_players_read_their_own_counter_bonus_they_add_to_their_offensive_roll() -> None:
    """The Counter bonus of a combatant whose numbers they read is told, the kept foe it counters or not."""
    for event in own_events("counter"):
        reader = audience(TROLL, secret=[event["target"]])
        assert players_read(TROLL, event, reader) == event["text"]
        assert f"Counter bonus +{event['bonus']}" in event["text"]


def test_players_read_the_multiple_defense_penalty_restarting_without_anyone_hidden_entirely() -> None:
    for event in own_events("defense_restored"):
        assert players_read(TROLL, event, audience(TROLL, secret=event["combatants"])) == event["text"]
        for gone in event["combatants"][:-1]:
            said = players_read(TROLL, event, audience(TROLL, absent=[gone]))
            assert said is not None and gone not in said and event["combatants"][-1] in said


def test_players_notice_an_attack_by_a_combatant_hidden_entirely_in_kaisers_words() -> None:
    attack = next(events_of(TROLL, ["attack"]))
    said = players_read(TROLL, attack, audience(TROLL, absent=[attack["attacker"]]))
    assert said is not None and said.startswith(f"an unseen attacker attacks {attack['target']}")
