"""Reclaim the Wild's map and ranges: how a scenario file holds its map, and what a placement changes.

The grid geometry in `tohit.core.grid` is this page's (Attacking 101), cited here
rather than there, since core names no game:
- `core.grid.squares`, `footprint`: "Counting Diagonals" (the 1-2-1 count) and "The Size of Creatures";
- `core.grid.sizes`: "The Size of Creatures" (categories, footprints, sizes in feet);
- `core.grid.areas`, `reach`: "Attack Ranges" (Blast, Burst, Cone, Line, Sweep, X within Y, Melee,
  Projectile, Weapon);
- `core.grid.cover`, `segments`, `cover_kernel`: "Attacking Foes behind Cover" with docs/rtw.md#silent-cover
  (touching an edge or a corner is not crossing; the `any_line` and `best_corner` rules);
- `core.grid.abstract`: "Abstract Combat Ranges".

This module reads a scenario's `map`, `combatants` and `attack.range` into a `GridView`, names the rules'
range for a grid range, says why the grid makes a creature Hard to Hit (cover; a Projectile with a foe
adjacent to the attacker), and implements `tohit.core.grid.rules.MapRules` for `tohit map` and
`tohit aim` (`MAP_RULES`, returned by the system's `map_rules()`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Hashable, Mapping
from typing import Any, NoReturn

from pydantic import BaseModel, TypeAdapter, ValidationError

from tohit.core.errors import InputError, short_repr
from tohit.core.grid.battlefield import Battlefield
from tohit.core.grid.cover import COVER_RULES, CoverRule
from tohit.core.grid.models import AnyRange, CombatantSpec, MapSpec, Range, WeaponRange
from tohit.core.grid.placement import is_placed
from tohit.core.grid.reach import reach
from tohit.core.grid.rules import MapRules
from tohit.core.grid.view import GridView, is_projectile
from tohit.core.loader import validation_error

CLAUSE_RANGES = "rtw: Attack Ranges"
CLAUSE_ABSTRACT = "rtw: Abstract Combat Ranges"
CLAUSE_COVER = "rtw: Attacking Foes behind Cover (docs/rtw.md#silent-cover)"
CLAUSE_PROJECTILE = "rtw: Attack Ranges, Projectile X (a foe adjacent: every foe Hard to Hit)"

GRID_RANGE: TypeAdapter[Any] = TypeAdapter(Range)
COMBATANTS: TypeAdapter[list[CombatantSpec]] = TypeAdapter(list[CombatantSpec])
#: The rules' name for each grid range type (Prone and Parry depend on it).
RULES_RANGE = {
    "blast": "blast",
    "burst": "burst",
    "cone": "cone",
    "line": "line",
    "melee": "melee",
    "projectile": "projectile",
    "sweep": "sweep",
    "targets_within": "targets",
    "squares_within": "targets",
}


def rules_range(rng: AnyRange) -> str:
    """The rules' range name: a Weapon range is its chosen Basic Attack's."""
    if isinstance(rng, WeaponRange):
        return rules_range(rng.chosen().range)
    return RULES_RANGE[rng.type]


#: pydantic names the tag of a range in an error's location ("attack.range.cone.direction"): dropped.
RANGE_TAG = re.compile(r"(range)\.(?:" + "|".join([*RULES_RANGE, "weapon"]) + r")(?=\.|$)")


def fail(exc: InputError, prefix: str | None = None) -> NoReturn:
    """Re-raise `exc` as the ValueError the scenario model reports, its field under `prefix`."""
    located = exc.located(field_prefix=prefix) if prefix else exc
    where = RANGE_TAG.sub(r"\1", located.field) if located.field else None
    raise ValueError(f"{where}: {located.message}" if where else located.message)


def check(model: Any, data: Any, prefix: str) -> Any:
    """`data` validated by a pydantic model or type adapter; a problem is a ValueError naming the field."""
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_python(data)
        assert issubclass(model, BaseModel)
        return model.model_validate(data)
    except ValidationError as exc:
        fail(validation_error(exc, source="", prefix=prefix))


def grid_range(data: Mapping[str, Any]) -> AnyRange | None:
    """The attack's range as a grid range model, when the file gives it as a mapping (or, in a scenario
    written back out, as `grid_range`)."""
    attack = data.get("attack")
    raw = attack.get("range") if isinstance(attack, dict) else None
    if isinstance(raw, dict):
        return check(GRID_RANGE, raw, "attack.range")
    saved = data.get("grid_range")
    return check(GRID_RANGE, saved, "grid_range") if isinstance(saved, dict) else None


def battlefield(data: Mapping[str, Any]) -> tuple[Battlefield, str, CoverRule]:
    """The map with its combatants, the attacker's name and the cover rule, checked field by field."""
    map_spec = check(MapSpec, data.get("map"), "map")
    combatants = check(COMBATANTS, data.get("combatants") or [], "combatants")
    try:
        bf = Battlefield.build(map_spec, combatants)
    except InputError as exc:
        fail(exc)
    attacker = data.get("attacker")
    name = attacker.get("name") if isinstance(attacker, dict) else None
    if not name:
        raise ValueError("attacker.name: with a map, name the attacker: it must be one of the combatants")
    if not bf.has(name):
        known = ", ".join(c.name for c in bf.creatures) or "none"
        raise ValueError(f"attacker.name: {short_repr(name)} is not among the combatants ({known})")
    options = data.get("options") or {}
    rule = options.get("cover_rule", "any_line") if isinstance(options, dict) else "any_line"
    if rule not in COVER_RULES:
        raise ValueError(f"options.cover_rule: must be any_line or best_corner (got {short_repr(rule)})")
    return bf, name, rule


def grid_view(data: Mapping[str, Any], *, placed: bool = True) -> GridView:
    """The grid view of a scenario mapping; with `placed=False` a range with no placement is allowed."""
    rng = grid_range(data)
    if rng is None:
        raise ValueError("attack.range: with a map, give the range as a mapping, e.g. {type: cone, size: 3}")
    bf, user, rule = battlefield(data)
    try:
        where = reach(bf, user, rng)
    except InputError as exc:
        if placed:
            fail(exc, "attack.range")
        where = None
    return GridView.build(bf, user, rng, rule, where)


def projectile_hard(view: GridView, name: str, placed: AnyRange | None = None) -> bool:
    """A Projectile attack while a foe is adjacent to the attacker: every foe is Hard to Hit (Attack
    Ranges, Projectile X). `placed` defaults to the view's range as placed."""
    if placed is None:
        placed = view.reach.range if view.reach is not None else view.range
    return is_projectile(placed) and view.foe_adjacent and view.field.is_foe(view.user, name)


def hard_to_hit_reasons(view: GridView, name: str) -> list[str]:
    """Why the grid makes `name` Hard to Hit (empty when it does not): cover, a Projectile's adjacent foe."""
    reasons = []
    cover = view.covers.get(name)
    if cover is not None:
        reasons.append(f"behind cover: {cover.describe()}")
    if projectile_hard(view, name):
        reasons.append("a foe is adjacent to the attacker: every foe is Hard to Hit for Projectile attacks")
    return reasons


def as_input(exc: ValueError) -> InputError:
    """The ValueError of a scenario check ("field: message") as an InputError on that field."""
    head, sep, rest = str(exc).partition(": ")
    if sep and " " not in head:
        return InputError(rest, field=head)
    return InputError(str(exc))


class RtwMapRules(MapRules):
    """The map rules `tohit map` and `tohit aim` ask for: the scenario's view; Hard to Hit, the attack
    aimed at one creature alone (a Helpless creature is harmed only then) and the rules' range name."""

    def view(self, data: Mapping[str, Any], *, place: bool) -> GridView:
        if data.get("map") is None:
            raise InputError("this scenario has no map", field="map")
        try:
            rng = grid_range(data)
            if rng is None:
                raise ValueError(
                    "attack.range: give the range as a mapping, e.g. {type: cone, size: 3, direction: east}"
                )
            return grid_view(data, placed=place and is_placed(rng))
        except ValueError as exc:
            raise as_input(exc) from None

    def fight_scenario(
        self, fight: Any, state: Any, attacker: int, attack: int, placement: Mapping[str, Any] | None
    ) -> dict[str, Any] | None:
        """A fight on a map (rtw: the fight's `map`, each combatant's `position`, and where moves took it: the
        fight state's `x` and `y`) as the scenario of one attack: the combatants where they stand now, the
        attack's grid range with `placement`'s fields."""
        spec_map = getattr(fight.spec, "map", None)
        if spec_map is None:
            return None
        names = fight.roster.names
        entry = fight.attack(attacker, attack)
        grid = getattr(entry, "grid_range", None)
        rng = grid.model_dump(mode="json", exclude_none=True) if grid is not None else {"type": "melee"}
        if placement:
            rng.update({k: v for k, v in placement.items() if k not in ("type", "size")})
        dumped = entry.attack.model_dump(mode="json", exclude_none=True)
        body = {k: v for k, v in dumped.items() if k not in ("area", "catches_others")}
        combatants = []
        for c, comb in enumerate(fight.combatants):
            one: dict[str, Any] = {"name": names[c], "side": str(fight.roster.side[c]), "size": comb.size}
            one["position"] = list(comb.position) if comb.position is not None else None
            if "x" in state.per and "y" in state.per:  # where it stands now (movement, a GM's move)
                one["position"] = [int(state.per["x"][0, c]), int(state.per["y"][0, c])]
            if comb.squares:
                one["squares"] = comb.squares
            if comb.swarm:
                one["swarm"] = True
            combatants.append(one)
        return {
            "system": fight.system.id,
            "map": spec_map.model_dump(mode="json", exclude_none=True),
            "combatants": combatants,
            "attacker": {**entry.attacker.model_dump(mode="json", exclude_none=True), "name": names[attacker]},
            "attack": {**body, "range": rng},
            "targets": [
                {**fight.target(t).model_dump(mode="json", exclude_none=True), "name": names[t]}
                for t in range(len(names))
                if t != attacker
            ],
            "options": {"cover_rule": fight.spec.options.cover_rule},
        }

    def aim_condition(
        self, data: Mapping[str, Any], view: GridView, entry: Mapping[str, Any], placed: AnyRange, alone: bool
    ) -> Hashable:
        return (hard_level(data, view, entry, placed), alone, rules_range(placed))

    def aim_scenario(self, data: Mapping[str, Any], entry: Mapping[str, Any], condition: Hashable) -> dict[str, Any]:
        assert isinstance(condition, tuple)
        level, alone, range_name = condition
        target = {k: v for k, v in copy.deepcopy(dict(entry)).items() if k != "dice"}
        target["hard_to_hit"] = level
        options = {k: v for k, v in (data.get("options") or {}).items() if k != "cover_rule"}
        return {
            "system": "rtw",
            "attacker": data.get("attacker"),
            "attack": {**data["attack"], "range": range_name, "area": not alone, "catches_others": not alone},
            "targets": [target],
            "options": options,
        }


def hard_level(data: Mapping[str, Any], view: GridView, entry: Mapping[str, Any], placed: AnyRange) -> str:
    """The Hard to Hit level of the creature of targets `entry` against the attack as placed: its own,
    raised by the grid's reasons (one: hard; two or more with `several_hard_to_hit_sources_are_extreme`:
    extreme, as `tactical.place` does)."""
    name = entry["name"]
    sources = int(view.covers.get(name) is not None) + int(projectile_hard(view, name, placed))
    given = str(entry.get("hard_to_hit", "none"))
    if not sources:
        return given
    options = data.get("options") or {}
    several = bool(options.get("several_hard_to_hit_sources_are_extreme")) if isinstance(options, dict) else False
    level = "extreme" if several and sources + (given != "none") >= 2 else "hard"
    return "extreme" if "extreme" in (given, level) else level


MAP_RULES = RtwMapRules()
