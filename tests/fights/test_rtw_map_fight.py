"""Reclaim the Wild fights on a map (issue 8, "an optional `map` (rtw)"): each attack reaches what the grid says
from where its user stands; cover and a Projectile with a foe adjacent make a foe Hard to Hit; areas skip the
Helpless and may catch allies; a combatant with no foe in reach even after its move holds its ground (movement:
test_rtw_map_movement.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import fight_file, load, merged
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.grid.models import BlastRange
from tohit.core.grid.reach import projectile_targets, reach
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.systems.rtw.fight import RtwFight

HIT = {"to_hit": [5, 4]}
MISS = {"to_hit": [1, 1]}
#: The rock at (2, 1): from (0, 0), a foe at (5, 1) is behind cover (a corner-to-corner line crosses the rock)
#: though a Projectile's centre-to-centre path to it is clear; a foe at (5, 0) stands in the open.
ROCK = ["......", "..#...", "......"]
BOW = {"name": "bow", "attack_power": 5, "acc": 4, "damage_type": "piercing"}
SHOOT = {"name": "Shoot", "attack": {"range": {"type": "projectile", "size": 8}}}


def creature(name: str, position: list[int], **over: Any) -> dict[str, Any]:
    """Melee: 2d6 + 3 + 3 To-Hit, 6 + 3 = 9 damage; Evasion 10, 20 Health."""
    comb: dict[str, Any] = {
        "name": name,
        "position": position,
        "attacker": {
            "accuracy": 3,
            "combat": 3,
            "weapon": {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp"},
        },
        "target": {"evasion": 10, "health": 20, "hearts": 5},
        "attacks": [{"name": "Strike", "attack": {"range": {"type": "melee"}}}],
    }
    return merged(comb, over)


def archer(name: str, position: list[int], **over: Any) -> dict[str, Any]:
    """Projectile 8: 2d6 + 3 + 4 To-Hit, 5 + 3 = 8 damage."""
    attacker = {"weapon": BOW, **over.pop("attacker", {})}
    return creature(name, position, attacker=attacker, attacks=[SHOOT], **over)


def fight(rows: list[str], *sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    return fight_file("rtw", *sides, **{"map": {"rows": rows}, **over})


def attacks(log: Any, by: str) -> list[dict[str, Any]]:
    return [e for e in log.events if e["kind"] == "attack" and e["attacker"] == by]


def steps(event: dict[str, Any]) -> list[str]:
    return [s["text"] for s in event["trace"]]


def test_rtw_map_fight_golden_a_foe_behind_cover_is_hard_to_hit_in_the_trace() -> None:
    """rtw: Attacking Foes behind Cover (docs/rtw.md#silent-cover): a line from a corner of the attacker's square to a
    corner of the foe's crosses a solid square: the foe is Hard to Hit (-2). The foe in the open is not."""
    data = fight(
        ROCK,
        [archer("Archer", [0, 0])],
        [creature("Hidden", [5, 1]), creature("Open", [5, 0], target={"evasion": 12})],
        max_rounds=2,
    )
    log = narrate(load(data), seed=1, script=[HIT, HIT])
    shots = attacks(log, "Archer")
    first, second = shots[0], shots[1]
    assert first["target"] == "Hidden"
    assert first["text"] == (
        "Archer attacks Hidden with Shoot (Projectile 8 at Hidden; Hard to Hit: behind cover (line (0,1)-(5,2)"
        " crosses solid square (2,1))): hit, 8 damage"
    )
    assert steps(first)[:2] == [
        "Hard to Hit (cover or other circumstances): Hard to Hit (-2)",
        "To-Hit 2d6 (5, 4) + Accuracy 3 + weapon ACC 4 - 2 (Hard to Hit) = 14 vs Evasion 10: hit",
    ]
    assert second["target"] == "Hidden"  # policy first: the same foe while it stands
    # Without the rock: no cover, no Hard to Hit: the same dice make 16.
    open_map = narrate(load({**data, "map": {"rows": ["......"] * 3}}), seed=1, script=[HIT])
    plain = attacks(open_map, "Archer")[0]
    assert "Hard to Hit" not in plain["text"]
    assert steps(plain)[0] == "To-Hit 2d6 (5, 4) + Accuracy 3 + weapon ACC 4 = 16 vs Evasion 10: hit"


def test_rtw_map_fight_golden_a_foe_out_of_reach_is_not_attacked() -> None:
    """Melee reaches only an adjacent foe (rtw: Attack Ranges, Melee): the Knight (policy weakest) never attacks
    the weaker foe it cannot reach, and holds its ground once its neighbour has perished (in this one-row
    corridor no move brings it next to Far: the fallen Goblin's square cannot be ended on, Far cannot be
    passed)."""
    data = fight(
        ["....."],
        [creature("Knight", [0, 0])],
        [creature("Goblin", [1, 0], target={"health": 9}), creature("Far", [4, 0], target={"health": 1})],
        max_rounds=3,
    )
    data["sides"][0]["policy"] = "weakest"
    log = narrate(load(data), seed=1, script=[HIT])
    assert [e["target"] for e in attacks(log, "Knight")] == ["Goblin"]
    held = [e["text"] for e in log.events if e["kind"] == "hold"]
    assert "Knight has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]" in held
    assert "Far has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]" in held
    assert log.winner < 0 and log.rounds == 3  # nobody can reach anybody: a draw at max_rounds


def test_rtw_map_fight_projectile_with_a_foe_adjacent_and_a_path_through_combatants() -> None:
    """rtw: Attack Ranges, Projectile X: it cannot go through other combatants, and while any foe is adjacent,
    every foe is Hard to Hit with Projectile attacks. Once the adjacent foe has perished, the path behind it is
    clear (a fallen combatant does not stop a shot) and no foe is adjacent any more."""
    data = fight(
        ["....."],
        [archer("Archer", [0, 0])],
        [creature("Front", [1, 0], target={"health": 16}), creature("Back", [3, 0], attacks=[SHOOT])],
        max_rounds=3,
    )
    loaded = load(data)
    grid = RtwFight.grid(loaded)
    assert grid is not None
    # Every standing: the grid layer's own Projectile targets, as the fight sees them.
    assert projectile_targets(grid.field, "Archer", 8) == ["Front"]
    # Round 1: Archer hits Front, Front misses, Back cannot shoot past Front; round 2: Front perishes, Back
    # misses; round 3: the Archer shoots Back.
    log = narrate(loaded, seed=1, script=[HIT, MISS, HIT, MISS, HIT])
    shots = attacks(log, "Archer")
    assert [s["target"] for s in shots] == ["Front", "Front", "Back"]
    assert "a foe is adjacent to Archer, so every foe is Hard to Hit for Projectiles" in shots[0]["text"]
    assert "- 2 (Hard to Hit)" in steps(shots[0])[1]
    assert "Hard to Hit" not in shots[2]["text"] and "Hard to Hit" not in " ".join(steps(shots[2]))
    first_round = log.events[: next(i for i, e in enumerate(log.events) if e["kind"] == "round")]
    assert "Back has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]" in [
        e["text"] for e in first_round if e["kind"] == "hold"
    ]
    assert [e["target"] for e in attacks(log, "Back")] == ["Archer", "Archer"]


FIREBALL = {
    "name": "Fireball",
    "attack": {"kind": "spell", "range": {"type": "blast", "size": 2}, "damage_type": "fire"},
}


def test_rtw_map_fight_an_area_skips_the_helpless() -> None:
    """rtw: Falling in Battle: a Helpless foe is not harmed by an area attack that merely catches it: the Blast
    at (1, 0) covers Down (Helpless) and Foe, and only Foe is rolled against."""
    data = fight(
        ["....", "...."],
        [creature("Mage", [0, 0], attacks=[FIREBALL])],
        [creature("Down", [1, 0], target={"health": 0, "helpless": True}), creature("Foe", [2, 1])],
        max_rounds=1,
    )
    mage = attacks(narrate(load(data), seed=3), "Mage")
    assert [e["target"] for e in mage] == ["Foe"]
    assert mage[0]["text"].startswith("Mage attacks Foe with Fireball (Blast 2 at (1, 0)): ")


def _blast_fight(policy: str, ally: list[int], ally_defense: int = 0) -> dict[str, Any]:
    """Mage at (0, 1) with a Blast 2; F1 at (0, 0) (first in the file), F2 and F3 side by side further off."""
    mage = creature("Mage", [0, 1], attacks=[FIREBALL], policy=policy)
    foes = [
        creature(name, pos, target={"defense": 3}) for name, pos in (("F1", [0, 0]), ("F2", [2, 1]), ("F3", [2, 2]))
    ]
    friend = creature("Ally", ally, attacks=[SHOOT], target={"defense": ally_defense})
    return fight(["......"] * 3, [mage, friend], foes, max_rounds=1)


def test_rtw_map_fight_first_aims_at_its_foe_sparing_allies() -> None:
    """Policy `first` on a map: the first foe in reach (F1), with the placement of the attack that catches it and
    the fewest standing allies (the Blast at (0, -1) would catch the Ally at (1, 0) too)."""
    mage = attacks(narrate(load(_blast_fight("first", [1, 0])), seed=2), "Mage")
    assert [e["target"] for e in mage] == ["F1"]
    assert "(Blast 2 at (-1, -1))" in mage[0]["text"]


def test_rtw_map_fight_best_weighs_foes_against_allies_as_aim_does() -> None:
    """Policy `best`: the option with the highest expected damage to foes minus allies (`tohit aim`): the Blast
    at (1, 1) catching F2 and F3 (2 x 6) beats any Blast on one foe (6); with the Ally standing in it, 9 to the
    Ally (Defense 0) makes it worth 3, and the Mage settles for F1 alone."""
    mage = attacks(narrate(load(_blast_fight("best", [1, 0])), seed=2), "Mage")
    assert [e["target"] for e in mage] == ["F2", "F3"]
    assert "(Blast 2 at (1, 1))" in mage[0]["text"]
    mage = attacks(narrate(load(_blast_fight("best", [1, 1])), seed=2), "Mage")
    assert [e["target"] for e in mage] == ["F1"]
    # A tougher Ally (Defense 9: it takes the least damage, 1): worth 12 - 1, the pair is best again.
    mage = attacks(narrate(load(_blast_fight("best", [1, 1], ally_defense=9)), seed=2), "Mage")
    assert [e["target"] for e in mage] == ["Ally", "F2", "F3"]


def test_rtw_map_fight_x_targets_within_y_take_the_chosen_foe_and_the_next() -> None:
    """rtw: Attack Ranges, X Targets within Y Squares: no line of sight needed; up to X targets within Y."""
    volley = {
        "name": "Volley",
        "attack": {"kind": "spell", "range": {"type": "targets_within", "count": 2, "within": 3}},
    }
    data = fight(
        [".......", ".#.....", "......."],
        [creature("Caster", [0, 0], attacks=[volley])],
        [creature("A", [2, 2]), creature("B", [3, 0]), creature("C", [6, 0])],
        max_rounds=1,
    )
    log = narrate(load(data), seed=2)
    assert [e["target"] for e in attacks(log, "Caster")] == ["A", "B"]


def test_rtw_map_fight_exact_agrees_with_simulation_and_with_hard_to_hit_given_by_hand() -> None:
    """A duel of archers across the rock: the exact chain agrees with 100,000 simulated fights (both samplers),
    and equals the same duel with no map where each is given `hard_to_hit: hard` as the grid's cover does."""
    data = fight(ROCK, [archer("A", [0, 0])], [archer("B", [5, 1], attacker={"accuracy": 4})])
    loaded = load(data)
    grid = RtwFight.grid(loaded)
    assert grid is not None and grid.covers[0][1] is not None and grid.covers[1][0] is not None
    exact = exact_duel(loaded)
    p = float(exact.wins[0])
    assert 0.05 < p < 0.95
    n = 100_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=5, method=method)  # type: ignore[arg-type]
        assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    by_hand = {
        "system": "rtw",
        "sides": [
            {"name": "side0", "combatants": [_no_map(archer("A", [0, 0]), "hard")]},
            {"name": "side1", "combatants": [_no_map(archer("B", [5, 1], attacker={"accuracy": 4}), "hard")]},
        ],
    }
    assert exact_duel(load(by_hand)).wins == exact.wins
    in_the_open = {**data, "map": {"rows": ["......"] * 3}}
    assert exact_duel(load(in_the_open)).wins != exact.wins


def _no_map(comb: dict[str, Any], hard: str) -> dict[str, Any]:
    out = {k: v for k, v in comb.items() if k != "position"}
    out["target"] = {**comb["target"], "hard_to_hit": hard}
    out["attacks"] = [{"name": "Shoot", "attack": {"range": "projectile"}}]
    return out


# -- Weapon ranges ---------------------------------------------------------------------------------------------
#: A spear's Basic Attacks: Strike (Melee) and Throw Weapon (Projectile 6, one-handed) [basic_attacks.md].
SPEAR_RANGE = {
    "type": "weapon",
    "basic_attacks": [
        {"name": "Strike", "range": {"type": "melee"}},
        {"name": "Throw Weapon", "range": {"type": "projectile", "size": 6}},
    ],
}
SPEAR = {"name": "Spear", "attack": {"range": SPEAR_RANGE}}


def test_rtw_map_fight_weapon_range_reaches_what_each_basic_attack_reaches() -> None:
    """rtw: Attack Ranges, Weapon: the range is that of the weapon's Basic Attack; with several, the attacker
    chooses one at the moment of the attack. The spear Strikes the adjacent foe and, once it has perished, Throws
    at the far one (a Projectile, Hard to Hit while a foe was adjacent); the grid core's words name the choice."""
    data = fight(
        ["......"],
        [creature("Hero", [0, 0], attacks=[SPEAR])],
        [creature("Near", [1, 0], target={"health": 9}), creature("Far", [4, 0])],
        max_rounds=2,
    )
    loaded = load(data)
    grid = RtwFight.grid(loaded)
    assert grid is not None
    assert [o.text for o in grid.options[0]] == [
        "Weapon (Strike: Melee on Near)",
        "Weapon (Throw Weapon: Projectile 6 at Near)",
        "Weapon (Throw Weapon: Projectile 6 at Far)",
    ]
    # While Near stands, its body blocks the throw at Far; Near adjacent makes every foe Hard to Hit for the
    # throw, not for the Strike.
    assert grid.why_hard(0, 0, 1, True) == ""
    assert "Hard to Hit for Projectiles" in grid.why_hard(0, 1, 1, True)
    log = narrate(loaded, seed=1, script=[HIT, HIT])
    hero = attacks(log, "Hero")
    assert [e["target"] for e in hero] == ["Near", "Far"]
    assert hero[0]["text"] == "Hero attacks Near with Spear (Weapon (Strike: Melee on Near)): hit, 9 damage"
    assert hero[1]["text"] == "Hero attacks Far with Spear (Weapon (Throw Weapon: Projectile 6 at Far)): hit, 9 damage"


def test_rtw_map_fight_weapon_range_use_names_the_basic_attack() -> None:
    """`use` names the Basic Attack the range is based on: with `use: Strike` the far foe is out of reach, and the
    Hero holds its ground once Near has perished."""
    spear = {"name": "Spear", "attack": {"range": {**SPEAR_RANGE, "use": "Strike"}}}
    data = fight(
        ["......"],
        [creature("Hero", [0, 0], attacks=[spear])],
        [creature("Near", [1, 0], target={"health": 9}), creature("Far", [4, 0])],
        max_rounds=2,
    )
    log = narrate(load(data), seed=1, script=[HIT])
    assert [e["target"] for e in attacks(log, "Hero")] == ["Near"]
    assert "Hero has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]" in [
        e["text"] for e in log.events if e["kind"] == "hold"
    ]


def test_rtw_map_fight_weapon_range_plays_as_its_basic_attack_exactly() -> None:
    """A Weapon range whose Basic Attack is Projectile 8 is that Projectile: the exact duel across the rock (cover
    both ways) is the same fraction with the range given either way, and agrees with simulation."""
    bow = {"type": "weapon", "basic_attacks": [{"name": "Shoot Arrow", "range": {"type": "projectile", "size": 8}}]}
    weapon = {"name": "Shoot", "attack": {"range": bow}}
    a = creature("A", [0, 0], attacker={"weapon": BOW}, attacks=[weapon])
    data = fight(ROCK, [a], [archer("B", [5, 1], attacker={"accuracy": 4})])
    plain = fight(ROCK, [archer("A", [0, 0])], [archer("B", [5, 1], attacker={"accuracy": 4})])
    loaded = load(data)
    exact = exact_duel(loaded)
    assert exact.wins == exact_duel(load(plain)).wins
    p, n = float(exact.wins[0]), 40_000
    sim = simulate_fights(loaded, n, seed=3)
    assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5


def test_rtw_map_fight_weapon_range_with_same_rules_range_is_not_refused() -> None:
    """Prone and Parry depend on the range: Basic Attacks the rules name alike (Strike and a second Melee) are
    played against a Prone foe, and `use` settles Basic Attacks that differ."""
    two = {
        "type": "weapon",
        "basic_attacks": [{"name": "Strike", "range": {"type": "melee"}}, {"name": "Bash", "range": {"type": "melee"}}],
    }
    prone = creature("B", [1, 0], target={"prone": True})
    load(fight(["...."], [creature("A", [0, 0], attacks=[{"name": "Club", "attack": {"range": two}}])], [prone]))
    spear = {"name": "Spear", "attack": {"range": {**SPEAR_RANGE, "use": "Throw Weapon"}}}
    loaded = load(fight(["...."], [creature("A", [0, 0], attacks=[spear])], [prone], max_rounds=1))
    first = attacks(narrate(loaded, seed=1, script=[HIT]), "A")[0]
    assert "Prone" in " ".join(steps(first)) and "projectile" in " ".join(steps(first))


# -- Swarms ----------------------------------------------------------------------------------------------------
def swarm(name: str, position: list[int], **over: Any) -> dict[str, Any]:
    """A Large Swarm (2 x 2 squares), 40 Health."""
    target = {"health": 40, "hearts": 10, **over.pop("target", {})}
    return creature(name, position, size="large", swarm=True, target=target, **over)


def _spell(name: str, rng: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "attack": {"kind": "spell", "range": rng}}


def test_rtw_map_fight_swarm_is_a_target_once_per_square_within_y() -> None:
    """rtw: X Targets within Y: a target is affected once, however many squares it fills, unless a Swarm. The
    Large Swarm has 4 squares within 3 of the Caster: a 3 Targets within 3 chosen on it rolls 3 times against
    it; the same creature not a Swarm is one target, and the picks left go to the next foe (B)."""
    volley = _spell("Volley", {"type": "targets_within", "count": 3, "within": 3})
    data = fight(
        ["......", "......"],
        [creature("Caster", [0, 0], attacks=[volley])],
        [swarm("Keese", [2, 0]), creature("B", [0, 1])],
        max_rounds=1,
    )
    caster = attacks(narrate(load(data), seed=1), "Caster")
    assert [e["target"] for e in caster] == ["Keese", "Keese", "Keese"]
    assert caster[1]["text"].startswith("Caster attacks Keese with Volley (3 Targets within 3 Squares; a Swarm,")
    data["sides"][1]["combatants"][0]["swarm"] = False
    caster = attacks(narrate(load(data), seed=1), "Caster")
    assert [e["target"] for e in caster] == ["Keese", "B"]


def test_rtw_map_fight_swarm_counts_only_its_squares_within_y() -> None:
    """A Swarm is picked once per square of it within Y: with 2 of its 4 squares within 2 of the Caster, a
    4 Targets within 2 affects it twice (and B once)."""
    volley = _spell("Volley", {"type": "targets_within", "count": 4, "within": 2})
    data = fight(
        ["......", "......"],
        [creature("Caster", [0, 0], attacks=[volley])],
        [swarm("Keese", [2, 0]), creature("B", [0, 1])],
        max_rounds=1,
    )
    assert [e["target"] for e in attacks(narrate(load(data), seed=1), "Caster")] == ["Keese", "Keese", "B"]


def test_rtw_map_fight_swarm_in_several_chosen_squares_is_affected_once_per_square() -> None:
    """rtw: X Squares within Y: a Swarm in 2 of the chosen squares is affected twice (the grid core's `reach`
    repeats it); both `first` and `best` choose the squares that roll most against it."""
    rain = _spell("Rain", {"type": "squares_within", "count": 2, "within": 3})
    for policy in ("first", "best"):
        data = fight(
            ["......", "......"], [creature("Caster", [0, 0], attacks=[rain], policy=policy)], [swarm("Keese", [2, 0])]
        )
        data["max_rounds"] = 1
        assert [e["target"] for e in attacks(narrate(load(data), seed=1), "Caster")] == ["Keese", "Keese"], policy


def test_rtw_map_fight_swarm_is_affected_once_by_other_ranges() -> None:
    """The page's exception is for X Targets/Squares within Y only: a Blast over all 4 squares of the Swarm, a
    Melee and a Projectile each affect it once; a Swarm attacks as any combatant does."""
    blast = _spell("Fireball", {"type": "blast", "size": 2})
    data = fight(
        ["......", "......"],
        [creature("Mage", [0, 0], attacks=[blast]), archer("Archer", [0, 1]), creature("Knight", [3, 0])],
        [swarm("Keese", [1, 0])],
        max_rounds=1,
    )
    loaded = load(data)
    grid = RtwFight.grid(loaded)
    assert grid is not None
    over_all = reach(grid.field, "Mage", BlastRange(type="blast", size=2, at=(1, 0)))
    assert len(over_all.squares) == 4 and over_all.hits == ("Keese",)  # all 4 squares of the Swarm: once
    keese = grid.index["Keese"]
    assert {o.times[o.members.index(keese)] for o in grid.options[0]} == {1}
    log = narrate(loaded, seed=1)
    assert [e["target"] for e in attacks(log, "Mage")] == ["Keese"]
    assert [e["target"] for e in attacks(log, "Archer")] == ["Keese"]
    assert [e["target"] for e in attacks(log, "Knight")] == ["Keese"]
    assert len(attacks(log, "Keese")) == 1


def test_rtw_map_fight_swarm_exact_agrees_with_simulation() -> None:
    """A duel against a Swarm rolled against up to 3 times a turn by a 3 Targets within 3 Basic Attack: the exact
    chain (every roll on the Swarm a step of the chain) agrees with simulation, and the Caster wins more often
    than in the duel where it is no Swarm (one roll a turn)."""
    volley = {"name": "Volley", "attack": {"range": {"type": "targets_within", "count": 3, "within": 3}}}
    caster = creature("Caster", [0, 0], attacks=[volley], target={"health": 12, "evasion": 12})
    keese = swarm("Keese", [1, 0], target={"health": 30, "hearts": 10, "evasion": 14})
    data = fight(["....", "...."], [caster], [keese])
    loaded = load(data)
    exact = exact_duel(loaded)
    p = float(exact.wins[0])
    assert 0.05 < p < 0.95
    n = 40_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=7, method=method)  # type: ignore[arg-type]
        assert abs(sim.wins(0) / n - p) < 4 * (p * (1 - p) / n) ** 0.5, method
    data["sides"][1]["combatants"][0]["swarm"] = False
    assert float(exact_duel(load(data)).wins[0]) < p


# -- bad input -------------------------------------------------------------------------------------------------
def _duel(position: list[int] | None = None, **first: Any) -> dict[str, Any]:
    return fight(["....", ".#.."], [creature("A", position or [0, 0], **first)], [creature("B", [3, 1])])


BAD: list[tuple[str, dict[str, Any], str, str]] = [
    ("off the map", _duel(position=[4, 0]), "sides[0].combatants[0].position", "runs off the 4 x 2 map"),
    ("in a solid square", _duel(position=[1, 1]), "sides[0].combatants[0].position", "solid square [1, 1]"),
    (
        "overlapping",
        fight(["....", "...."], [creature("A", [0, 0], size="large")], [creature("B", [1, 1])]),
        "sides[1].combatants[0].position",
        "B's footprint overlaps A's",
    ),
    (
        "no position on a map",
        fight(["...."], [creature("A", [0, 0])], [{**creature("B", [1, 0]), "position": None}]),
        "sides[1].combatants[0].position",
        "needs its position",
    ),
    (
        "a position without a map",
        {k: v for k, v in _duel().items() if k != "map"},
        "sides[0].combatants[0].position",
        "give the fight's map",
    ),
    (
        "a plain range on a map",
        _duel(attacks=[{"name": "Shoot", "attack": {"range": "projectile"}}]),
        "sides[0].combatants[0].attacks[0].attack.range",
        "give the range as a mapping",
    ),
    (
        "a bad grid range",
        _duel(attacks=[{"name": "Shoot", "attack": {"range": {"type": "projectile", "size": 0}}}]),
        "sides[0].combatants[0].attacks[0].attack.range.size",
        "greater than or equal to 1",
    ),
    (
        "a Weapon range's Basic Attacks differ against a Prone foe",
        fight(
            ["....", ".#.."],
            [creature("A", [0, 0], attacks=[{"name": "Spear", "attack": {"range": SPEAR_RANGE}}])],
            [creature("B", [3, 1], target={"prone": True})],
        ),
        "sides[0].combatants[0].attacks[0].attack.range.use",
        "different ranges (Strike: melee, Throw Weapon: projectile) and B is Prone",
    ),
    (
        "a Weapon range's Basic Attacks differ against a foe that Parries",
        fight(
            ["....", ".#.."],
            [creature("A", [0, 0], target={"reaction": "parry"})],
            [
                creature(
                    "B",
                    [3, 1],
                    attacks=[{"name": "Spear", "attack": {"range": SPEAR_RANGE}}],
                )
            ],
        ),
        "sides[1].combatants[0].attacks[0].attack.range.use",
        "and A Parries, which depends on the range",
    ),
    (
        "a Weapon range using an unknown Basic Attack",
        _duel(attacks=[{"name": "Spear", "attack": {"range": {**SPEAR_RANGE, "use": "Stab"}}}]),
        "sides[0].combatants[0].attacks[0].attack.range.use",
        "no Basic Attack named 'Stab'",
    ),
    (
        "a Swarm without a map",
        {
            k: v
            for k, v in fight(
                ["...."],
                [{**creature("A", [0, 0]), "position": None}],
                [{**creature("B", [1, 0]), "position": None, "swarm": True}],
            ).items()
            if k != "map"
        },
        "sides[1].combatants[0].swarm",
        "give the fight's map",
    ),
]


@pytest.mark.parametrize(("name", "data", "field", "words"), BAD, ids=[b[0] for b in BAD])
def test_rtw_map_fight_bad_positions_and_ranges_name_the_file_and_field(
    name: str, data: dict[str, Any], field: str, words: str, tmp_path: Path
) -> None:
    with pytest.raises(InputError) as err:
        load(data)
    assert str(err.value).startswith(f"fight.yaml: {field}: "), str(err.value)
    assert words in str(err.value)
    assert "combatants[" not in err.value.message, err.value.message  # the words name combatants, not places
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert out.startswith("error: ") and out.count("error:") == 1 and "Traceback" not in out
    assert f"{path}: {field}: " in out
