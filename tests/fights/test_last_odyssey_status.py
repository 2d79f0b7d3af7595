"""Last Odyssey statuses and the Bonus Tracker as fight state (Statuses, Buffs and Debuffs,
Death and Injury from the game's other pages; the choices in docs/fights.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from benchmarks.fight_reference import last_odyssey_duel
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.fights.helpers import load
from tests.fights.test_last_odyssey_fight import STRIKE, changes, fight
from tests.fights.test_last_odyssey_fight import character as plain_character
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import initial_state, narrate, simulate_fights
from tohit.systems.last_odyssey.consequences import BIT
from tohit.systems.last_odyssey.state_codes import packed_tracker, status_names, tracker_of

LOCK = {"name": "Thunder Lock", "attack": {"kind": "status", "type": "ranged", "element": "thunder"}}
SILENCE = {"name": "Hush", "attack": {"kind": "status", "type": "ranged", "element": "shadow"}}
BLIND = {"name": "Flash", "attack": {"kind": "status", "type": "ranged", "element": "light"}}
STONE = {"name": "Stone", "attack": {"kind": "status", "type": "ranged", "element": "earth"}}
POISON = {"name": "Venom", "attack": {"kind": "status", "type": "ranged", "element": "wood"}}
BREAK = {"name": "Armor Break", "attack": {"kind": "debuff", "type": "ranged", "stat": "physical_defense"}}
ROAR = {"name": "Roar", "attack": {"kind": "buff", "type": "self", "stat": "physical_attack"}}
FIRE = {"name": "Fire", "attack": {"kind": "magical", "type": "ranged", "element": "fire"}}
STATUS = {"status_accuracy": 5}
HIT, MISS = {"hit": [1]}, {"hit": [10]}
NO_ROLL: dict[str, list[int]] = {}  # a buff or debuff rolls no die (its script entry forces nothing)


def character(name: str, **over: Any) -> dict[str, Any]:
    """A test combatant (tests/fights/test_last_odyssey_fight.py) with Resistance 2, for status abilities."""
    comb = plain_character(name, **over)
    comb["target"] = {"resistance": 2, **comb["target"]}
    return comb


def caster(name: str, *attacks: dict[str, Any], **over: Any) -> dict[str, Any]:
    attacker = {"physical_accuracy": 4, "physical_attack": 5, "status_accuracy": 5, **over.pop("attacker", {})}
    target = {"resistance": 2, **over.pop("target", {})}
    return character(name, attacks=list(attacks), attacker=attacker, target=target, **over)


def attacks_by(log: Any, who: str) -> list[dict[str, Any]]:
    return [e for e in log.events if e["kind"] == "attack" and e["attacker"] == who]


def texts(log: Any, kind: str) -> list[str]:
    return [e["text"] for e in log.events if e["kind"] == kind]


def test_last_odyssey_fight_a_status_that_lands_is_the_targets_state() -> None:
    """Statuses: a status-inflicting ability that lands gives the target the status (kept, narrated)."""
    log = narrate(load(fight([caster("A", LOCK)], [character("B")], max_rounds=1)), seed=1, script=[HIT, MISS])
    assert ("B", "statuses", 0, BIT["paralyzed"]) in changes(log, "status")
    assert ("B", "status_hits", 0, 1) in changes(log, "status")
    assert "B is Paralyzed  [last-odyssey: Statuses; docs/last-odyssey.md#silent-statuses]" in texts(log, "status")
    assert status_names(int(log.final.per["statuses"][0, 1])) == ["paralyzed"]


def test_last_odyssey_fight_paralyzed_physical_attacks_automatically_miss() -> None:
    """Statuses (Paralyzed): once Paralyzed, B's physical attack misses even on a natural 1."""
    log = narrate(load(fight([caster("A", LOCK)], [character("B")], max_rounds=1)), seed=1, script=[HIT, HIT])
    strike = attacks_by(log, "B")[0]
    assert strike["dice"]["hit"] == [1] and strike["outcome"]["result"] == "miss"
    assert any("Paralyzed" in step["text"] for step in strike["trace"])


def test_last_odyssey_fight_silenced_magical_attacks_automatically_miss_from_the_files_statuses() -> None:
    """Statuses (Silenced); the statuses in a combatant's file blocks are its starting state."""
    b = character("B", attacks=[FIRE], target={"statuses": ["silenced"]})
    log = narrate(load(fight([character("A")], [b], max_rounds=1)), seed=1, script=[MISS, HIT])
    assert attacks_by(log, "B")[0]["outcome"]["result"] == "miss"
    assert int(log.final.per["statuses"][0, 1]) == BIT["silenced"]


def test_last_odyssey_fight_blinded_halves_the_users_accuracy() -> None:
    """Statuses (Blinded): Physical Accuracy 4 counts as 2: die 5 - 2 + Evasion 3 = 6 (unblinded: 4)."""
    log = narrate(load(fight([caster("A", BLIND)], [character("B")], max_rounds=1)), seed=1, script=[HIT, {"hit": [5]}])
    assert ("B", "statuses", 0, BIT["blinded"]) in changes(log, "status")
    assert attacks_by(log, "B")[0]["outcome"]["hit_value"] == 6


def test_last_odyssey_fight_petrified_halves_the_targets_base_evasion() -> None:
    """Statuses (Petrified): B's Evasion 3 counts as 1: A's next Strike, die 6 - 4 + 1 = 3 (else 5)."""
    a = caster("A", STONE, STRIKE)
    log = narrate(load(fight([a], [character("B")], max_rounds=2)), seed=1, script=[HIT, MISS, {"hit": [6]}, MISS])
    first, second = attacks_by(log, "A")[:2]
    assert first["attack"] == "Stone" and second["attack"] == "Strike"
    assert second["outcome"]["hit_value"] == 3


def test_last_odyssey_fight_a_status_is_not_gained_twice_and_first_moves_on() -> None:
    """A choice (docs/fights.md): a status is on or off; `first` uses the first ability that can still do
    something, so once B is Paralyzed, A strikes. A status that lands again is counted, not gained again."""
    a = caster("A", LOCK, STRIKE)
    b = character("B", target={"statuses": ["paralyzed"], "resistance": 2})
    log = narrate(load(fight([a], [b], max_rounds=1)), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "A")[0]["attack"] == "Strike"
    wave = {"name": "Wave", "attack": {"kind": "status", "type": ["multi", "ranged"], "element": "thunder"}}
    c = character("C", target={"resistance": 2})
    log = narrate(load(fight([caster("A", wave)], [character("B", target={"resistance": 2}), c])), seed=1, script=[HIT])
    assert ("B", "statuses", 0, BIT["paralyzed"]) in changes(log, "status")
    assert ("C", "statuses", 0, BIT["paralyzed"]) in changes(log, "status")
    assert not [e for e in attacks_by(log, "A") if e["attack"] == "Wave"][2:]  # nobody left to paralyze


def test_last_odyssey_fight_downed_removes_every_effect_but_poisoned_frostbitten_and_burned() -> None:
    """Death and Injury: downed, B keeps Poisoned and Burned; Paralyzed and its tracker (-1) go."""
    target = {"hp": 2, "statuses": ["paralyzed", "poisoned", "burned"], "buffs": {"evasion": -1}}
    log = narrate(load(fight([character("A")], [character("B", target=target)])), seed=1, script=[{"hit": [6]}])
    keep = BIT["poisoned"] | BIT["burned"]
    assert ("B", "statuses", BIT["paralyzed"] | keep, keep) in changes(log, "effects")
    assert ("B", "buffs", packed_tracker({"evasion": -1}), 0) in changes(log, "effects")
    assert "Death and Injury" in texts(log, "effects")[0] and "still Burned, Poisoned" in texts(log, "effects")[0]


def test_last_odyssey_fight_a_debuff_moves_the_foes_tracker_and_later_damage() -> None:
    """Buffs and Debuffs: a debuff succeeds without a roll; 6 levels move Physical Defense 0 to -7 (the
    tracker stops at its end). A's Strike then deals 5 - (2 - 7) + 6 = 16 base, x2 on no Shell = 32."""
    debuff = {"name": "Armor Break", "attack": {**BREAK["attack"], "levels": 6}}
    a = caster("A", debuff, STRIKE)
    b = character("B", target={"hp": 40})
    log = narrate(load(fight([a], [b], max_rounds=2)), seed=1, script=[NO_ROLL, MISS, {"hit": [6]}, MISS])
    first, second = attacks_by(log, "A")[:2]
    assert first["attack"] == "Armor Break" and first["dice"]["hit"] == []
    assert ("B", "buffs", 0, packed_tracker({"physical_defense": -7})) in changes(log, "tracker")
    assert "B's Physical Defense: +0 -> -7 on the Bonus Tracker" in texts(log, "tracker")[0]
    assert second["attack"] == "Strike" and second["outcome"]["damage"] == 32


def test_last_odyssey_fight_the_tracker_stops_at_minus_7_and_first_then_attacks() -> None:
    """Buffs and Debuffs: the tracker ends at -7 (0 -> -1 -> -3 -> -7); a debuff that can do nothing more
    is not used (a choice), so A's fourth turn is a Strike."""
    a, b = caster("A", BREAK, STRIKE, target={"hp": 200}), character("B", target={"hp": 200})
    log = narrate(load(fight([a], [b], max_rounds=4)), seed=1)
    used = [e["attack"] for e in attacks_by(log, "A")]
    assert used == ["Armor Break"] * 3 + ["Strike"]
    assert tracker_of(int(log.final.per["buffs"][0, 1])) == {"physical_defense": -7}


def test_last_odyssey_fight_a_self_buff_moves_the_users_own_tracker() -> None:
    """Buffs and Debuffs; ability types (Self: only the user): Roar moves A's Physical Attack 0 -> +1."""
    log = narrate(load(fight([caster("A", ROAR, STRIKE)], [character("B")], max_rounds=1)), seed=1, script=[NO_ROLL])
    roar = attacks_by(log, "A")[0]
    assert roar["attack"] == "Roar" and roar["target"] == "A"
    assert ("A", "buffs", 0, packed_tracker({"physical_attack": 1})) in changes(log, "tracker")
    # At +7, or Burned (Statuses: a Burned character cannot be buffed), Roar could do nothing: A strikes.
    for target in ({"buffs": {"physical_attack": 7}}, {"statuses": ["burned"]}):
        log = narrate(load(fight([caster("A", ROAR, STRIKE, target=target)], [character("B")], max_rounds=1)), seed=1)
        assert attacks_by(log, "A")[0]["attack"] == "Strike"


def test_last_odyssey_fight_the_tracker_starts_from_the_files_buffs() -> None:
    """The tracker resets after each battle: a fight starts from the file's `buffs` (attacker and target
    blocks are one tracker): Physical Attack +3: 5 + 3 - 2 + 6 = 12, x2 = 24."""
    a = character("A", attacker={"buffs": {"physical_attack": 3}}, target={"buffs": {"evasion": -1}})
    log = narrate(
        load(fight([a], [character("B", target={"hp": 40})], max_rounds=1)), seed=1, script=[{"hit": [6]}, MISS]
    )
    assert attacks_by(log, "A")[0]["outcome"]["damage"] == 24
    assert tracker_of(int(log.final.per["buffs"][0, 0])) == {"physical_attack": 3, "evasion": -1}


def test_last_odyssey_fight_best_never_picks_a_zero_damage_ability_while_one_deals_damage() -> None:
    """A choice: `best` ranks by expected damage: a status ability, debuff or buff (0) only when nothing else
    deals any."""
    data = fight([caster("A", LOCK, BREAK, ROAR, STRIKE)], [character("B")], max_rounds=1)
    data["sides"][0]["policy"] = "best"
    log = narrate(load(data), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "A")[0]["attack"] == "Strike"
    data = fight([caster("A", LOCK, BREAK)], [character("B")], max_rounds=1)
    data["sides"][0]["policy"] = "best"
    log = narrate(load(data), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "A")[0]["attack"] == "Thunder Lock"


def test_last_odyssey_fight_best_reads_whether_body_armor_is_still_up() -> None:
    """Body Armor: "the first physical hit deals no damage" (Cop, Body Armor), and the hit removes it. Best
    reads it as the fight stands: with both foes armoured a physical attacker has nothing to choose (file order);
    once B2's armour is gone, B2 is the foe it can hurt."""
    armoured = {"body_armor": True}
    data = fight([caster("A", STRIKE)], [character("B1", target=armoured), character("B2", target=armoured)])
    data["sides"][0]["policy"] = "best"
    loaded = load(data)
    state = initial_state(loaded, 1)
    options = np.zeros((1, loaded.max_attacks, loaded.roster.size), dtype=bool)
    options[0, 0, 1:] = True
    one, who = np.ones(1, dtype=bool), np.zeros(1, dtype=np.int64)
    assert choose_actions(Exact(loaded, state), one, who, options)[2].tolist() == [1]
    state.per["body_armor"][0, 2] = 0  # B2's armour took a physical hit
    assert choose_actions(Exact(loaded, state), one, who, options)[2].tolist() == [2]


@pytest.mark.parametrize("policy", ["first", "weakest", "random"])
def test_last_odyssey_fight_policies_use_a_status_ability_on_a_foe_without_it(policy: str) -> None:
    """first / weakest / random: the first ability that can do something, on a foe it can change."""
    foes = [character("B", target={"statuses": ["paralyzed"], "hp": 5}), character("C", target={"hp": 30})]
    data = fight([caster("A", LOCK, STRIKE)], foes, max_rounds=1)
    data["sides"][0]["policy"] = policy
    log = narrate(load(data), seed=2, script=[MISS, MISS, MISS])
    first = attacks_by(log, "A")[0]
    assert (first["attack"], first["target"]) == ("Thunder Lock", "C")


def test_last_odyssey_fight_exact_agrees_with_simulation_when_a_status_lands() -> None:
    """--exact over a chain whose state holds statuses and the tracker (A: Thunder Lock, Armor Break, Strike;
    B: Roar, a Self buff, then Strike), against both Monte Carlo samplers and the plain-Python reference."""
    a = caster("A", LOCK, BREAK, STRIKE, target={"hp": 14})
    b = character("B", attacks=[ROAR, STRIKE], target={"hp": 18, "resistance": 8}, attacker={"physical_attack": 6})
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    assert 0.3 < p < 0.9
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=5, method=method)
        assert abs(sim.wins(0) / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, method
    # The independent plain-Python duel (benchmarks/fight_reference.py) agrees.
    rng = random.Random(6)
    m = 20_000
    wins = sum(1 for _ in range(m) if last_odyssey_duel(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4.5 * (p * (1 - p) / m) ** 0.5
    # B's Roar is played: a B that cannot roar (Burned from the start) does worse against the same A.
    burned = character("B", attacks=[ROAR, STRIKE], target={"hp": 18, "resistance": 8, "statuses": ["burned"]})
    burned["attacker"]["physical_attack"] = 6
    assert exact_duel(load(fight([a], [burned]))).wins[0] != exact.wins[0]


def test_last_odyssey_fight_replay_rebuilds_statuses_and_the_tracker(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    out = CliRunner().invoke(
        app, ["fight", str(EXAMPLES / "fights" / "last-odyssey-ogre.yaml"), "--seed", "1", "--log", str(path)]
    )
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in path.read_text().splitlines()]
    stats = {c["stat"] for e in events for c in e.get("changes", [])}
    assert {"statuses", "buffs"} <= stats
    rebuilt = replay(path)
    assert rebuilt.matches, rebuilt.mismatches
    said = " ".join(out.output.split())
    assert "Ogre is Paralyzed [last-odyssey: Statuses; docs/last-odyssey.md#silent-statuses]" in said
    assert "Ogre's Physical Defense: +0 -> -1 on the Bonus Tracker" in said


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            {"attacks": [{"name": "Sleep", "attack": {"kind": "status", "type": "ranged", "status": "sleep"}}]},
            "attacks[0].attack.status",
            "statuses of Statuses",
        ),
        (
            {"attacks": [{"name": "Aura", "attack": {"kind": "buff", "type": "passive", "stat": "evasion"}}]},
            "attacks[0].attack.type",
            "not Passive or Reaction",
        ),
        (
            {"attacks": [{"name": "Boost", "attack": {"kind": "buff", "type": "ranged", "stat": "evasion"}}]},
            "attacks[0].attack.type",
            "a buff in a fight is a Self ability",
        ),
        ({"attacks": [{**STRIKE, "attacker": {"statuses": ["blinded"]}}]}, "attacks[0].attacker", "fight state"),
        (
            {"attacker": {"buffs": {"evasion": 1}}, "target": {"buffs": {"evasion": -1}}},
            "target.buffs.evasion",
            "one Bonus Tracker",
        ),
    ],
)
def test_last_odyssey_fight_effects_it_cannot_play_are_refused(change: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(InputError) as err:
        load(fight([character("A", **change)], [character("B")]))
    assert str(err.value).startswith(f"fight.yaml: sides[0].combatants[0].{field}: ")
    assert words in str(err.value)


def test_last_odyssey_fight_an_unknown_status_exits_2(tmp_path: Path) -> None:
    bad = {"name": "Sleep", "attack": {"kind": "status", "type": "ranged", "status": "sleep"}}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(fight([caster("A", bad)], [character("B")])))
    out = CliRunner().invoke(app, ["fight", str(path)])
    assert out.exit_code == 2
    assert "sides[0].combatants[0].attacks[0].attack.status" in out.output


def test_last_odyssey_fight_tracker_groups_beyond_255_in_every_sampler() -> None:
    """The tracker of Resistance is the ninth base-7 digit (7**8 and up): the direct sampler packs scalar
    groups by their span (engine: the attacker's and the target's scalar groups), so exact and both samplers agree."""
    sap = {"name": "Sap", "attack": {"kind": "debuff", "type": "ranged", "stat": "resistance", "levels": 3}}
    a = caster("A", sap, LOCK, STRIKE, target={"hp": 20})
    b = character("B", attacks=[STRIKE], target={"hp": 18, "resistance": 9}, attacker={"physical_attack": 6})
    loaded = load(fight([a], [b]))
    p = float(exact_duel(loaded).wins[0])
    assert 0.1 < p < 0.9
    n = 40_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=8, method=method)
        assert abs(sim.wins(0) / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, method
    assert packed_tracker({"resistance": -7}) > 255
