"""What a FullPlate hit does in a fight, written once: the creature struck loses the damage in hit points, never
below 0 here (a fight's choice: at 0 HP it is down, out of the fight; the attack's own `hp_left` reports the
plain difference, for a DM who plays negative hit points). A shot fired into melee may strike another creature
(docs/fullplate.md#silent-firing-into-melee); magical ammunition that hits is counted, to be recovered after the fight
[Enhancement].

`apply` is the one pure transition from a resolved attack to what it changes, itemised."""

from __future__ import annotations

from collections.abc import Callable
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


def hp_lost(hp: Any, damage: Any) -> Any:
    """The hit points `damage` costs (elementwise): the damage, never more than the HP left (HP never below 0)."""
    return np.minimum(hp, damage)


def hp_after(hp: Any, damage: Any) -> Any:
    """Hit points after `damage` (elementwise), never below 0."""
    return np.asarray(hp) - hp_lost(hp, damage)


class Before(NamedTuple):
    """The stats an attack may change, one row per attack, before it. The "defender" is the creature struck:
    the target, or one engaged with it when a shot fired into melee strikes another
    (docs/fullplate.md#silent-firing-into-melee)."""

    #: The struck combatant's HP (any value where `struck` is False).
    hp: IntArray
    #: The struck creature is a combatant of this fight (else the shot is lost); None: every one is (no shot of
    #: the fight may go into a melee).
    struck: BoolArray | None
    #: The damage the attacker has dealt in the fight.
    dealt: IntArray
    #: The attack fires magical ammunition; None: none of the fight's attacks does.
    magic: BoolArray | None
    #: Which of the attacker's attacks it is (the ammunition's stat; None with `magic` None).
    attack: IntArray | None
    #: The hits so far of the attack's magical ammunition (the `ammo_hits<attack>` stat; None: no attack fires any).
    ammo_hits: IntArray | None = None


class Outcome(NamedTuple):
    """The attack's resolved columns the fight applies."""

    #: HIT, MISS or FUMBLE; None: every row is a hit (the fight gives its hits only).
    result: IntArray | None
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
    at: Callable[[Any], Any] = _every
    if outcome.result is None:
        hits = np.arange(outcome.damage.size)
    else:
        hits, at = positions(outcome.result == HIT)
    hp = at(before.hp)
    lost = hp_lost(hp, at(outcome.damage))
    after = hp - lost
    items = _damage(before, at, hits, lost, after)
    if before.magic is not None:
        items += _ammunition(before, hits, at(before.magic))
    stray = _NONE if before.struck is None else hits[~at(before.struck)]
    return Applied(tuple(items), hits, after, stray)


def _damage(before: Before, at: Callable[[Any], Any], hits: IntArray, lost: IntArray, after: IntArray) -> list[Item]:
    """The "damage" items of the hits (positions `hits`; `at` reads an array of `before` at them; the HP the
    creature struck loses, and has after): its HP, the dealt its attacker gains; none where it loses none (no
    damage, already at 0 HP, or a shot lost to a creature not in the fight)."""
    lands = lost > 0
    if before.struck is not None:
        lands &= at(before.struck)
    landed = int(np.count_nonzero(lands))
    if landed == 0:
        return []
    if landed == lands.size:  # every hit lands (the usual case): the columns as they are
        r, hp_to, dealt_to = hits, after, at(before.dealt) + lost
    else:
        where = np.flatnonzero(lands)
        r, hp_to = hits.take(where), after.take(where)
        dealt_to = before.dealt.take(r) + lost.take(where)
    return [
        item("damage", "hp", r, hp_to, DEFENDER, CLAUSE_HP),
        item("damage", "dealt", r, dealt_to, ATTACKER, CLAUSE_HP),
    ]


def _ammunition(before: Before, hits: IntArray, magic: BoolArray) -> list[Item]:
    """The "ammunition" items of the hits (positions `hits`) that fire magical ammunition, one per attack in
    attack order: one more arrow to recover each."""
    if not magic.any():
        return []
    assert before.ammo_hits is not None and before.attack is not None
    r = hits[magic]
    k = before.attack[r]
    items = []
    for kk in np.unique(k):
        rk = r[k == kk]
        stat = f"ammo_hits{int(kk)}"
        items.append(item("ammunition", stat, rk, before.ammo_hits[rk] + 1, ATTACKER, CLAUSE_AMMO, part=int(kk)))
    return items


def _every(x: Any) -> Any:
    return x


#: No position.
_NONE = np.zeros(0, dtype=np.int64)
