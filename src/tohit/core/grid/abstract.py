"""Abstract combat ranges: how many targets a range hits with no map.

- Burst X: 2 targets per 1 of range (Burst 1: 2, Burst 2: 4);
- Blast, Cone, Line or Sweep X: 1, plus 1 per 2 of range beyond the first (Cone 2: 1, Cone 3: 2);
- both: 1 more when all the targeted foes are close together (within arm's reach of one another);
- Melee and Projectile: 1; X Targets (or Squares) within Y: X; Weapon: as the chosen Basic Attack.
A foe marked isolated (on a balcony, behind cover, keeping apart) cannot share an attack with others.
"""

from __future__ import annotations

from tohit.core.grid.models import AnyRange, SquaresWithinRange, TargetsWithinRange, WeaponRange

AREA_COUNTS = frozenset({"blast", "cone", "line", "sweep"})


def abstract_targets(rng: AnyRange, close_together: bool = False) -> int:
    """The most targets `rng` can hit in abstract combat."""
    if isinstance(rng, WeaponRange):
        return abstract_targets(rng.chosen().range, close_together)
    if isinstance(rng, TargetsWithinRange | SquaresWithinRange):
        return rng.count
    if rng.type == "burst":
        return 2 * rng.size + int(close_together)
    if rng.type in AREA_COUNTS:
        size: int = rng.size  # type: ignore[union-attr]
        return 1 + (size - 1) // 2 + int(close_together)
    return 1  # Melee, Projectile


def abstract_problem(rng: AnyRange, targets: list[str], close_together: bool, isolated: list[str]) -> str | None:
    """Why these targets cannot all be hit by `rng` in abstract combat (None when they can)."""
    most = abstract_targets(rng, close_together)
    if len(targets) > most:
        extra = " (close together)" if close_together else ""
        plural = "s" if most != 1 else ""
        return f"in abstract combat this range hits at most {most} target{plural}{extra}, got {len(targets)}"
    return isolated_problem(targets, isolated)


def isolated_problem(targets: list[str], isolated: list[str]) -> str | None:
    """Why these targets cannot share one attack: a foe named isolated is among several ("if a foe is up on a
    balcony, hiding behind cover, or if they've specifically separated themselves from the other foes, then they
    cannot be included in an attack with other foes") [Abstract Combat Ranges]; None when they can."""
    lonely = [t for t in targets if t in isolated]
    if lonely and len(targets) > 1:
        return f"{lonely[0]} is isolated: it cannot be included in an attack with other foes"
    return None
