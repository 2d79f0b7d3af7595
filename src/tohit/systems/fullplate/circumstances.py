"""The Circumstantial Modifiers table, every row, with stable ids (Attacking, "Circumstantial Modifiers").

Signs are the page's: + is a To-Hit bonus to the attacker, so it lowers the effective THAC0
(docs/fullplate.md#silent-effective-thac0). Each row sits in one of the page's groups (the table's headings) and on
one *scale* (docs/fullplate.md#silent-modifier-scales): "Other modifiers replace each other - an attacker who is
climbing does not gain a +1 bonus To-Hit from being above their opponent, nor does an attacker in Visibility 25%
suffer both the penalty for Visibility 25% and Visibility 50% at the same time." Rows on one scale replace each other
and the row worse for the attacker is used; rows on different scales add ("a prone target attacking with a crossbow
who is able to fire at a target below them has a +5 To-Hit bonus"). The scales: relative position (with its climbing
rows), attacker's stance, target's stance, balance, underwater, light (Visibility %), concealment, cover, darkness
distance, range band; each Condition row is a scale of its own. `modifier_stacking: all` adds every row ("A DM decides
if multiple modifiers stack or not").

The Weather group is "pending" on the page and has no rows.
"""

from __future__ import annotations

from dataclasses import dataclass

MELEE_KINDS = frozenset({"melee"})
MELEE_OR_THROWN = frozenset({"melee", "thrown"})
RANGED_KINDS = frozenset({"thrown", "bow_like", "gun_like"})
GUN_LIKE = frozenset({"gun_like"})
BOW_LIKE = frozenset({"bow_like"})
#: The distance that separates the table's "within 10 or less feet" and "> 10 feet away" rows.
NEAR_FEET = 10

RELATIVE_POSITION = "Relative Position"
PRONE = "Prone Stance"
KNEELING = "Kneeling Stance"
BALANCE = "Balance"
UNDERWATER = "Underwater"
VISIBILITY = "Visibility"
RANGE = "Range"
CONDITION = "Condition"
RANGE_HINT = "or given by attack.distance and the weapon's ranges"
GROUPS = (RELATIVE_POSITION, PRONE, KNEELING, BALANCE, UNDERWATER, VISIBILITY, RANGE, CONDITION)


@dataclass(frozen=True)
class Circumstance:
    """One row of the table: its id, the page's text and modifier, and when it can apply."""

    id: str
    group: str
    #: The scale the row measures (docs/fullplate.md#silent-modifier-scales): rows on one scale replace each other,
    #: the worse one is used.
    scale: str
    modifier: int
    text: str
    #: The row makes the target Flatfooted ("+2, Flatfooted").
    flatfooted: bool = False
    #: Weapon kinds the row is about (None: any attack).
    weapons: frozenset[str] | None = None
    #: True: only within 10 feet; False: only beyond 10 feet; None: any distance.
    near: bool | None = None
    #: "outnumbered": modifier per Outnumbered level; "10_feet": per full 10 feet of distance.
    per: str | None = None
    #: The row that must apply for this one to apply (the darkness distance goes with 0% Visibility).
    companion_of: str | None = None
    #: How the scenario feeds the row, for `tohit modifiers`.
    hint: str = ""

    @property
    def description(self) -> str:
        return f"{self.text} ({self.hint})" if self.hint else self.text

    @property
    def shown(self) -> str:
        """The modifier as the page prints it: "+2, Flatfooted", "-1 per 10 feet"."""
        text = f"{self.modifier:+d}"
        if self.per == "outnumbered":
            text += " per Outnumbered level"
        elif self.per == "10_feet":
            text += " per 10 feet"
        if self.flatfooted:
            text += ", Flatfooted"
        return text


TABLE: tuple[Circumstance, ...] = (
    # Relative Position
    Circumstance("attacker_above", RELATIVE_POSITION, "relative_position", +1, "Attacker is Above Target"),
    Circumstance(
        "attacker_climbing_above", RELATIVE_POSITION, "relative_position", 0, "Attacker is Climbing and is Above Target"
    ),
    Circumstance(
        "attacker_same_level", RELATIVE_POSITION, "relative_position", 0, "Attacker is At Same Level as Target"
    ),
    Circumstance(
        "attacker_climbing_same_level",
        RELATIVE_POSITION,
        "relative_position",
        -2,
        "Attacker is Climbing and is At Same Level as Target",
    ),
    Circumstance("attacker_below", RELATIVE_POSITION, "relative_position", -1, "Attacker is Below Target"),
    Circumstance(
        "attacker_climbing_below",
        RELATIVE_POSITION,
        "relative_position",
        -4,
        "Attacker is Climbing and is Below Target",
    ),
    # Prone Stance
    Circumstance(
        "attacker_prone_melee_weapon_smaller",
        PRONE,
        "attacker_stance",
        0,
        "Attacker is Prone and Attacking with Melee/Throwing Weapon (Size < Attacker Size)",
        weapons=MELEE_OR_THROWN,
    ),
    Circumstance(
        "attacker_prone_melee_weapon_same_size",
        PRONE,
        "attacker_stance",
        -2,
        "Attacker is Prone and Attacking with Melee/Throwing Weapon (Size = Attacker Size)",
        weapons=MELEE_OR_THROWN,
    ),
    Circumstance(
        "attacker_prone_melee_weapon_larger",
        PRONE,
        "attacker_stance",
        -4,
        "Attacker is Prone and Attacking with Melee/Throwing Weapon (Size > Attacker Size)",
        weapons=MELEE_OR_THROWN,
    ),
    Circumstance(
        "attacker_prone_gun_like",
        PRONE,
        "attacker_stance",
        +4,
        "Attacker is Prone and Attacking with Ranged Weapon (Gun-like - Gun, Crossbow, Blowgun)",
        weapons=GUN_LIKE,
    ),
    Circumstance(
        "attacker_prone_bow_like",
        PRONE,
        "attacker_stance",
        -4,
        "Attacker is Prone and Attacking with Ranged Weapon (Other - Bow, Sling)",
        weapons=BOW_LIKE,
    ),
    Circumstance(
        "target_prone_melee", PRONE, "target_stance", +4, "Target is Prone (Melee Attack)", weapons=MELEE_KINDS
    ),
    Circumstance(
        "target_prone_ranged_near",
        PRONE,
        "target_stance",
        0,
        "Target is Prone (Ranged Attack within 10 or less feet)",
        weapons=RANGED_KINDS,
        near=True,
    ),
    Circumstance(
        "target_prone_ranged_far",
        PRONE,
        "target_stance",
        -2,
        "Target is Prone (Ranged Attack > 10 feet away)",
        weapons=RANGED_KINDS,
        near=False,
    ),
    # Kneeling Stance
    Circumstance(
        "attacker_kneeling_melee",
        KNEELING,
        "attacker_stance",
        0,
        "Attacker is Kneeling/Sitting and Attacking with Melee or Throwing Weapon",
        weapons=MELEE_OR_THROWN,
    ),
    Circumstance(
        "attacker_kneeling_gun_like",
        KNEELING,
        "attacker_stance",
        +2,
        "Attacker is Kneeling/Sitting and Attacking with Ranged Weapon (Gun-like - Gun, Crossbow, Blowgun)",
        weapons=GUN_LIKE,
    ),
    Circumstance(
        "attacker_kneeling_bow_like",
        KNEELING,
        "attacker_stance",
        0,
        "Attacker is Kneeling/Sitting and Attacking with Ranged (Other)",
        weapons=BOW_LIKE,
    ),
    Circumstance(
        "target_kneeling_melee",
        KNEELING,
        "target_stance",
        +2,
        "Target is Kneeling/Sitting (Melee Attack)",
        weapons=MELEE_KINDS,
    ),
    Circumstance(
        "target_kneeling_ranged_near",
        KNEELING,
        "target_stance",
        0,
        "Target is Kneeling/Sitting (Ranged Attack within 10 or less feet)",
        weapons=RANGED_KINDS,
        near=True,
    ),
    Circumstance(
        "target_kneeling_ranged_far",
        KNEELING,
        "target_stance",
        -1,
        "Target is Kneeling/Sitting (Ranged Attack > 10 feet away)",
        weapons=RANGED_KINDS,
        near=False,
    ),
    # Balance
    Circumstance("attacker_off_balance", BALANCE, "balance", -2, "Attacker is Off-Balance"),
    Circumstance("target_off_balance", BALANCE, "balance", +2, "Target is Off-Balance"),
    Circumstance(
        "attacker_off_balance_narrow",
        BALANCE,
        "balance",
        -5,
        "Attacker is Off-Balance on Narrow Platform (Tightrope Walking)",
    ),
    Circumstance(
        "target_off_balance_narrow",
        BALANCE,
        "balance",
        +5,
        "Target is Off-Balance on Narrow Platform (Tightrope Walking)",
    ),
    # Underwater
    Circumstance(
        "attacker_underwater_no_swim",
        UNDERWATER,
        "underwater",
        -2,
        "Attacker is Underwater and does not have a Swim Speed",
    ),
    Circumstance(
        "target_underwater_no_swim",
        UNDERWATER,
        "underwater",
        +2,
        "Target is Underwater and does not have a Swim Speed",
    ),
    Circumstance(
        "attacker_underwater_piercing",
        UNDERWATER,
        "underwater",
        0,
        "Attacker is Underwater (Piercing Melee Weapon or Net)",
    ),
    Circumstance(
        "attacker_underwater_other_weapon",
        UNDERWATER,
        "underwater",
        -4,
        "Attacker is Underwater (Other Weapon)",
    ),
    Circumstance(
        "attacker_wading_piercing",
        UNDERWATER,
        "underwater",
        -2,
        "Attacker is Wading, Target Underwater (Piercing Melee Weapon or Net)",
    ),
    Circumstance(
        "attacker_wading_other_weapon",
        UNDERWATER,
        "underwater",
        -6,
        "Attacker is Wading, Target Underwater (Other Weapon)",
    ),
    # Visibility
    Circumstance("target_concealment_25", VISIBILITY, "concealment", -1, "Target has 25% Concealment"),
    Circumstance("target_concealment_50", VISIBILITY, "concealment", -2, "Target has 50% Concealment"),
    Circumstance("target_concealment_75", VISIBILITY, "concealment", -3, "Target has 75% Concealment"),
    Circumstance("target_concealment_90", VISIBILITY, "concealment", -4, "Target has 90%+ Concealment"),
    Circumstance("target_cover_25", VISIBILITY, "cover", -2, "Target has 25% Cover"),
    Circumstance("target_cover_50", VISIBILITY, "cover", -4, "Target has 50% Cover"),
    Circumstance("target_cover_75", VISIBILITY, "cover", -7, "Target has 75% Cover"),
    Circumstance("target_cover_90", VISIBILITY, "cover", -10, "Target has 90%+ Cover"),
    Circumstance("visibility_100", VISIBILITY, "light", 0, "100% Visibility (Sunlight)"),
    Circumstance("visibility_75", VISIBILITY, "light", -1, "75% Visibility (Moonlight)"),
    Circumstance("visibility_50", VISIBILITY, "light", -2, "50% Visibility (Starlight)"),
    Circumstance("visibility_25", VISIBILITY, "light", -3, "25% Visibility (Clouded Night)"),
    Circumstance("visibility_0", VISIBILITY, "light", -4, "0% Visibility (Total Darkness)"),
    Circumstance(
        "darkness_per_10_feet",
        VISIBILITY,
        "darkness_distance",
        -1,
        "Per 10 feet between Attacker and Target at 0% Visibility",
        per="10_feet",
        companion_of="visibility_0",
        hint="applied with visibility_0 when attack.distance is given",
    ),
    # Range
    Circumstance("range_short", RANGE, "range_band", 0, "Short Range", weapons=RANGED_KINDS, hint=RANGE_HINT),
    Circumstance("range_medium", RANGE, "range_band", -2, "Medium Range", weapons=RANGED_KINDS, hint=RANGE_HINT),
    Circumstance("range_long", RANGE, "range_band", -5, "Long Range", weapons=RANGED_KINDS, hint=RANGE_HINT),
    Circumstance(
        "range_extreme",
        RANGE,
        "range_band",
        -10,
        "Extreme Range (up to 2 x Long)",
        weapons=RANGED_KINDS,
        hint=RANGE_HINT,
    ),
    # Condition
    Circumstance(
        "attacker_off_hand",
        CONDITION,
        "off_hand",
        -2,
        "Attacker is using Off-Hand",
        hint="or attack.off_hand; -2 also when forced onto the Off-Hand alone, 0 if Ambidextrous",
    ),
    Circumstance("target_invisible", CONDITION, "invisible", -4, "Target is Invisible"),
    Circumstance("target_stunned", CONDITION, "stunned", +4, "Target is Stunned"),
    Circumstance(
        "flanking",
        CONDITION,
        "flanking",
        +1,
        "Flanking (per Outnumbered)",
        per="outnumbered",
        hint="Outnumbered level = targets[].enemies_engaged - 1",
    ),
    Circumstance("back_attack", CONDITION, "back_attack", +2, "Back Attack", flatfooted=True),
    Circumstance("sneak_attack", CONDITION, "sneak_attack", +2, "Sneak Attack", flatfooted=True),
    Circumstance(
        "target_unaware", CONDITION, "unaware", +1, "Target is Unaware, Surprised or Ambushed", flatfooted=True
    ),
    Circumstance(
        "target_helpless_melee",
        CONDITION,
        "helpless",
        +10,
        "Target is Helpless (Melee Attack)",
        flatfooted=True,
        weapons=MELEE_KINDS,
    ),
    Circumstance(
        "target_helpless_ranged",
        CONDITION,
        "helpless",
        +5,
        "Target is Helpless (Ranged Attack)",
        flatfooted=True,
        weapons=RANGED_KINDS,
    ),
)

BY_ID: dict[str, Circumstance] = {row.id: row for row in TABLE}
#: Range band name -> row id.
RANGE_ROWS = {"short": "range_short", "medium": "range_medium", "long": "range_long", "extreme": "range_extreme"}
OFF_HAND_ROW = "attacker_off_hand"

#: The target's conditions the table names [Circumstantial Modifiers: Prone Stance, Kneeling Stance, Balance,
#: Condition], by name, in the rulebook's words: a target block's `conditions` (and a fight's state, which a game
#: master sets) gives the row of each that fits the attack (`condition_row`).
TARGET_CONDITIONS: dict[str, str] = {
    "prone": "Prone",
    "kneeling": "Kneeling/Sitting",
    "off_balance": "Off-Balance",
    "invisible": "Invisible",
    "stunned": "Stunned",
    "unaware": "Unaware",
    "helpless": "Helpless",
}
#: The rows each condition may give (which one: the attack's weapon kind, and for a ranged attack its distance).
CONDITION_ROWS: dict[str, tuple[str, ...]] = {
    "prone": ("target_prone_melee", "target_prone_ranged_near", "target_prone_ranged_far"),
    "kneeling": ("target_kneeling_melee", "target_kneeling_ranged_near", "target_kneeling_ranged_far"),
    "off_balance": ("target_off_balance",),
    "invisible": ("target_invisible",),
    "stunned": ("target_stunned",),
    "unaware": ("target_unaware",),
    "helpless": ("target_helpless_melee", "target_helpless_ranged"),
}


def condition_row(condition: str, weapon_kind: str, distance: int | None) -> Circumstance:
    """The row a target's condition gives an attack with this weapon kind at `distance` feet: the one whose weapons
    and distance fit. A ranged attack without a distance on a Prone or Kneeling target: the "> 10 feet" row, the
    worse of the two for the attacker (docs/fullplate.md#silent-target-conditions)."""
    fits = [
        BY_ID[rid]
        for rid in CONDITION_ROWS[condition]
        if BY_ID[rid].weapons is None or weapon_kind in BY_ID[rid].weapons  # type: ignore[operator]
    ]
    if distance is not None:
        fits = [row for row in fits if row.near is None or row.near == (distance <= NEAR_FEET)]
    return min(fits, key=lambda row: row.modifier)


#: The attacker's own conditions the table names [Prone Stance, Kneeling Stance, Balance]: an attacker block's
#: `conditions` (and a fight's state) gives the row of each that fits its weapon (`attacker_condition_row`).
ATTACKER_CONDITIONS: tuple[str, ...] = ("prone", "kneeling", "off_balance")
#: The attacker's row of each condition by weapon kind; a Prone attacker's melee or throwing row by the weapon's
#: size against its own (`Weapon.size`).
ATTACKER_ROWS: dict[str, dict[str, str]] = {
    "prone": {"gun_like": "attacker_prone_gun_like", "bow_like": "attacker_prone_bow_like"},
    "kneeling": {
        "melee": "attacker_kneeling_melee",
        "thrown": "attacker_kneeling_melee",
        "gun_like": "attacker_kneeling_gun_like",
        "bow_like": "attacker_kneeling_bow_like",
    },
}
PRONE_MELEE_ROWS = {
    "smaller": "attacker_prone_melee_weapon_smaller",
    "same": "attacker_prone_melee_weapon_same_size",
    "larger": "attacker_prone_melee_weapon_larger",
}


def attacker_condition_row(condition: str, weapon_kind: str, weapon_size: str) -> Circumstance:
    """The row the attacker's own condition gives an attack with this weapon
    (docs/fullplate.md#silent-target-conditions): Off-Balance one row; Kneeling/Sitting by the weapon's kind; Prone
    by its kind, and with a melee or throwing weapon by the weapon's size against the attacker's."""
    if condition == "off_balance":
        return BY_ID["attacker_off_balance"]
    if condition == "prone" and weapon_kind in MELEE_OR_THROWN:
        return BY_ID[PRONE_MELEE_ROWS[weapon_size]]
    return BY_ID[ATTACKER_ROWS[condition][weapon_kind]]
