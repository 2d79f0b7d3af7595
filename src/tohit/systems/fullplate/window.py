"""The natural needed and the exact chance to hit one creature (Attacking, "Making The Roll" and "Fumbles
and Criticals"; docs/fullplate.md#silent-natural-1, docs/fullplate.md#silent-natural-20).

- A natural 2 to 19 hits when the To-Hit Roll (effective THAC0 - natural) is at or below the AC; a natural 1
  never hits.
- A natural 20 short of the AC by s <= 10 hits. Beyond, it "half[s] the effective damage" ceil((s - 10) / 5)
  times, and "If this would reduce it below half a point of damage, then no damage is dealt and the attack
  probably misses": it hits only for the damage rolls that stay at half a point or more (a damage already 0
  after Special Defence or Resistance stays 0 and is not a miss). Such a natural 20 is never a Critical Hit
  (that needs a hit by 5 or more), so its damage is the normal roll.

So the chance is exact: whole naturals, plus a natural 20 weighted by the share of damage rolls that
survive its halvings. When no damage roll survives, even a natural 20 cannot hit: the chance is 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from tohit.core.dice import DiceExpr


@dataclass(frozen=True)
class Chance:
    """The lowest natural that can hit (None: none can) and the exact chance to hit."""

    need: int | None
    chance: Fraction
    #: How far a natural 20's To-Hit Roll is above the AC (<= 0: it hits outright).
    shortfall: int
    #: Halvings of a natural 20's damage: ceil((shortfall - 10) / 5) beyond the window, else 0.
    halvings: int
    #: The share of damage rolls a natural 20 still hits with (1 inside the window).
    survives: Fraction


def after_defences(raw: int, effect: str, minimum: int, resistance_pct: int, vulnerability_pct: int) -> int:
    """One damage roll through Special Defence (full, half, minimum, none) and Resistance / Vulnerability,
    as `damage.special_defence` and `damage.percent` do it over arrays."""
    sd = {"full": raw, "half": raw // 2, "minimum": minimum, "none": 0}[effect]
    scale = max(0, 100 - resistance_pct + vulnerability_pct)
    return sd if scale == 100 else (sd * scale) // 100


def chance(
    effective_thac0: int,
    ac: int,
    expr: DiceExpr,
    flat: int,
    effect: str,
    resistance_pct: int,
    vulnerability_pct: int,
) -> Chance:
    """The exact chance that a To-Hit roll with `effective_thac0` hits `ac` (not an Automatic Hit).

    `expr` is the weapon's damage and `flat` the Strength and Enhancement added to it; `effect` the Special
    Defence effect; the percentages the creature's Resistance and Vulnerability.
    """
    shortfall = effective_thac0 - 20 - ac
    k = (shortfall - 10 + 4) // 5 if shortfall > 10 else 0
    if k == 0:
        survives = Fraction(1)
    else:
        low, weights = expr.distribution()
        minimum = max(1, expr.minimum + flat)
        kept = 0
        for i, w in enumerate(weights):
            d = after_defences(max(1, low + i + flat), effect, minimum, resistance_pct, vulnerability_pct)
            if d == 0 or 2 * d >= 2**k:
                kept += w
        survives = Fraction(kept, sum(weights))
    # Naturals 2..19 that hit: effective - n <= ac.
    lowest = max(2, effective_thac0 - ac)
    whole = max(0, 20 - lowest) if lowest <= 19 else 0
    total = Fraction(whole, 20) + survives / 20
    need: int | None = min(lowest, 20) if total > 0 else None
    return Chance(need, total, shortfall, k, survives)


def percent_text(p: Fraction) -> str:
    """A chance in % exactly: "45%", "3.75%", or "1.67% (exactly 1/60)" when the decimal does not end."""
    pct = p * 100
    for places in range(5):
        scaled = pct * 10**places
        if scaled.denominator == 1:
            whole = int(scaled)
            text = str(whole) if places == 0 else f"{whole / 10**places:.{places}f}"
            return f"{text}%"
    return f"{float(pct):.2f}% (exactly {p.numerator}/{p.denominator})"
