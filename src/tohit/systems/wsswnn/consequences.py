"""What a WSSWNN hit does, written once: lethal damage comes off life, guard damage off guard, awareness damage
off awareness, none of them below 0 [Tracking Your Stats]; a brace that lands grapples, shoves or disarms the foe,
a grapple ends when its grappler takes lethal damage or its foe falls [braces]; a jump-attack's fall costs the
attacker life and guard. The attack's `resolve` reports the values after (`life_after`, `guard_after`) with
`worn`; `apply` is the one pure transition from a resolved attack to what it changes, itemised."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from tohit.core.fight.consequence import ATTACKER, DEFENDER, OTHER, Item, item, positions
from tohit.core.fight.rows import select
from tohit.core.fight.state import BoolArray, IntArray, gather
from tohit.core.outcome import NULL_INT
from tohit.systems.wsswnn.fields import EFFECT_OF, MISS

GRAPPLED, SHOVED, DISARMED = EFFECT_OF["grapple"], EFFECT_OF["shove"], EFFECT_OF["disarm"]
CLAUSE_STATS = "wsswnn: Tracking Your Stats (life, guard, awareness never below 0; docs/wsswnn.md#silent-stats)"
CLAUSE_BRACES = (
    "wsswnn: Braces (Grapple, Shove, disarm; a Struggle resisted for 1 stamina; docs/wsswnn.md#silent-braces)"
)
CLAUSE_FALL = "wsswnn: Jump-Attacks, falling (docs/wsswnn.md#silent-jump-attack)"


def worn(value: Any, damage: Any) -> Any:
    """A stat after `damage` (elementwise): never below 0, and a negative damage takes nothing."""
    return np.maximum(0, np.asarray(value) - np.maximum(0, np.asarray(damage)))


class Before(NamedTuple):
    """The stats an attack may change, one row per attack, before it. The brace stats (`grappling` onwards) only
    when the fight has braces against a foe; `awareness` only when some attack deals awareness damage."""

    #: The defender's life and guard.
    life: IntArray
    guard: IntArray
    #: The damage the attacker has dealt in the fight.
    dealt: IntArray
    #: The attacker is the defender's foe (a shot into a grapple may strike an ally: not counted as dealt); None:
    #: every attacker is (a fight where nobody can shoot into a grapple).
    foe: BoolArray | None
    #: The attacker's life and guard (a jump-attack's fall: needed when some attack falls).
    attacker_life: IntArray | None = None
    attacker_guard: IntArray | None = None
    awareness: IntArray | None = None
    #: Combatant indices of the defender and the attacker, and every combatant's `grappling` (rows, combatants):
    #: 0, or 1 + the combatant it grapples.
    defender: IntArray | None = None
    attacker: IntArray | None = None
    grappling: IntArray | None = None
    #: The defender's stamina and disarmed, and whether it pays stamina to resist a Struggle.
    stamina: IntArray | None = None
    disarmed: IntArray | None = None
    resists: BoolArray | None = None


class Outcome(NamedTuple):
    """The attack's resolved columns the fight applies (`awareness_damage` when some weapon deals it; the falls'
    when some attack is a jump-attack that falls; `brace_effect` and `resist_stamina` with braces only)."""

    result: IntArray
    damage: IntArray
    guard_after: IntArray
    awareness_damage: IntArray | None = None
    falling_lethal: IntArray | None = None
    falling_guard: IntArray | None = None
    brace_effect: IntArray | None = None
    resist_stamina: IntArray | None = None


class Applied(NamedTuple):
    """What the attacks changed (`items`, events in order: "damage", "grapple_ends", "resist", "grapple",
    "shove", "disarm", "fall"), the rows it applies to (`landed`: a hit, a block, or a fall), and per row given
    the defender's life, guard and awareness as a landing attack leaves them."""

    items: tuple[Item, ...]
    landed: BoolArray
    life_after: IntArray
    guard_after: IntArray
    awareness_after: IntArray | None

    @property
    def rows(self) -> IntArray:
        """The positions of the rows it applies to (made when asked: a fight's batch never reads them)."""
        found: IntArray = np.flatnonzero(self.landed)
        return found


def apply(before: Before, outcome: Outcome) -> Applied:
    """What each resolved attack does: on a hit or a block, lethal damage off the defender's life (and dealt, by a
    foe), its guard as the attack left it, awareness damage off awareness [Tracking Your Stats]; with braces, a
    grapple ends when its grappler takes lethal damage, and whoever holds a foe that falls lets go; a brace that
    lands grapples, shoves (ending grapples between the two) or disarms, unless the foe pays 1 stamina to resist a
    Struggle [braces]; a jump-attack's fall takes life and guard off the attacker.

    The stats are worked on every row given, a miss (that does not fall) left out by its mask: most attacks land,
    and taking the landed rows out first would copy nearly every column."""
    falling = None if outcome.falling_lethal is None else falls(outcome.falling_lethal, outcome.falling_guard)
    lands = outcome.result != MISS if falling is None else (outcome.result != MISS) | falling
    items: list[Item] = []
    life_after = worn(before.life, outcome.damage)
    hurt = lands & (life_after < before.life)
    if hurt.any():
        r = np.flatnonzero(hurt)
        left = life_after.take(r)
        items.append(item("damage", "life", r, left, DEFENDER, CLAUSE_STATS))
        foe = None if before.foe is None else before.foe.take(r)
        if foe is None or foe.any():
            rf, lf = (r, before.life.take(r) - left) if foe is None else select(foe, r, before.life.take(r) - left)
            items.append(item("damage", "dealt", rf, before.dealt.take(rf) + lf, ATTACKER, CLAUSE_STATS))
    told = outcome.guard_after
    unknown = told == NULL_INT  # no Guard told (an object's): the guard it had
    guard_after = np.where(unknown, before.guard, told) if unknown.any() else told
    g = lands & (guard_after != before.guard)
    if g.any():
        rg = np.flatnonzero(g)
        items.append(item("damage", "guard", rg, guard_after.take(rg), DEFENDER, CLAUSE_STATS))
    aware_after = None
    if before.awareness is not None and outcome.awareness_damage is not None and (outcome.awareness_damage > 0).any():
        aware_after = worn(before.awareness, outcome.awareness_damage)
        w = lands & (aware_after != before.awareness)
        if w.any():
            rw = np.flatnonzero(w)
            items.append(item("damage", "awareness", rw, aware_after.take(rw), DEFENDER, CLAUSE_STATS))
    if outcome.brace_effect is not None:
        rows, at = positions(lands)
        items += _braces(before, outcome, rows, at, at(hurt), at(life_after <= 0))
    if falling is not None and falling.any():
        assert outcome.falling_lethal is not None and outcome.falling_guard is not None
        assert before.attacker_life is not None and before.attacker_guard is not None
        r = np.flatnonzero(falling)
        fall_l = np.where(outcome.falling_lethal[r] == NULL_INT, 0, outcome.falling_lethal[r])
        fall_g = np.where(outcome.falling_guard[r] == NULL_INT, 0, outcome.falling_guard[r])
        items.append(item("fall", "life", r, worn(before.attacker_life[r], fall_l), ATTACKER, CLAUSE_FALL))
        items.append(item("fall", "guard", r, worn(before.attacker_guard[r], fall_g), ATTACKER, CLAUSE_FALL))
    return Applied(tuple(items), lands, life_after, guard_after, aware_after)


def falls(lethal: Any, guard: Any) -> BoolArray:
    """Which attacks fall: a jump-attack's fall that costs the attacker life or guard (the columns
    `falling_lethal`, `falling_guard`)."""
    found: BoolArray = (np.asarray(lethal) > 0) | (np.asarray(guard) > 0)
    return found


def grapples_end(grappling: IntArray, rows: IntArray, d: IntArray, hurt: BoolArray, down: BoolArray) -> list[Item]:
    """The grapples that end when defenders d (one per position of `rows`) lose life (`hurt`) or fall (`down`):
    a grappler that takes lethal damage lets go, and whoever holds a foe that falls lets go [braces]. Items of the
    event "grapple_ends"; `grappling` (positions, combatants) is left as they leave it."""
    items: list[Item] = []
    pos = np.arange(rows.size)
    mine = gather(grappling, pos, d)
    ends = hurt & (mine > 0)
    if ends.any():
        items.append(item("grapple_ends", "grappling", rows[ends], 0, DEFENDER, CLAUSE_BRACES))
        grappling[pos[ends], d[ends]] = 0
    if down.any():
        for c in range(grappling.shape[1]):  # each combatant that may hold the fallen
            held = down & (grappling[:, c] == d + 1)
            if held.any():
                items.append(
                    item("grapple_ends", "grappling", rows[held], 0, OTHER, CLAUSE_BRACES, combatant=c, part=c + 1)
                )
                grappling[held, c] = 0
    return items


def _braces(
    before: Before, outcome: Outcome, rows: IntArray, at: Callable[[Any], Any], hurt: BoolArray, down: BoolArray
) -> list[Item]:
    """Grapples that end, then what a brace that landed does [braces], as items in the order they happen (each
    reads the grapples the earlier ones left)."""
    assert before.grappling is not None and before.defender is not None and before.attacker is not None
    assert before.stamina is not None and before.disarmed is not None and before.resists is not None
    assert outcome.brace_effect is not None and outcome.resist_stamina is not None
    items: list[Item] = []
    d, a = at(before.defender), at(before.attacker)
    grappling = at(before.grappling).copy()  # (rows, combatants), as the items leave it
    pos = np.arange(rows.size)
    items += grapples_end(grappling, rows, d, hurt, down)
    effect = at(outcome.brace_effect)
    if not (effect >= 0).any():
        return items
    pays = (at(outcome.resist_stamina) == 1) & at(before.resists)
    if pays.any():
        r = rows[pays]
        items.append(item("resist", "stamina", r, np.maximum(0, before.stamina[r] - 1), DEFENDER, CLAUSE_BRACES))
    landed = (effect >= 0) & ~pays
    grapple = landed & (effect == GRAPPLED)
    if grapple.any():
        items.append(item("grapple", "grappling", rows[grapple], d[grapple] + 1, ATTACKER, CLAUSE_BRACES))
        grappling[pos[grapple], a[grapple]] = d[grapple] + 1
    shove = landed & (effect == SHOVED)
    if shove.any():
        s = pos[shove]
        foe_holds = grappling[s, d[s]] > 0
        holds_foe = grappling[s, a[s]] == d[s] + 1
        items.append(item("shove", "grappling", rows[s[foe_holds]], 0, DEFENDER, CLAUSE_BRACES))
        items.append(item("shove", "grappling", rows[s[holds_foe]], 0, ATTACKER, CLAUSE_BRACES))
    disarm = landed & (effect == DISARMED) & (at(before.disarmed) == 0)
    if disarm.any():
        items.append(item("disarm", "disarmed", rows[disarm], 1, DEFENDER, CLAUSE_BRACES))
    return items
