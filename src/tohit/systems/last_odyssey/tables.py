"""Last Odyssey tables: elements, statuses, the Bonus Tracker, thresholds (the game's other pages).

Everything here is data read from the game's pages; the rules that use it are in `rules.py`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

#: An attack's `result` codes (rules.py resolves them).
HIT, MISS = 0, 1

PAGE = "last-odyssey: Attacking and Defending"
#: The page's sections, as the trace cites them.
INTRO = f"{PAGE}, introduction"
NOTES = f"{PAGE}, General Notes"
SECTION = {"physical": f"{PAGE}, Physical Attacks", "magical": f"{PAGE}, Magical Attacks"}
STATUS_SECTION = f"{PAGE}, Status-Inflicting Abilities"
OTHER_SIDE = f"{PAGE}, using abilities on other targets"
KNOCK_OUT = f"{PAGE}, knock out"

#: The hit die is the outcome die, always 1d10 [Key Terms; docs/last-odyssey.md#silent-hit-die].
HIT_DIE = 10

#: Physical and magical attacks hit when d10 - Accuracy + Evasion is this or below [page].
ATTACK_THRESHOLD = 7
#: Status-inflicting abilities land when d10 - Status Accuracy + Resistance is this or below [page].
STATUS_THRESHOLD = 5

Kind = Literal["physical", "magical", "status", "buff", "debuff"]
#: The three kinds of ability that roll the hit die; buffs and debuffs succeed no matter what [page].
ROLLED_KINDS: tuple[Kind, ...] = ("physical", "magical", "status")

AbilityType = Literal["self", "melee", "ranged", "ally", "special", "passive", "multi", "reaction"]
ABILITY_TYPES: tuple[AbilityType, ...] = (
    "self",
    "melee",
    "ranged",
    "ally",
    "special",
    "passive",
    "multi",
    "reaction",
)
#: The side of the battlefield an ability type is meant for ("offensive" / "defensive" on the page).
INTENDED_SIDE: dict[AbilityType, Literal["enemy", "ally"]] = {"ranged": "enemy", "melee": "enemy", "ally": "ally"}

Row = Literal["front", "back"]
Side = Literal["enemy", "ally"]

Element = Literal["fire", "water", "earth", "wind", "thunder", "ice", "wood", "light", "shadow", "colorless"]
ELEMENTS: tuple[Element, ...] = ("fire", "water", "earth", "wind", "thunder", "ice", "wood", "light", "shadow")

Q, H = Fraction(1, 4), Fraction(1, 2)
_ONE, _TWO, _FOUR = Fraction(1), Fraction(2), Fraction(4)
#: The elemental multiplier table [Elemental Types]: attack element (row) -> target element
#: (column, in ELEMENTS order) -> multiplier.
_TABLE_ROWS: dict[Element, tuple[Fraction, ...]] = {
    "fire": (_ONE, H, _ONE, Q, _ONE, _FOUR, _TWO, _ONE, _ONE),
    "water": (_TWO, _ONE, H, _FOUR, Q, _ONE, _ONE, _ONE, _ONE),
    "earth": (_ONE, _TWO, _ONE, H, _FOUR, Q, _ONE, _ONE, _ONE),
    "wind": (_FOUR, Q, _TWO, _TWO, _ONE, _TWO, H, _FOUR, Q),
    "thunder": (_ONE, _FOUR, Q, _ONE, _ONE, _TWO, _TWO, H, H),
    "ice": (Q, _ONE, _FOUR, _TWO, H, _ONE, _TWO, H, _ONE),
    "wood": (H, _ONE, _ONE, _TWO, H, H, _ONE, _TWO, _TWO),
    "light": (_ONE, _ONE, _ONE, Q, _TWO, _TWO, H, H, _FOUR),
    "shadow": (_ONE, _ONE, _ONE, _FOUR, _TWO, _ONE, H, Q, _ONE),
}
#: The only multipliers the element table holds; any other element multiplier is refused.
ELEMENT_MULTIPLIERS: tuple[Fraction, ...] = (Q, H, _ONE, _TWO, _FOUR)


def element_multiplier(attack: Element | None, target: Element | None) -> Fraction | None:
    """The table's multiplier; 1 if either side is colorless; None when an element is not given."""
    if attack == "colorless" or target == "colorless":
        return _ONE
    if attack is None or target is None:
        return None
    return _TABLE_ROWS[attack][ELEMENTS.index(target)]


def multiplier_text(m: Fraction) -> str:
    """0.25, 0.5, 1, 1.5, 2 ... as written on the pages (exact fractions that are not decimals as p/q)."""
    if m.denominator == 1:
        return str(m.numerator)
    for digits in range(1, 7):
        scaled = m * 10**digits
        if scaled.denominator == 1:
            return f"{float(m):.{digits}f}"
    return f"{m.numerator}/{m.denominator}"


#: Status thresholds by elemental multiplier [Statuses]: None = immune (x0.25), "always" =
#: cannot be evaded (x4), otherwise the highest roll that inflicts the status.
STATUS_THRESHOLDS: dict[Fraction, int | Literal["always"] | None] = {
    Q: None,
    H: 3,
    _ONE: STATUS_THRESHOLD,
    _TWO: 7,
    _FOUR: "always",
}

#: The Bonus Tracker [Buffs and Debuffs]: seven levels, each buff one up, each debuff one down.
BONUS_TRACKER: tuple[int, ...] = (-7, -3, -1, 0, 1, 3, 7)
Step = Literal[-7, -3, -1, 0, 1, 3, 7]

Stat = Literal[
    "physical_accuracy",
    "magical_accuracy",
    "status_accuracy",
    "physical_attack",
    "magical_attack",
    "physical_defense",
    "magical_defense",
    "evasion",
    "resistance",
]


def move_tracker(step: int, levels: int) -> int:
    """The tracker value after `levels` buffs (> 0) or debuffs (< 0) from `step`, stopping at +7 / -7.

    One level of buff cancels one level of debuff and vice versa; further buffs at +7 (debuffs at -7) do
    nothing [Buffs and Debuffs].
    """
    index = BONUS_TRACKER.index(step) + levels
    return BONUS_TRACKER[min(max(index, 0), len(BONUS_TRACKER) - 1)]


#: The nine basic statuses, one per element [Statuses]; the element's status is the one a
#: status-inflicting ability of that element inflicts unless the ability names another.
STATUS_OF_ELEMENT: dict[Element, str] = {
    "fire": "burned",
    "water": "confused",
    "earth": "petrified",
    "light": "blinded",
    "ice": "frostbitten",
    "wind": "fatigued",
    "thunder": "paralyzed",
    "shadow": "silenced",
    "wood": "poisoned",
}
Status = Literal[
    "burned", "confused", "petrified", "blinded", "frostbitten", "fatigued", "paralyzed", "silenced", "poisoned"
]


def inflicted_status(status: str | None, element: Element | None) -> str:
    """The status a status-inflicting ability inflicts: the one it names, else its element's [Statuses]."""
    if status is not None:
        return status
    if element is None or element == "colorless":
        raise ValueError("a colorless status-inflicting ability must name its status")  # refused by the checks
    return STATUS_OF_ELEMENT[element]
