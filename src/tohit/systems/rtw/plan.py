"""Everything about one attack on one target that does not depend on the dice (scalar rules).

`resolve` builds a `Plan` once, then applies the dice to it as arrays. The plan holds the target's standing
(Hard to Hit), its Guard Stats, whether the attack rolls To-Hit or hits automatically, the To-Hit bonus, the
Critical Hit range and the other critical sources, the damage of a normal and of a critical hit, and the
effect roll.
"""

from __future__ import annotations

from dataclasses import dataclass

from tohit.core.models import Scenario
from tohit.systems.rtw.conditions import Defence, Guard, Standing, defence_stat, guard_stats, hard_to_hit
from tohit.systems.rtw.consequences import fall_outcome
from tohit.systems.rtw.damage import Damage, Item, critical_bonus, mitigate, raw_damage
from tohit.systems.rtw.models import Attack, Attacker, Options, Target, Weapon, type_tuple
from tohit.systems.rtw.tables import (
    MAX_CRIT_RANGE,
    NATURAL_CRITICAL,
    PERFECTLY_BALANCED,
    UNARMED_ACC,
    UNARMED_ATTACK_POWER,
    UNARMED_DAMAGE_TYPE,
    DamageType,
    critical_hit_enchantment_range,
    hard_to_hit_penalty,
)

RtwScenario = Scenario[Attacker, Attack, Target, Options]


@dataclass(frozen=True)
class WeaponStats:
    """The weapon as the attack uses it: Attack Power, ACC and Critical Hit range after enchantments."""

    attack_power: int
    acc: int
    crit_range: int
    #: How the range was built, e.g. ["Critical Hit enchantment rank 2: +2"].
    range_parts: tuple[str, ...]
    name: str


def weapon_stats(weapon: Weapon | None, attack: Attack) -> WeaponStats:
    """Unarmed: a Fist with ACC 5 and Attack Power 0 (docs/rtw.md#silent-unarmed). Perfectly Balanced adds ACC, Attack
    Power and CRIT; the Critical Hit enchantment adds 1 + Rank/2 (rounded down); the attack may add its own range."""
    parts: list[str] = []
    if weapon is None:
        power, acc, crit, name = UNARMED_ATTACK_POWER, UNARMED_ACC, 0, "unarmed (Fist)"
    else:
        power, acc, crit, name = weapon.attack_power, weapon.acc, weapon.crit_range, weapon.name or "weapon"
        if crit:
            parts.append(f"weapon +{crit}")
        balanced = weapon.enchantments.perfectly_balanced
        if balanced is not None:
            d_acc, d_atk, _dur, d_crit = PERFECTLY_BALANCED[balanced]
            power, acc, crit = power + d_atk, acc + d_acc, crit + d_crit
            if d_crit:
                parts.append(f"Perfectly Balanced rank {balanced} +{d_crit}")
        keen = weapon.enchantments.critical_hit
        if keen is not None:
            crit += critical_hit_enchantment_range(keen)
            parts.append(f"Critical Hit enchantment rank {keen} +{critical_hit_enchantment_range(keen)}")
    if attack.crit_range:
        crit += attack.crit_range
        parts.append(f"attack +{attack.crit_range}")
    return WeaponStats(power, acc, min(crit, MAX_CRIT_RANGE), tuple(parts), name)


@dataclass(frozen=True)
class EffectPlan:
    """The additional effect: rolled To-Hit vs Concentration or Vitality, or landing with the hit."""

    name: str
    rolls: bool
    bonus: int
    defence: Defence | None
    why_auto: str


@dataclass(frozen=True)
class Plan:
    attacker: Attacker
    attack: Attack
    target: Target
    standing: Standing
    penalty: int
    guard: Guard
    weapon: WeaponStats
    #: Whether the attack rolls To-Hit; if not, `why_auto` says why it hits automatically.
    rolls: bool
    why_auto: str
    #: Accuracy + weapon ACC + the Hard-to-Hit penalty.
    bonus: int
    defence: Defence | None
    #: A Basic Attack's natural roll at or above this is in the Critical Hit range; None: no roll-based critical.
    crit_low: int | None
    natural_always_hits: bool
    able_to_miss: bool
    #: Critical sources that do not depend on the roll (Burning weapon, Frozen target), in words.
    other_crit: tuple[str, ...]
    types: tuple[DamageType, ...]
    raw: Item | None
    crit_item: Item | None
    normal: Damage | None
    critical: Damage | None
    effect: EffectPlan | None
    #: A Helpless creature caught by an attack not aimed at it alone: not harmed.
    unharmed: bool
    with_weapon: bool
    burning: bool
    fall_code: int
    #: A Helpless target struck by this attack (aimed at it alone) perishes: the attacker's choice, not a trap's.
    finishes: bool
    cost: int


def damage_types(attack: Attack, weapon: Weapon | None, with_weapon: bool) -> tuple[DamageType, ...]:
    """The attack's types: as given, else the weapon's edge (unarmed: blunt). A Burning weapon turns every attack
    made with it to Fire (Status Effects: Burning)."""
    if with_weapon and weapon is not None and weapon.burning:
        return ("fire",)
    given = type_tuple(attack.damage_type)
    if given:
        return given
    return (weapon.damage_type,) if weapon is not None else (UNARMED_DAMAGE_TYPE,)


def make_plan(scenario: RtwScenario, target: Target) -> Plan:
    attacker, attack, options = scenario.attacker, scenario.attack, scenario.options
    standing = hard_to_hit(
        attacker, attack, target, several_are_extreme=options.several_hard_to_hit_sources_are_extreme
    )
    penalty = hard_to_hit_penalty(standing.level)
    guard = guard_stats(attack, target)
    wstats = weapon_stats(attacker.weapon, attack)
    bonus = attacker.accuracy + wstats.acc + penalty
    basic = attack.kind == "basic"

    # To-Hit or an automatic hit (Landing the Blow; Hard to Hit; Intercept).
    if target.intercepting:
        rolls, why_auto = False, f"{target.name} Intercepted the attack: it hits automatically, no Reactions"
    elif basic or standing.level != "none":
        rolls, why_auto = True, ""
    else:
        rolls, why_auto = False, f"a {attack.kind.capitalize()} hits automatically (the target is not Hard to Hit)"
    against = attack.against if basic else "evasion"
    defence = defence_stat(against, guard, target.off_balance) if rolls else None

    # Critical Hits: roll (Basic Attacks only), Burning weapon, Frozen target; only if normally able to miss.
    with_weapon = attacker.weapon is not None and attack.damage is not None and attack.damage.weapon
    burning = with_weapon and attacker.weapon is not None and attacker.weapon.burning
    types = damage_types(attack, attacker.weapon, with_weapon)
    other: list[str] = []
    if burning:
        other.append("a Burning weapon makes every attack a Critical Hit, even automatic hits")
    if target.frozen and "fire" not in types:
        other.append("the next non-Fire attack to connect with a Frozen target is a Critical Hit")
    crit_low = NATURAL_CRITICAL - wstats.crit_range if basic and rolls else None

    # Alone: the attack targets this creature and only it (Falling in Battle; docs/rtw.md#silent-helpless-areas): an
    # area attack whose only target it is counts, one that also catches anyone else does not.
    alone = len(scenario.targets) == 1 and not attack.catches_others
    unharmed = target.helpless and not alone

    # Damage of a normal and of a critical hit.
    raw = crit_item = None
    normal = critical = None
    if attack.damage is not None:
        raw = raw_damage(attack.damage, wstats.attack_power, attacker.combat, attacker.willpower)
        crit_item = critical_bonus(raw.total, wstats.attack_power)
        halving = None
        if target.interceptor_feat:
            halving = "Interceptor"
        elif target.reaction != "none":
            halving = target.reaction.capitalize()
        common = {
            "defense": target.defense,
            "resistance": dict(target.resistance),
            "vulnerable": target.vulnerable,
            "immune": target.immune,
            "halving": halving,
        }
        normal = mitigate(raw.total, types, **common)  # type: ignore[arg-type]
        critical = mitigate(crit_item.total, types, **common)  # type: ignore[arg-type]

    effect = None
    if attack.effect is not None:
        if target.intercepting and not target.interceptor_feat:
            effect = EffectPlan(attack.effect.name, False, bonus, None, "Intercepted: follow-up effects hit too")
        else:
            eff_defence = defence_stat(attack.effect.against, guard, target.off_balance)
            effect = EffectPlan(attack.effect.name, True, bonus, eff_defence, "")

    return Plan(
        attacker=attacker,
        attack=attack,
        target=target,
        standing=standing,
        penalty=penalty,
        guard=guard,
        weapon=wstats,
        rolls=rolls,
        why_auto=why_auto,
        bonus=bonus,
        defence=defence,
        crit_low=crit_low,
        natural_always_hits=options.natural_crit_always_hits,
        able_to_miss=attack.able_to_miss,
        other_crit=tuple(other),
        types=types,
        raw=raw,
        crit_item=crit_item,
        normal=normal,
        critical=critical,
        effect=effect,
        unharmed=unharmed,
        with_weapon=with_weapon,
        burning=burning,
        fall_code=fall_outcome(hero=target.hero, mindless=attack.mindless, choice=attack.at_zero_health),
        finishes=attack.at_zero_health == "perish" and not attack.mindless,
        cost=attack.cost.magic + attack.cost.stamina,
    )
