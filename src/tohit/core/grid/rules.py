"""What a game with a map tells `tohit map` and `tohit aim` (its map rules), and nothing else.

A game opts in by returning a `MapRules` from `System.map_rules()`; a game with no map returns None (the
default) and the commands refuse its scenarios on the `system` field. The grid geometry itself (squares,
ranges as squares, reach, cover lines) is generic and lives beside this in `tohit.core.grid`; the map
rules say how a scenario file holds its map and attack, and what a placement changes for one creature:

- `view(data, place=...)`: the scenario's battlefield, attacker and range as a `GridView`, placed as the
  file says (`map`), or with an illegal placement allowed since the caller places it (`aim`);
- `aim_condition(...)`: what one placement changes for one creature (given by its `targets` entry), as
  a hashable value: placements with equal values give it equal expected damage (`aim` caches on it);
- `aim_scenario(...)`: the one-target scenario mapping under such a condition, whose exact odds give the
  expected damage;
- `fight_scenario(...)` (optional): a fight's map, in a fight state, as the scenario of one combatant's attack,
  placed as given, so a live encounter's map (the web table) shows what `tohit map` and `tohit aim` show for it.

Every problem with the scenario is an `InputError` naming its field (no file name: the caller adds it).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from typing import Any

from tohit.core.grid.models import AnyRange
from tohit.core.grid.view import GridView


class MapRules(ABC):
    """A game's map rules: how a scenario becomes a grid view, and what a placement does to a creature."""

    @abstractmethod
    def view(self, data: Mapping[str, Any], *, place: bool) -> GridView:
        """The scenario mapping's battlefield, attacker and attack range.

        The range is placed as the file places it, when it does (`reach`; None when it gives no placement).
        With `place=True` an illegal placement is an InputError naming it; with `place=False` (aim, which
        tries every placement itself) it only leaves `reach` None.
        """

    @abstractmethod
    def aim_condition(
        self, data: Mapping[str, Any], view: GridView, entry: Mapping[str, Any], placed: AnyRange, alone: bool
    ) -> Hashable:
        """What the attack placed as `placed` changes for the creature of targets `entry` (`alone`: it is
        the only creature reached); equal values mean equal expected damage to it."""

    @abstractmethod
    def aim_scenario(self, data: Mapping[str, Any], entry: Mapping[str, Any], condition: Hashable) -> dict[str, Any]:
        """The scenario mapping with targets `entry` as its one target under `condition` (from
        `aim_condition`): its exact odds give the expected damage."""

    def fight_scenario(
        self, fight: Any, state: Any, attacker: int, attack: int, placement: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """The scenario mapping of combatant `attacker`'s attack number `attack` in the loaded fight `fight` on its
        map, each combatant where the fight state `state` (its first row) stands it, every other combatant a
        target, the range's placement fields (e.g. `at`, `direction`) taken from `placement` (None: as the fight
        file gives it). None (the default): the game's fights have no map."""
        return None
