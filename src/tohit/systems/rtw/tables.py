"""Reclaim the Wild tables and named constants (the game's other pages, docs/rtw.md#where-the-page-is-silent).

Every number the rules use lives here, named after the rulebook's term, so a rule reads like the book.
"""

from __future__ import annotations

from typing import Literal

#: An attack's `result` codes (rules.py resolves them).
HIT, MISS = 0, 1

#: Damage types [Elements and Monsters]: the seven elements and the three physical edges.
DamageType = Literal["blunt", "sharp", "piercing", "dark", "earth", "fire", "ice", "light", "shock", "water"]
DAMAGE_TYPES: tuple[DamageType, ...] = (
    "blunt",
    "sharp",
    "piercing",
    "dark",
    "earth",
    "fire",
    "ice",
    "light",
    "shock",
    "water",
)

#: The Guard Stat an attack or an effect names (rtw: Landing the Blow).
GuardStat = Literal["evasion", "concentration", "vitality"]
#: An additional effect rolls To-Hit vs Concentration or Vitality (rtw: Landing the Blow).
EffectStat = Literal["concentration", "vitality"]
AttackKind = Literal["basic", "spell", "technique"]
Trait = Literal["combat", "willpower", "none"]
Reaction = Literal["none", "deflect", "parry"]
#: Attack ranges (rtw: Attack Ranges); "targets" is "X Targets/Squares within Y Squares". A "Weapon" range is
#: given as the weapon's Basic Attack range it stands for.
Range = Literal["melee", "line", "sweep", "projectile", "blast", "burst", "cone", "targets"]

#: Hard-to-Hit levels, lowest first (Status Effects: Hard to Hit; Hard to Hit, Extremely).
HardToHit = Literal["none", "hard", "extreme"]
HARD_TO_HIT_LEVELS: tuple[HardToHit, ...] = ("none", "hard", "extreme")
#: To-Hit penalty by level: -2 Hard, -5 Extremely Hard; the higher replaces, never stacks
#: (docs/rtw.md#silent-hard-to-hit).
HARD_TO_HIT_PENALTY: dict[HardToHit, int] = {"none": 0, "hard": -2, "extreme": -5}

#: Prone: no Evasion and never Hard to Hit against these ranges; Hard to Hit against every other (Status Effects).
PRONE_EXPOSED_RANGES: frozenset[str] = frozenset({"melee", "line", "targets"})
#: Parry works only against Line, Melee or Sweep attacks [Basic Reactions].
PARRY_RANGES: frozenset[str] = frozenset({"line", "melee", "sweep"})

#: Unarmed: a Fist with Weapon Accuracy 5 and Attack Power 0 (rtw: Landing the Blow; docs/rtw.md#silent-unarmed).
UNARMED_ACC = 5
UNARMED_ATTACK_POWER = 0
#: An unarmed blow (a Punch) deals Blunt damage unless the attack names another type.
UNARMED_DAMAGE_TYPE: DamageType = "blunt"

#: A Basic Attack's natural 12 is a Critical Hit (rtw: Landing the Blow); a range of +N widens it to 12-N..12.
NATURAL_CRITICAL = 12
#: The widest range that still means something: +10 makes every 2d6 (2..12) a Critical Hit.
MAX_CRIT_RANGE = 10

#: Vulnerability: +4 damage, once per hit; the total never below 4 (rtw: Vulnerability).
VULNERABILITY_BONUS = 4
VULNERABLE_FLOOR = 4
#: All attacks that land on a creature not immune deal at least 1 damage (rtw: Damage).
DAMAGE_FLOOR = 1
#: Resistance per rank: 2, or 1 when also Vulnerable (Status Effects: Resistant; docs/rtw.md#silent-damage-pipeline).
RESISTANCE_PER_RANK = 2
RESISTANCE_PER_RANK_VULNERABLE = 1

#: Max Health = 4 x Hearts unless given (Character Traits; docs/rtw.md#silent-peril).
HEALTH_PER_HEART = 4

#: Enchantment ranks run 0..5 [Enchantments]: "No matter what, all effects cap at Rank 5."
MAX_RANK = 5
#: Perfectly Balanced by rank: (ACC, ATK, DUR, CRIT) [Enchantments].
PERFECTLY_BALANCED: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 0, 0),
    (0, 2, 1, 0),
    (1, 2, 2, 1),
    (1, 3, 2, 1),
    (2, 3, 3, 2),
    (2, 4, 3, 2),
)


def critical_hit_enchantment_range(rank: int) -> int:
    """The Critical Hit enchantment widens the range by 1 + Rank/2, rounded down [Enchantments;
    docs/rtw.md#silent-rounding]."""
    return 1 + rank // 2


def hard_to_hit_penalty(level: HardToHit) -> int:
    return HARD_TO_HIT_PENALTY[level]
