"""Reclaim the Wild Distracted and Invisible as fight state (Status Effects: Distracted, Invisibility, via
the game's other pages), and policy `best` reading the statuses (rtw_status, `odds_fields`)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import load
from tests.fights.test_rtw_fight import changes, creature, fight, kinds
from tests.fights.test_rtw_map_fight import BOW, SHOOT
from tests.fights.test_rtw_map_fight import creature as map_creature
from tests.fights.test_rtw_map_fight import fight as map_fight
from tests.fights.test_rtw_status_fight import HIT, MISS, attack_events, bash
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights

SHOT = [{"name": "Shoot", "attack": {"range": "projectile"}}]
EXAMPLE = Path(__file__).parents[2] / "examples" / "fights" / "rtw-wizzrobe-trick.yaml"


def to_hit(log: Any, by: str, k: int = 0) -> tuple[int, str, str]:
    """(To-Hit total, Hard-to-Hit level, target) of `by`'s k-th attack."""
    event = attack_events(log, by)[k]
    return event["outcome"]["to_hit"], event["outcome"]["hard_to_hit"], event["target"]


def trio(b: dict[str, Any], a: dict[str, Any] | None = None, c: dict[str, Any] | None = None, **over: Any) -> Any:
    """A and C (side 0) against B (side 1); turn order A, B, C. Everyone misses on [1, 1], hits on [5, 5]."""
    return fight([creature("A", **(a or {})), creature("C", **(c or {}))], [creature("B", **b)], **over)


def quad(b: dict[str, Any], a: dict[str, Any] | None = None, c: dict[str, Any] | None = None, **over: Any) -> Any:
    """A and C (side 0) against D and B (side 1); turn order A, D, C, B: B acts after both of its foes."""
    mine = [creature("A", **(a or {})), creature("C", **(c or {}))]
    return fight(mine, [creature("D", target={"vitality": 12}), creature("B", **b)], **over)


# -- Distracted ---------------------------------------------------------------------------------------------------
def test_rtw_fight_distracted_every_foe_but_the_source_is_hard_to_hit() -> None:
    """Status Effects: Distracted: all foes are Hard to Hit (-2), except the source of the Distraction. B,
    Distracted by A, strikes C at 16 - 2 = 14 and A at 16."""
    for focus, expected in (("C", (14, "hard", "C")), ("A", (16, "none", "A"))):
        data = trio({"distracted_by": ["A"], "focus": focus}, max_rounds=1)
        log = narrate(load(data), seed=1, script=[MISS, HIT, MISS])
        assert to_hit(log, "B") == expected
    assert (
        "attacker Distracted by A: every other foe Hard to Hit"
        in attack_events(
            narrate(load(trio({"distracted_by": ["A"], "focus": "C"}, max_rounds=1)), seed=1, script=[MISS, HIT]), "B"
        )[0]["text"]
    )


def test_rtw_fight_distracted_source_drops_one_level_of_hard_to_hit() -> None:
    """Status Effects: Distracted: a source that would otherwise be Hard to Hit no longer is; Extremely Hard
    becomes merely Hard."""
    for level, expected in (("hard", (16, "none", "A")), ("extreme", (14, "hard", "A"))):
        data = trio({"distracted_by": ["A"], "focus": "A"}, a={"target": {"hard_to_hit": level}}, max_rounds=1)
        log = narrate(load(data), seed=1, script=[MISS, HIT])
        assert to_hit(log, "B") == expected
        assert "a source of the Distraction is one level less Hard to Hit" in attack_events(log, "B")[0]["text"]


def test_rtw_fight_distracted_by_several_none_of_the_sources_is_hard_to_hit() -> None:
    """Status Effects: Distracted by multiple things, none of the distracting foes is Hard to Hit; the other
    foes still are."""
    three = [creature("A"), creature("C"), creature("D")]
    for focus, expected in (("A", 16), ("C", 16), ("D", 14)):
        data = fight(three, [creature("B", distracted_by=["A", "C"], focus=focus)], max_rounds=1)
        log = narrate(load(data), seed=1, script=[MISS, HIT])
        assert to_hit(log, "B")[0] == expected


def test_rtw_fight_distracted_prone_source_is_not_hard_to_hit_with_a_projectile() -> None:
    """Status Effects: Prone makes a creature Hard to Hit with a Projectile; Distracted: a source that would
    otherwise be Hard to Hit no longer is (the drop comes after Prone). A Prone non-source is Hard (-2)."""
    prone = {"target": {"prone": True}}
    for focus, expected in (("A", (16, "none", "A")), ("C", (14, "hard", "C"))):
        b = creature("B", distracted_by=["A"], focus=focus, attacks=SHOT)
        data = fight([b], [creature("A", **prone), creature("C", **prone)], max_rounds=1)  # B acts first
        log = narrate(load(data), seed=1, script=[HIT])
        assert to_hit(log, "B") == expected
    # Melee on the Prone source: Prone exposes it (no Evasion, never Hard to Hit): 2 + 6 = 8 hits Evasion 20.
    b = creature("B", distracted_by=["A"], focus="A")
    data = fight([b], [creature("A", target={"prone": True, "evasion": 20}), creature("C")], max_rounds=1)
    log = narrate(load(data), seed=1, script=[MISS])
    assert attack_events(log, "B")[0]["outcome"]["result"] == "hit"


def test_rtw_fight_distracted_lands_from_its_source_and_ends_at_the_end_of_the_creatures_next_turn() -> None:
    """An effect that lands Distracts its target, its attacker the source (a bitmask of sources: A is bit 0); it
    ends at the end of the creature's next turn (the page gives no end: the fight's choice)."""
    data = trio({"focus": "C", "target": {"vitality": 12}}, a={"attacks": bash("Distracted")}, max_rounds=2)
    log = narrate(load(data), seed=1, script=[{**HIT, "effect": [6, 6]}, HIT, MISS, MISS, HIT])
    assert changes(log, "status") == [("B", "distracted", 0, 1)]
    assert "the effect lands: B is Distracted by A" in kinds(log, "status")[0]["text"]
    assert to_hit(log, "B", 0) == (14, "hard", "C")
    ends = kinds(log, "status_ends")[0]
    assert ("B", "distracted", 1, 0) in changes(log, "status_ends")
    assert ends["text"].startswith(
        "end of B's turn: Distracted ends (the page gives no end: docs/rtw.md#silent-status-ends)"
    )
    assert log.events.index(ends) > log.events.index(attack_events(log, "B")[0])
    assert to_hit(log, "B", 1) == (16, "none", "C")


def test_rtw_fight_a_second_source_joins_the_distraction() -> None:
    """Distracted by multiple things: a second source's effect adds its bit (A: 1, C: 2 -> 3); the same source
    again changes nothing."""
    distract = {"attacks": bash("Distracted"), "focus": "B"}
    lands = {**HIT, "effect": [6, 6]}
    data = quad({"target": {"vitality": 12, "health": 40, "hearts": 10}}, a=distract, c=distract, max_rounds=1)
    log = narrate(load(data), seed=1, script=[lands, MISS, lands, HIT])
    assert changes(log, "status") == [("B", "distracted", 0, 1), ("B", "distracted", 1, 3)]
    assert to_hit(log, "B") == (16, "none", "A")
    tough = {"vitality": 12, "health": 40, "hearts": 10}
    data = quad({"target": tough, "distracted_by": ["A"]}, a=distract, max_rounds=1)
    log = narrate(load(data), seed=1, script=[lands, MISS, MISS, MISS])
    assert changes(log, "status") == []
    assert "B is already Distracted by A: the effect changes nothing" in kinds(log, "status")[0]["text"]


# -- Invisible ----------------------------------------------------------------------------------------------------
def test_rtw_fight_invisible_target_its_attacker_is_treated_as_blinded() -> None:
    """Status Effects: Invisibility: treat the attacker as Blinded while trying to hit it: Extremely Hard to
    Hit (-5); a Boss attacker is merely Dazzled (-2)."""
    data = fight([creature("A")], [creature("B", target={"invisible": True})], max_rounds=1)
    log = narrate(load(data), seed=1, script=[HIT])
    assert to_hit(log, "A") == (11, "extreme", "B")
    assert (
        "target Invisible: the attacker is treated as Blinded, Extremely Hard to Hit"
        in attack_events(log, "A")[0]["text"]
    )
    boss = fight([creature("A", attacker={"boss": True})], [creature("B", target={"invisible": True})], max_rounds=1)
    assert to_hit(narrate(load(boss), seed=1, script=[HIT]), "A")[0] == 14


def test_rtw_fight_invisibility_ends_once_the_creature_is_struck() -> None:
    """Status Effects: Invisibility ends once the creature is struck: A's miss leaves B Invisible, C's hit (at
    -5) ends it, after the attack that struck it."""
    at_b = {"focus": "B"}
    data = quad({"target": {"invisible": True, "health": 40, "hearts": 10}}, a=at_b, c=at_b, max_rounds=2)
    log = narrate(load(data), seed=1, script=[MISS, MISS, {"to_hit": [6, 6]}, MISS, HIT])
    assert to_hit(log, "C") == (12 + 6 - 5, "extreme", "B")
    ends = kinds(log, "status_ends")
    assert changes(log, "status_ends") == [("B", "invisible", 1, 0)]
    assert (
        ends[0]["text"]
        == "B is struck: Invisibility ends  [Status Effects: Invisibility; docs/rtw.md#silent-status-effects]"
    )
    assert to_hit(log, "A", 1) == (16, "none", "B")


def test_rtw_fight_invisibility_ends_at_the_end_of_the_creatures_own_attack() -> None:
    """Status Effects: Invisibility ends once the creature makes an attack (at the attack's end), hit or miss."""
    data = fight([creature("B", target={"invisible": True})], [creature("A")], max_rounds=1)
    log = narrate(load(data), seed=1, script=[MISS, HIT])
    ends = kinds(log, "status_ends")[0]
    assert (
        ends["text"]
        == "B has made an attack: Invisibility ends  [Status Effects: Invisibility; docs/rtw.md#silent-status-effects]"
    )
    assert log.events.index(ends) > log.events.index(attack_events(log, "B")[0])
    assert to_hit(log, "A") == (16, "none", "B")


def test_rtw_fight_an_effect_may_make_its_target_invisible() -> None:
    """An effect named Invisibility (or Invisible) lands as the others do: its target is Invisible to the attacks
    that follow."""
    tough = {"vitality": 12, "health": 40, "hearts": 10}
    data = trio({"focus": "A", "target": tough}, a={"attacks": bash("Invisibility")})
    log = narrate(load({**data, "max_rounds": 1}), seed=1, script=[{**HIT, "effect": [6, 6]}, MISS, HIT])
    assert changes(log, "status")[0] == ("B", "invisible", 0, 1)
    assert (
        "[rtw: Landing the Blow; Status Effects: Invisibility; docs/rtw.md#silent-status-effects]"
        in kinds(log, "status")[0]["text"]
    )
    assert changes(log, "status_ends") == [("B", "invisible", 1, 0)]  # its own attack, a miss, ends it
    assert to_hit(log, "C") == (16, "none", "B")


# -- policy best ------------------------------------------------------------------------------------------------
def test_rtw_fight_best_policy_picks_the_source_of_its_distraction() -> None:
    """Policy `best` reads the attacker's Distraction: B picks C (Evasion 10) over A (Evasion 11); Distracted by
    A, C is Hard to Hit (-2) and A is not, so it picks A."""
    plain = trio({"policy": "best"}, a={"target": {"evasion": 11}}, max_rounds=1)
    assert to_hit(narrate(load(plain), seed=1, script=[MISS, HIT]), "B")[2] == "C"
    distracted = trio({"policy": "best", "distracted_by": ["A"]}, a={"target": {"evasion": 11}}, max_rounds=1)
    assert to_hit(narrate(load(distracted), seed=1, script=[MISS, HIT]), "B")[2] == "A"


def test_rtw_fight_best_policy_picks_a_prone_or_halted_target_and_the_attack_that_suits_it() -> None:
    """Policy `best` reads the target's statuses: A (Evasion 12) over C (Evasion 16); a Prone C has no Evasion
    against a Strike, so B strikes C; a Halted C (Evasion 0) too. Against a Prone C, B Strikes rather than
    Shoots (Prone: Hard to Hit with a Projectile)."""
    attacks = [*SHOT, {"name": "Strike"}]
    base = {"policy": "best", "attacks": attacks}
    log = narrate(
        load(trio(base, a={"target": {"evasion": 12}}, c={"target": {"evasion": 16}}, max_rounds=1)),
        seed=1,
        script=[MISS, HIT],
    )
    assert to_hit(log, "B")[2] == "A"
    for status in ("prone", "halted"):
        data = trio(base, a={"target": {"evasion": 12}}, c={"target": {"evasion": 16, status: True}}, max_rounds=1)
        log = narrate(load(data), seed=1, script=[MISS, HIT])
        event = attack_events(log, "B")[0]
        assert event["target"] == "C", status
        if status == "prone":
            assert event["attack"] == "Strike"


def test_rtw_fight_best_policy_avoids_an_invisible_foe() -> None:
    """Policy `best` reads the target's Invisibility: B picks the visible C (Evasion 10) over A (Evasion 9), whom
    it cannot see (Extremely Hard to Hit); once A has attacked, it picks A."""
    foes = [creature("A", target={"evasion": 9, "invisible": True}), creature("C")]
    data = fight([creature("B", policy="best")], foes, max_rounds=2)
    log = narrate(load(data), seed=1, script=[MISS, MISS, MISS, MISS])
    assert [to_hit(log, "B", k)[2] for k in range(2)] == ["C", "A"]


def test_rtw_fight_best_policy_on_a_map_reads_the_statuses() -> None:
    """On a map `best` ranks each placement at the grid's Hard to Hit with the statuses folded in: the archer
    shoots the nearer C (Evasion 10) rather than A (Evasion 11); A Distracting it turns it on A; an Invisible C
    (Extremely Hard to Hit) too."""
    open_field = ["........", "........", "........"]

    def shot(archer: dict[str, Any], c: dict[str, Any] | None = None) -> str:
        foes = [map_creature("A", [7, 0], target={"evasion": 11}), map_creature("C", [7, 2], **(c or {}))]
        data = map_fight(open_field, [archer], foes, max_rounds=1)
        data["sides"][0]["policy"] = "best"
        log = narrate(load(data), seed=1, script=[MISS])
        return str(attack_events(log, "Archer")[0]["target"])

    bow = {"attacker": {"weapon": BOW}, "attacks": [SHOOT]}
    assert shot(map_creature("Archer", [0, 1], **bow)) == "C"
    assert shot(map_creature("Archer", [0, 1], distracted_by=["A"], **bow)) == "A"
    assert shot(map_creature("Archer", [0, 1], **bow), c={"target": {"invisible": True}}) == "A"


# -- exact and both samplers -----------------------------------------------------------------------------------------
def test_rtw_fight_exact_agrees_with_simulation_with_distracted_and_invisible() -> None:
    """--exact keeps Distracted (its sources) and Invisible in the chain's state. In a duel the only foe is the
    source: A, Hard to Hit (Defending), Distracts B, which then finds A one level less Hard to Hit; B starts
    Invisible. Both Monte Carlo samplers agree with the exact win probability; without the effect it differs."""
    a = creature(
        "A",
        attacks=bash("Distracted"),
        target={"evasion": 10, "vitality": 9, "health": 27, "hearts": 7, "hard_to_hit": "hard"},
    )
    b = creature(
        "B",
        attacker={"accuracy": 3, "combat": 5},
        target={"evasion": 11, "vitality": 9, "health": 30, "hearts": 8, "invisible": True},
    )
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    assert 0.05 < p < 0.95
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=11, method=method)
        assert abs(sim.wins(0) / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, method
    plain = fight([{**a, "attacks": [{"name": "Strike"}]}], [b])
    assert exact_duel(load(plain)).wins[0] > exact.wins[0]  # Distracting B makes A easier to hit


def test_rtw_fight_two_against_one_distracted_by_hand_and_both_samplers() -> None:
    """A 2-v-1 (exact is for duels): A's Bash hits B (2d6 >= 4: 33/36) and Distracts it (2d6 + 6 vs Vitality 14:
    2d6 >= 8, 15/36); B (`best`) then strikes A, the source (Evasion 11: 2d6 >= 5, 30/36), else C (Evasion 10:
    2d6 >= 4, 33/36); one hit drops either (9 Health). So A falls with p = 33/36 x 15/36 x 30/36 and C with
    (1 - 33/36 x 15/36) x 33/36: both samplers agree."""
    data = trio(
        {"policy": "best", "target": {"vitality": 14, "health": 40, "hearts": 10}},
        a={"attacks": bash("Distracted"), "target": {"evasion": 11, "health": 9}},
        c={"target": {"health": 9}},
        max_rounds=1,
    )
    loaded = load(data)
    distracted = Fraction(33, 36) * Fraction(15, 36)
    falls = {0: distracted * Fraction(30, 36), 1: (1 - distracted) * Fraction(33, 36)}  # A is 0, C is 1
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=3, method=method)
        for c, p_fall in falls.items():
            p = float(p_fall)
            fallen = n - int(sim.tally.standing[c])
            assert abs(fallen / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, (method, c)


# -- bad input, replay, the example -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        ("attacker", {"distracted": True}, "sides[1].combatants[0].attacker.distracted"),
        ("target", {"distracting": True}, "sides[1].combatants[0].target.distracting"),
        ("distracted_by", ["Nobody"], "sides[1].combatants[0].distracted_by[0]"),
        ("distracted_by", ["B"], "sides[1].combatants[0].distracted_by[0]"),
    ],
)
def test_rtw_fight_a_distraction_without_its_source_is_refused(
    tmp_path: Path, where: str, value: Any, field: str
) -> None:
    """In a fight a Distraction has its sources (`distracted_by`, foes of the combatant): the scenario's
    `attacker.distracted` / `target.distracting`, an unknown name or the combatant itself are one line naming
    the file and field, exit code 2."""
    data = trio({where: value})
    with pytest.raises(InputError) as err:
        load(data)
    message = str(err.value)
    assert message.startswith(f"fight.yaml: {field}: ") and "\n" not in message
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2 and field in result.output


def test_rtw_fight_example_and_replay_rebuild_distracted_and_invisible(tmp_path: Path) -> None:
    """The example fight shows Distracted and Invisible in play; `tohit replay` rebuilds them from the events
    and matches the recorded end."""
    log = tmp_path / "events.jsonl"
    result = CliRunner().invoke(app, ["fight", str(EXAMPLE), "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert "Distracted by" in result.output and "Invisibility ends" in result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    landed = next(e for e in events if e["kind"] == "status" and e["changes"][0]["stat"] == "distracted")
    result = CliRunner().invoke(app, ["replay", str(log), "--until", str(landed["n"]), "--json"])
    assert result.exit_code == 0, result.output
    change = landed["changes"][0]
    assert json.loads(result.output)["state"]["combatants"][change["who"]]["distracted"] == change["to"]
    result = CliRunner().invoke(app, ["replay", str(log), "--json"])
    assert json.loads(result.output)["matches_recorded_end"] is True
