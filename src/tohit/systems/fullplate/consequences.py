"""What a FullPlate hit does in a fight, written once: the creature struck loses the damage in hit points, never
below 0 here (a fight's choice: at 0 HP it is down, out of the fight; the attack's own `hp_left` reports the
plain difference, for a DM who plays negative hit points). A shot fired into melee may strike another creature
(docs/fullplate.md#silent-firing-into-melee); magical ammunition that hits is counted, to be recovered after the fight
[Enhancement].

`apply` is the one pure transition from a resolved attack to what it changes, itemised."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, item, positions
from tohit.core.fight.state import BoolArray, IntArray
from tohit.systems.fullplate.rules import HIT

CLAUSE_HP = (
    "fullplate: Damage (a hit costs the creature struck its damage in hit points, never below 0 in a fight;"
    " docs/fullplate.md#silent-damage)"
)
CLAUSE_AMMO = "fullplate: Enhancement (magical ammunition that hits is recovered with less Enhancement)"


def hp_after(hp: Any, damage: Any) -> Any:
    """Hit points after `damage` (elementwise), never below 0."""
    return np.maximum(0, np.asarray(hp) - np.asarray(damage))


class Before(NamedTuple):
    """The stats an attack may change, one row per attack, before it. The "defender" is the creature struck:
    the target, or one engaged with it when a shot fired into melee strikes another
    (docs/fullplate.md#silent-firing-into-melee)."""

    #: The struck combatant's HP (any value where `struck` is False).
    hp: IntArray
    #: The struck creature is a combatant of this fight (else the shot is lost).
    struck: BoolArray
    #: The damage the attacker has dealt in the fight.
    dealt: IntArray
    #: The attack fires magical ammunition.
    magic: BoolArray
    #: Which of the attacker's attacks it is (the ammunition's stat).
    attack: IntArray
    #: The hits so far of the attack's magical ammunition (the `ammo_hits<attack>` stat; None: no attack fires any).
    ammo_hits: IntArray | None = None


class Outcome(NamedTuple):
    """The attack's resolved columns the fight applies."""

    result: IntArray
    damage: IntArray


class Applied(NamedTuple):
    """What the attacks changed (`items`: events "damage", then "ammunition" per attack), the hits (positions),
    their HP after, and the hits whose shot struck a creature not in the fight (`stray`)."""

    items: tuple[Item, ...]
    hits: IntArray
    hp_after: IntArray
    stray: IntArray


def apply(before: Before, outcome: Outcome) -> Applied:
    """What each resolved attack does (hits only): the creature struck, when it is a combatant, loses the
    damage in HP, never below 0, and the attacker's dealt grows by what it lost; a hit with magical ammunition
    counts one more arrow to recover (one "ammunition" event per attack, in attack order)."""
    hits, at = positions(outcome.result == HIT)
    hp, struck = at(before.hp), at(before.struck)
    after = hp_after(hp, at(outcome.damage))
    items: list[Item] = []
    lands = struck & (after < hp)
    if lands.any():
        r = hits[lands]
        items.append(item("damage", "hp", r, after[lands], DEFENDER, CLAUSE_HP))
        items.append(item("damage", "dealt", r, before.dealt.take(r) + (hp - after)[lands], ATTACKER, CLAUSE_HP))
    magic = at(before.magic)
    if magic.any():
        assert before.ammo_hits is not None
        r = hits[magic]
        k = before.attack[r]
        for kk in np.unique(k):
            rk = r[k == kk]
            stat = f"ammo_hits{int(kk)}"
            items.append(item("ammunition", stat, rk, before.ammo_hits[rk] + 1, ATTACKER, CLAUSE_AMMO, part=int(kk)))
    return Applied(tuple(items), hits, after, hits[~struck])
