"""Rules at the seams of the map (issue 36, item 5): walls through a square's centre, solid squares against the
same squares drawn as walls, and the templates that stop at walls (rtw: Attack Ranges; Attacking Foes behind
Cover; docs/maps.md, "Walls as the rules see them")."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.models import CombatantSpec, MapSpec, Range
from tohit.core.grid.reach import projectile_shot, projectile_targets

RANGE: TypeAdapter[Any] = TypeAdapter(Range)


def battlefield(width: int, height: int, where: dict[str, tuple[int, int]], **map_extra: Any) -> Battlefield:
    """`where`: name -> square; "Hero" is on side heroes, every other name a foe."""
    combatants = [
        CombatantSpec.model_validate({"name": n, "side": "heroes" if n == "Hero" else "monsters", "position": list(sq)})
        for n, sq in where.items()
    ]
    return Battlefield.build(MapSpec.model_validate({"width": width, "height": height, **map_extra}), combatants)


def test_rtw_projectile_cannot_go_through_solid_objects_alike_for_every_target_beyond_a_wall_through_the_square() -> (
    None
):
    """rtw: Attack Ranges, Projectile X ("it cannot go through solid objects"): a wall through the centre of the
    shooter's square stands between it and every square beyond that wall, so shots at (2, 2) and (3, 2) from
    (3, 4) under the wall y = 4.5 are blocked alike (the square counts as standing on one side of the wall)."""
    walls = [[0, 4.5, 7, 4.5]]
    for target in [(2, 2), (3, 2), (4, 2), (1, 3), (5, 0), (0, 0)]:
        bf = battlefield(7, 7, {"Hero": (3, 4), "A": target}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker == "a wall", target
        assert projectile_targets(bf, "Hero", 8) == [], target
    # The target's square on the wall, the shooter beyond it: the same from the other end.
    for shooter in [(2, 2), (3, 2)]:
        bf = battlefield(7, 7, {"Hero": shooter, "A": (3, 4)}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker == "a wall", shooter
    # On the side the square stands on (below the wall), the shots are clear.
    for target in [(4, 6), (2, 6), (3, 6)]:
        bf = battlefield(7, 7, {"Hero": (3, 4), "A": target}, walls=walls)
        assert projectile_shot(bf, "Hero", "A").blocker is None, target
