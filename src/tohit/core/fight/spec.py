"""The fight file: `system`, `sides` of combatants with their attacks and a policy, `max_rounds`, `seed`.

A combatant is the system's own stat blocks: an `attacker` block (as in the system's scenario files) and a
`target` block (its defences and health; the name is the combatant's), with a list of `attacks`. Each
attack has a `name`, the system's `attack` block and may override fields of the attacker block (another
weapon, say); it may also be the name of an entry in the file's `attacks` library. A system's fight rules
add their own fields (e.g. an attack's AP cost). Every problem is one line naming the file and field.

    system: <id>
    max_rounds: 100
    sides:
      - name: Heroes
        policy: best            # first | weakest | random | best
        combatants:
          - name: Ceil
            attacker: {...}     # the game's attacker block
            target: {...}       # the game's target block: defences and health
            attacks: [{name: long sword, attack: {...}}]
      - name: Bandits
        combatants: [...]

Examples: examples/fights/.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, Literal

import numpy as np
from pydantic import Field, create_model, model_validator

from tohit.core.errors import short_repr
from tohit.core.fight.contract import FightRules, LoadedFight
from tohit.core.fight.state import IntArray
from tohit.core.models import Model, input_schema
from tohit.core.seeds import MAX_SEED
from tohit.core.system import AnySystem

Policy = Literal["first", "weakest", "random", "best"]
POLICIES: tuple[str, ...] = ("first", "weakest", "random", "best")
#: Each policy's code in the per-combatant arrays the engine reads (`policy_codes`).
CODES = {"first": 0, "weakest": 1, "random": 2, "best": 3}
DEFAULT_MAX_ROUNDS = 100
MAX_ROUNDS_LIMIT = 100_000
MAX_COMBATANTS = 64
MAX_ATTACKS = 16


class FightBase(Model):
    """Fields every fight file has (the system's models are filled in by `fight_model`)."""

    system: str = Field(description="The rule system's id.")
    max_rounds: int = Field(
        default=DEFAULT_MAX_ROUNDS, ge=1, le=MAX_ROUNDS_LIMIT, description="A fight still on after this is a draw."
    )
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED, description="Seed of a narrated fight or a simulation.")
    attacks: dict[str, Any] = Field(
        default_factory=dict, description="A library of attacks, by name, that combatants may list by name."
    )
    bestiary: list[dict[str, Any]] = Field(
        default_factory=list,
        max_length=64,
        description="Combatants not yet in the fight (each a side's combatant, with its name), that a live"
        " encounter's GM adds by name (`join`), checked as they join.",
    )

    @model_validator(mode="after")
    def _bestiary_names(self) -> FightBase:
        """Each bestiary entry has its own name (the name a GM adds it by); the rest is checked as it joins."""
        seen: list[str] = []
        for i, entry in enumerate(self.bestiary):
            name = entry.get("name")
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"bestiary[{i}].name: a bestiary entry needs its name")
            if name in seen:
                raise ValueError(f"bestiary[{i}].name: {short_repr(name)} is used twice")
            seen.append(name)
        return self

    @model_validator(mode="before")
    @classmethod
    def _normalise(cls, data: Any) -> Any:
        """Fill defaults, resolve attack names from the library, merge per-attack attacker overrides."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if data.get("options") is None:
            data["options"] = {}
        library = data.get("attacks") or {}
        if isinstance(library, dict):
            for name, entry in library.items():
                if not isinstance(entry, dict):
                    raise ValueError(
                        f"attacks.{short_repr(name)}: an attack is a mapping of fields, not {short_repr(entry)}"
                    )
        sides = data.get("sides")
        if not isinstance(sides, list):
            return data
        new_sides = []
        for i, side in enumerate(sides):
            if not isinstance(side, dict) or not isinstance(side.get("combatants"), list):
                new_sides.append(side)
                continue
            combatants = []
            for j, comb in enumerate(side["combatants"]):
                combatants.append(_normalise_combatant(comb, library, f"sides[{i}].combatants[{j}]"))
            new_sides.append({**side, "combatants": combatants})
        data["sides"] = new_sides
        return data

    @model_validator(mode="after")
    def _names(self) -> FightBase:
        seen: dict[str, tuple[int, int]] = {}
        sides: list[Any] = getattr(self, "sides", [])  # declared by fight_model
        side_names = [side.name for side in sides]
        for i, name in enumerate(side_names):
            if name in side_names[:i]:
                raise ValueError(f"sides[{i}].name: {short_repr(name)} is used twice; each side needs its own name")
        count = 0
        for i, side in enumerate(sides):
            for j, comb in enumerate(side.combatants):
                count += 1
                if comb.name in seen:
                    raise ValueError(f"sides[{i}].combatants[{j}].name: {short_repr(comb.name)} is used twice")
                seen[comb.name] = (i, j)
                names = [a.name for a in comb.attacks]
                for k, name in enumerate(names):
                    if name in names[:k]:
                        raise ValueError(
                            f"sides[{i}].combatants[{j}].attacks[{k}].name: {short_repr(name)} is used twice"
                        )
        if count > MAX_COMBATANTS:
            raise ValueError(f"sides: at most {MAX_COMBATANTS} combatants in a fight, got {count}")
        for i, side in enumerate(sides):
            for j, comb in enumerate(side.combatants):
                if comb.focus is None:
                    continue
                where = f"sides[{i}].combatants[{j}].focus"
                if comb.focus not in seen:
                    raise ValueError(
                        f"{where}: no combatant {short_repr(comb.focus)} in this fight; combatants: {', '.join(seen)}"
                    )
                if seen[comb.focus][0] == i:
                    raise ValueError(f"{where}: {short_repr(comb.focus)} is on the same side; focus names a foe")
        return self


def _normalise_combatant(comb: Any, library: Any, where: str) -> Any:
    if not isinstance(comb, dict):
        return comb
    comb = dict(comb)
    target = comb.get("target")
    if isinstance(target, dict) and "name" not in target and isinstance(comb.get("name"), str):
        comb["target"] = {"name": comb["name"], **target}
    base = comb.get("attacker")
    attacks = comb.get("attacks")
    if not isinstance(attacks, list):
        return comb
    out = []
    for k, entry in enumerate(attacks):
        if isinstance(entry, str):
            if not isinstance(library, dict) or entry not in library:
                known = ", ".join(library) if isinstance(library, dict) and library else "none"
                raise ValueError(
                    f"{where}.attacks[{k}]: no attack {short_repr(entry)} in the file's attacks (defined: {known})"
                )
            found = library[entry]
            entry = {"name": entry, **found} if isinstance(found, dict) else found
        if isinstance(entry, dict):
            entry = dict(entry)
            entry.setdefault("attack", {})
            overrides = entry.get("attacker", {})
            if isinstance(base, dict) and isinstance(overrides, dict):
                entry["attacker"] = {**base, **overrides}
        out.append(entry)
    comb["attacks"] = out
    return comb


@cache
def fight_model(system: AnySystem, rules: FightRules) -> type[FightBase]:
    """The pydantic model of a fight file for `system` (its JSON Schema too)."""
    stem = "".join(p.capitalize() for p in system.id.replace("-", "_").split("_"))
    attack = create_model(
        f"{stem}FightAttack",
        __base__=rules.attack_extra,
        name=(str, Field(min_length=1, description="The attack's name, unique for its combatant.")),
        attack=(system.attack_model, Field(description="The system's attack block.")),
        attacker=(
            system.attacker_model,
            Field(description="Overrides of the combatant's attacker block for this attack (e.g. a weapon)."),
        ),
    )
    combatant = create_model(
        f"{stem}Combatant",
        __base__=rules.combatant_extra,
        name=(str, Field(min_length=1, description="The combatant's name, unique in the fight.")),
        attacker=(system.attacker_model, Field(description="The system's attacker block.")),
        target=(system.target_model, Field(description="The system's target block: defences and health.")),
        attacks=(list[attack], Field(min_length=1, max_length=MAX_ATTACKS)),
        policy=(Policy | None, Field(default=None, description="Overrides the side's policy.")),
        focus=(str | None, Field(default=None, description="A foe to attack while it stands.")),
        hidden=(
            bool,
            Field(
                default=False,
                description="Hidden entirely from the players' view (an ambusher) until the GM reveals it.",
            ),
        ),
    )
    side = create_model(
        f"{stem}Side",
        __base__=Model,
        name=(str, Field(min_length=1)),
        policy=(Policy, Field(default="first", description="first, weakest, random or best.")),
        combatants=(list[combatant], Field(min_length=1)),
    )
    return create_model(
        f"{stem}Fight",
        __base__=FightBase,
        sides=(list[side], Field(min_length=2, description="Two or more sides.")),
        options=(system.options_model, Field(description="The system's options.")),
        **rules.fight_fields(),
    )


def fight_schema(system: AnySystem, rules: FightRules) -> dict[str, Any]:
    """The JSON Schema of a fight file for `system` (`tohit schema SYSTEM --fight`): the model's, widened to
    what the file may leave out before `_normalise` and the rules' `prepare` fill it in: an attack listed by
    its name in the file's `attacks`, an attack's `attacker` as overrides of the combatant's (any fields), its
    `attack` left out when every field has a default, a target's `name` (the combatant's) and `options`."""
    schema = fight_model(system, rules).model_json_schema()
    defs: dict[str, Any] = schema["$defs"]
    side = defs[_ref_name(schema["properties"]["sides"]["items"])]
    combatant_name = _ref_name(side["properties"]["combatants"]["items"])
    combatant = defs[combatant_name]
    props = combatant["properties"]
    attacker_name, target_name = _ref_name(props["attacker"]), _ref_name(props["target"])
    entry_name = _ref_name(props["attacks"]["items"])
    defs["AttackerOverrides"] = {
        **{k: v for k, v in defs[attacker_name].items() if k != "required"},
        "title": "AttackerOverrides",
        "description": "Fields of the combatant's attacker block this attack changes (e.g. another weapon).",
    }
    defs["FightTarget"] = {
        **defs[target_name],
        "title": "FightTarget",
        "required": [n for n in defs[target_name].get("required", []) if n != "name"],
    }
    entry = defs[entry_name]
    attack_required = bool(defs[_ref_name(entry["properties"]["attack"])].get("required"))
    entry["required"] = [n for n in entry["required"] if n == "name" or (n == "attack" and attack_required)]
    entry["properties"]["attacker"] = {**entry["properties"]["attacker"], "$ref": "#/$defs/AttackerOverrides"}
    defs["LibraryAttack"] = {
        **entry,
        "title": "LibraryAttack",
        "required": [n for n in entry["required"] if n != "name"],
    }
    props["target"] = {**props["target"], "$ref": "#/$defs/FightTarget"}
    props["attacks"]["items"] = {
        "anyOf": [
            {"type": "string", "description": "The name of an attack in the file's `attacks`."},
            {"$ref": f"#/$defs/{entry_name}"},
        ]
    }
    schema["properties"]["attacks"] = {
        **schema["properties"]["attacks"],
        "additionalProperties": {"$ref": "#/$defs/LibraryAttack"},
    }
    return rules.input_schema(input_schema(schema, system.id))


def _ref_name(node: dict[str, Any]) -> str:
    return str(node["$ref"]).rsplit("/", 1)[-1]


def alternating(sides: list[Any]) -> tuple[int, ...]:
    """File order, sides alternating: the first of each side, then the second of each, and so on."""
    starts, offset = [], 0
    for side in sides:
        starts.append(offset)
        offset += len(side.combatants)
    order: list[int] = []
    for k in range(max(len(s.combatants) for s in sides)):
        for i, side in enumerate(sides):
            if k < len(side.combatants):
                order.append(starts[i] + k)
    return tuple(order)


def map_raw_combatants(data: dict[str, Any], fn: Callable[[dict[str, Any], str], dict[str, Any]]) -> dict[str, Any]:
    """The raw fight file (before validation, `FightRules.prepare`) with each combatant mapping replaced by
    `fn(combatant, where)`, where = "sides[i].combatants[j]". Parts not shaped as a fight file are left as they
    are, for validation to report."""
    sides = data.get("sides")
    if not isinstance(sides, list):
        return data
    new_sides: list[Any] = []
    for i, side in enumerate(sides):
        combatants = side.get("combatants") if isinstance(side, dict) else None
        if not isinstance(combatants, list):
            new_sides.append(side)
            continue
        new = [fn(c, f"sides[{i}].combatants[{j}]") if isinstance(c, dict) else c for j, c in enumerate(combatants)]
        new_sides.append({**side, "combatants": new})
    return {**data, "sides": new_sides}


def policy_codes(fight: LoadedFight, what: str) -> IntArray:
    """Per combatant: its policy code (`CODES`), or with what="focus" its focus (-1: none); built once per fight."""

    def build() -> IntArray:
        values = [CODES[p] for p in fight.policy] if what == "policy" else list(fight.focus)
        return np.asarray(values, dtype=np.int64)

    return fight.memo(f"policy_codes_{what}", build)
