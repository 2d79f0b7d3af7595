"""Stat bindings: how a fight's per-combatant stats feed the system's `resolve` (docs/architecture.md, "The fight
contract"), declared once as one list on a game's `FightRules.bindings`.

A `StatBinding` says that a stat the fight keeps is fed, on every resolve, into the target block (the attacked
combatant's value) or the attacker block (the attacker's own value), and what that does:

- `field`: the block's field it feeds, when its name differs from the stat's (e.g. a stat of the defence's
  modifiers less a penalty, feeding the block's `modifiers`);
- `scalar`: the system reads it as a plain Python value (in an `if`), never as an array: rows are grouped by
  the rules' `group_value` and each group gets `field_value` (narrated: `narrate_value`);
- `outcome`: it changes the outcome fields the fight reads, so exact tables and the table sampler are keyed by
  it (False: fed only for the trace, e.g. the HP left; a plain target stat only);
- `odds`: it changes an attack's expected damage, so policy `best` reads it at its current value (or group);
- `clip`: an outcome field the exact chain may cap at this stat (e.g. damage beyond the health left changes nothing),
  so that outcomes the fight cannot tell apart merge (a target stat only);
- `kinds`: the resolve kinds (`ctx.resolve(kind=...)`) whose rules read it (an attacker stat only; None: every
  kind); the exact chain keys the tables of other kinds without it (e.g. only a brace reads the attacker's
  own Guard).

`Bindings` is the one read-only view the engine reads (the subsets each path keys by), derived once per game;
`check_bindings` refuses a wrong binding when the game's rules are first loaded, in one line naming the game,
the stat and what is wrong, instead of a wrong odd later.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from tohit.core.errors import InputError
from tohit.core.fight.readings import StatReading, reading_of

Side = Literal["target", "attacker"]
SIDES: tuple[Side, ...] = ("target", "attacker")


@dataclass(frozen=True)
class StatBinding:
    """One stat fed into one block of every resolve; see the module docstring for each field."""

    stat: str
    feeds: Side = "target"
    field: str | None = None
    scalar: bool = False
    outcome: bool = True
    odds: bool = False
    clip: str | None = None
    kinds: tuple[str, ...] | None = None

    @property
    def name(self) -> str:
        """The block's field it feeds."""
        return self.field or self.stat


class Bindings:
    """The subsets of a game's bindings each path of the engine reads, in declaration order (the order that keys
    situations: the same declarations give the same keys, so the same draws)."""

    def __init__(self, bindings: tuple[StatBinding, ...]) -> None:
        target = [b for b in bindings if b.feeds == "target"]
        attacker = [b for b in bindings if b.feeds == "attacker"]
        #: Plain target stats, fed by value on every resolve.
        self.target = tuple(b.stat for b in target if not b.scalar)
        #: The plain target stats that change the outcome fields (exact tables are keyed by these).
        self.table = tuple(b.stat for b in target if not b.scalar and b.outcome)
        #: Outcome field -> the target stat the exact chain caps it at.
        self.clip: dict[str, str] = {b.clip: b.stat for b in target if b.clip is not None}
        #: Target stats read as plain values (grouped).
        self.scalar = tuple(b.stat for b in target if b.scalar)
        #: Plain attacker stats (the attacker's own), and its stats read as plain values (grouped).
        self.attacker = tuple(b.stat for b in attacker if not b.scalar)
        self.attacker_scalar = tuple(b.stat for b in attacker if b.scalar)
        #: The subsets policy `best` reads: plain target stats, and the groups of scalar ones on each side.
        self.odds = tuple(b.stat for b in target if not b.scalar and b.odds)
        self.odds_scalar = tuple(b.stat for b in target if b.scalar and b.odds)
        self.odds_attacker_scalar = tuple(b.stat for b in attacker if b.scalar and b.odds)
        #: Stat -> the block's field, where they differ, per block.
        self.target_fields: dict[str, str] = {b.stat: b.name for b in target if b.field is not None}
        self.attacker_fields: dict[str, str] = {b.stat: b.name for b in attacker if b.field is not None}
        plain_attacker = [b for b in attacker if not b.scalar]
        self._every_kind = all(b.kinds is None for b in plain_attacker)
        self._kinds = {b.stat: b.kinds for b in plain_attacker}
        self._by_kind: dict[str, tuple[str, ...]] = {}

    def attacker_for(self, kind: str) -> tuple[str, ...]:
        """The plain attacker stats the rules of resolve kind `kind` read (`kinds`)."""
        if self._every_kind:
            return self.attacker
        found = self._by_kind.get(kind)
        if found is None:
            found = tuple(s for s, kinds in self._kinds.items() if kinds is None or kind in kinds)
            self._by_kind[kind] = found
        return found


def check_bindings(
    game: str,
    bindings: tuple[StatBinding, ...],
    readings: Mapping[str, StatReading],
    outcome_fields: Collection[str],
    models: Mapping[Side, Any],
) -> None:
    """Refuse a wrong binding: an InputError on `system`, one line naming the game, the stat and what is wrong.
    `models` are the system's target and attacker models (pydantic classes) by the side they fill."""
    seen: set[tuple[str, str]] = set()
    for b in bindings:
        if not isinstance(b, StatBinding):
            raise _wrong(game, str(b), f"is a {type(b).__name__}, not a StatBinding")
        if b.feeds not in SIDES:
            raise _wrong(game, b.stat, f"feeds {b.feeds!r}; a binding feeds 'target' or 'attacker'")
        if reading_of(readings, b.stat) is None:
            raise _wrong(game, b.stat, "is bound but the fight keeps no such stat (it has no `readings` entry)")
        if (b.feeds, b.stat) in seen:
            raise _wrong(game, b.stat, f"is bound twice to the {b.feeds} block")
        seen.add((b.feeds, b.stat))
        fields = getattr(models[b.feeds], "model_fields", {})
        if b.name not in fields:
            raise _wrong(game, b.stat, f"feeds field {b.name!r}, which the {b.feeds} block does not have")
        if b.clip is not None and b.clip not in outcome_fields:
            raise _wrong(game, b.stat, f"clips {b.clip!r}, which is not one of the outcome fields")
        if b.clip is not None and (b.feeds != "target" or b.scalar):
            raise _wrong(game, b.stat, "clips an outcome field; only a plain target stat caps one")
        if b.kinds is not None and (b.feeds != "attacker" or b.scalar):
            raise _wrong(game, b.stat, "names resolve kinds; only a plain attacker stat is read by kind")
        if not b.outcome and (b.feeds != "target" or b.scalar):
            raise _wrong(game, b.stat, "is outcome=False; only a plain target stat may leave the tables")
        if b.odds and b.feeds == "attacker" and not b.scalar:
            raise _wrong(game, b.stat, "is odds=True; policy `best` reads no plain attacker stat")
    clipped = [b.clip for b in bindings if b.clip is not None]
    for f in {f for f in clipped if clipped.count(f) > 1}:
        stats = ", ".join(repr(b.stat) for b in bindings if b.clip == f)
        raise InputError(f"game {game!r}: outcome field {f!r} is clipped at two stats ({stats})", field="system")


def check_stats(game: str, readings: Mapping[str, StatReading], named: Mapping[str, Collection[str]]) -> None:
    """Refuse a stat named by one of the rules' other lists (`named`: the list's name -> its stats) that the
    fight does not keep."""
    for what, stats in named.items():
        for stat in stats:
            if reading_of(readings, stat) is None:
                raise _wrong(game, stat, f"is named in `{what}` but the fight keeps no such stat (no `readings` entry)")


def _wrong(game: str, stat: str, what: str) -> InputError:
    return InputError(f"game {game!r}: stat {stat!r} {what}", field="system")
