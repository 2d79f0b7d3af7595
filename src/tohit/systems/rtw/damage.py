"""The damage pipeline as a pure function, itemised for the trace (rtw: Damage, Critical Hits, Vulnerability).

Order (docs/rtw.md#silent-damage-pipeline, docs/rtw.md#silent-rounding): raw = Weapon Attack Power + k x Trait (+
Attack Power again on a Critical Hit) -> +4 if Vulnerable -> - Defense -> - Resistance (highest only; 2 per rank, 1
per rank if Vulnerable) -> halving (Deflect, Parry, the Interceptor feat; round down) -> at least 1, or 4 if
Vulnerable. Immune: 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tohit.systems.rtw.models import DamageFormula
from tohit.systems.rtw.tables import (
    DAMAGE_FLOOR,
    RESISTANCE_PER_RANK,
    RESISTANCE_PER_RANK_VULNERABLE,
    VULNERABILITY_BONUS,
    VULNERABLE_FLOOR,
    DamageType,
)

CLAUSE_DAMAGE = "rtw: Damage"
CLAUSE_CRITICAL = "rtw: Critical Hits"
CLAUSE_VULNERABILITY = "rtw: Vulnerability"
CLAUSE_RESISTANCE = "Status Effects: Resistant (docs/rtw.md#silent-damage-pipeline)"
CLAUSE_REACTION = (
    "Basic Reactions: Deflect and Parry halve after Defense (docs/rtw.md#silent-damage-pipeline,"
    " docs/rtw.md#silent-rounding)"
)
CLAUSE_INTERCEPTOR = (
    "Feats: Interceptor halves after Defense (docs/rtw.md#silent-damage-pipeline, docs/rtw.md#silent-rounding)"
)
CLAUSE_FLOOR = "rtw: Damage, at least 1 (Vulnerability: never below 4)"


@dataclass(frozen=True)
class Item:
    """One line of the damage pipeline: a named step, its text and the running total after it."""

    step: str
    text: str
    clause: str
    total: int


@dataclass(frozen=True)
class Damage:
    """The Health the target loses, with every step that led there."""

    final: int
    items: tuple[Item, ...]


def raw_damage(formula: DamageFormula, attack_power: int, combat: int, willpower: int) -> Item:
    """Weapon + k x Trait: the Attack Power (if the formula uses the weapon) plus k times Combat or Willpower."""
    parts: list[str] = []
    total = 0
    if formula.weapon:
        total += attack_power
        parts.append(f"Weapon {attack_power}")
    if formula.trait != "none":
        value = combat if formula.trait == "combat" else willpower
        total += formula.multiplier * value
        k = f"{formula.multiplier} x " if formula.multiplier != 1 else ""
        parts.append(f"{k}{formula.trait.capitalize()} {value}")
    return Item("raw_damage", f"Damage: {' + '.join(parts)} = {total}", CLAUSE_DAMAGE, total)


def critical_bonus(raw: int, attack_power: int) -> Item:
    """A Critical Hit adds the weapon's Attack Power again, once however many sources (rtw: Critical Hits)."""
    total = raw + attack_power
    text = f"Critical Hit: + Attack Power {attack_power} again = {total}"
    return Item("critical_damage", text, CLAUSE_CRITICAL, total)


def mitigate(
    raw: int,
    types: Sequence[DamageType],
    *,
    defense: int,
    resistance: dict[DamageType, int],
    vulnerable: Sequence[DamageType],
    immune: Sequence[DamageType],
    halving: str | None = None,
) -> Damage:
    """The Health a landed hit of `raw` damage of `types` takes from the target (docs/rtw.md#silent-damage-pipeline).

    `halving` names what halves the damage after Defense and Resistance ("Deflect", "Parry", "Interceptor"),
    or None.
    """
    immune_to = [t for t in types if t in immune]
    if immune_to:
        text = f"immune to {immune_to[0]}: 0 damage"
        return Damage(0, (Item("immune", text, "Elements and Monsters: Immunity", 0),))
    items: list[Item] = []
    total = raw
    weak = [t for t in types if t in vulnerable]
    if weak:
        total += VULNERABILITY_BONUS
        text = f"Vulnerable to {', '.join(weak)}: +{VULNERABILITY_BONUS} (once per hit) = {total}"
        items.append(Item("vulnerability", text, CLAUSE_VULNERABILITY, total))
    total -= defense
    items.append(Item("defense", f"- Defense {defense} = {total}", CLAUSE_DAMAGE, total))
    resisted = [(resistance[t], t) for t in types if resistance.get(t, 0) > 0]
    if resisted:
        ranks, kind = max(resisted)
        per_rank = RESISTANCE_PER_RANK_VULNERABLE if weak else RESISTANCE_PER_RANK
        total -= ranks * per_rank
        how = "half, Vulnerable" if weak else "highest only" if len(resisted) > 1 else ""
        note = f" ({how})" if how else ""
        text = f"- Resistance to {kind}: {ranks} rank(s) x {per_rank}{note} = {total}"
        items.append(Item("resistance", text, CLAUSE_RESISTANCE, total))
    if halving is not None:
        before = max(total, 0)
        total = before // 2
        clause = CLAUSE_INTERCEPTOR if halving == "Interceptor" else CLAUSE_REACTION
        items.append(Item("halved", f"{halving} halves: {before} / 2 = {total} (rounded down)", clause, total))
    floor = VULNERABLE_FLOOR if weak else DAMAGE_FLOOR
    if total < floor:
        why = "Vulnerable: never below 4" if weak else "a landed attack deals at least 1"
        total = floor
        items.append(Item("floor", f"{why}: {total}", CLAUSE_FLOOR, total))
    return Damage(total, tuple(items))
