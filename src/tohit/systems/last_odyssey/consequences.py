"""What a Last Odyssey hit does to a Shell and to HP, written once [Shells; docs/last-odyssey.md#silent-shell;
Death and Injury].

The attack's `resolve` reports it (`shell_absorbed`, `overflow`, `hp_lost`, `downed`) and the fight applies
the same function to the Shell pool and HP it tracks. Elementwise over numpy arrays or scalars.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, Item, item, positions
from tohit.core.fight.state import BoolArray, IntArray
from tohit.systems.last_odyssey.effective import NAMES
from tohit.systems.last_odyssey.tables import BONUS_TRACKER, HIT, STATUS_OF_ELEMENT

#: The nine statuses [Statuses], one bit each in the `statuses` stat. The five whose effects the system's
#: `resolve` plays come first: their bits are the scalar group the resolves are keyed by (0..31).
STATUSES: tuple[str, ...] = (
    "blinded",
    "paralyzed",
    "silenced",
    "petrified",
    "burned",
    "confused",
    "frostbitten",
    "fatigued",
    "poisoned",
)
assert sorted(STATUSES) == sorted(STATUS_OF_ELEMENT.values())
BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(STATUSES)}
#: Statuses whose effects the system plays (Blinded, Paralyzed, Silenced: the user; Petrified, Burned: the target).
PLAYED_BITS = sum(BIT[s] for s in ("blinded", "paralyzed", "silenced", "petrified", "burned"))
#: Downed removes every effect except these [Death and Injury].
KEPT_WHEN_DOWNED = BIT["poisoned"] | BIT["frostbitten"] | BIT["burned"]

#: The Bonus Tracker statistics, one base-7 digit each in the `buffs` stat (the digit of 0 is 0: no buffs = 0).
TRACKED: tuple[str, ...] = tuple(NAMES)
LABEL: dict[str, str] = {stat: name for stat, name in NAMES.items()}
DIGIT_OF_STEP: dict[int, int] = {step: (i - 3) % 7 for i, step in enumerate(BONUS_TRACKER)}
STEP_OF_DIGIT: dict[int, int] = {d: step for step, d in DIGIT_OF_STEP.items()}
PLACE = np.asarray([7**i for i in range(len(TRACKED))], dtype=np.int64)
#: DIGIT_LOOKUP[step + 7]: the digit of a tracker value (as an array lookup).
DIGIT_LOOKUP = np.zeros(15, dtype=np.int64)
for _step, _digit in DIGIT_OF_STEP.items():
    DIGIT_LOOKUP[_step + 7] = _digit


class ShellHit(NamedTuple):
    """A hit's damage against a Shell pool of `points` (0: no Shell), itemised."""

    #: Points the Shell takes: all the damage, up to its points.
    absorbed: Any
    #: The hit breaks the Shell: damage of at least its points.
    broken: Any
    #: Damage past a broken Shell (0 where it did not break).
    overflow: Any


def shell_hit(damage: Any, points: Any) -> ShellHit:
    """A Shell absorbs damage up to its points; damage of at least its points breaks it, and what is left over
    overflows [Shells; docs/last-odyssey.md#silent-shell]. With no Shell (0 points) nothing is absorbed or broken."""
    damage = np.asarray(damage)
    if isinstance(points, int) and points > 0:  # one Shell for every row (an attack's resolve): fewer steps
        return ShellHit(np.minimum(damage, points), damage >= points, np.maximum(damage - points, 0))
    points = np.asarray(points)
    shelled = points > 0
    absorbed = np.where(shelled, np.minimum(damage, points), 0)
    broken = shelled & (damage >= points) & (damage > 0)
    overflow = np.where(broken, damage - points, 0)
    return ShellHit(absorbed, broken, overflow)


def hp_lost(damage: Any, points: Any, hp: Any) -> Any:
    """HP a hit takes: without a Shell, the damage up to the HP left; through a Shell, none unless the Shell
    breaks and its overflow is at least the HP, which downs the character [Shells;
    docs/last-odyssey.md#silent-shell]."""
    if isinstance(points, int) and isinstance(hp, int):  # one Shell and one HP for every row: fewer steps
        return (damage >= points + hp) * hp if points > 0 else np.minimum(damage, hp)
    return shell_and_hp(damage, points, hp)[1]


def shell_and_hp(damage: Any, points: Any, hp: Any) -> tuple[IntArray, IntArray]:
    """(Shell points absorbed, HP lost) of hits of `damage` (at least 0) on Shell pools of `points` (0 or less:
    no Shell) and `hp` (at least 0), row by row: `shell_hit`'s absorbed and `hp_lost`, in a few whole-array
    operations and no selection [Shells; docs/last-odyssey.md#silent-shell]. A Shell absorbs the damage up to its
    points; through a Shell HP is lost only when the overflow (damage past the points) is at least the HP, and
    then all of it; without a Shell the damage up to the HP. One formula for both: the damage past what the
    Shell absorbs, up to the HP, kept unless a Shell held (it absorbed and its overflow fell short of the HP)."""
    damage, points, hp = np.asarray(damage), np.asarray(points), np.asarray(hp)
    shelled = points > 0
    cap = np.maximum(points, 0)
    absorbed: IntArray = np.minimum(damage, cap)
    through = damage >= cap + hp  # no Shell: the damage reaches the HP; a Shell: it breaks and overflows the HP
    lost: IntArray = np.minimum(damage - absorbed, hp)
    lost *= shelled <= through  # a Shell that holds (shelled, not through) lets no HP go
    return absorbed, lost


CLAUSE_DAMAGE = "last-odyssey: Shells; docs/last-odyssey.md#silent-shell (a Shell absorbs, breaks, overflows into HP)"
CLAUSE_DOWNED = (
    "last-odyssey: Death and Injury (Downed removes every effect but Poisoned, Frostbitten, Burned;"
    " docs/last-odyssey.md#silent-death-and-injury)"
)
CLAUSE_STATUS = "last-odyssey: Statuses (a status that lands is the target's; docs/last-odyssey.md#silent-statuses)"
CLAUSE_TRACKER = (
    "last-odyssey: Buffs and Debuffs (the Bonus Tracker moves to the value the ability gives;"
    " docs/last-odyssey.md#silent-buffs-and-debuffs)"
)


def downed_effects(statuses: IntArray, buffs: IntArray) -> tuple[Item, ...]:
    """Downed (one row each): every effect is removed except Poisoned, Frostbitten and Burned, the Bonus Tracker
    too (a choice: docs/fights.md) [Death and Injury]. The items of the event "effects" (none when nothing
    changes)."""
    kept = statuses & KEPT_WHEN_DOWNED
    lose, reset = kept != statuses, buffs != 0
    if not (lose.any() or reset.any()):
        return ()
    return (
        item("effects", "statuses", np.flatnonzero(lose), kept[lose], DEFENDER, CLAUSE_DOWNED),
        item("effects", "buffs", np.flatnonzero(reset), 0, DEFENDER, CLAUSE_DOWNED),
    )


class Before(NamedTuple):
    """The stats an ability may change, one row per resolved ability, before it, and what the ability is."""

    #: The target's HP, Shell pool and Body Armor (None: nobody in the batch has Body Armor up).
    hp: IntArray
    shell: IntArray
    body_armor: IntArray | None
    #: The damage the user has dealt in the fight.
    dealt: IntArray
    #: The ability knocks out (downs rather than kills; None: no ability of the fight does), is physical (Body
    #: Armor absorbs it; None when no row's target has Body Armor up: then it is not read).
    knock: BoolArray | None
    physical: BoolArray | None
    #: The fight plays statuses and Bonus Trackers (some ability has one). Without, the fields below may be None:
    #: no one has a status or a buff.
    effects: bool
    #: The target's statuses (bits), status hits and Bonus Tracker (base-7 digits).
    statuses: IntArray | None = None
    status_hits: IntArray | None = None
    buffs: IntArray | None = None
    #: The ability's status bit (0: none), the Bonus Tracker statistic it moves (-1: none).
    bit: IntArray | None = None
    stat: IntArray | None = None


class Outcome(NamedTuple):
    """The ability's resolved columns the fight applies (`status_applied`, `tracker` read with effects only)."""

    result: IntArray
    damage: IntArray
    status_applied: IntArray | None = None
    tracker: IntArray | None = None


class Applied(NamedTuple):
    """What the abilities changed (`items`: events "damage", "effects" (downed), "status", "tracker"), which rows
    hit (`hit`), and what the narration reads: per row given, the Shell points a hit absorbs and the HP it loses
    (`absorbed_at`, `lost_at`; `absorbed` and `lost` per hit), and per hit (positions) the Bonus Tracker digit of
    the moved statistic before and after."""

    items: tuple[Item, ...]
    hit: BoolArray
    absorbed_at: IntArray
    lost_at: IntArray
    old_digit: IntArray
    new_digit: IntArray

    @property
    def hits(self) -> IntArray:
        """The positions of the hits."""
        found: IntArray = np.flatnonzero(self.hit)
        return found

    @property
    def absorbed(self) -> IntArray:
        """Per hit, the Shell points it absorbed."""
        found: IntArray = self.absorbed_at[self.hit]
        return found

    @property
    def lost(self) -> IntArray:
        """Per hit, the HP it took."""
        found: IntArray = self.lost_at[self.hit]
        return found


#: No Bonus Tracker digits: a fight without statuses or buffs (the narration reads them only for a "tracker").
_NO_DIGITS = np.zeros(0, dtype=np.int64)


def apply(before: Before, outcome: Outcome) -> Applied:
    """What each resolved ability does on a hit: the Shell absorbs, HP lost (`shell_hit`, `hp_lost`) and dealt,
    a knock-out at 0 HP incapacitates, a physical hit removes Body Armor; a target Downed loses every effect but
    Poisoned, Frostbitten and Burned, its Bonus Tracker too [Death and Injury]; then a status that lands is the
    target's if it has it not already, and a buff or debuff moves its Bonus Tracker [Statuses;
    Buffs and Debuffs]. Each reads what the earlier ones left.

    Shell and HP are worked on every row given, a miss left out by its mask: most abilities hit, and taking the
    hits out first would copy nearly every column."""
    hit = outcome.result == HIT
    absorbed, lost = shell_and_hp(outcome.damage, before.shell, before.hp)
    items: list[Item] = []
    took = hit & (absorbed > 0)
    if took.any():
        r = np.flatnonzero(took)
        items.append(item("damage", "shell", r, before.shell.take(r) - absorbed.take(r), DEFENDER, CLAUSE_DAMAGE))
    hurt = hit & (lost > 0)
    downed = hurt
    if hurt.any():
        r = np.flatnonzero(hurt)
        lost_h = lost.take(r)
        items.append(item("damage", "hp", r, before.hp.take(r) - lost_h, DEFENDER, CLAUSE_DAMAGE))
        items.append(item("damage", "dealt", r, before.dealt.take(r) + lost_h, ATTACKER, CLAUSE_DAMAGE))
        downed = hurt & (lost == before.hp)
    if before.knock is not None:
        knocked = np.flatnonzero(downed & before.knock)
        if knocked.size:
            items.append(item("damage", "incapacitated", knocked, 1, DEFENDER, CLAUSE_DAMAGE))
    armoured = None if before.body_armor is None else hit & (before.body_armor > 0)
    if armoured is not None and armoured.any():
        assert before.physical is not None  # read whenever a target has Body Armor up
        armour = np.flatnonzero(armoured & before.physical)
        if armour.size:
            items.append(item("damage", "body_armor", armour, 0, DEFENDER, CLAUSE_DAMAGE))
    if before.statuses is None or before.buffs is None:  # no statuses, no buffs: nothing more changes
        return Applied(tuple(items), hit, absorbed, lost, _NO_DIGITS, _NO_DIGITS)
    hits, at = positions(hit)
    downed = at(downed)
    old, new_digit = np.zeros(hits.size, dtype=np.int64), np.zeros(hits.size, dtype=np.int64)
    statuses, buffs = at(before.statuses), at(before.buffs)
    if downed.any():
        d = np.flatnonzero(downed)
        gone = downed_effects(statuses[d], buffs[d])
        items += [item(it.kind, it.stat, hits[d][it.rows], it.to, it.whose, it.clause) for it in gone]
        statuses, buffs = statuses.copy(), buffs.copy()
        statuses[d] &= KEPT_WHEN_DOWNED
        buffs[d] = 0
    if before.effects:
        assert before.bit is not None and before.stat is not None and before.status_hits is not None
        assert outcome.status_applied is not None and outcome.tracker is not None
        landed = at(outcome.status_applied) == 1
        if landed.any():
            bits = at(before.bit)
            new = landed & ((statuses & bits) == 0)
            r = hits[landed]
            items.append(item("status", "status_hits", r, before.status_hits[r] + 1, DEFENDER, CLAUSE_STATUS))
            items.append(item("status", "statuses", hits[new], (statuses | bits)[new], DEFENDER, CLAUSE_STATUS))
        stat = at(before.stat)
        moved = stat >= 0
        if moved.any():
            m = np.flatnonzero(moved)
            place = PLACE[stat[m]]
            old_m = (buffs[m] // place) % 7
            new_m = DIGIT_LOOKUP[outcome.tracker[hits[m]] + 7]
            old[m], new_digit[m] = old_m, new_m
            changed = new_m != old_m
            after = buffs[m] + (new_m - old_m) * place
            items.append(item("tracker", "buffs", hits[m][changed], after[changed], DEFENDER, CLAUSE_TRACKER))
    return Applied(tuple(items), hit, absorbed, lost, old, new_digit)
