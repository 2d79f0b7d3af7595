"""Last Odyssey Ally buffs in fights, and policy `best` at the current state (the page's table of ability types:
"Ally: this ability is defensive, and may target any character on the battlefield"; Buffs and Debuffs,
Statuses, Shells, Death and Injury from the game's other pages; the choices in
docs/fights.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from benchmarks.fight_reference import last_odyssey_duel
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.fights.helpers import load
from tests.fights.test_last_odyssey_fight import STRIKE, changes, fight
from tests.fights.test_last_odyssey_status import FIRE, HIT, MISS, NO_ROLL, ROAR, attacks_by, caster, character
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.outcomes import expected_damage
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.systems.last_odyssey.consequences import BIT
from tohit.systems.last_odyssey.state_codes import packed_tracker, tracker_of

PROTECT = {"name": "Protect", "attack": {"kind": "buff", "type": "ally", "stat": "physical_defense"}}
MIGHT = {"name": "Might", "attack": {"kind": "buff", "type": "ally", "stat": "physical_attack", "levels": 6}}


def with_policy(data: dict[str, Any], side: int, policy: str) -> dict[str, Any]:
    data["sides"][side]["policy"] = policy
    return data


def test_last_odyssey_fight_an_ally_buff_moves_an_allys_tracker() -> None:
    """Ability types (Ally: defensive, any character); Buffs and Debuffs: A's Protect raises M's Physical
    Defense 0 -> +1 (policy first: the first standing ally in file order it can still raise). The trace does not
    say it was used on the other side: M is A's ally."""
    a = caster("A", PROTECT, STRIKE)
    log = narrate(load(fight([character("M"), a], [character("B")], max_rounds=1)), seed=1, script=[MISS, MISS])
    protect = attacks_by(log, "A")[0]
    assert (protect["attack"], protect["target"]) == ("Protect", "M")
    assert "with Protect (an Ally buff)" in protect["text"] and protect["dice"]["hit"] == []
    assert ("M", "buffs", 0, packed_tracker({"physical_defense": 1})) in changes(log, "tracker")
    assert not any("works as though" in step["text"] for step in protect["trace"])
    assert tracker_of(int(log.final.per["buffs"][0, 0])) == {"physical_defense": 1}


def test_last_odyssey_fight_an_ally_buff_raises_the_allys_defence_against_later_hits() -> None:
    """Buffs and Debuffs: the tracker feeds the buffed ally's defence. Protect with 6 levels puts M's Physical
    Defense at +7: B's Strike then deals 5 - (2 + 7) + 6 = 2 base, x2 (no Shell) = 4 (unbuffed: 18)."""
    wall = {"name": "Wall", "attack": {**PROTECT["attack"], "levels": 6}}
    m, a = character("M", attacks=[STRIKE]), caster("A", wall, STRIKE)
    # Order: M, B, A, then M, B. M misses, B misses, A walls M, M misses, B hits M with a 6.
    script = [MISS, MISS, NO_ROLL, MISS, {"hit": [6]}]
    log = narrate(load(fight([m, a], [character("B")], max_rounds=2)), seed=1, script=script)
    assert ("M", "buffs", 0, packed_tracker({"physical_defense": 7})) in changes(log, "tracker")
    assert attacks_by(log, "B")[1]["outcome"]["damage"] == 4


def test_last_odyssey_fight_an_ally_buff_may_target_its_user() -> None:
    """ "Any character on the battlefield": the user too. In a duel, A's only ally is A."""
    log = narrate(load(fight([caster("A", PROTECT, STRIKE)], [character("B")], max_rounds=1)), seed=1, script=[NO_ROLL])
    protect = attacks_by(log, "A")[0]
    assert (protect["attack"], protect["target"]) == ("Protect", "A")
    assert ("A", "buffs", 0, packed_tracker({"physical_defense": 1})) in changes(log, "tracker")


def test_last_odyssey_fight_a_downed_ally_cannot_be_targeted() -> None:
    """Death and Injury: a downed character cannot be targeted except by revives. B downs M (HP 2) before A's
    turn, so A's Protect goes to A itself, the only ally standing."""
    m, a = character("M", target={"hp": 2}), caster("A", PROTECT, STRIKE)
    log = narrate(load(fight([m, a], [character("B")], max_rounds=1)), seed=1, script=[MISS, {"hit": [6]}, NO_ROLL])
    assert int(log.final.per["hp"][0, 0]) == 0
    protect = attacks_by(log, "A")[0]
    assert (protect["attack"], protect["target"]) == ("Protect", "A")


@pytest.mark.parametrize("m_target", [{"buffs": {"physical_defense": 7}}, {"statuses": ["burned"]}])
def test_last_odyssey_fight_an_ally_buff_skips_an_ally_it_cannot_raise(m_target: dict[str, Any]) -> None:
    """A choice (docs/fights.md): a buff is not used on an ally at +7 for its statistic, nor on a Burned one
    (Statuses: Burned cannot be buffed); A's Protect goes to the next ally in file order, A itself."""
    m, a = character("M", target=m_target), caster("A", PROTECT, STRIKE)
    log = narrate(load(fight([m, a], [character("B")], max_rounds=1)), seed=1, script=[MISS, MISS, NO_ROLL])
    assert attacks_by(log, "A")[0]["target"] == "A"


def test_last_odyssey_fight_ally_buffs_nobody_can_take_leave_the_turn_to_the_next_ability() -> None:
    """File order of abilities (a choice): Protect first, while some ally can be raised; A and M at +7, A strikes."""
    full = {"buffs": {"physical_defense": 7}}
    m, a = character("M", target=full), caster("A", PROTECT, STRIKE, target=full)
    log = narrate(load(fight([m, a], [character("B")], max_rounds=1)), seed=1, script=[MISS, MISS, MISS])
    assert attacks_by(log, "A")[0]["attack"] == "Strike"


def test_last_odyssey_fight_weakest_buffs_the_ally_with_the_least_hp() -> None:
    """Policy weakest (a choice): the ally with the lowest HP (ties: file order), the user included."""
    side = [caster("A", PROTECT, STRIKE), character("M", target={"hp": 30}), character("N", target={"hp": 9})]
    data = with_policy(fight(side, [character("B")], max_rounds=1), 0, "weakest")
    log = narrate(load(data), seed=1, script=[NO_ROLL, MISS, MISS, MISS])
    assert attacks_by(log, "A")[0]["target"] == "N"


def test_last_odyssey_fight_random_buffs_an_ally_it_can_raise_at_random() -> None:
    """Policy random (a choice): any standing ally the buff can still raise, uniformly; never M at +7."""
    side = [caster("A", PROTECT, STRIKE), character("M", target={"buffs": {"physical_defense": 7}}), character("N")]
    data = with_policy(fight(side, [character("B")], max_rounds=1), 0, "random")
    seen = set()
    for seed in range(12):
        log = narrate(load(data), seed=seed)
        seen.add(attacks_by(log, "A")[0]["target"])
    assert seen == {"A", "N"}


def test_last_odyssey_fight_a_multi_ally_buff_raises_every_ally() -> None:
    """Ability types (Multi: more than one character): a Multi Ally buff moves every standing ally's tracker."""
    rally = {"name": "Rally", "attack": {"kind": "buff", "type": ["ally", "multi"], "stat": "evasion"}}
    log = narrate(
        load(fight([caster("A", rally, STRIKE), character("M")], [character("B")], max_rounds=1)),
        seed=1,
        script=[NO_ROLL, MISS, MISS],
    )
    moved = {who for who, stat, _, _ in changes(log, "tracker") if stat == "buffs"}
    assert moved == {"A", "M"}


def test_last_odyssey_fight_a_burned_user_still_buffs_an_ally() -> None:
    """Statuses: Burned stops buffs on the Burned character, not its own buffs on others."""
    a = caster("A", PROTECT, STRIKE, target={"statuses": ["burned"]})
    log = narrate(load(fight([character("M"), a], [character("B")], max_rounds=1)), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "A")[0]["target"] == "M"


# -- policy best at the current state ----------------------------------------------------------------------


def test_last_odyssey_fight_best_a_paralyzed_user_uses_its_magical_attack() -> None:
    """Statuses (Paralyzed: physical attacks automatically miss): B's Strike (5 - 2 + d10, x2 on no Shell)
    beats its Fire (4 - 1 + d10, x1) unparalyzed; Paralyzed, `best` uses Fire."""
    b = character("B", attacks=[STRIKE, FIRE])
    data = with_policy(fight([character("A")], [b], max_rounds=1), 1, "best")
    log = narrate(load(data), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "B")[0]["attack"] == "Strike"
    b = character("B", attacks=[STRIKE, FIRE], target={"statuses": ["paralyzed"]})
    data = with_policy(fight([character("A")], [b], max_rounds=1), 1, "best")
    log = narrate(load(data), seed=1, script=[MISS, MISS])
    assert attacks_by(log, "B")[0]["attack"] == "Fire"


def test_last_odyssey_fight_best_expected_damage_reads_the_current_statuses() -> None:
    """Policy best's odds at the current state (engine: the scalar stats bound with `odds`): a Paralyzed user's
    Strike expects 0, a Silenced user's Fire 0, and Petrified halves the target's base Evasion (3 -> 1: more hits)."""
    loaded = load(fight([character("A", attacks=[STRIKE, FIRE])], [character("B")]))
    plain = expected_damage(loaded, 0, 0, 1, {})
    assert plain > 0
    assert expected_damage(loaded, 0, 0, 1, {}, attacker_groups={"statuses": BIT["paralyzed"]}) == 0
    assert expected_damage(loaded, 0, 1, 1, {}, attacker_groups={"statuses": BIT["silenced"]}) == 0
    assert expected_damage(loaded, 0, 0, 1, {}, attacker_groups={"statuses": BIT["silenced"]}) == plain
    assert expected_damage(loaded, 0, 0, 1, {}, groups={"statuses": BIT["petrified"]}) > plain


def test_last_odyssey_fight_best_switches_when_an_ally_buff_moves_its_tracker() -> None:
    """Buffs and Debuffs: B has a Shell (Fire x2, Strike x1): A's Fire (2 - 1 + d10, x2: 8.8 expected) beats
    its Strike (5 - 2 + d10: 6.0). M's Might puts A's Physical Attack at +7 (Strike: 11.6): `best` strikes."""
    a = character("A", attacks=[FIRE, STRIKE], attacker={"magical_attack": 2}, policy="best")
    m = caster("M", MIGHT, STRIKE)
    b = character("B", target={"shell": 200})
    # Order: A, B, M, then A. A's Fire misses, B misses, M's Might on A (the first ally in file order), A.
    log = narrate(load(fight([a, m], [b], max_rounds=2)), seed=1, script=[MISS, MISS, NO_ROLL, MISS])
    assert [e["attack"] for e in attacks_by(log, "A")] == ["Fire", "Strike"]
    assert attacks_by(log, "M")[0]["target"] == "A"


def test_last_odyssey_fight_best_switches_when_the_shell_breaks() -> None:
    """Shells: while B's Shell holds, magic deals double (A's Fire); once it breaks, physical attacks do
    (A's Strike): `best` reads whether the Shell is active now, not in the file."""
    a = character("A", attacks=[FIRE, STRIKE], policy="best")
    b = character("B", target={"shell": 5, "hp": 40})
    log = narrate(load(fight([a], [b], max_rounds=2)), seed=1, script=[{"hit": [6]}, MISS, MISS])
    assert ("B", "shell", 5, 0) in changes(log, "damage")
    assert [e["attack"] for e in attacks_by(log, "A")] == ["Fire", "Strike"]


def test_last_odyssey_fight_an_attack_a_status_makes_miss_waits_while_another_ability_can_be_used() -> None:
    """A choice (docs/fights.md): a Paralyzed `first` user skips its Strike for its Fire; with nothing else it
    strikes, and misses (Statuses)."""
    b = character("B", attacks=[STRIKE, FIRE], target={"statuses": ["paralyzed"]})
    log = narrate(load(fight([character("A")], [b], max_rounds=1)), seed=1, script=[MISS, HIT])
    assert attacks_by(log, "B")[0]["attack"] == "Fire"
    b = character("B", attacks=[STRIKE], target={"statuses": ["paralyzed"]})
    log = narrate(load(fight([character("A")], [b], max_rounds=1)), seed=1, script=[MISS, HIT])
    assert attacks_by(log, "B")[0]["outcome"]["result"] == "miss"


# -- exact, simulation and the plain-Python reference -------------------------------------------------------


def test_last_odyssey_fight_exact_agrees_with_simulation_with_an_ally_buff() -> None:
    """--exact on a duel where A's Ally buff (Guard, 3 levels; its only ally: itself) raises its Physical Defense
    0 -> +7, against
    both Monte Carlo samplers and the plain-Python reference; B is Paralyzed after A's Thunder Lock and then
    uses its Fire (an attack a status makes miss waits)."""
    lock = {"name": "Thunder Lock", "attack": {"kind": "status", "type": "ranged", "element": "thunder"}}
    guard = {"name": "Guard", "attack": {**PROTECT["attack"], "levels": 3}}
    a = caster("A", guard, lock, STRIKE, target={"hp": 24})
    b = character("B", attacks=[STRIKE, FIRE], target={"hp": 16, "resistance": 6}, attacker={"physical_attack": 6})
    loaded = load(fight([a], [b]))
    exact = exact_duel(loaded)
    assert sum(exact.wins) + exact.draw == 1
    p = float(exact.wins[0])
    assert 0.5 < p < 0.9
    n = 60_000
    for method in ("table", "direct"):
        sim = simulate_fights(loaded, n, seed=11, method=method)
        assert abs(sim.wins(0) / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5, method
    rng = random.Random(12)
    m = 20_000
    wins = sum(1 for _ in range(m) if last_odyssey_duel(loaded, rng)[0] == 0)
    assert abs(wins / m - p) < 4.5 * (p * (1 - p) / m) ** 0.5
    # Guard is played: without it A does worse.
    plain = caster("A", lock, STRIKE, target={"hp": 24})
    assert exact_duel(load(fight([plain], [b]))).wins[0] < exact.wins[0]


def test_last_odyssey_fight_two_against_one_with_an_ally_buff_agrees_with_the_reference() -> None:
    """Three combatants (beyond --exact): A's Guard (3 levels) raises M's Physical Defense (first ally in file
    order) to +7, then A's own, then A strikes; B strikes M first. Both samplers against the plain-Python loop."""
    guard = {"name": "Guard", "attack": {**PROTECT["attack"], "levels": 3}}
    m = character("M", target={"hp": 14})
    a = caster("A", guard, STRIKE, target={"hp": 12}, attacker={"physical_attack": 2})
    b = character("B", target={"hp": 30}, attacker={"physical_attack": 8})
    loaded = load(fight([m, a], [b]))
    rng = random.Random(21)
    r = 20_000
    ref = sum(1 for _ in range(r) if last_odyssey_duel(loaded, rng)[0] == 0) / r
    assert 0.1 < ref < 0.9
    n = 40_000
    for method in ("table", "direct"):
        p = simulate_fights(loaded, n, seed=22, method=method).wins(0) / n
        assert abs(p - ref) < 4.5 * (ref * (1 - ref) * (1 / n + 1 / r)) ** 0.5, method
    # The buff matters: without Guard the party wins less often.
    plain = caster("A", STRIKE, target={"hp": 12}, attacker={"physical_attack": 2})
    q = simulate_fights(load(fight([m, plain], [b])), n, seed=23).wins(0) / n
    assert q < ref - 0.02


@pytest.mark.parametrize(
    ("ability", "words"),
    [
        ({"kind": "physical", "type": "ally", "element": "colorless"}, "a Self or Ally ability a buff"),
        ({"kind": "debuff", "type": "ally", "stat": "evasion"}, "a Self or Ally ability a buff"),
        ({"kind": "buff", "type": ["self", "ally"], "stat": "evasion"}, "give one of the two"),
        ({"kind": "buff", "type": "passive", "stat": "evasion"}, "not Passive or Reaction"),
    ],
)
def test_last_odyssey_fight_ally_abilities_it_cannot_play_are_refused(ability: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError) as err:
        load(fight([character("A", attacks=[{"name": "X", "attack": ability}])], [character("B")]))
    assert str(err.value).startswith("fight.yaml: sides[0].combatants[0].attacks[0].attack.type: ")
    assert words in str(err.value)


def test_last_odyssey_fight_a_self_buff_is_still_only_its_users() -> None:
    """Ability types (Self: only the user): Roar never goes to an ally."""
    log = narrate(load(fight([character("M"), caster("A", ROAR, STRIKE)], [character("B")], max_rounds=1)), seed=1)
    assert attacks_by(log, "A")[0]["target"] == "A"


def test_last_odyssey_fight_replay_rebuilds_ally_buffs(tmp_path: Path) -> None:
    """The example fight: the Imp's Dark Ward (an Ally buff) raises the Ogre's Evasion, then its own; narrated,
    logged as tracker events, and rebuilt by replay."""
    path = tmp_path / "events.jsonl"
    out = CliRunner().invoke(
        app, ["fight", str(EXAMPLES / "fights" / "last-odyssey-ogre.yaml"), "--seed", "1", "--log", str(path)]
    )
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    assert "Imp attacks Ogre with Dark Ward (an Ally buff)" in said
    assert "Ogre's Evasion: +0 -> +1 on the Bonus Tracker" in said
    events = [json.loads(line) for line in path.read_text().splitlines()]
    moved = {(c["who"], c["to"]) for e in events if e["kind"] == "tracker" for c in e["changes"]}
    assert any(who == "Ogre" and tracker_of(to).get("evasion") == 1 for who, to in moved)
    rebuilt = replay(path)
    assert rebuilt.matches, rebuilt.mismatches


def test_last_odyssey_fight_a_melee_ally_buff_reaches_only_the_front_row() -> None:
    """Ability types (Melee: only characters in the front row): a Melee Ally buff skips M in the back row."""
    wall = {"name": "Shield Wall", "attack": {"kind": "buff", "type": ["ally", "melee"], "stat": "physical_defense"}}
    m = character("M", attacks=[FIRE], attacker={"row": "back"}, target={"row": "back"})
    log = narrate(load(fight([m, caster("A", wall, STRIKE)], [character("B")], max_rounds=1)), seed=1)
    assert attacks_by(log, "A")[0]["target"] == "A"
    log = narrate(load(fight([character("M"), caster("A", wall, STRIKE)], [character("B")], max_rounds=1)), seed=1)
    assert attacks_by(log, "A")[0]["target"] == "M"
