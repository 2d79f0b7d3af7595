"""Reclaim the Wild fights on a map (issue 8, "an optional `map` (rtw)"): each attack reaches what the grid says
from where its user stands; cover and a Projectile with a foe adjacent make a foe Hard to Hit; areas skip the
Helpless and may catch allies; nobody moves (a combatant with no foe in reach holds its ground)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import load
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.core.grid.reach import projectile_targets
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.engine.fight.systems.rtw import RtwFight

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
    for key, value in over.items():
        comb[key] = {**comb[key], **value} if isinstance(value, dict) and key in comb else value
    return comb


def archer(name: str, position: list[int], **over: Any) -> dict[str, Any]:
    """Projectile 8: 2d6 + 3 + 4 To-Hit, 5 + 3 = 8 damage."""
    attacker = {"weapon": BOW, **over.pop("attacker", {})}
    return creature(name, position, attacker=attacker, attacks=[SHOOT], **over)


def fight(rows: list[str], *sides: list[dict[str, Any]], **over: Any) -> dict[str, Any]:
    data = {
        "system": "rtw",
        "map": {"rows": rows},
        "sides": [{"name": f"side{i}", "combatants": s} for i, s in enumerate(sides)],
    }
    return {**data, **over}


def attacks(log: Any, by: str) -> list[dict[str, Any]]:
    return [e for e in log.events if e["kind"] == "attack" and e["attacker"] == by]


def steps(event: dict[str, Any]) -> list[str]:
    return [s["text"] for s in event["trace"]]


def test_rtw_map_fight_golden_a_foe_behind_cover_is_hard_to_hit_in_the_trace() -> None:
    """rtw: Attacking Foes behind Cover (decisions 7): a line from a corner of the attacker's square to a corner
    of the foe's crosses a solid square: the foe is Hard to Hit (-2). The foe in the open is not."""
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
    """Melee reaches only an adjacent foe (rtw: Attack Ranges, Melee); nobody moves: the Knight (policy weakest)
    never attacks the weaker foe it cannot reach, and holds its ground once its neighbour has perished."""
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
    assert "Knight has no foe in reach and holds its ground (nobody moves on the map)" in held
    assert "Far has no foe in reach and holds its ground (nobody moves on the map)" in held
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
    assert "Back has no foe in reach and holds its ground (nobody moves on the map)" in [
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
        "overlaps A (sides[0].combatants[0])",
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
        "a Weapon range on a map",
        _duel(
            attacks=[
                {
                    "name": "Swing",
                    "attack": {
                        "range": {"type": "weapon", "basic_attacks": [{"name": "Slash", "range": {"type": "melee"}}]}
                    },
                }
            ]
        ),
        "sides[0].combatants[0].attacks[0].attack.range",
        "Basic Attack",
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
    path = tmp_path / "fight.yaml"
    path.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(app, ["fight", str(path)])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert out.startswith("error: ") and out.count("error:") == 1 and "Traceback" not in out
    assert f"{path}: {field}: " in out
