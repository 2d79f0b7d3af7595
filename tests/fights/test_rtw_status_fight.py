"""Reclaim the Wild statuses as fight state (rtw: Landing the Blow; Status Effects via the game's other pages):
an additional effect that lands puts its status on the target, the status changes the attacks that follow, and
it ends when the page says (or the fight's documented choice)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import load
from tests.fights.test_rtw_fight import changes, creature, fight, kinds
from tests.fights.test_rtw_map_fight import BOW, ROCK, SHOOT
from tests.fights.test_rtw_map_fight import creature as map_creature
from tests.fights.test_rtw_map_fight import fight as map_fight
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

#: 10 + Accuracy 3 + ACC 3 = 16: hits Evasion 10; 6 + 3 = 9 damage.
HIT = {"to_hit": [5, 5]}
MISS = {"to_hit": [1, 1]}


def bash(name: str, against: str = "vitality") -> list[dict[str, Any]]:
    """One melee Strike whose additional effect inflicts `name`."""
    return [{"name": "Bash", "attack": {"effect": {"name": name, "against": against}}}]


def duel(effect: str = "Off-Balance", a: dict[str, Any] | None = None, b: dict[str, Any] | None = None) -> Any:
    """One round: A (with the effect) against B (Evasion 10, Vitality 12, 40 Health); A acts first."""
    first = creature("A", attacks=bash(effect), **(a or {}))
    b = dict(b or {})
    target = {"vitality": 12, "health": 40, "hearts": 10, "max_health": 40, **b.pop("target", {})}
    return fight([first], [creature("B", target=target, **b)], max_rounds=1)


def attack_events(log: Any, by: str) -> list[dict[str, Any]]:
    return [e for e in kinds(log, "attack") if e["attacker"] == by]


def test_rtw_fight_an_effect_that_lands_puts_its_status_on_the_target() -> None:
    """rtw: Landing the Blow: the effect rolls To-Hit (2d6 + 6) vs Vitality 12 (or Evasion, the higher) once the
    attack hits; when it lands its status is kept, as an event, with the clause cited."""
    log = narrate(load(duel("Prone")), seed=1, script=[{**HIT, "effect": [3, 3]}, MISS])
    assert changes(log, "status") == [("B", "prone", 0, 1)]
    text = kinds(log, "status")[0]["text"]
    assert (
        "B is Prone" in text
        and "[rtw: Landing the Blow; Status Effects: Prone; docs/rtw.md#silent-status-effects]" in text
    )


def test_rtw_fight_a_missed_attack_inflicts_no_effect() -> None:
    """rtw: Landing the Blow: a missed attack acts as if it never happened: no effect is enacted."""
    log = narrate(load(duel("Prone")), seed=1, script=[{**MISS, "effect": [6, 6]}, MISS])
    assert changes(log, "status") == []
    assert changes(log, "damage") == []


def test_rtw_fight_a_missed_effect_still_deals_damage() -> None:
    """rtw: Landing the Blow: if an attack's Effect misses, the attack still deals damage."""
    log = narrate(load(duel("Prone")), seed=1, script=[{**HIT, "effect": [1, 1]}, MISS])
    assert changes(log, "status") == []
    assert changes(log, "damage")[0] == ("B", "health", 40, 31)


def test_rtw_fight_off_balance_target_cannot_use_evasion_in_place_of_vitality() -> None:
    """rtw: Landing the Blow (docs/rtw.md#silent-defence-stat): Evasion may stand in for Vitality unless the defender
    is Off-Balance. B has Evasion 14 and Vitality 11; the effect rolls 5 + 6 = 11: it lands only on the Off-Balance
    B."""
    steady = {"target": {"evasion": 14, "vitality": 11, "health": 40, "hearts": 10, "max_health": 40}}
    log = narrate(load(duel("Prone", b=steady)), seed=1, script=[{"to_hit": [6, 6], "effect": [2, 3]}, MISS])
    assert changes(log, "status") == []
    off = {"target": {**steady["target"], "off_balance": True}}
    log = narrate(load(duel("Prone", b=off)), seed=1, script=[{"to_hit": [6, 6], "effect": [2, 3]}, MISS])
    assert changes(log, "status") == [("B", "prone", 0, 1)]
    assert (
        "(target Off-Balance  [Status Effects; docs/rtw.md#silent-status-effects])"
        in attack_events(log, "A")[0]["text"]
    )


def test_rtw_fight_off_balance_ends_at_the_start_of_the_creatures_next_turn() -> None:
    """Status Effects: Off-Balance ends at the beginning of the creature's next turn (the game's other pages)."""
    log = narrate(load(duel("Off-Balance")), seed=1, script=[{**HIT, "effect": [6, 6]}, MISS, MISS])
    kinds_in_order = [(e["kind"], [c["stat"] for c in e["changes"]]) for e in log.events]
    landed = kinds_in_order.index(("status", ["off_balance"]))
    ends = kinds_in_order.index(("status_ends", ["off_balance"]))
    b_attacks = log.events.index(attack_events(log, "B")[0])
    assert landed < ends < b_attacks
    assert ("B", "off_balance", 1, 0) in changes(log, "status_ends")
    assert "start of B's turn: Off-Balance ends  [Status Effects: Off-Balance; docs/rtw.md#silent-status-effects]" in [
        e["text"] for e in kinds(log, "status_ends")
    ]


def test_rtw_fight_off_balance_creature_cannot_use_reactions() -> None:
    """Status Effects: an Off-Balance creature cannot use Reactions (a Reaction is still allowed against the
    attack that set it Off-Balance). B Deflects (damage 9 halved: 4). A's Bash sets B Off-Balance; C strikes
    next: in the order A, B, C, B's turn has ended it (halved); in the order B, A, C it has not (9)."""
    guarded = creature(
        "B", target={"vitality": 12, "health": 40, "hearts": 10, "max_health": 40, "reaction": "deflect"}
    )
    a, c = creature("A", attacks=bash("Off-Balance")), creature("C")
    log = narrate(load(fight([a, c], [guarded])), seed=1, script=[{**HIT, "effect": [6, 6]}, MISS, HIT])
    assert [x for x in changes(log, "damage") if x[0] == "B"][:2] == [("B", "health", 40, 36), ("B", "health", 36, 32)]
    log = narrate(load(fight([guarded], [a, c])), seed=1, script=[MISS, {**HIT, "effect": [6, 6]}, HIT])
    assert [x for x in changes(log, "damage") if x[0] == "B"][:2] == [("B", "health", 40, 36), ("B", "health", 36, 27)]
    assert "target Off-Balance" in attack_events(log, "C")[0]["text"]


def test_rtw_fight_prone_target_has_no_evasion_against_melee() -> None:
    """Status Effects: a Prone creature cannot use Evasion against Melee attacks: 2 + 6 = 8 hits Evasion 20."""
    high = {"target": {"evasion": 20, "vitality": 12, "health": 40, "hearts": 10, "max_health": 40}}
    log = narrate(load(duel("Prone", b=high)), seed=1, script=[{**MISS, "effect": [1, 1]}])
    assert attack_events(log, "A")[0]["outcome"]["result"] == "miss"
    prone = {"target": {**high["target"], "prone": True}}
    log = narrate(load(duel("Prone", b=prone)), seed=1, script=[{**MISS, "effect": [1, 1]}])
    assert attack_events(log, "A")[0]["outcome"]["result"] == "hit"


def test_rtw_fight_prone_target_is_hard_to_hit_with_a_projectile() -> None:
    """Status Effects: a Prone creature is Hard to Hit with every attack but Melee, Line and X targets."""
    shot = [{"name": "Shoot", "attack": {"range": "projectile"}}]
    data = fight([creature("A", attacks=shot)], [creature("B", target={"prone": True})])
    log = narrate(load(data), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["to_hit"] == 14  # 16 - 2


def test_rtw_fight_prone_creature_stands_up_at_the_start_of_its_turn_and_attacks() -> None:
    """Status Effects: it takes half the creature's Movement to stand up; while Prone it cannot attack."""
    data = fight([creature("A")], [creature("B", target={"prone": True})])
    log = narrate(load(data), seed=1, script=[MISS, MISS])
    assert ("B", "prone", 1, 0) in changes(log, "stands_up")
    stood = log.events.index(kinds(log, "stands_up")[0])
    assert stood < log.events.index(attack_events(log, "B")[0])


def test_rtw_fight_prone_and_halted_creature_cannot_stand_up_or_attack() -> None:
    """Status Effects: if Halted, a Prone creature cannot stand up; while Prone it cannot make attacks. Halted
    ends at the end of its next turn (the fight's choice), then it stands up the turn after."""
    data = fight([creature("A")], [creature("B", target={"prone": True, "halted": True})], max_rounds=2)
    log = narrate(load(data), seed=1, script=[MISS, MISS, MISS])
    b = attack_events(log, "B")
    rounds = [e for e in log.events if e["kind"] == "round"]
    assert len(b) == 1 and log.events.index(b[0]) > log.events.index(rounds[0])  # only in round 2
    assert "B is Prone and Halted: it cannot stand up" in " ".join(e["text"] for e in kinds(log, "prone"))
    assert ("B", "halted", 1, 0) in changes(log, "status_ends")
    assert ("B", "prone", 1, 0) in changes(log, "stands_up")


def test_rtw_fight_halted_target_has_evasion_0() -> None:
    """Status Effects: while Halted, Evasion is 0: 2 + 6 = 8 hits Evasion 20."""
    data = duel(
        "Halted",
        b={"target": {"evasion": 20, "vitality": 12, "health": 40, "hearts": 10, "max_health": 40, "halted": True}},
    )
    log = narrate(load(data), seed=1, script=[{**MISS, "effect": [1, 1]}])
    assert attack_events(log, "A")[0]["outcome"]["result"] == "hit"


def test_rtw_fight_halted_blinded_dazzled_end_at_the_end_of_the_creatures_next_turn() -> None:
    """Status Effects: Blinded and Dazzled end at the end of the creature's next turn; Halted too (the fight's
    choice); each as an event after the creature's attack."""
    for effect, stat in (("Blinded", "blinded"), ("Dazzled", "dazzled"), ("Halted", "halted")):
        log = narrate(load(duel(effect)), seed=1, script=[{**HIT, "effect": [6, 6]}, MISS, MISS])
        assert changes(log, "status") == [("B", stat, 0, 1)]
        ends = kinds(log, "status_ends")[0]
        assert log.events.index(ends) > log.events.index(attack_events(log, "B")[0])
        assert ends["text"].startswith(f"end of B's turn: {effect} ends")


def test_rtw_fight_blinded_attacker_finds_every_foe_extremely_hard_to_hit() -> None:
    """Status Effects: Blinded: every foe is Extremely Hard to Hit (-5); the attacker block's `blinded` is the
    combatant's starting status, which ends at the end of its first turn."""
    data = fight([creature("A", attacker={"blinded": True})], [creature("B")])
    log = narrate(load(data), seed=1, script=[HIT, MISS, HIT])
    a = attack_events(log, "A")
    assert (a[0]["outcome"]["to_hit"], a[0]["outcome"]["hard_to_hit"]) == (11, "extreme")
    assert "attacker Blinded: every foe Extremely Hard to Hit" in a[0]["text"]
    assert ("A", "blinded", 1, 0) in changes(log, "status_ends")
    assert (a[1]["outcome"]["to_hit"], a[1]["outcome"]["hard_to_hit"]) == (16, "none")


def test_rtw_fight_a_blinded_boss_is_merely_dazzled() -> None:
    """Status Effects: Blinded: Mini-Bosses and Bosses are merely Dazzled (-2)."""
    data = fight([creature("A", attacker={"blinded": True, "boss": True})], [creature("B")])
    log = narrate(load(data), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["to_hit"] == 14


def test_rtw_fight_dazzled_attacker_finds_every_foe_hard_to_hit() -> None:
    """Status Effects: Dazzled: every foe is Hard to Hit (-2); a Spell must then roll To-Hit vs Evasion."""
    data = fight([creature("A", attacker={"dazzled": True})], [creature("B")])
    log = narrate(load(data), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["to_hit"] == 14
    spell = [{"name": "Salvo", "attack": {"kind": "spell", "range": "projectile"}}]
    data = fight([creature("A", attacker={"dazzled": True}, attacks=spell)], [creature("B", target={"evasion": 16})])
    log = narrate(load(data), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["result"] == "miss"  # 14 vs 16: it had to roll


def test_rtw_fight_blindness_and_hard_to_hit_never_stack() -> None:
    """docs/rtw.md#silent-hard-to-hit: Hard and Extremely Hard to Hit replace each other, never stack: a Dazzled
    attacker against a target that is Hard to Hit anyway takes -2, not -4; with
    `several_hard_to_hit_sources_are_extreme` -5."""
    data = fight([creature("A", attacker={"dazzled": True})], [creature("B", target={"hard_to_hit": "hard"})])
    log = narrate(load(data), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["to_hit"] == 14
    log = narrate(load({**data, "options": {"several_hard_to_hit_sources_are_extreme": True}}), seed=1, script=[HIT])
    assert attack_events(log, "A")[0]["outcome"]["to_hit"] == 11


def test_rtw_fight_blindness_and_cover_on_a_map_never_stack() -> None:
    """docs/rtw.md#silent-hard-to-hit on a map: a Blinded archer shooting a foe behind cover takes -5 (Extremely), not
    -7; the narration gives both reasons."""
    archer = map_creature("Archer", [0, 0], attacker={"weapon": BOW, "blinded": True}, attacks=[SHOOT])
    data = map_fight(ROCK, [archer], [map_creature("Hidden", [5, 1])], max_rounds=1)
    log = narrate(load(data), seed=1, script=[{"to_hit": [6, 6]}])
    shot = attack_events(log, "Archer")[0]
    assert (shot["outcome"]["to_hit"], shot["outcome"]["hard_to_hit"]) == (14, "extreme")  # 12 + 7 - 5
    assert "behind cover" in shot["text"] and "attacker Blinded" in shot["text"]


def test_rtw_fight_an_effect_the_fight_cannot_play_is_refused(tmp_path: Path) -> None:
    """An effect the fight does not play (Frozen...) is one line naming the file and field, exit code 2."""
    data = duel("Frozen")
    with pytest.raises(InputError) as err:
        load(data)
    message = str(err.value)
    assert message.startswith("fight.yaml: sides[0].combatants[0].attacks[0].attack.effect.name: ")
    assert "'Frozen'" in message and "Off-Balance, Prone, Halted, Blinded, Dazzled, Distracted and Invisible" in message
    assert "\n" not in message
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2 and "attack.effect.name" in result.output


def test_rtw_fight_effect_names_are_read_loosely() -> None:
    """ "Off-Balance", "off balance" and "OFF_BALANCE" name the same status."""
    for name in ("Off-Balance", "off balance", "OFF_BALANCE"):
        log = narrate(load(duel(name)), seed=1, script=[{**HIT, "effect": [6, 6]}])
        assert changes(log, "status") == [("B", "off_balance", 0, 1)]


def test_rtw_fight_a_sight_status_on_one_attack_is_refused() -> None:
    """Blinded is the combatant's status (its starting state), not one attack's: refused on an attack's
    attacker overrides, naming the field."""
    data = fight([creature("A", attacks=[{"name": "Strike", "attacker": {"blinded": True}}])], [creature("B")])
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith("fight.yaml: sides[0].combatants[0].attacks[0].attacker.blinded: ")


def test_rtw_fight_an_effect_on_a_creature_it_drops_is_not_kept() -> None:
    """A creature the attack leaves at 0 Health falls (Falling in Battle); its effect's status is not kept."""
    data = duel("Prone", b={"target": {"vitality": 12, "health": 9, "hearts": 2}})
    log = narrate(load(data), seed=1, script=[{**HIT, "effect": [6, 6]}])
    assert changes(log, "status") == []
    assert ("B", "perished", 0, 1) in changes(log, "falls")


def test_rtw_fight_exact_agrees_with_simulation_with_effects_that_land() -> None:
    """--exact keeps each status in the chain's state: its win probability agrees with both Monte Carlo
    samplers on a duel where Blinded, Dazzled and Off-Balance land. (In a duel Off-Balance, Prone and Halted
    end before the afflicted creature's foe strikes again; Blinded and Dazzled change its own next attack.)"""
    a = creature("A", attacks=bash("Blinded"), target={"vitality": 9, "health": 30, "hearts": 8, "reaction": "deflect"})
    b = creature(
        "B",
        attacker={"accuracy": 3, "combat": 6},
        attacks=[
            {"name": "Trip", "attack": {"effect": {"name": "Off-Balance", "against": "vitality"}}},
            {"name": "Flash", "attack": {"effect": {"name": "Dazzled", "against": "vitality"}}},
        ],
        target={"evasion": 11, "vitality": 9, "health": 30, "hearts": 8},
    )
    data = fight([a], [b])
    data["sides"][1]["policy"] = "random"
    loaded = load(data)
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    assert 0.05 < p < 0.99
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=5, method=method)
        assert abs(sim.wins(0) / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, method
    # The statuses change the odds: without the effects A's chance differs.
    for comb in (a, b):
        for entry in comb["attacks"]:
            entry["attack"] = {}
    plain = fight([a], [b])
    plain["sides"][1]["policy"] = "random"
    assert exact_duel(load(plain)).wins[0] != exact.wins[0]


def test_rtw_fight_replay_rebuilds_the_statuses(tmp_path: Path) -> None:
    """tohit replay rebuilds the statuses from the events and matches the recorded end."""
    example = Path(__file__).parents[2] / "examples" / "fights" / "rtw-lizalfos-ambush.yaml"
    log = tmp_path / "events.jsonl"
    result = CliRunner().invoke(app, ["fight", str(example), "--log", str(log)])
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    statuses = {c["stat"] for e in events if e["kind"] == "status" for c in e["changes"]}
    assert {"off_balance", "prone", "blinded"} <= statuses
    landed = next(e for e in events if e["kind"] == "status")
    result = CliRunner().invoke(app, ["replay", str(log), "--until", str(landed["n"]), "--json"])
    assert result.exit_code == 0, result.output
    change = landed["changes"][0]
    assert json.loads(result.output)["state"]["combatants"][change["who"]][change["stat"]] == 1
    result = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert json.loads(result.output)["matches_recorded_end"] is True


def test_rtw_fight_table_and_direct_samplers_agree_with_statuses_in_play() -> None:
    """Both Monte Carlo samplers play the statuses alike (the overrides of the target block group the table
    sampler's rows): the example ambush, where Off-Balance, Prone, Halted and Blinded land on several foes."""
    example = Path(__file__).parents[2] / "examples" / "fights" / "rtw-lizalfos-ambush.yaml"
    loaded = load(yaml.safe_load(example.read_text()))
    n = 40_000
    table = simulate_fights(loaded, n, seed=1).wins(1) / n
    direct = simulate_fights(loaded, n, seed=2, method="direct").wins(1) / n
    p = (table + direct) / 2
    assert 0.05 < p < 0.95
    assert abs(table - direct) < 4.5 * (2 * p * (1 - p) / n) ** 0.5
