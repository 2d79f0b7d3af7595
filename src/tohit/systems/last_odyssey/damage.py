"""Damage modifiers and exact rounding (page, General Notes; docs/last-odyssey.md#silent-damage,
docs/last-odyssey.md#silent-shell).

Final damage = base damage x every relevant modifier, rounded to the nearest integer, halves up (option
`rounding: down` follows Elemental Types instead). The modifiers are exact fractions (0.25, 1.5, 2...)
and the rounding is integer arithmetic: floor((2 x base x p + q) / (2 x q)) for a product p/q. No float
ever touches a damage value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
import numpy.typing as npt

from tohit.systems.last_odyssey.models import Attack, Target
from tohit.systems.last_odyssey.tables import PAGE, Element, element_multiplier, multiplier_text

IntArray = npt.NDArray[np.int64]
#: Largest numerator or denominator of the product of an ability's own multipliers (keeps int64 exact).
MAX_PRODUCT_TERM = 1 << 28


@dataclass(frozen=True)
class Factor:
    """One damage modifier: its exact value, why it applies, and the clause that says so."""

    value: Fraction
    why: str
    clause: str

    def text(self) -> str:
        return f"x{multiplier_text(self.value)} ({self.why})"


def shell_active(target: Target) -> bool:
    """A Shell is active when `shell` is true or has points left; 0 points means Shellbroken."""
    shell = target.shell
    if isinstance(shell, bool) or shell is None:
        return bool(shell)
    return shell > 0


def shell_points(target: Target) -> int | None:
    """The Shell's remaining points when given as a pool, else None."""
    shell = target.shell
    return None if isinstance(shell, bool) or shell is None else int(shell)


def counted_element(target: Target) -> Element | None:
    """The element the target counts as: its Shell's while a Shell is active [Shells]."""
    if shell_active(target) and target.shell_element is not None:
        return target.shell_element
    return target.element


def table_multiplier(attack: Attack, target: Target) -> Fraction | None:
    """The element table's multiplier for this attack and target, if both elements are known."""
    return element_multiplier(attack.element, counted_element(target))


def element_factor(attack: Attack, target: Target) -> Factor:
    """The elemental multiplier: given per target, else from the element table, else x1 (colorless)."""
    clause = "Elemental Types (docs/last-odyssey.md#silent-elemental-types)"
    if target.element_multiplier is not None:
        return Factor(target.element_multiplier, "element multiplier", clause)
    table = table_multiplier(attack, target)
    if table is None or attack.element in (None, "colorless"):
        return Factor(Fraction(1), "colorless", clause)
    return Factor(table, f"{attack.element} against {counted_element(target)}", clause)


def shell_factor(kind: Literal["physical", "magical"], target: Target) -> Factor:
    """x2 for a magical attack on an active Shell, and for a physical attack on a target without one."""
    clause = f"{PAGE}, General Notes"
    active = shell_active(target)
    if kind == "magical":
        if active:
            return Factor(Fraction(2), "magical attack on an active Shell", clause)
        return Factor(Fraction(1), "magical attack, no Shell active", clause)
    if active:
        return Factor(Fraction(1), "physical attack on an active Shell", clause)
    return Factor(Fraction(2), "physical attack on a target without a Shell", clause)


def damage_factors(attack: Attack, target: Target) -> list[Factor]:
    """Every relevant modifier of a physical or magical attack on `target`, in the order they are listed."""
    assert attack.kind in ("physical", "magical")
    factors = [shell_factor(attack.kind, target), element_factor(attack, target)]
    for m in attack.multipliers:
        factors.append(
            Factor(m, "ability", "last-odyssey: Attacking and Defending (a relevant damage modifier: the ability's)")
        )
    if attack.kind == "physical" and target.body_armor:
        factors.append(
            Factor(
                Fraction(0),
                "Body Armor: the first physical hit deals no damage",
                "Body Armor (docs/last-odyssey.md#silent-body-armor)",
            )
        )
    return factors


def damage_multiplier(attack: Attack, target: Target) -> Fraction:
    """The product of `damage_factors(attack, target)`, without building the trace's texts."""
    if attack.kind == "physical" and target.body_armor:
        return Fraction(0)
    element = target.element_multiplier
    if element is None:
        element = table_multiplier(attack, target) if attack.element not in (None, "colorless") else None
    total = attack.multiplier_product if element is None else attack.multiplier_product * element
    return total * 2 if (attack.kind == "magical") == shell_active(target) else total


def product(factors: list[Factor]) -> Fraction:
    total = Fraction(1)
    for f in factors:
        total *= f.value
    return total


def final_damage(base: IntArray, multiplier: Fraction, rounding: Literal["nearest", "down"]) -> IntArray:
    """round(base x multiplier), exactly: nearest with halves up, or down. `base` >= 0, multiplier >= 0."""
    p, q = multiplier.numerator, multiplier.denominator
    if rounding == "nearest":
        return (base * (2 * p) + q) // (2 * q)
    return (base * p) // q
