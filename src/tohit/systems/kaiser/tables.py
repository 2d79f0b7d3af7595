"""Kaiser RPG tables (the game's other pages)."""

from __future__ import annotations

from typing import Literal

#: An attack's `result` codes (rules.py resolves them).
HIT, MISS, TIE = 0, 1, 2

#: The 12 damage types [Damage Type], in snake_case.
DamageType = Literal[
    "cut",
    "impact",
    "thrust",
    "heat",
    "cold",
    "electrical",
    "force",
    "light",
    "dark",
    "atomic",
    "bio",
    "psychic",
]

#: Characteristic modifier table [gameplay.json index 200]: score -> modifier.
_MODIFIER_BANDS: tuple[tuple[int, int, int], ...] = (
    (1, 1, -3),
    (2, 3, -2),
    (4, 4, -1),
    (5, 5, 0),
    (6, 7, 1),
    (8, 9, 2),
    (10, 12, 3),
    (13, 15, 4),
    (16, 19, 5),
    (20, 20, 6),
    (21, 22, 7),
    (23, 25, 8),
    (26, 29, 9),
    (30, 30, 10),
)
MIN_SCORE, MAX_SCORE = 1, 30


def characteristic_modifier(score: int) -> int:
    """The modifier of a characteristic score (1-30), e.g. Strength 8 -> +2, 23-25 -> +8."""
    for low, high, mod in _MODIFIER_BANDS:
        if low <= score <= high:
            return mod
    raise ValueError(f"a characteristic score runs {MIN_SCORE} to {MAX_SCORE}, got {score}")


def fumble_dice_count(severity: int) -> int:
    """What the two dice count as on a fumble, from the 2d6 severity (docs/kaiser.md#silent-open-rolls)."""
    if severity <= 5:
        return 0
    if severity <= 11:
        return -5
    return -10
