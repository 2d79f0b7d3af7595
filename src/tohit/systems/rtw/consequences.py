"""What an attack's outcome does, written once: Health, Peril, Falling in Battle, Weapon Durability (rtw page).

Pure functions over scalars or numpy arrays: the attack's `resolve` reports them (`health_after`, `peril`,
`falls`) and the fight applies the same functions to the Health and Durability it tracks. Nothing here
changes a combatant: it says what the new value is. `apply` is the one pure transition from a resolved attack
to what it changes, itemised (the fight emits and narrates the items).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, OTHER, Item, item, positions
from tohit.core.fight.rows import select
from tohit.core.fight.state import BoolArray, IntArray
from tohit.systems.rtw.tables import HEALTH_PER_HEART, HIT

CLAUSE_DURABILITY = "rtw: Weapon Durability"
CLAUSE_PERIL = "rtw: Peril (docs/rtw.md#silent-peril)"
CLAUSE_FALLING = "rtw: Falling in Battle"

#: `falls` labels: what becomes of a creature at 0 Health (or Helpless and struck by an attack at it alone).
FALLS_LABELS = ("helpless", "perishes")
HELPLESS, PERISHES = 0, 1
#: The stat each `falls` code sets.
FALLS_STATS = ("helpless", "perished")


def max_health(hearts: int, given: int | None = None) -> int:
    """Max Health is 4 x Hearts unless given (Character Traits; docs/rtw.md#silent-peril)."""
    return given if given is not None else HEALTH_PER_HEART * hearts


def in_peril(health: Any, hearts: Any) -> Any:
    """In Peril when Health <= Hearts (under 25% of 4 x Hearts)."""
    return np.asarray(health) <= hearts


def health_after(health: Any, damage: Any) -> Any:
    """Health after losing `damage`, never below 0 (elementwise)."""
    left = np.asarray(health) - np.asarray(damage)
    return np.maximum(left, 0, out=left) if isinstance(left, np.ndarray) else np.maximum(left, 0)


def fall_outcome(*, hero: bool, mindless: bool, choice: str) -> int:
    """What a creature reduced to 0 Health becomes: Heroes always fall Helpless; a source that cannot have
    whims (a mindless trap) leaves it Helpless; otherwise the attacker's choice (perish or helpless)."""
    if hero or mindless or choice == "helpless":
        return HELPLESS
    return PERISHES


def durability_after_encounter(durability: Any, used_successfully: Any) -> tuple[Any, Any]:
    """At the end of an encounter a weapon used successfully in it takes 1 Durability damage (elementwise).

    Returns (Durability left, shattered). At 0 it shatters: unusable, unrecoverable. Weapons are not repaired,
    so nothing here ever raises Durability.
    """
    left = np.maximum(0, np.asarray(durability) - np.asarray(used_successfully, dtype=np.int64))
    return left, left == 0


def durability_after_stress(durability: Any, uses: Any = 1) -> tuple[Any, Any]:
    """Each time a weapon is struck against anything out of combat, or otherwise stressed (a Burning weapon
    that lands a blow, Status Effects): 1 Durability damage (elementwise)."""
    if np.any(np.asarray(uses) < 0):
        raise ValueError("uses must be at least 0")
    left = np.maximum(0, np.asarray(durability) - np.asarray(uses))
    return left, left == 0


CLAUSE_HEALTH = "rtw: Damage (a hit costs its damage in Health, never below 0; docs/rtw.md#silent-health)"
CLAUSE_STATUS = "rtw: Landing the Blow; Status Effects (docs/rtw.md#silent-status-effects)"
CLAUSE_INVISIBLE = "rtw: Status Effects, Invisibility (ends when an attack hits it; docs/rtw.md#silent-status-effects)"


class Before(NamedTuple):
    """The stats an attack may change, one row per resolved attack, before it, and what the attack is."""

    #: The target's Health, and the damage the attacker has dealt (counted only against a `foe`: an area on a
    #: map may catch allies; None: every target is a foe).
    health: IntArray
    dealt: IntArray
    foe: BoolArray | None
    #: The target's Hearts (-1: not given, never in Peril), and what it becomes at 0 Health (HELPLESS or
    #: PERISHES: `fall_outcome`, from the attack and the target): per row, or a function giving it at the positions
    #: asked (read only for the few that fall).
    hearts: IntArray
    fall: IntArray | Callable[[IntArray], IntArray]
    #: The attacker (its combatant index: a Distracted target keeps the bitmask of its sources).
    attacker: IntArray
    #: The target's Invisible (None: the fight keeps no such status).
    invisible: IntArray | None = None
    #: The status stats the fight keeps, per row the one the attack's effect inflicts (an index into them, -1:
    #: none), and the target's value of it now (0 where none).
    statuses: tuple[str, ...] = ()
    effect: IntArray | None = None
    status_now: IntArray | None = None
    #: Per row the attacker's weapon slot that wears (-1: none), that weapon's Durability, and how many slots the
    #: fight has (None: no weapon in the fight has a Durability to lose).
    slot: IntArray | None = None
    durability: IntArray | None = None
    slots: int = 0


class Outcome(NamedTuple):
    """The attack's resolved columns the fight applies (`effect_landed` read with effects, `durability_used` and
    `burning_wear` with weapons that wear)."""

    #: HIT or not, per row (None: every row is a hit, the fight gives only its hits).
    result: IntArray | None
    damage: IntArray
    effect_landed: IntArray | None = None
    durability_used: IntArray | None = None
    burning_wear: IntArray | None = None


class Applied(NamedTuple):
    """What the attacks changed (`items`: events "damage", "peril", "falls" (part HELPLESS, PERISHES),
    "status_ends", "status" (part: the status index), "weapon_used" and "durability" (part: the weapon slot)), the
    hits (positions) and their Health after."""

    items: tuple[Item, ...]
    hits: IntArray
    health_after: IntArray


def apply(before: Before, outcome: Outcome) -> Applied:
    """What each resolved attack does on a hit: Health lost (never below 0) and dealt (against a foe); Peril
    entered (Health now <= Hearts, not before) [rtw: Peril, docs/rtw.md#silent-peril]; at 0 Health with some damage it
    falls Helpless or perishes [rtw: Falling in Battle]; a hit ends the target's Invisibility [Status Effects]; an
    effect that landed on a target still above 0 Health puts its status on it (Distracted: the attacker's bit
    joins its sources) [rtw: Landing the Blow]; a weapon used successfully is marked for the end of the encounter,
    and a Burning weapon that lands a blow loses 1 Durability [rtw: Weapon Durability; Status Effects]."""
    hits, at = _hits(outcome)
    items: list[Item] = []
    damage = at(outcome.damage)
    health = at(before.health)
    after = health_after(health, damage)
    hurt = after < health
    if hurt.any():  # every row hurt (the usual case): the columns as they are, no take
        r, left, lost, dealt = select(hurt, hits, after, health - after, at(before.dealt))
        items.append(item("damage", "health", r, left, DEFENDER, CLAUSE_HEALTH))
        rf, lf, df = (r, lost, dealt) if before.foe is None else select(before.foe.take(r), r, lost, dealt)
        items.append(item("damage", "dealt", rf, df + lf, ATTACKER, CLAUSE_HEALTH))
    hearts = at(before.hearts)
    enters = np.flatnonzero(in_peril(after, hearts) & ~in_peril(health, hearts))  # in Peril now, not before
    if enters.size:
        items.append(item("peril", "peril", hits.take(enters), 1, DEFENDER, CLAUSE_PERIL))
    zero = np.flatnonzero(after == 0)
    zero = zero[damage.take(zero) > 0]
    if zero.size:
        falls = _fall_codes(before, hits.take(zero))
        for code, stat in enumerate(FALLS_STATS):
            sel = zero[falls == code]
            if sel.size:
                items.append(item("falls", stat, hits.take(sel), 1, DEFENDER, CLAUSE_FALLING, part=code))
    seen = None
    if before.invisible is not None:
        seen = at(before.invisible) == 1
        if seen.any():
            items.append(item("status_ends", "invisible", hits[seen], 0, DEFENDER, CLAUSE_INVISIBLE))
    if before.effect is not None and before.status_now is not None and outcome.effect_landed is not None:
        items += _statuses(before, outcome, hits, at, after, seen)
    if before.slot is not None and before.durability is not None:
        items += _weapons(before, outcome, hits, at)
    return Applied(tuple(items), hits, after)


def _statuses(
    before: Before,
    outcome: Outcome,
    hits: IntArray,
    at: Callable[[Any], Any],
    after: IntArray,
    seen: BoolArray | None,
) -> list[Item]:
    """An effect that landed on a target still above 0 Health puts its status on it (Distracted: the attacker's
    bit joins its sources; Invisibility a hit ended first) [rtw: Landing the Blow; Status Effects]."""
    assert before.effect is not None and before.status_now is not None and outcome.effect_landed is not None
    items: list[Item] = []
    effect = at(before.effect)
    lands = (at(outcome.effect_landed) == 1) & (effect >= 0) & (after > 0)
    for i, stat in enumerate(before.statuses) if lands.any() else ():
        sel = lands & (effect == i)
        if not sel.any():
            continue
        r = hits[sel]
        have = before.status_now[r]
        if stat == "invisible" and seen is not None:  # a hit that lands ended it first
            have = np.where(seen[sel], 0, have)
        to = have | (np.int64(1) << before.attacker[r]) if stat == "distracted" else np.ones_like(have)
        fresh = to != have
        items.append(item("status", stat, r[fresh], to[fresh], DEFENDER, CLAUSE_STATUS, part=i))
    return items


def _hits(outcome: Outcome) -> tuple[IntArray, Callable[[Any], Any]]:
    """The positions of the hits, and a function taking an array's entries at them (`positions`; every row when
    the fight gives only its hits)."""
    if outcome.result is None:
        return np.arange(outcome.damage.size, dtype=np.int64), _every
    return positions(outcome.result == HIT)


def _every(x: Any) -> Any:
    return x


def _fall_codes(before: Before, at: IntArray) -> IntArray:
    """What each creature at positions `at` becomes at 0 Health (HELPLESS or PERISHES: `Before.fall`)."""
    if callable(before.fall):
        return before.fall(at)
    codes: IntArray = before.fall.take(at)
    return codes


def _weapons(before: Before, outcome: Outcome, hits: IntArray, at: Callable[[Any], Any]) -> list[Item]:
    """A weapon used successfully is marked (`used<slot>`: it wears at the end of the encounter); a Burning
    weapon that lands a blow loses 1 Durability now, unless already shattered [rtw: Weapon Durability]."""
    assert before.slot is not None and before.durability is not None
    assert outcome.durability_used is not None and outcome.burning_wear is not None
    items: list[Item] = []
    w = at(before.slot)
    used = (at(outcome.durability_used) == 1) & (w >= 0)
    for ww in range(before.slots) if used.any() else ():
        sel = used & (w == ww)
        if sel.any():
            items.append(item("weapon_used", f"used{ww}", hits[sel], 1, ATTACKER, CLAUSE_DURABILITY, part=ww))
    wear = (at(outcome.burning_wear) == 1) & (w >= 0)
    for ww in np.unique(w[wear]).tolist() if wear.any() else ():
        r = hits[wear & (w == ww)]
        dur = before.durability[r]
        wears = dur > 0
        if wears.any():
            left, _ = durability_after_stress(dur[wears])
            items.append(item("durability", f"durability{ww}", r[wears], left, ATTACKER, CLAUSE_DURABILITY, part=ww))
    return items


CLAUSE_RESTORED = "rtw: Falling in Battle (restoring any Health to a Helpless creature ends their Helpless state)"


def health_by_hand(combatant: int, health: int, to: int, hearts: int, helpless: int, peril: int) -> tuple[Item, ...]:
    """A creature's Health set by a game master's hand, and what the page says follows (one row, the items of
    `FightRules.by_hand`): restoring any Health to a Helpless creature ends its Helpless state; brought to 0 Health
    it falls Helpless (the hand is a source without whims: `fall_outcome`) [rtw: Falling in Battle]; it is in Peril
    exactly while its Health is at or below its Hearts (`hearts` -1: none, never in Peril) [rtw: Peril]."""
    found = [item("adjust", "health", [0], to, OTHER, CLAUSE_HEALTH, combatant)]
    if to > health and helpless:
        found.append(item("restored", "helpless", [0], 0, OTHER, CLAUSE_RESTORED, combatant))
    elif to == 0 and not helpless:
        fall = fall_outcome(hero=False, mindless=True, choice="helpless")
        found.append(item("falls", FALLS_STATS[fall], [0], 1, OTHER, CLAUSE_FALLING, combatant))
    now = int(hearts >= 0 and bool(in_peril(to, hearts)))
    if now != peril:
        found.append(item("peril", "peril", [0], now, OTHER, CLAUSE_PERIL, combatant))
    return tuple(found)
