"""The odds hints name every stat that changes an attack's expected damage (issue 27, item 2).

Policy `best` reads an attack's mean damage at the stats bound with `odds` (the target's plain stats, the groups
of the target's and of the attacker's scalar stats; core/fight/bindings.py) and the rules' `odds_fields`; the
preview and `tohit odds` read every stat a binding feeds the resolve.
They agree in every state only if no stat left out of the hints changes the mean. Checked by computation, not by
a list: for every game and every bundled fight, each attack on each foe, at the fight's start, every stat left out
is set to each value (scalar stats: each group) it takes over the first actions of the fight and to its
neighbours, and the exact mean damage must not move.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from tests.contract.conftest import fight_examples
from tohit.core.system import AnySystem
from tohit.engine.encounter import Encounter
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.outcome_table import mean_damage
from tohit.engine.fight.outcomes import now, outcome_table
from tohit.engine.fight.situation import Situation

#: "auto" actions played to collect the values each stat takes.
ACTIONS = 30


def _seen(path: Path) -> tuple[Encounter, dict[str, set[int]], dict[str, set[int]]]:
    """A seeded encounter of the fight (at its start), and the values (plain stats) and groups (scalar stats) each
    stat the resolve reads takes over its first `ACTIONS` "auto" actions, with the neighbours of each value (never
    below 0) and group 0."""
    data = yaml.safe_load(path.read_text())
    start = Encounter.create(data, source=str(path), seed=1)
    rules = start.fight.rules
    bound = rules.bound
    plain = {*bound.target, *bound.attacker}
    scalar = {*bound.scalar, *bound.attacker_scalar}
    values: dict[str, set[int]] = {s: set() for s in plain}
    groups: dict[str, set[int]] = {s: {0} for s in scalar}
    playing = Encounter.create(data, source=str(path), seed=1)
    for _ in range(ACTIONS + 1):
        per = playing.state.per
        for s in plain:
            for v in per[s].reshape(-1).tolist():
                values[s].update(x for x in (v - 2, v - 1, v, v + 1, v + 2) if x >= 0)
        for s in scalar:
            groups[s].update(int(g) for g in rules.group_value(s, per[s]).reshape(-1).tolist())
        if playing.over or rules.next_actor(playing.fight, playing.state) is None:
            break
        playing.act({"kind": "auto"})
    return start, values, groups


def _moved(path: Path) -> list[str]:
    """Each stat left out of the hints whose value moves an attack's exact mean damage: where and how."""
    encounter, values, groups = _seen(path)
    fight = encounter.fight
    bound = fight.rules.bound
    ctx = Exact(fight, encounter.state)
    found: list[str] = []
    for c in range(fight.roster.size):
        for a in range(len(fight.combatants[c].attacks)):
            for t in (t for t in range(fight.roster.size) if fight.roster.side[t] != fight.roster.side[c]):
                s = now(ctx, c, a, t)
                base = mean_damage(outcome_table(fight, s))
                tries: list[tuple[str, Situation]] = []
                for st in (st for st in s.stats if st not in bound.odds):
                    tries += [(st, dataclasses.replace(s, stats={**s.stats, st: v})) for v in sorted(values[st])]
                for st in (st for st in s.groups if st not in bound.odds_scalar):
                    tries += [(st, dataclasses.replace(s, groups={**s.groups, st: g})) for g in sorted(groups[st])]
                # The attacker's own stats are never in the hints (kinds other than an attack read them).
                for st in s.own:
                    tries += [(st, dataclasses.replace(s, own={**s.own, st: v})) for v in sorted(values[st])]
                for st in (st for st in s.own_groups if st not in bound.odds_attacker_scalar):
                    own_groups = groups[st]
                    tries += [(st, dataclasses.replace(s, own_groups={**s.own_groups, st: g})) for g in own_groups]
                for st, changed in tries:
                    mean = mean_damage(outcome_table(fight, changed))
                    if mean != base:
                        who = f"{fight.roster.names[c]} {fight.attack(c, a).name} on {fight.roster.names[t]}"
                        found.append(f"{path.stem}: {st} moves {who}: {base} -> {mean}")
    return found


def test_contract_every_stat_that_changes_expected_damage_is_in_the_odds_hints(game: AnySystem) -> None:
    moved = [m for path in fight_examples(game) for m in _moved(path)]
    assert moved == [], moved[:5]
