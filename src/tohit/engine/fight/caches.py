"""What the engine keeps for one fight while it runs it (exact tables, samplers, alias tables, roles), typed:
held by the fight through `LoadedFight.memo("engine", EngineCaches)`."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import IntArray
from tohit.core.roles import Role
from tohit.core.support import Support
from tohit.engine.alias import Alias
from tohit.engine.fight.outcome_table import OutcomeTable
from tohit.engine.fight.stack import AliasTables, TableSampler

Key = tuple[Any, ...]


@dataclass
class EngineCaches:
    """The engine's caches for one fight."""

    #: Roles of (c, a, t) with target or attacker fields overridden by code.
    override_roles: dict[Key, dict[str, Role]] = dc_field(default_factory=dict)
    #: The table sampler of each situation, by the parts its key has (target stats and overrides) and values.
    samplers: dict[Key, dict[tuple[int, ...], TableSampler]] = dc_field(default_factory=dict)
    #: Each sampler, by the identity of its situation.
    sampler: dict[Key, TableSampler] = dc_field(default_factory=dict)
    #: The alias tables, one per distinct set of joint weights, and every sampled table's outcome matrix.
    alias_tables: AliasTables | None = None
    #: A role's exact support and its alias table (by the role object's identity).
    role_tables: dict[int, tuple[Support, Alias]] = dc_field(default_factory=dict)
    #: Exact outcome tables (grouped), and the same clipped to a stat's value.
    tables: dict[Key, OutcomeTable] = dc_field(default_factory=dict)
    clipped: dict[Key, OutcomeTable] = dc_field(default_factory=dict)
    #: Expected damage of an attack in a situation (policy `best`).
    means: dict[Key, float] = dc_field(default_factory=dict)
    #: Each of the rules' `steady_stats`: the array last looked at, and its steady value (None: not steady).
    steady: dict[str, tuple[weakref.ref[IntArray], int | None]] = dc_field(default_factory=dict)


def caches(fight: LoadedFight) -> EngineCaches:
    """The engine's caches for `fight` (made on first use)."""
    return fight.memo("engine", EngineCaches)


def alias_tables(fight: LoadedFight) -> AliasTables:
    """The fight's alias tables and stack (made on first use, over the rules' outcome fields)."""
    held = caches(fight)
    if held.alias_tables is None:
        held.alias_tables = AliasTables(fight.rules.outcome_fields)
    return held.alias_tables
