"""A placed attack on a battlefield, seen whole: what it reaches, and each creature's cover.

`GridView` is what the rules layer, `tohit map` and `tohit aim` share: the battlefield, the user, the
range (placed, or not yet), the creatures it affects, the cover of each creature from the user, and
whether a foe is adjacent to the user (what a game makes of these is its own map rules').
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.cover import Cover, CoverRule
from tohit.core.grid.models import AnyRange, ProjectileRange, WeaponRange
from tohit.core.grid.reach import Reach, describe


def is_projectile(rng: AnyRange) -> bool:
    """A Projectile range, directly or as the chosen Basic Attack of a Weapon range."""
    if isinstance(rng, WeaponRange):
        return is_projectile(rng.chosen().range)
    return isinstance(rng, ProjectileRange)


@dataclass
class GridView:
    """The battlefield, the user, the range and (when placed) what it reaches; cover per creature."""

    field: Battlefield
    user: str
    range: AnyRange
    rule: CoverRule
    reach: Reach | None
    covers: dict[str, Cover | None] = dc_field(default_factory=dict)

    @classmethod
    def build(cls, bf: Battlefield, user: str, rng: AnyRange, rule: CoverRule, reach: Reach | None) -> GridView:
        names = [c.name for c in bf.creatures if c.name != user]
        covers = {name: bf.cover(user, name, rule) for name in names}
        return cls(bf, user, rng, rule, reach, covers)

    @property
    def foe_adjacent(self) -> bool:
        return self.field.foe_adjacent(self.user)

    def describe(self) -> str:
        return describe(self.reach.range if self.reach is not None else self.range)

    def to_json(self) -> dict[str, Any]:
        reach = self.reach
        return {
            "range": self.describe(),
            "squares": [list(sq) for sq in reach.squares] if reach is not None else [],
            "cover_rule": self.rule,
        }
