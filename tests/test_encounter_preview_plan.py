"""The preview is the action (issue 36, item 4): the odds shown before a roll are those of the plan the roll will
play, on the map (reach, walls and doors, cover, the move the game makes first). An attack that cannot reach says
so in the game's words with no percentage; one that moves first says where to, with the odds from there."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tests.grid import uvtt_fixtures
from tests.grid.uvtt_fixtures import cellar
from tohit.core.errors import InputError
from tohit.core.grid.uvtt import inline_map_fields
from tohit.engine.doors import map_doors
from tohit.engine.encounter import Encounter

RTW_MAP = yaml.safe_load((EXAMPLES / "fights" / "rtw-map.yaml").read_text())


def cellar_fight(spots: dict[str, list[int]], *, door_closed: bool = True) -> dict[str, Any]:
    """rtw-map's combatants in the cellar (tests/grid/uvtt_fixtures.py): a wall down x = 5 with a door at y 1..2."""
    return {**uvtt_fixtures.cellar_fight(spots), "map": inline_map_fields(cellar(door_closed=door_closed))}


#: Link in the west room against the door; every foe in the east room, the Moblin just past the door.
WALLED = {"Link": [4, 1], "Zelda": [0, 3], "Bokoblin": [8, 3], "Bokoblin Archer": [7, 2], "Moblin": [5, 1]}


def test_preview_of_a_melee_strike_past_a_wall_gives_the_games_words_and_no_percentage() -> None:
    """Link's Strike on the Moblin beside him across the closed door: the wall stops a Melee, no move gets him
    through, so the turn holds its ground; the preview says so in the game's words and shows no odds."""
    enc = Encounter.create(cellar_fight(WALLED), seed=1)
    (row,) = enc.preview("Link", "Strike", ["Moblin"])
    assert "result" not in row and "mean_damage" not in row
    assert row["reach"] == (
        "a wall stands between Link and Moblin: a Melee must reach out and touch its target;"  # the map's words
        " Link has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]"  # the turn's
    )
    events = enc.act({"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Moblin"]})
    assert [e["kind"] for e in events if e["kind"] in ("attack", "hold")] == ["hold"]


def test_preview_of_a_bow_shot_through_a_closed_door_gives_the_games_words_and_no_percentage() -> None:
    """Link's bow at the Bokoblin Archer through the closed door: a Projectile's path may not cross a wall (a
    closed door is one), so no percentage; opened, the door lets the shot through and the preview gives odds."""
    enc = Encounter.create(cellar_fight(WALLED), seed=1)
    (row,) = enc.preview("Link", "Shoot Arrow", ["Bokoblin Archer"])
    assert "result" not in row and row["reach"].startswith("the path to Bokoblin Archer is blocked by a wall")
    assert row["reach"].endswith("Link has no foe in reach and holds its ground  [docs/rtw.md#silent-move-first]")
    enc.act({"kind": "door", "door": 0, "closed": False})
    (row,) = enc.preview("Link", "Shoot Arrow", ["Bokoblin Archer"])  # the Moblin stands by him: another foe
    assert "result" not in row and row["reach"].startswith("Link cannot use Shoot Arrow on Bokoblin Archer now")
    enc.act({"kind": "move", "combatant": "Moblin", "to": [6, 0]})  # out of the way, and no longer adjacent
    (row,) = enc.preview("Link", "Shoot Arrow", ["Bokoblin Archer"])
    assert sum(row["result"].values()) + row["beyond_depth"] == 1 and "moves_to" not in row


def test_preview_of_an_attack_that_moves_first_says_where_to_with_the_odds_from_there() -> None:
    """rtw-moving-skirmish: nobody is in reach at first; Link's Strike on the Moblin moves him next to it first.
    The preview gives the square and the game's words for the move, and the odds of the Strike from there, as the
    roll then plays it."""
    enc = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / "rtw-moving-skirmish.yaml").read_text()), seed=1)
    (row,) = enc.preview("Link", "Strike", ["Moblin"])
    assert row["moves_to"] and row["move"].startswith("Link moves toward Moblin")
    assert sum(row["result"].values()) + row["beyond_depth"] == 1
    enc.act({"kind": "attack", "attacker": "Link", "attack": "Strike", "targets": ["Moblin"]})
    assert [enc.state_json()["combatants"]["Link"][k] for k in "xy"] == row["moves_to"]


def test_preview_of_a_shot_at_a_foe_behind_cover_is_hard_to_hit_as_the_roll_plays_it() -> None:
    """rtw-map, the Moblin moved away from Zelda: her Magic Salvo at the Bokoblin Archer behind the rock is Hard to
    Hit (cover, docs/rtw.md#silent-cover), in the preview as in the roll over every face of its dice."""
    enc = Encounter.create(RTW_MAP, seed=1)
    enc.act({"kind": "move", "combatant": "Moblin", "to": [7, 4]})
    (row,) = enc.preview("Zelda", "Magic Salvo", ["Bokoblin Archer"])
    results, mean, _ = rolled(enc, "Zelda", "Magic Salvo", "Bokoblin Archer")
    assert row["result"] == results == {"hit": Fraction(7, 12), "miss": Fraction(5, 12)}
    assert row["mean_damage"] == mean
    events = enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Magic Salvo", "targets": ["Bokoblin Archer"]})
    assert [e["outcome"]["hard_to_hit"] for e in events if e["kind"] == "attack"] == ["hard"]


@pytest.mark.parametrize(
    ("name", "attacker", "attack", "target"),
    [
        ("rtw-bokoblin-camp", "Zelda", "Fireball", "Bokoblin 1"),
        ("rtw-map", "Zelda", "Fireball", "Bokoblin"),
        ("rtw-keese-swarm", "Zelda", "Light Arrows", "Keese Swarm"),
        ("last-odyssey-cops", "Ilse", "Fire Wave", "Cop 1"),
    ],
)
def test_preview_past_its_row_budget_keeps_the_odds_of_an_attack_on_several_creatures(
    monkeypatch: pytest.MonkeyPatch, name: str, attacker: str, attack: str, target: str
) -> None:
    """With the exact chain's rows capped at one (`engine.plan.MAX_ROWS`), each roll follows its likeliest outcome
    instead of branching: an area or Multi attack's odds on every creature it reaches (a Swarm's first of three
    rolls) are those of the whole chain (each creature's first roll does not hang on the rolls before it)."""
    from tohit.engine import plan  # here: the module is new (the tests above run on a tohit without it)

    enc = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text()), seed=1)
    whole = enc.preview(attacker, attack, [target])
    monkeypatch.setattr(plan, "MAX_ROWS", 1)
    assert enc.preview(attacker, attack, [target]) == whole


# -- every bundled map fight, in random states ---------------------------------------------------------------------
def bundled_map_fights() -> list[tuple[str, dict[str, Any]]]:
    """Every bundled fight with a map (examples/fights, the games' starter fights), and rtw-map in the cellar (walls
    and a door)."""
    files = sorted((EXAMPLES / "fights").glob("*.yaml"))
    files += sorted((Path(__file__).parents[1] / "src" / "tohit" / "systems").glob("*/starter-fight.yaml"))
    found = [(p.stem if p.stem != "starter-fight" else p.parent.name, yaml.safe_load(p.read_text())) for p in files]
    maps = [(name, data) for name, data in found if "map" in data]
    spots = {"Link": [2, 1], "Zelda": [0, 3], "Bokoblin": [3, 3], "Bokoblin Archer": [7, 2], "Moblin": [6, 1]}
    return [*maps, ("rtw-map-in-the-cellar", cellar_fight(spots, door_closed=False))]


MAP_FIGHTS = bundled_map_fights()


def random_state(data: dict[str, Any], seed: int) -> Encounter:
    """The fight a few actions in (its sides' own turns), every combatant moved by the GM to a random square it may
    stand on (walls and solid squares refuse some), each door opened or closed at random."""
    rng = random.Random(seed)
    enc = Encounter.create(data, seed=seed)
    for _ in range(rng.randrange(3)):
        if not enc.over:
            enc.act({"kind": "auto"})
    for name in enc.fight.roster.names:
        for _ in range(6):
            try:
                enc.act({"kind": "move", "combatant": name, "to": [rng.randrange(11), rng.randrange(6)]})
                break
            except InputError:
                continue
    for door in range(len(map_doors(enc.fight))):
        with contextlib.suppress(InputError):  # already so
            enc.act({"kind": "door", "door": door, "closed": rng.random() < 0.5})
    return enc


def rolled(enc: Encounter, attacker: str, attack: str, target: str) -> tuple[dict[str, Fraction], Fraction, Any]:
    """What the roll plays against `target`, over every face of its dice (each equally likely: uniform dice): each
    result's probability and the mean damage of the first roll against it, and where the attacker stands after."""
    c, a, t = enc.attack_of(attacker, attack, target)
    roles = enc.fight.roles(c, a, t)
    sides = {name: role.die_sides() for name, role in roles.items()}
    assert all(s for s in sides.values()), sides  # the bundled map fights roll plain dice
    combos = list(itertools.product(*(itertools.product(*(range(1, k + 1) for k in s or ())) for s in sides.values())))
    results: Counter[str] = Counter()
    damage, where = 0, None
    for combo in combos:
        faces = {name: list(f) for name, f in zip(sides, combo, strict=True)}
        fork = enc.fork()
        events = fork.act({"kind": "attack", "attacker": attacker, "attack": attack, "targets": [target],
                           "dice": {target: faces}})  # fmt: skip
        first = next(e for e in events if e["kind"] == "attack" and e["attacker"] == attacker and e["target"] == target)
        results[first["outcome"]["result"]] += 1
        damage += first["outcome"]["damage"]
        where = [fork.state_json()["combatants"][attacker][k] for k in "xy"]
    n = len(combos)
    return {k: Fraction(v, n) for k, v in results.items()}, Fraction(damage, n), where


@pytest.mark.parametrize(("name", "data"), MAP_FIGHTS, ids=[n for n, _ in MAP_FIGHTS])
def test_preview_over_random_states_of_every_bundled_map_fight_equals_the_exact_odds_of_what_roll_plays(
    name: str, data: dict[str, Any]
) -> None:
    """For random states (combatants moved, doors opened or closed), every attack of every standing combatant on
    every other: a preview row with odds gives exactly the result fractions and mean damage of the first roll the
    attack then plays against it (over every face of its dice), and the square the game moves the attacker to; a row
    without odds is an attack the roll refuses with those very words, or one that rolls nothing against it."""
    checked = {False: 0, True: 0}
    for seed in range(4):
        enc = random_state(data, seed)
        if enc.over:
            continue
        names = enc.fight.roster.names
        for attacker in enc.standing():
            c = names.index(attacker)
            for attack in [x.name for x in enc.fight.combatants[c].attacks]:
                for target in (t for t in names if t != attacker):
                    before = enc.state_json()
                    rows = enc.preview(attacker, attack, [target])
                    assert enc.state_json() == before
                    row = next(r for r in rows if r["name"] == target)
                    where = f"seed {seed}: {attacker} {attack} on {target}"
                    if "result" not in row:
                        assert row["reach"], where
                        try:
                            events = enc.fork().act(
                                {"kind": "attack", "attacker": attacker, "attack": attack, "targets": [target]}
                            )
                        except InputError as refused:
                            assert row["reach"] == refused.message, where
                            continue
                        assert not [e for e in events if e["kind"] == "attack" and e.get("target") == target], where
                        continue
                    moved = "moves_to" in row
                    if checked[moved] >= 8:  # every face of the dice is slow: the first 8 odds rows of the fight
                        continue  # where the attacker moves first, and the first 8 where it does not
                    checked[moved] += 1
                    results, mean, stands = rolled(enc, attacker, attack, target)
                    assert row["beyond_depth"] == 0, where
                    assert {k: v for k, v in row["result"].items() if v} == results, where
                    assert row["mean_damage"] == mean, where
                    stays = [before["combatants"][attacker][k] for k in "xy"]
                    assert row.get("moves_to", stays) == stands, where
    assert checked[False]
