"""Everything about one attack on one target that does not depend on the dice (plain Python, no arrays).

- Main-Hand vs Off-Hand (Attacking, "Special Circumstances"): the Off-Hand row, -2 on To-Hit, forced onto
  the Off-Hand alone or not (the page's -4 is for Skill Checks), none when Ambidextrous; with more than two hands
  half (rounded down) are Main Hands.
- The circumstance rows that apply (named by id, plus the Off-Hand and the Range band derived from
  `attack.distance`), each checked against the weapon and the distance (docs/fullplate.md#silent-range-bands); rows on
  one scale replace each other, the row worse for the attacker is used, and scales add
  (docs/fullplate.md#silent-modifier-scales).
- Enhancement (Attacking, "Enhancement"; docs/fullplate.md#silent-enhancement): to-hit, damage and Special Defence
  values.
- Flatfooted (the FullPlate wiki, "AC and Flatfooted") and Defence[Type] (wiki Defence): the AC the roll is
  compared with, for the intended target and for each creature engaged with it that carries its own stats
  (`Defender`; Firing Into Melee, docs/fullplate.md#silent-firing-into-melee).
- Effective THAC0 = THAC0 - bonuses + penalties (docs/fullplate.md#silent-effective-thac0), as a list of signed terms
  for the trace.

`situation(...)` raises InputError with the field at fault; `FullPlate.check` calls it for every target
before any dice are rolled, so `resolve` never sees a bad combination.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from difflib import get_close_matches

from tohit.core.errors import InputError, short_repr
from tohit.systems.fullplate.circumstances import (
    BY_ID,
    NEAR_FEET,
    OFF_HAND_ROW,
    RANGE,
    RANGE_ROWS,
    Circumstance,
    attacker_condition_row,
    condition_row,
)
from tohit.systems.fullplate.models import (
    LAUNCHERS,
    Armour,
    Attack,
    Attacker,
    Engaged,
    Game,
    ModifierStacking,
    Options,
    Target,
)

PAGE = "fullplate: Attacking"
#: AC of a creature with nothing but base AC (the FullPlate wiki, "AC and Flatfooted").
BASE_AC = 10


@dataclass(frozen=True)
class Term:
    """One signed To-Hit term (+ is a bonus: it lowers the effective THAC0), with its clause."""

    label: str
    bonus: int
    clause: str


@dataclass(frozen=True)
class Applied:
    """A circumstance row applied to this attack, its signed modifier, and the field it came from."""

    row: Circumstance
    modifier: int
    where: str
    note: str = ""


@dataclass(frozen=True)
class Hand:
    """Which hand attacks, and the Off-Hand penalty it carries."""

    off_hand: bool
    penalty: int
    text: str
    #: The field that made it an Off-Hand attack (for error messages).
    where: str


@dataclass(frozen=True)
class Enhancement:
    """Enhancement totals: To-Hit, damage, and the value that meets Special Defence."""

    to_hit: int
    damage: int
    special_defence: int
    text: str
    sd_text: str


@dataclass(frozen=True)
class Replaced:
    """A circumstance row that another row on its scale replaced (docs/fullplate.md#silent-modifier-scales): `row`
    gives way to `by`."""

    row: Applied
    by: Applied


@dataclass(frozen=True)
class Defender:
    """The creature a roll is judged against: its AC (Flatfooted and Defence[Type] included) and what adjusts
    the damage it takes. `own` is False for a creature engaged with the target that has no stats of its own,
    judged as the intended target (docs/fullplate.md#silent-firing-into-melee)."""

    name: str
    ac: int
    ac_text: str
    flatfooted: bool
    flatfooted_by: str
    #: Defence[Type] against this attack: (type, level), level 0 when no type matches.
    defence: tuple[str, int]
    special_defence_level: int
    special_defence: str
    resistance_pct: int
    vulnerability_pct: int
    armour: Armour
    hp: int | None
    own: bool = True


@dataclass(frozen=True)
class Situation:
    """The dice-free part of one attack on one target."""

    hand: Hand
    rows: tuple[Applied, ...]
    #: Rows given way to another row on their scale (docs/fullplate.md#silent-modifier-scales), for the trace.
    replaced: tuple[Replaced, ...]
    enhancement: Enhancement
    terms: tuple[Term, ...]
    thac0: int
    effective_thac0: int
    #: The intended target, as the roll judges it.
    target: Defender
    outnumbered: int


# -- hands --------------------------------------------------------------------------------------------
#: Attacking, Main-Hand vs Off-Hand: "An Off-Hand suffers a -2 penalty on To-Hit rolls."
OFF_HAND_TO_HIT = -2


def main_hands(hands: int) -> int:
    """Main Hands among `hands` hands: one of one or two; half (rounded down) of more than two; none of none.

    Attacking, Main-Hand vs Off-Hand: "If a character possesses more than two hands, assume half of them
    are Main-Hands, rounding down ... only one hand ... this is their Main-Hand"; a creature with only a grip
    has an off-hand for using weapons.
    """
    if hands <= 0:
        return 0
    if hands <= 2:
        return 1
    return hands // 2


def hand_rule(attacker: Attacker, attack: Attack, named_row: str | None = None) -> Hand:
    """The Off-Hand penalty on To-Hit: -2, forced or not; none when Ambidextrous.

    Attacking, Main-Hand vs Off-Hand: "An Off-Hand suffers a -2 penalty on To-Hit rolls." The -4 for being
    "forced to use solely their Off-Hand" is for "Any Skill Check", not for an attack.

    `named_row` is the field naming the attacker_off_hand row, when the scenario names it.
    """
    main = main_hands(attacker.hands)
    limbs = attacker.hands + attacker.appendages
    reasons: list[str] = []
    if attack.hand is not None:
        if attack.hand > limbs:
            raise InputError(
                f"hand {attack.hand}: the attacker has {attacker.hands} hands and {attacker.appendages} appendages",
                field="attack.hand",
            )
        if attack.hand > main:
            what = "an appendage" if attack.hand > attacker.hands else "not one of them"
            reasons.append(f"hand {attack.hand} is {what} (Main Hands: {main} of {attacker.hands})")
        elif attack.off_hand or attack.forced_off_hand or named_row:
            key = "attack.off_hand" if attack.off_hand else "attack.forced_off_hand"
            key = named_row or key
            raise InputError(
                f"hand {attack.hand} is a Main Hand ({main} of {attacker.hands} hands); drop attack.hand or this",
                field=key,
            )
    where = "attack.hand" if reasons else ""
    if attacker.hands == 0:
        reasons.append("a grip, with no hand, counts as an Off-Hand for using weapons")
        where = where or "attacker.hands"
    if attack.off_hand or named_row:
        reasons.append("attacking with the Off-Hand")
        where = "attack.off_hand" if attack.off_hand else str(named_row)
    if attack.forced_off_hand:
        reasons.append("forced to use solely the Off-Hand; its -4 is for Skill Checks, a To-Hit roll takes -2")
        where = "attack.forced_off_hand"
    if not reasons:
        return Hand(False, 0, "", "")
    if attacker.ambidextrous:
        return Hand(True, 0, "Ambidextrous (no Off-Hand)", where)
    return Hand(True, OFF_HAND_TO_HIT, "; ".join(reasons), where)


# -- enhancement --------------------------------------------------------------------------------------
def enhancement(attacker: Attacker, attack: Attack, game: Game) -> Enhancement:
    """Enhancement for To-Hit and damage, and against Special Defence (docs/fullplate.md#silent-enhancement).

    Launcher and ammunition add ("a +1 Longbow firing +2 Arrows has a +3 To-Hit bonus"); any other source
    does not stack: only the highest counts. Against Special Defence a weapon counts at the lower of its
    to-hit and damage Enhancements; a launcher with ammunition counts at the higher of the two in Heroic and
    Epic games, and at the ammunition's alone in Traditional games; Breech Immunity +N counts as +N.
    """
    weapon, ammo = attacker.weapon, attacker.ammunition
    ammo_e = ammo.enhancement if ammo is not None else 0
    to_hit = weapon.enhancement + ammo_e
    damage = weapon.damage_enhancement_value + ammo_e
    parts = [f"weapon {weapon.enhancement:+d}"]
    if ammo is not None:
        parts.append(f"ammunition {ammo_e:+d} (launcher and ammunition add)")
    other = attack.enhancement
    if other is not None:
        parts.append(f"other source {other:+d} (only the highest counts)")
        to_hit, damage = max(to_hit, other), max(damage, other)
    weapon_sd = min(weapon.enhancement, weapon.damage_enhancement_value)
    if weapon.kind in LAUNCHERS:
        if game == "traditional":
            sd, sd_text = ammo_e, f"ammunition {ammo_e:+d} alone (traditional game)"
        else:
            sd = max(weapon_sd, ammo_e)
            sd_text = f"highest of launcher {weapon_sd:+d} and ammunition {ammo_e:+d} ({game} game)"
    else:
        sd, sd_text = weapon_sd, f"weapon {weapon_sd:+d}"
    if other is not None and other > sd:
        sd, sd_text = other, f"other source {other:+d}"
    if attacker.breech_immunity > sd:
        sd, sd_text = attacker.breech_immunity, f"Breech Immunity +{attacker.breech_immunity}"
    return Enhancement(to_hit, damage, sd, ", ".join(parts), sd_text)


def special_defence_effect(game: Game, level: int, enh: int) -> str:
    """full, half, minimum or none (the FullPlate wiki, "Special Defence").

    Heroic/Epic: Enhancement at the SD level or higher does full damage, 1 lower half, 2 lower minimum,
    3 or more lower none. Traditional: anything below the SD level does no damage.
    """
    if level <= 0 or enh >= level:
        return "full"
    if game == "traditional":
        return "none"
    gap = level - enh
    return {1: "half", 2: "minimum"}.get(gap, "none")


# -- circumstances ------------------------------------------------------------------------------------
def range_band(distance: int, short: int, medium: int, long: int) -> str:
    """Short, medium, long or extreme (up to 2 x Long); beyond that is out of range
    (docs/fullplate.md#silent-range-bands)."""
    if distance <= short:
        return "short"
    if distance <= medium:
        return "medium"
    if distance <= long:
        return "long"
    if distance <= 2 * long:
        return "extreme"
    raise InputError(
        f"{distance} feet is beyond extreme range (2 x long range {long} = {2 * long} feet)",
        field="attack.distance",
    )


def _unknown(name: object, where: str) -> InputError:
    close = get_close_matches(str(name), list(BY_ID), n=1)
    hint = f" (did you mean {short_repr(close[0])}?)" if close else ""
    return InputError(
        f"unknown circumstance {short_repr(name)}{hint}; `tohit modifiers fullplate` lists the row ids",
        field=where,
    )


def _named(attack: Attack, target: Target, index: int | None) -> list[tuple[str, str]]:
    tpath = f"targets[{index}]" if index is not None else "target"
    named = [(rid, f"attack.circumstances[{i}]") for i, rid in enumerate(attack.circumstances)]
    named += [(rid, f"{tpath}.circumstances[{i}]") for i, rid in enumerate(target.circumstances)]
    return named


def circumstances(
    attacker: Attacker,
    attack: Attack,
    target: Target,
    options: Options,
    hand: Hand,
    index: int | None = None,
) -> tuple[tuple[Applied, ...], tuple[Replaced, ...]]:
    """The rows that apply, in order, checked (docs/fullplate.md#silent-modifier-scales,
    docs/fullplate.md#silent-range-bands), and the rows replaced by another on their scale; raises InputError naming
    the field."""
    weapon = attacker.weapon
    tpath = f"targets[{index}]" if index is not None else "target"
    outnumbered = max(0, target.enemies_engaged - 1)
    applied: list[Applied] = []
    ids: set[str] = set()

    def add(row: Circumstance, where: str, modifier: int | None = None, note: str = "") -> None:
        if row.id in ids:
            return
        ids.add(row.id)
        applied.append(Applied(row, row.modifier if modifier is None else modifier, where, note))

    derived_range: str | None = None
    bands = ""
    if attack.distance is not None and weapon.ranged and weapon.ranges is not None:
        r = weapon.ranges
        derived_range = RANGE_ROWS[range_band(attack.distance, r.short, r.medium, r.long)]
        bands = f"{r.short}/{r.medium}/{r.long}"

    for rid, where in _named(attack, target, index):
        row = BY_ID.get(rid)
        if row is None:
            raise _unknown(rid, where)
        if row.weapons is not None and weapon.kind not in row.weapons:
            kinds = " or ".join(sorted(row.weapons))
            raise InputError(
                f"{rid} ({row.text}) needs a {kinds} weapon; attacker.weapon.kind is {weapon.kind}", field=where
            )
        if row.near is not None and attack.distance is not None and (attack.distance <= NEAR_FEET) != row.near:
            side = f"within {NEAR_FEET}" if row.near else f"beyond {NEAR_FEET}"
            raise InputError(f"{rid} applies {side} feet; attack.distance is {attack.distance} feet", field=where)
        if row.group == RANGE and derived_range is not None and rid != derived_range:
            raise InputError(
                f"{rid} does not fit attack.distance {attack.distance} feet, which is {derived_range}"
                f" for ranges {bands} (drop the row: the distance gives the band)",
                field=where,
            )
        if row.per == "outnumbered":
            if outnumbered < 1:
                raise InputError(
                    f"flanking needs the target Outnumbered: {tpath}.enemies_engaged is {target.enemies_engaged}"
                    " (Outnumbered level = enemies engaged with the target minus 1)",
                    field=where,
                )
            add(row, where, row.modifier * outnumbered, f"Outnumbered level {outnumbered}")
            continue
        if row.per == "10_feet":
            continue  # added below, with visibility_0
        if rid == OFF_HAND_ROW:
            continue  # the hand rule below decides whether it applies, and its value
        add(row, where)

    for i, own in enumerate(attacker.conditions):
        add(attacker_condition_row(own, weapon.kind, weapon.size), f"attacker.conditions[{i}]")
    for i, name in enumerate(target.conditions):
        add(condition_row(name, weapon.kind, attack.distance), f"{tpath}.conditions[{i}]")
    if hand.off_hand and hand.penalty:
        add(BY_ID[OFF_HAND_ROW], hand.where, hand.penalty, hand.text)
    if derived_range is not None:
        add(BY_ID[derived_range], "attack.distance", note=f"{attack.distance} feet")

    darkness = BY_ID["darkness_per_10_feet"]
    named_darkness = [w for rid, w in _named(attack, target, index) if rid == darkness.id]
    if named_darkness and "visibility_0" not in ids:
        raise InputError(
            "darkness_per_10_feet applies only at 0% Visibility: add visibility_0", field=named_darkness[0]
        )
    if named_darkness and attack.distance is None:
        raise InputError("darkness_per_10_feet needs attack.distance (feet to the target)", field=named_darkness[0])
    if "visibility_0" in ids and attack.distance is not None:
        steps = attack.distance // 10
        add(darkness, named_darkness[0] if named_darkness else "attack.distance", -steps, f"{attack.distance} feet")

    return scales(applied, options.modifier_stacking)


def scales(applied: list[Applied], stacking: ModifierStacking) -> tuple[tuple[Applied, ...], tuple[Replaced, ...]]:
    """Rows on one scale replace each other and the row worse for the attacker is used (the first named of
    equal rows); rows on different scales add (docs/fullplate.md#silent-modifier-scales). With `modifier_stacking:
    all` every row adds.

    Attacking, Circumstantial Modifiers: "an attacker who is climbing does not gain a +1 bonus To-Hit from
    being above their opponent, nor does an attacker in Visibility 25% suffer both the penalty for Visibility
    25% and Visibility 50% at the same time. A DM decides if multiple modifiers stack or not."
    """
    if stacking == "all":
        return tuple(applied), ()
    used: dict[str, Applied] = {}
    for a in applied:
        best = used.get(a.row.scale)
        if best is None or a.modifier < best.modifier:
            used[a.row.scale] = a
    kept = tuple(a for a in applied if used[a.row.scale] is a)
    replaced = tuple(Replaced(a, used[a.row.scale]) for a in applied if used[a.row.scale] is not a)
    return kept, replaced


# -- the whole situation ------------------------------------------------------------------------------
def flatfooted_ac(ac: int, dodge: int, deflection: int, covers: bool) -> tuple[int, str]:
    """AC while Flatfooted: Dodge and Deflection (shield) AC are lost, Deflection kept when the shield covers
    the part targeted; losing them never takes AC above base 10 (the FullPlate wiki, "AC and Flatfooted")."""
    lost = dodge + (0 if covers else deflection)
    after = ac + lost
    if after > BASE_AC:
        after = max(ac, BASE_AC)
    kept = " (the shield covers the part targeted: Deflection kept)" if covers else ""
    text = f"AC {ac} + Dodge {dodge} + Deflection {deflection}{kept}"
    return after, text


def defence_against(types: list[str], defence: dict[str, int]) -> tuple[str, int]:
    """Defence[Type] (wiki Defence): +1 AC per level against attacks of that type; only the best matching type
    applies. Returns (type, level), ("", 0) when none matches. It is Circumstantial AC: Flatfooted keeps it."""
    matches = [(level, kind) for kind, level in defence.items() if kind in types]
    if not matches:
        return ("", 0)
    level, kind = max(matches)
    return (kind, level)


def situation(
    attacker: Attacker, attack: Attack, target: Target, options: Options, index: int | None = None
) -> Situation:
    """The dice-free part of the attack on `target` (index: the target's place, for error fields)."""
    named = [where for rid, where in _named(attack, target, index) if rid == OFF_HAND_ROW]
    hand = hand_rule(attacker, attack, named[0] if named else None)
    rows, replaced = circumstances(attacker, attack, target, options, hand, index)
    enh = enhancement(attacker, attack, options.game)
    terms: list[Term] = []
    if attacker.to_hit_bonus:
        terms.append(Term("to-hit bonuses", attacker.to_hit_bonus, f"{PAGE}, To-Hit Roll"))
    if enh.to_hit:
        terms.append(Term("Enhancement", enh.to_hit, f"{PAGE}, Enhancement"))
    for a in rows:
        clause = f"{PAGE}, Circumstantial Modifiers: {a.row.group}"
        if a.row.id == OFF_HAND_ROW:
            clause = f"{PAGE}, Main-Hand vs Off-Hand"
        terms.append(Term(a.row.id + (f" ({a.note})" if a.note else ""), a.modifier, clause))
    effective = attacker.thac0 - sum(t.bonus for t in terms)

    by = [a.row.id for a in rows if a.row.flatfooted]
    if target.flatfooted:
        by.insert(0, "the target")
    defender = _defender(
        attacker,
        options,
        enh,
        name=target.name,
        ac=target.ac,
        flatfooted_by=by,
        dodge=target.dodge,
        deflection=target.deflection,
        covers=target.shield_covers_part,
        defence=target.defence,
        special_defence=target.special_defence,
        resistance_pct=target.resistance_pct,
        vulnerability_pct=target.vulnerability_pct,
        armour=target.armour,
        hp=target.hp,
    )
    return Situation(
        hand=hand,
        rows=rows,
        replaced=replaced,
        enhancement=enh,
        terms=tuple(terms),
        thac0=attacker.thac0,
        effective_thac0=effective,
        target=defender,
        outnumbered=max(0, target.enemies_engaged - 1),
    )


def _defender(
    attacker: Attacker,
    options: Options,
    enh: Enhancement,
    *,
    name: str,
    ac: int,
    flatfooted_by: list[str],
    dodge: int,
    deflection: int,
    covers: bool,
    defence: dict[str, int],
    special_defence: int,
    resistance_pct: int,
    vulnerability_pct: int,
    armour: Armour,
    hp: int | None,
) -> Defender:
    flat = bool(flatfooted_by)
    if flat:
        judged, ac_text = flatfooted_ac(ac, dodge, deflection, covers)
    else:
        judged, ac_text = ac, f"AC {ac}"
    against = defence_against(attacker.weapon.types, defence)
    return Defender(
        name=name,
        ac=judged - against[1],
        ac_text=ac_text,
        flatfooted=flat,
        flatfooted_by=", ".join(flatfooted_by),
        defence=against,
        special_defence_level=special_defence,
        special_defence=special_defence_effect(options.game, special_defence, enh.special_defence),
        resistance_pct=resistance_pct,
        vulnerability_pct=vulnerability_pct,
        armour=armour,
        hp=hp,
    )


def engaged_defender(attacker: Attacker, options: Options, sit: Situation, other: Engaged) -> Defender:
    """The creature `other`, engaged with the intended target, as a stray shot that strikes it is judged
    (docs/fullplate.md#silent-firing-into-melee): with its own AC, Flatfooted (its own `flatfooted` only: the attack's
    Flatfooted rows are about the intended target), Defence[Type], Special Defence, Resistance and Vulnerability;
    without its own stats (no `ac`), as the intended target."""
    if other.ac is None:
        return replace(sit.target, name=other.name, hp=None, own=False)
    return _defender(
        attacker,
        options,
        sit.enhancement,
        name=other.name,
        ac=other.ac,
        flatfooted_by=["its entry"] if other.flatfooted else [],
        dodge=other.dodge or 0,
        deflection=other.deflection or 0,
        covers=bool(other.shield_covers_part),
        defence=dict(other.defence or {}),
        special_defence=other.special_defence or 0,
        resistance_pct=other.resistance_pct or 0,
        vulnerability_pct=other.vulnerability_pct or 0,
        armour=other.armour or "worn",
        hp=other.hp,
    )
