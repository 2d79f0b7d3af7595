"""WSSWNN clauses: jump-attacks from on high, and falling (Taking Actions [Jump-Attacks];
docs/wsswnn.md#silent-jump-attack)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tests.wsswnn.helpers import dist, make, row, trace

JUMPER = {"attack_die": "d6", "maneuver_die": "d8", "strength": 0}
BRUTE = {"guard": 6, "agility": 0}


def jump(
    heights: int,
    dice: dict[str, list[int]] | None = None,
    attacker: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    **attack: Any,
) -> dict[str, Any]:
    return make(
        attacker={**JUMPER, **(attacker or {})},
        attack={"kind": "jump", "heights": heights, **attack},
        target={**BRUTE, **(target or {})},
        dice=dice,
    )


def test_wsswnn_jump_attack_is_a_melee_attack_with_maneuver_advantage() -> None:
    """Jump-Attacks: "make a melee attack with maneuver advantage against a foe below you"."""
    data = jump(1, {"attack": [1], "advantage": [8], "landing": [1]})
    assert row(data)["attack_roll"] == 8 - 1 + 3
    assert "maneuver advantage d8 (8) (jump-attack) = 8: keep the higher, 8" in trace(data)


def test_wsswnn_jump_attack_minus_1_per_height() -> None:
    """Jump-Attacks: "take a -1 penalty for each height you leap from" (the result then misses here)."""
    data = jump(3, {"attack": [3], "advantage": [1], "landing": [1]}, target={"agility": 0})
    r = row(data)
    assert (r["attack_roll"], r["result"]) == (0, "miss")


def test_wsswnn_jump_bonus_3_per_height_turns_a_block_into_a_hit() -> None:
    """docs/wsswnn.md#silent-jump-attack: if the result beats Agility, add +3 per height, which can turn a block into
    a hit."""
    r = row(jump(2, {"attack": [2], "advantage": [7], "landing": [1]}))
    assert (r["result"], r["attack_roll"]) == ("hit", 11)


def test_wsswnn_jump_bonus_only_when_the_attack_does_not_miss() -> None:
    """docs/wsswnn.md#silent-jump-attack: the bonus applies only if the attack does not miss: "An attack is a Failure
    if it doesn't beat either the foe's Guard or Agility"."""
    r = row(jump(2, {"attack": [3], "advantage": [1], "landing": [1]}, target={"agility": 1}))
    assert (r["result"], r["attack_roll"]) == ("miss", 1)  # 3 - 2 = 1 beats neither Agility 1 nor Guard 6: no +6


def test_wsswnn_jump_bonus_when_the_result_beats_guard_below_agility() -> None:
    """Jump-Attacks: "since Wandu's jump attack doesn't miss, she adds 6 to her attack result (+3 per height)";
    an attack misses only "if it doesn't beat either the foe's Guard or Agility" (docs/wsswnn.md#silent-jump-attack
    revised, issue 15). One height at Guard 0, Agility 3; Attack die 3, Maneuver die 1: keep 3, -1 for the height: 2,
    which beats Guard 0, so the attack does not miss: +3 makes 5, a hit for 5 lethal."""
    data = jump(1, {"attack": [3], "advantage": [1], "landing": [1]}, target={"guard": 0, "agility": 3})
    r = row(data)
    assert (r["result"], r["attack_roll"], r["lethal"], r["damage"]) == ("hit", 5, 5, 5)
    assert r["guard_damage"] == 2 and r["falling_lethal"] is None
    assert "2 beats Guard 0: the jump-attack does not miss: +(3 + Strength 0) x 1 height(s) = +3: 5" in (trace(data))
    # Exact odds, by hand: d6 Attack, d8 Maneuver advantage, -1: the kept k - 1 beats Guard 0 unless k = 1; then
    # lethal k - 1 + 3 = k + 2. k = max(a, m) is 1 only on (1, 1): 1/48 a miss.
    odds = dist(
        make(attacker=JUMPER, attack={"kind": "jump", "heights": 1}, target={"guard": 0, "agility": 3}), "lethal"
    )
    kept = {k: Fraction(0) for k in range(1, 9)}
    for a in range(1, 7):
        for m in range(1, 9):
            kept[max(a, m)] += Fraction(1, 48)
    want: dict[int, Fraction] = {0: kept[1]}
    for k in range(2, 9):
        want[k + 2] = kept[k]
    assert odds == want


def test_wsswnn_jump_bonus_adds_strength_per_height() -> None:
    """docs/wsswnn.md#silent-jump-attack: "+ Strength per height" (option jump_strength_bonus, default true)."""
    dice = {"attack": [2], "advantage": [7], "landing": [1]}
    assert row(jump(2, dice, attacker={"strength": 2}))["attack_roll"] == 5 + (3 + 2) * 2
    data = jump(2, dice, attacker={"strength": 2})
    data["options"] = {"jump_strength_bonus": False}
    assert row(data)["attack_roll"] == 5 + 3 * 2


def test_wsswnn_jump_block_stays_a_block_when_the_bonus_falls_short() -> None:
    """Jump-Attacks: the bonus raises the result; if it still does not beat Guard, the attack is a block."""
    r = row(jump(1, {"attack": [1], "advantage": [2], "landing": [1]}, target={"guard": 9}))
    assert (r["attack_roll"], r["result"], r["lethal"], r["guard_damage"]) == (4, "block", 0, 2)


def test_wsswnn_jump_guard_damage_minus_1_minus_1_per_height() -> None:
    """docs/wsswnn.md#silent-jump-attack: jump-attack guard damage is -1 - 1 per height (a heavier weapon's own guard
    damage + heights)."""
    assert row(jump(2, {"attack": [2], "advantage": [7], "landing": [1]}))["guard_damage"] == 3
    axe = {"weapon": {"guard_damage": 2}}
    assert row(jump(1, {"attack": [2], "advantage": [7], "landing": [1]}, attacker=axe))["guard_damage"] == 3


def test_wsswnn_jump_blunted_cap_still_applies() -> None:
    """Jump-Attacks: "If you jump-attack with a blunted weapon, the attack's total lethal damage still can't
    exceed the weapon's damage cap"."""
    club = {"strength": 1, "weapon": {"blunted": True}}
    r = row(jump(3, {"attack": [6], "advantage": [8], "landing": [1]}, attacker=club))
    assert r["attack_roll"] == 8 - 3 + 4 * 3
    assert r["lethal"] == 2


def test_wsswnn_missed_jump_attack_falls_2_lethal_1_guard_per_height() -> None:
    """docs/wsswnn.md#silent-jump-attack: a missed jump-attack falls: 2 lethal and 1 guard per height (landing 0
    here)."""
    r = row(jump(3, {"attack": [1], "advantage": [1], "landing": [1]}, attacker={"penalty": 1}))
    assert (r["result"], r["falling_lethal"], r["falling_guard"]) == ("miss", 6, 3)


def test_wsswnn_landing_roll_reduces_the_lethal_part_only() -> None:
    """docs/wsswnn.md#silent-jump-attack: the landing Maneuver roll reduces the lethal part only, never below 0."""
    r = row(jump(2, {"attack": [1], "advantage": [1], "landing": [3]}))
    assert (r["falling_lethal"], r["falling_guard"]) == (1, 2)
    r = row(jump(1, {"attack": [1], "advantage": [1], "landing": [8]}, target={"agility": 5}))
    assert (r["falling_lethal"], r["falling_guard"]) == (0, 1)


def test_wsswnn_landing_roll_below_zero_adds_nothing() -> None:
    """Jump-Attacks (falling): a landing roll pushed below zero by penalties reduces nothing, adds nothing."""
    r = row(jump(2, {"attack": [1], "advantage": [1], "landing": [1]}, attacker={"penalty": 3}))
    assert (r["falling_lethal"], r["falling_guard"]) == (4, 2)


def test_wsswnn_falling_is_null_unless_a_jump_attack_misses() -> None:
    """Output: `falling` is null unless the jump-attack missed (falling_lethal / falling_guard both null)."""
    r = row(jump(2, {"attack": [2], "advantage": [7], "landing": [1]}))
    assert (r["falling_lethal"], r["falling_guard"]) == (None, None)
    r = row(make(dice={"attack": [1]}))
    assert (r["falling_lethal"], r["falling_guard"]) == (None, None)


def test_wsswnn_jump_exact_falling_distribution() -> None:
    """Jump-Attacks: a d4 Attack / d4 Maneuver at -2 from 2 heights vs Agility 0 misses when max(a, m-2) <= 2;
    then the fall does 4 - max(0, landing - 2) lethal."""
    data = make(
        attacker={"attack_die": "d4", "maneuver_die": "d4", "penalty": 2},
        attack={"kind": "jump", "heights": 2},
        target=BRUTE,
    )
    miss = Fraction(2, 4) * Fraction(4, 4)  # attack 1-2; maneuver 1-4 minus 2 is at most 2
    odds = dist(data, "falling_lethal")
    # landing d4 - 2 shows -1, 0, 1 or 2: reductions 0, 0, 1, 2: falling lethal 4, 4, 3, 2
    assert odds == {None: 1 - miss, 4: miss * Fraction(2, 4), 3: miss * Fraction(1, 4), 2: miss * Fraction(1, 4)}
