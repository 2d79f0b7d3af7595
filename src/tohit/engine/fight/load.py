"""Loading a fight file: read, find its system in the registry and its fight rules, validate, check.

The fight file's shape is `tohit.core.fight.spec`; a game's rules are `tohit.core.fight.contract.FightRules`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.core.fight.contract import LoadedFight, rules_for
from tohit.core.fight.spec import alternating, fight_model
from tohit.core.fight.state import Roster
from tohit.core.loader import check_kind, check_shape, read_document, validate
from tohit.engine.registry import get


def load_fight(path: str | Path) -> LoadedFight:
    """Read and validate a fight file (an attack's scenario file is refused: `check_kind`)."""
    data = read_document(path, what="a fight file")
    check_kind(data, path, "fight")
    return fight_from_dict(data, source=str(path))


def fight_from_dict(data: dict[str, Any], *, source: str = "<fight>", live: bool = False) -> LoadedFight:
    """Validate a fight given as a mapping (`live`: a live encounter's, whose game master may set any condition
    the game names: `LoadedFight.live`)."""
    if not isinstance(data, dict):
        raise InputError("a fight must be a mapping of fields", source=source)
    check_shape(data, source=source)
    if "system" not in data:
        raise InputError("required field is missing", field="system", source=source)
    try:
        system = get(data["system"])
        rules = rules_for(system)
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
        system,
        rules,
        spec,
        source,
        roster,
        combatants,
        alternating(spec.sides),
        tuple(policy),
        focus,
        tuple(where),
        live=live,
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
