"""Reclaim the Wild on the tactical grid: a scenario with a `map` places the attack.

A scenario may hold a `map`, its `combatants` (the attacker among them, by name) and an `attack.range`
given as a mapping (`{type: cone, size: 3, direction: east}`). Before the rules see the scenario, the
grid layer (`tohit.core.grid`) works out the squares the range covers and the creatures it affects; the
scenario's `targets` become those creatures (stats from the targets entry of the same name; a creature
with no entry is reported as `unresolved`; a Swarm picked twice is two targets, "Keese (2)"), a target
behind cover (docs/rtw.md#silent-cover) or, for a Projectile with a foe adjacent, every foe, is Hard to Hit, and
the rules harm a Helpless creature only when it is the one creature caught (docs/rtw.md#silent-helpless-areas;
`attack.catches_others` says the range also caught creatures with no targets entry). With `abstract: true`
(or `{close_together, isolated}`) there is no map and the page's Abstract Combat counts limit the targets.

`roll`, `odds` and `simulate` add `squares` (and `range`, `cover_rule`) to their JSON, and per target
`cover`: null, or the blocked line, the solid square it crosses and the squares used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ConfigDict, Field, model_validator
from pydantic.json_schema import SkipJsonSchema

from tohit.core.errors import short_repr
from tohit.core.grid.abstract import abstract_problem, abstract_targets
from tohit.core.grid.cover import CoverRule
from tohit.core.grid.models import AbstractSpec, AnyRange, CombatantSpec, MapSpec, Range
from tohit.core.grid.rules import MapRules
from tohit.core.grid.view import GridView
from tohit.core.models import Scenario
from tohit.core.outcome import Outcome
from tohit.core.steps import Steps
from tohit.core.system import Dice
from tohit.systems.rtw.models import Attack, Attacker, Options, Target
from tohit.systems.rtw.ranges import (
    CLAUSE_ABSTRACT,
    CLAUSE_COVER,
    CLAUSE_PROJECTILE,
    CLAUSE_RANGES,
    MAP_RULES,
    grid_range,
    grid_view,
    hard_to_hit_reasons,
    projectile_hard,
)
from tohit.systems.rtw.ranges import GRID_RANGE as GRID_RANGE  # re-exported: the fight rules import these here
from tohit.systems.rtw.ranges import RANGE_TAG as RANGE_TAG
from tohit.systems.rtw.ranges import check as _check
from tohit.systems.rtw.ranges import rules_range as rules_range
from tohit.systems.rtw.rules import ReclaimTheWild
from tohit.systems.rtw.tables import HARD_TO_HIT_LEVELS


@dataclass
class Tactical:
    """What the grid layer worked out for a scenario (not part of the file; rebuilt on every load)."""

    view: GridView | None = None
    #: Target name -> combatant name (they differ for a Swarm picked more than once).
    creature_of: dict[str, str] = field(default_factory=dict)
    #: Abstract combat: the most targets the range can hit.
    most_targets: int | None = None
    range_text: str | None = None
    #: Creatures the attack reaches that have no entry in targets (no stats): not resolved.
    unresolved: list[str] = field(default_factory=list)


def _saved(rng: AnyRange) -> dict[str, Any]:
    return rng.model_dump(mode="json", exclude_none=True)


#: A Swarm picked more than once: "Keese (2)" stands for the combatant "Keese".
REPEAT = re.compile(r"^(?P<name>.+) \((?P<k>[0-9]+)\)$")


def _level(a: str, b: str) -> str:
    levels: tuple[str, ...] = HARD_TO_HIT_LEVELS
    return a if levels.index(a) >= levels.index(b) else b


def place(data: dict[str, Any]) -> dict[str, Any]:
    """Rewrite a scenario with a map into the one the rules resolve: targets, Hard to Hit, area."""
    view = grid_view(data)
    assert view.reach is not None
    hits = view.reach.hits
    if not hits:
        raise ValueError(f"attack.range: the {view.describe()} affects no creature")
    entries: dict[str, dict[str, Any]] = {}
    for i, t in enumerate(data.get("targets") or []):
        if not isinstance(t, dict) or not isinstance(t.get("name"), str):
            continue
        _check(Target, t, f"targets[{i}]")  # errors name the entry as the file has it
        name = t["name"]
        repeat = REPEAT.match(name)
        if repeat and not view.field.has(name) and view.field.has(repeat["name"]):
            entries.setdefault(repeat["name"], t)  # a Swarm's second pick, written back out
            continue
        if not view.field.has(name):
            raise ValueError(f"targets[{i}].name: {short_repr(name)} is not among the combatants")
        if name == view.user:
            raise ValueError(f"targets[{i}].name: {short_repr(name)} is the attacker")
        entries[name] = t
    options = data.get("options") if isinstance(data.get("options"), dict) else {}
    several = bool((options or {}).get("several_hard_to_hit_sources_are_extreme"))
    targets: list[dict[str, Any]] = []
    creature_of: dict[str, str] = {}
    seen: dict[str, int] = {}
    unresolved = [name for name in view.reach.distinct if name not in entries]
    if len(unresolved) == len(view.reach.distinct):
        raise ValueError(
            f"targets: the {view.describe()} reaches {', '.join(unresolved)}, with no entry in targets: give"
            " their stats (a targets entry named after the combatant)"
        )
    for name in hits:
        if name not in entries:
            continue
        seen[name] = seen.get(name, 0) + 1
        target_name = name if seen[name] == 1 else f"{name} ({seen[name]})"
        entry = {**entries[name], "name": target_name}
        reasons = hard_to_hit_reasons(view, name)
        if reasons:
            given = entry.get("hard_to_hit", "none")
            given = given if given in HARD_TO_HIT_LEVELS else "none"
            sources = len(reasons) + (given != "none")
            entry["hard_to_hit"] = _level(given, "extreme" if several and sources >= 2 else "hard")
        targets.append(entry)
        creature_of[target_name] = name
    # Aimed at one creature alone (Falling in Battle; docs/rtw.md#silent-helpless-areas): the targets resolved are the
    # creatures caught, and `catches_others` says the template also caught creatures with no targets entry.
    attack = {
        **data["attack"],
        "range": rules_range(view.reach.range),
        "area": len(view.reach.distinct) > 1,
        "catches_others": bool(unresolved),
    }
    tactical = Tactical(view, creature_of, unresolved=unresolved)
    return {**data, "attack": attack, "targets": targets, "grid_range": _saved(view.reach.range), "tactical": tactical}


def abstract(data: dict[str, Any], rng: AnyRange | None) -> dict[str, Any]:
    """Abstract combat: check the targets against the page's counts for the range."""
    raw = data.get("abstract")
    spec: AbstractSpec = AbstractSpec() if raw is True else _check(AbstractSpec, raw, "abstract")
    names = [str(t.get("name")) for t in data.get("targets") or [] if isinstance(t, dict)]
    for i, name in enumerate(spec.isolated):
        if name not in names:
            raise ValueError(f"abstract.isolated[{i}]: {short_repr(name)} is not one of the targets")
    attack = dict(data.get("attack") or {})
    if rng is None:
        kind = attack.get("range", "melee")
        if kind not in ("melee", "projectile"):
            raise ValueError(
                "attack.range: abstract combat counts targets from the range's size: give it as a mapping,"
                f" e.g. {{type: {kind}, size: 3}}"
            )
        most, text = 1, str(kind).capitalize()
        problem = abstract_problem(GRID_RANGE.validate_python({"type": "melee"}), names, False, spec.isolated)
    else:
        most, text = abstract_targets(rng, spec.close_together), None
        problem = abstract_problem(rng, names, spec.close_together, spec.isolated)
        attack["range"] = rules_range(rng)
        data = {**data, "grid_range": _saved(rng)}
    if problem:
        raise ValueError(f"targets: {problem}")
    attack["area"] = len(names) > 1 or bool(attack.get("area"))
    tactical = Tactical(most_targets=most, range_text=text)
    return {**data, "attack": attack, "abstract": spec.model_dump(), "tactical": tactical}


_SHAPES: dict[str, type] = {"attack": dict, "attacker": dict, "targets": list, "combatants": list, "options": dict}


def _kind_of(value: Any) -> str:
    return {bool: "a bool", int: "a number", float: "a number", str: "text", list: "a list", dict: "a mapping"}.get(
        type(value), type(value).__name__
    )


def prepare(data: Any) -> Any:
    """The scenario mapping the rules see: a map placed, an abstract attack counted, a range named."""
    if not isinstance(data, dict):
        return data
    if "tactical" in data:
        raise ValueError("tactical: unknown field")
    for key, kind in _SHAPES.items():  # read below as plain Python: a wrong shape is refused first
        value = data.get(key)
        if value is not None and not isinstance(value, kind):
            raise ValueError(f"{key}: must be a {'mapping' if kind is dict else 'list'}, not {_kind_of(value)}")
    rng = grid_range(data)
    has_map = data.get("map") is not None
    wants_abstract = data.get("abstract") not in (None, False)
    if has_map and wants_abstract:
        raise ValueError("abstract: abstract combat has no map: give a map or abstract, not both")
    if data.get("combatants") and not has_map:
        raise ValueError("combatants: combatants stand on a map: give the map as well")
    if has_map:
        return place(data)
    if wants_abstract:
        return abstract(data, rng)
    if rng is not None:
        return {**data, "attack": {**data["attack"], "range": rules_range(rng)}, "grid_range": _saved(rng)}
    return data


class TacticalOptions(Options):
    cover_rule: CoverRule = Field(
        default="any_line",
        description="Cover (docs/rtw.md#silent-cover): any_line (any corner-to-corner line blocked) or best_corner (the"
        " attacker picks its corner; cover needs a blocked line from it).",
    )


class TacticalScenario(Scenario[Attacker, Attack, Target, TacticalOptions]):
    """A Reclaim the Wild scenario, optionally on a map or in abstract combat."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    map: MapSpec | None = Field(
        default=None, description="The battlefield: rows of '.' and '#', or width, height and solid squares."
    )
    combatants: list[CombatantSpec] = Field(
        default_factory=list, description="Creatures on the map: name, side, position [x, y], size."
    )
    abstract: AbstractSpec | None = Field(
        default=None, description="Abstract combat (no map): true, or {close_together, isolated}."
    )
    grid_range: Range | None = Field(
        default=None,
        description="The attack's range as placed on the grid; filled in from attack.range when that is a"
        " mapping (give attack.range, not this).",
    )
    tactical: SkipJsonSchema[Tactical | None] = Field(default=None, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _place(cls, data: Any) -> Any:
        return prepare(data)


def grid_ranges_in_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema with `attack.range` as it is written: a range name, or a grid range mapping (`prepare`
    moves the mapping to `grid_range` and names the range for the rules), in a scenario or a fight file."""
    defs = schema.get("$defs", {})
    grid = next(
        (m["properties"]["grid_range"] for m in [schema, *defs.values()] if "grid_range" in m.get("properties", {})),
        None,
    )
    attack = defs.get("Attack", {}).get("properties", {})
    if grid is None or "range" not in attack:
        return schema
    mapping = [branch for branch in grid.get("anyOf", [grid]) if branch.get("type") != "null"]
    attack["range"] = {"anyOf": [attack["range"], *mapping], "default": attack["range"].get("default")}
    return schema


def tactical_of(scenario: Any) -> Tactical | None:
    found = getattr(scenario, "tactical", None)
    return found if isinstance(found, Tactical) else None


class TacticalReclaimTheWild(ReclaimTheWild):
    """Reclaim the Wild with the tactical grid and abstract combat feeding the rules."""

    options_model = TacticalOptions

    @classmethod
    def scenario_model(cls) -> Any:  # type: ignore[override]  # the same model, with the grid's fields
        return TacticalScenario

    @classmethod
    def scenario_schema(cls) -> dict[str, Any]:
        return grid_ranges_in_schema(super().scenario_schema())

    def scenario_json(self, scenario: Any) -> dict[str, Any]:
        t = tactical_of(scenario)
        if t is None:
            return {}
        if t.view is not None:
            return {**t.view.to_json(), "unresolved": t.unresolved}
        return {"abstract": {"most_targets": t.most_targets}}

    def target_json(self, scenario: Any, target: Any) -> dict[str, Any]:
        t = tactical_of(scenario)
        if t is None or t.view is None:
            return {}
        cover = t.view.covers.get(t.creature_of.get(target.name, target.name))
        return {"cover": cover.to_json() if cover is not None else None}

    def map_rules(self) -> MapRules:
        """The map rules `tohit map` and `tohit aim` ask for (`ranges.RtwMapRules`)."""
        return MAP_RULES

    def resolve(self, scenario: Any, target: Any, dice: Dice, steps: Steps) -> Outcome:
        t = tactical_of(scenario)
        if steps.enabled and t is not None:
            _note_grid(t, target, steps)
        return super().resolve(scenario, target, dice, steps)


def _note_grid(t: Tactical, target: Target, steps: Steps) -> None:
    if t.view is None:
        steps.note(
            "abstract",
            "Abstract combat: this range hits at most {most} target(s)",
            clause=CLAUSE_ABSTRACT,
            value=t.most_targets,
            most=t.most_targets,
        )
        return
    view = t.view
    name = t.creature_of.get(target.name, target.name)
    squares = len(view.reach.squares) if view.reach is not None else 0
    steps.note(
        "grid_range",
        "{range}: {squares} squares; {who} is in reach",
        clause=CLAUSE_RANGES,
        value=squares,
        range=view.describe(),
        squares=squares,
        who=name,
    )
    cover = view.covers.get(name)
    rule = view.rule.replace("_", " ")
    if cover is not None:
        steps.note(
            "cover",
            "Behind cover ({rule}): {why}: Hard to Hit",
            clause=CLAUSE_COVER,
            value=True,
            rule=rule,
            why=cover.describe(),
        )
    else:
        steps.note(
            "cover",
            "In the open ({rule}): no line to it crosses a solid square",
            clause=CLAUSE_COVER,
            value=False,
            rule=rule,
        )
    if projectile_hard(view, name):
        steps.note(
            "projectile_adjacent",
            "A foe is adjacent to the attacker: every foe is Hard to Hit for Projectile attacks",
            clause=CLAUSE_PROJECTILE,
            value=True,
        )
