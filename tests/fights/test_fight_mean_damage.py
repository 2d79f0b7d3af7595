"""Mean damage, one definition (issue 27, item 2): policy `best`, a live encounter's preview and `tohit odds` give
the same mean damage for the same attack in the same situation. Pinned on every bundled fight's first attack
(the first to act, its first attack, on the first foe in file order) as the fight stands at its start (statuses,
cover and what the start rolled included): `tohit odds` reads that situation written out as a scenario file; and
mid-fight, policy `best` and the preview agree on every attack of every bundled fight."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.core.fight.contract import LoadedFight
from tohit.engine.encounter import Encounter
from tohit.engine.fight import policy
from tohit.engine.fight.modes import Exact
from tohit.engine.fight.outcomes import now
from tohit.engine.fight.situation import Situation, blocks, situation_values
from tohit.engine.odds import odds
from tohit.engine.plan import play
from tohit.engine.scenario import from_dict

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_fight_mean_damage_of_the_first_attack_is_the_same_for_policy_preview_and_odds(path: Path) -> None:
    encounter = Encounter.create(yaml.safe_load(path.read_text()), source=str(path), seed=1)
    fight, state = encounter.fight, encounter.state
    c = fight.rules.next_actor(fight, state)
    assert c is not None
    t = next(i for i in range(fight.roster.size) if fight.roster.side[i] != fight.roster.side[c])
    names = fight.roster.names
    scenario, target = blocks(fight, c, 0, t, situation_values(fight.rules, now(Exact(fight, state), c, 0, t)))
    written = {**scenario.model_dump(mode="json"), "targets": [target.model_dump(mode="json")]}
    exact = odds(from_dict(written, source=path.name)).targets[0].mean_damage

    preview = encounter.preview(names[c], fight.attack(c, 0).name, [names[t]])[0]["mean_damage"]
    allowed = np.zeros((1, fight.max_attacks, fight.roster.size), dtype=bool)
    allowed[0, 0, t] = True
    best = policy._expected(Exact(fight, state), np.asarray([c]), allowed, np.asarray([True]))[0, 0, t]

    assert preview == exact
    assert best == float(exact)


def _odds_mean(fight: LoadedFight, s: Situation, source: str) -> Fraction | None:
    """`tohit odds`' mean damage of situation `s` written out as a scenario file (None: no attack a scenario file
    can hold, a fallen foe, one out of a Melee's reach)."""
    scenario, target = blocks(fight, s.c, s.a, s.t, situation_values(fight.rules, s))
    written = {**scenario.model_dump(mode="json"), "targets": [target.model_dump(mode="json")]}
    try:
        return odds(from_dict(written, source=source)).targets[0].mean_damage
    except InputError:
        return None


def _disagreements(path: Path, actions: int) -> list[str]:
    """The attacks (by the actor whose turn it is, on each foe) where policy `best` and `tohit odds` (of the
    situation now, written out as a scenario file) give a different mean damage, or the preview and `tohit odds` of
    the situation its plan rolls in (the turn's: a new round first, on a map from where the move ends), over the
    first `actions` "auto" actions of a seeded encounter. An attack the game would not roll has no mean to show."""
    encounter = Encounter.create(yaml.safe_load(path.read_text()), source=str(path), seed=1)
    fight, names, found = encounter.fight, encounter.fight.roster.names, []
    for _ in range(actions):
        c = fight.rules.next_actor(fight, encounter.state)
        if encounter.over or c is None:
            break
        for a in range(len(fight.combatants[c].attacks)):
            for t in (t for t in range(fight.roster.size) if fight.roster.side[t] != fight.roster.side[c]):
                what = f"{names[c]} {fight.attack(c, a).name} on {names[t]}"
                exact = _odds_mean(fight, now(Exact(fight, encounter.state), c, a, t), path.name)
                allowed = np.zeros((1, fight.max_attacks, fight.roster.size), dtype=bool)
                allowed[0, a, t] = True
                ctx = Exact(fight, encounter.state)
                best = policy._expected(ctx, np.asarray([c]), allowed, np.asarray([True]))[0, a, t]
                if exact is not None and best != float(exact):
                    found.append(f"{what}: best {best} vs odds {exact}")
                row = encounter.preview(names[c], fight.attack(c, a).name, [names[t]])[0]
                plan = encounter.plan(names[c], fight.attack(c, a).name, [names[t]])
                if "reach" in row or plan.choice is None:  # no roll: the game refuses it now, or reaches no foe
                    continue
                seen = play(fight, encounter.state, plan.choice, plan.in_turn, fight.max_rounds).seen[t]
                if len(seen) != 1:
                    continue
                rolled = _odds_mean(fight, next(iter(seen.values()))[0], path.name)
                if rolled is not None and rolled != row["mean_damage"]:
                    found.append(f"{what}: odds {rolled} vs preview {row['mean_damage']}")
        encounter.act({"kind": "auto"})
    return found


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_fight_mean_damage_mid_fight_is_the_same_for_policy_preview_and_odds(path: Path) -> None:
    """Every stat that changes an attack's expected damage is in the game's odds hints (its stats bound with
    `odds`, and `odds_fields`), so policy `best` reads the preview's mean
    and `tohit odds`' in every state: every attack on every foe, over the first 30 "auto" actions."""
    assert _disagreements(path, 30) == []
