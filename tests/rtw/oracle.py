"""An independent oracle for Reclaim the Wild attacks, written from the rulebook page, not from `resolve`.

It reads the same scenario dicts, scalar by scalar, for one pair of 2d6 totals (To-Hit, effect), and returns
(result, damage, critical, effect_landed). It covers the common subset: Basic Attacks, Spells and Techniques,
the named stat with Evasion standing in (docs/rtw.md#silent-defence-stat), Off-Balance, Hard to Hit as given, a
Blinded or Dazzled attacker, the critical range (weapon `crit_range`), the option `natural_crit_always_hits`, damage
formula, Defense, Resistance, Vulnerability, immunity, Deflect / Parry and an additional effect.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product
from typing import Any

Outcome = tuple[str, int, bool, bool | None]


def _penalty(attacker: dict[str, Any], target: dict[str, Any]) -> int:
    penalties = [0]
    level = target.get("hard_to_hit", "none")
    penalties.append({"none": 0, "hard": -2, "extreme": -5}[level])
    if attacker.get("blinded"):
        penalties.append(-5)
    if attacker.get("dazzled"):
        penalties.append(-2)
    return min(penalties)  # the worst replaces the others


def _needed(stat: str, target: dict[str, Any]) -> int:
    evasion = target["evasion"]
    if stat == "evasion":
        return int(evasion)
    named = int(target[stat])
    return named if target.get("off_balance") else max(named, evasion)


def _damage(data: dict[str, Any], target: dict[str, Any], critical: bool) -> int:
    attacker, attack = data["attacker"], data["attack"]
    weapon = attacker.get("weapon")
    power = weapon["attack_power"] if weapon else 0
    formula = {"trait": "combat", "multiplier": 1, "weapon": True, **attack.get("damage", {})}
    amount = power if formula["weapon"] else 0
    if formula["trait"] != "none":
        amount += formula["multiplier"] * attacker.get(formula["trait"], 0)
    if critical:
        amount += power
    kinds = attack.get("damage_type") or (weapon["damage_type"] if weapon else "blunt")
    kinds = [kinds] if isinstance(kinds, str) else list(kinds)
    if any(k in target.get("immune", []) for k in kinds):
        return 0
    vulnerable = any(k in target.get("vulnerable", []) for k in kinds)
    if vulnerable:
        amount += 4
    amount -= target.get("defense", 0)
    ranks = max([target.get("resistance", {}).get(k, 0) for k in kinds])
    amount -= ranks * (1 if vulnerable else 2)
    if target.get("reaction", "none") != "none":
        amount = max(amount, 0) // 2
    return max(amount, 4 if vulnerable else 1)


def outcome(data: dict[str, Any], target: dict[str, Any], to_hit: int, effect: int | None) -> Outcome:
    """The attack against `target` when the To-Hit 2d6 shows `to_hit` and the effect 2d6 `effect`."""
    attacker, attack = data["attacker"], data["attack"]
    options = data.get("options", {})
    weapon = attacker.get("weapon")
    bonus = attacker["accuracy"] + (weapon["acc"] if weapon else 5) + _penalty(attacker, target)
    kind = attack.get("kind", "basic")
    critical = False
    if kind == "basic":
        total = to_hit + bonus
        hit = total >= _needed(attack.get("against", "evasion"), target)
        window = 12 - (weapon.get("crit_range", 0) if weapon else 0)
        if options.get("natural_crit_always_hits") and to_hit >= window:
            hit = True
        critical = hit and to_hit >= window
    elif _penalty(attacker, target) < 0:
        hit = to_hit + bonus >= target["evasion"]
    else:
        hit = True
    damage = _damage(data, target, critical) if hit else 0
    landed: bool | None = None
    if "effect" in attack:
        assert effect is not None
        landed = hit and effect + bonus >= _needed(attack["effect"]["against"], target)
    return ("hit" if hit else "miss", damage, critical, landed)


def distribution(data: dict[str, Any], target: dict[str, Any]) -> dict[Outcome, Fraction]:
    """Brute force over every face of the dice: 2d6 To-Hit, and 2d6 effect when the attack has one."""
    counts: Counter[Outcome] = Counter()
    faces = range(1, 7)
    has_effect = "effect" in data["attack"]
    dice = product(faces, repeat=4 if has_effect else 2)
    for roll in dice:
        effect = roll[2] + roll[3] if has_effect else None
        counts[outcome(data, target, roll[0] + roll[1], effect)] += 1
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items()}
