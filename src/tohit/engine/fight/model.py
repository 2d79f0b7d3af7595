"""The fight file: `system`, `sides` of combatants with their attacks and a policy, `max_rounds`, `seed`.

A combatant is the system's own stat blocks: an `attacker` block (as in the system's scenario files) and a
`target` block (its defences and health; the name is the combatant's), with a list of `attacks`. Each
attack has a `name`, the system's `attack` block and may override fields of the attacker block (another
weapon, say); it may also be the name of an entry in the file's `attacks` library. A system's fight rules
add their own fields (Kaiser: an attack's `ap_cost`). Every problem is one line naming the file and field.

    system: kaiser
    max_rounds: 100
    sides:
      - name: Heroes
        policy: best            # first | weakest | random | best
        combatants:
          - name: Ceil
            attacker: {offensive_skill: 12, strength: 8, weapon: {damage: 5, damage_type: cut}}
            target: {defensive_skill: 9, lp: 40}
            attacks: [{name: long sword, attack: {range: hand_to_hand}}]
      - name: Bandits
        combatants: [...]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field, create_model, model_validator

from tohit.core.errors import InputError, short_repr
from tohit.core.loader import check_shape, read_document, validate
from tohit.core.models import Model, Scenario
from tohit.core.roles import Role
from tohit.engine.fight.rules import FightRules, rules_for
from tohit.engine.fight.state import BoolArray, IntArray, Roster
from tohit.engine.registry import AnySystem, get

Policy = Literal["first", "weakest", "random", "best"]
POLICIES: tuple[str, ...] = ("first", "weakest", "random", "best")
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
    seed: int | None = Field(default=None, ge=0, description="Seed of a narrated fight or a simulation.")
    attacks: dict[str, Any] = Field(
        default_factory=dict, description="A library of attacks, by name, that combatants may list by name."
    )

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


@dataclass
class LoadedFight:
    """A validated fight with its system, its fight rules and lookups the engine needs."""

    system: AnySystem
    rules: FightRules
    spec: Any
    source: str
    roster: Roster
    combatants: list[Any]
    #: Turn order in the file, sides alternating (combatant indices).
    file_order: tuple[int, ...]
    policy: tuple[str, ...]
    focus: tuple[int, ...]
    #: Per combatant, its place in the file ("sides[0].combatants[1]") for error messages.
    paths: tuple[str, ...] = ()
    _scenarios: dict[tuple[int, int, int], Any] = field(default_factory=dict, repr=False)
    _roles: dict[tuple[int, int, int], dict[str, Role]] = field(default_factory=dict, repr=False)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)

    @property
    def max_rounds(self) -> int:
        return int(self.spec.max_rounds)

    @cached_property
    def order_array(self) -> IntArray:
        """`file_order` as an array."""
        return np.asarray(self.file_order, dtype=np.int64)

    @cached_property
    def order_is_identity(self) -> bool:
        """The turn order is the combatants' own order (as in a duel, or sides of one)."""
        return self.file_order == tuple(range(self.roster.size))

    @cached_property
    def places_from(self) -> BoolArray:
        """(places + 1, places): row k is True at the places k and after (a round's turns still to come)."""
        size = self.roster.size
        out: BoolArray = np.arange(size)[None, :] >= np.arange(size + 1)[:, None]
        return out

    def combatant_columns(self, n: int) -> IntArray:
        """(n, combatants): 0, 1, ... in every row (cached per n)."""
        key = ("combatant_columns", n)
        found: IntArray | None = self.cache.get(key)
        if found is None:
            found = self.cache[key] = np.broadcast_to(
                np.arange(self.roster.size, dtype=np.int64), (n, self.roster.size)
            )
        return found

    @cached_property
    def max_attacks(self) -> int:
        return max(len(c.attacks) for c in self.combatants)

    @cached_property
    def has_attack(self) -> BoolArray:
        """(combatants, attacks): True where the combatant has an attack at that index."""
        out = np.zeros((self.roster.size, self.max_attacks), dtype=bool)
        for i, c in enumerate(self.combatants):
            out[i, : len(c.attacks)] = True
        return out

    def attack(self, c: int, a: int) -> Any:
        return self.combatants[c].attacks[a]

    def target(self, c: int) -> Any:
        return self.combatants[c].target

    def scenario(self, c: int, a: int, t: int) -> Scenario[Any, Any, Any, Any]:
        """The scenario of combatant c's attack a against combatant t (validated parts, built once)."""
        key = (c, a, t)
        found = self._scenarios.get(key)
        if found is None:
            entry = self.attack(c, a)
            found = self.system.scenario_model().model_construct(
                system=self.system.id,
                attacker=entry.attacker,
                attack=entry.attack,
                targets=[self.target(t)],
                dice={},
                options=self.spec.options,
                seed=None,
            )
            self._scenarios[key] = found
        return found

    def roles(self, c: int, a: int, t: int) -> dict[str, Role]:
        key = (c, a, t)
        found = self._roles.get(key)
        if found is None:
            found = self.system.roles(self.scenario(c, a, t), self.target(t))
            self._roles[key] = found
        return found


def load_fight(path: str | Path) -> LoadedFight:
    """Read and validate a fight file."""
    return fight_from_dict(read_document(path, what="a fight file"), source=str(path))


def fight_from_dict(data: dict[str, Any], *, source: str = "<fight>") -> LoadedFight:
    """Validate a fight given as a mapping."""
    if not isinstance(data, dict):
        raise InputError("a fight must be a mapping of fields", source=source)
    check_shape(data, source=source)
    if "system" not in data:
        raise InputError("required field is missing", field="system", source=source)
    try:
        system = get(data["system"])
        rules = rules_for(system.id)
    except InputError as exc:
        raise exc.located(source=source) from None
    if "sides" not in data:
        raise InputError("required field is missing", field="sides", source=source)
    try:
        prepared = rules.prepare(data)
    except InputError as exc:
        raise exc.located(source=source) from None
    spec: Any = validate(fight_model(system, rules), prepared, source=source)
    names: list[str] = []
    side_of: list[int] = []
    combatants: list[Any] = []
    policy: list[str] = []
    where: list[str] = []
    for i, side in enumerate(spec.sides):
        for j, comb in enumerate(side.combatants):
            names.append(comb.name)
            side_of.append(i)
            combatants.append(comb)
            policy.append(comb.policy or side.policy)
            where.append(f"sides[{i}].combatants[{j}]")
    roster = Roster(tuple(names), tuple(side_of), tuple(s.name for s in spec.sides))
    focus = tuple(-1 if c.focus is None else names.index(c.focus) for c in combatants)
    loaded = LoadedFight(
        system, rules, spec, source, roster, combatants, _alternating(spec.sides), tuple(policy), focus, tuple(where)
    )
    foes = roster.foes()
    try:
        rules.check(loaded)
        for c, comb in enumerate(combatants):
            for a in range(len(comb.attacks)):
                for t in np.flatnonzero(foes[c]):
                    try:
                        system.check(rules.for_check(loaded.scenario(c, a, int(t))))
                        loaded.roles(c, a, int(t))
                    except InputError as exc:
                        raise exc.located(field_prefix=f"{where[c]}.attacks[{a}]") from None
    except InputError as exc:
        raise exc.located(source=source) from None
    return loaded


def _alternating(sides: list[Any]) -> tuple[int, ...]:
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
