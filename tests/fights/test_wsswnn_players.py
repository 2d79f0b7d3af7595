"""What the players are told of WSSWNN's own events (systems/wsswnn/players.py; docs/players.md): a kept foe's
Life, Guard, Awareness, Stamina and rolls never; one hidden entirely is "someone"; a shown one's in the game
master's words, written from each event's data (systems/wsswnn/narrate.py)."""

from __future__ import annotations

from typing import Any

from tests.conftest import EXAMPLES
from tests.fights.helpers import kinds, load
from tests.fights.players_told import audience, numbers, told_of
from tests.fights.test_wsswnn_braces import SHOVE, foe, wrestler
from tests.fights.test_wsswnn_fight import fight, hero
from tohit.core.fight.contract import LoadedFight
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate

GRAPPLE = load_fight(EXAMPLES / "fights" / "wsswnn-grapple-and-archer.yaml")
GRAPPLE_EVENTS = narrate(GRAPPLE, seed=2).events
WRESTLER = load_fight(EXAMPLES / "fights" / "wsswnn-wrestler-and-axe.yaml")
WRESTLER_EVENTS = [*narrate(WRESTLER, seed=1).events, *narrate(WRESTLER, seed=3).events[1:]]


def _first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["kind"] == kind)


def _both(fight: LoadedFight, events: list[dict[str, Any]], event: dict[str, Any], who: str) -> tuple[str, str]:
    """The players' words of `event` with `who`'s numbers kept from them, and with nobody kept."""
    kept = told_of(fight, event, audience(fight, events, secret=[who]))
    shown = told_of(fight, event, audience(fight, events))
    assert kept is not None and shown is not None
    return kept, shown


def test_a_kept_foes_hurt_is_its_health_word_and_which_of_guard_and_awareness_fall() -> None:
    hurt = next(e for e in GRAPPLE_EVENTS if e["kind"] == "damage" and e["text"].startswith("Ket: Life"))
    kept, shown = _both(GRAPPLE, GRAPPLE_EVENTS, hurt, "Ket")
    assert shown == hurt["text"]
    assert kept.split(", ")[0] in ("Ket: wounded", "Ket: bloodied", "Ket: out of the fight")
    assert not numbers(kept, GRAPPLE.roster.names)
    block = next(e for e in GRAPPLE_EVENTS if e["kind"] == "damage" and e["text"].startswith("Ket: Guard"))
    assert told_of(GRAPPLE, block, audience(GRAPPLE, GRAPPLE_EVENTS, secret=["Ket"])) == "Ket: Guard falls"


def test_a_kept_foes_mighty_blow_is_told_without_its_stamina() -> None:
    blow = _first(GRAPPLE_EVENTS, "mighty_blow")
    kept, shown = _both(GRAPPLE, GRAPPLE_EVENTS, blow, blow["combatant"])
    assert kept == f"{blow['combatant']} strikes a Mighty Blow" and shown == blow["text"] and "Stamina" in shown


def test_a_shot_into_the_grapple_about_one_kept_is_told_without_its_roll() -> None:
    shot = _first(GRAPPLE_EVENTS, "into_grapple")
    assert shot["text"].startswith("Sena's shot into the grapple rolled 3, an odd number")
    odd = "into the grapple rolled an odd number: it hits the other grappler, Oru, not Ket"
    for kept in ("Sena", "Ket", "Oru"):
        assert told_of(GRAPPLE, shot, audience(GRAPPLE, GRAPPLE_EVENTS, secret=[kept])) == f"Sena's shot {odd}"
    assert told_of(GRAPPLE, shot, audience(GRAPPLE, GRAPPLE_EVENTS)) == shot["text"]
    assert told_of(GRAPPLE, shot, audience(GRAPPLE, GRAPPLE_EVENTS, absent=["Sena"])) == f"a shot {odd}"


def test_a_grapple_with_one_hidden_entirely_calls_it_someone() -> None:
    hold = _first(GRAPPLE_EVENTS, "grapple")
    grappler, held = hold["combatant"], hold["foe"]
    said = told_of(GRAPPLE, hold, audience(GRAPPLE, GRAPPLE_EVENTS, absent=[held]))
    assert said is not None and said.startswith(f"{grappler} grapples someone:") and held not in said
    assert told_of(GRAPPLE, hold, audience(GRAPPLE, GRAPPLE_EVENTS, secret=[held])) == hold["text"]


def test_a_grapple_that_ends_with_one_hidden_entirely_calls_it_someone() -> None:
    ends = next(e for e in WRESTLER_EVENTS if e["kind"] == "grapple_ends" and not e.get("lets_go"))
    said = told_of(WRESTLER, ends, audience(WRESTLER, WRESTLER_EVENTS, absent=[ends["foe"]]))
    assert said is not None and said.startswith(f"{ends['combatant']} takes lethal damage: its grapple on someone ends")
    assert told_of(WRESTLER, ends, audience(WRESTLER, WRESTLER_EVENTS, secret=[ends["foe"]])) == ends["text"]


def test_a_kept_foes_skip_says_what_it_regains_never_the_values() -> None:
    skip = _first(WRESTLER_EVENTS, "skip")
    kept, shown = _both(WRESTLER, WRESTLER_EVENTS, skip, skip["combatant"])
    assert kept == f"{skip['combatant']} skips its action to regain Guard" and shown == skip["text"]


def test_a_kept_foes_resistance_to_a_brace_is_told_without_its_stamina() -> None:
    resist = _first(WRESTLER_EVENTS, "resist")
    kept, shown = _both(WRESTLER, WRESTLER_EVENTS, resist, resist["combatant"])
    assert kept == f"{resist['combatant']} resists the {resist['brace']}" and shown == resist["text"]


def test_a_disarm_holds_no_number_and_is_told_as_written() -> None:
    disarm = _first(WRESTLER_EVENTS, "disarm")
    kept, shown = _both(WRESTLER, WRESTLER_EVENTS, disarm, disarm["combatant"])
    assert kept == shown == disarm["text"]


def test_a_kept_foes_stand_fast_is_told_without_its_guard() -> None:
    stand = {"name": "Stand Fast", "attack": {"kind": "brace", "brace": "stand_fast"}}
    b = hero(
        "B", stand_fast_at=2, attacker={"brace_die": "d8"}, target={"guard": 2}, attacks=[{"name": "spear"}, stand]
    )
    data = load(fight([hero("A")], [b]))
    log = narrate(data, seed=1, script=[{"attack": [1]}, {"brace": [6]}])
    roll, event = kinds(log, "stand_fast")[:2]
    kept, shown = _both(data, log.events, event, "B")
    assert kept == "B Stands Fast" and shown == event["text"] == "B Stands Fast: Guard 2 -> 3"
    assert (
        _both(data, log.events, roll, "B")
        == (roll["text"], roll["text"])
        == ("B attacks B with Stand Fast: success",) * 2
    )


def test_a_shove_with_one_hidden_entirely_calls_it_someone() -> None:
    data = load(fight([wrestler("A")], [foe(attacks=[SHOVE])]))
    log = narrate(data, seed=1, script=[{"attack": [6], "brace": [9]}, {"brace": [6]}])
    shove = kinds(log, "shove")[0]
    assert shove["text"].startswith("B shoves A out of its span or hold; its grapple ends")
    said = told_of(data, shove, audience(data, log.events, absent=["A"]))
    assert said is not None and said.startswith("B shoves someone out of its span or hold; its grapple ends")


def test_a_kept_jumpers_fall_is_its_health_word_never_the_life_and_guard_it_loses() -> None:
    leap = {"name": "leap", "attack": {"kind": "jump", "heights": 2}}
    data = load(fight([hero("J", attacker={"maneuver_die": "d8"}, attacks=[leap])], [hero("B")]))
    log = next(log for seed in range(1, 40) if kinds(log := narrate(data, seed=seed), "fall"))
    event = kinds(log, "fall")[0]
    kept, shown = _both(data, log.events, event, "J")
    assert kept in ("J falls: unhurt", "J falls: wounded", "J falls: bloodied", "J falls: down")
    assert shown == event["text"] and shown.startswith("J falls: -")


def test_an_attack_by_a_foe_hidden_entirely_is_told_as_an_unnoticed_foe() -> None:
    attack = next(e for e in GRAPPLE_EVENTS if e["kind"] == "attack" and e["attacker"] == "Ket")
    said = told_of(GRAPPLE, attack, audience(GRAPPLE, GRAPPLE_EVENTS, absent=["Ket"]))
    assert said is not None and said.startswith(f"an unnoticed foe attacks {attack['target']}")
