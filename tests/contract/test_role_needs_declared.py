"""Every bundled game's declaration of when its dice are read (`System.needs`, core/role_needs.py) is well formed
over its bundled scenarios (each with one switch of its attack or options turned, as tests/contract/
test_role_labels.py builds them): it names only roles the game has, waits only on other roles, cites the rule
that makes each role conditional or unread, and its `reads` answers one yes/no per row of the game's resolve."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from tests.contract.conftest import scenario_examples
from tests.contract.test_role_labels import variants
from tohit.core.steps import Silent
from tohit.core.system import Dice, System
from tohit.engine import registry

BUNDLED = sorted(registry.systems())


@pytest.mark.parametrize("game_id", BUNDLED)
def test_every_declared_need_names_the_games_roles_and_cites_its_rule(game_id: str) -> None:
    game = registry.get(game_id)
    wrong: list[str] = []
    checked = 0
    for path in scenario_examples(game):
        for turned, loaded in variants(game, yaml.safe_load(path.read_text())):
            for target in loaded.scenario.targets:
                where = f"{path.name}{turned} on {target.name}"
                roles = game.roles(loaded.scenario, target)
                for role, need in game.needs(loaded.scenario, target).items():
                    if role not in game.role_labels:
                        wrong.append(f"{where}: {role} is no role of the game")
                    if need.reads is not None and not need.clause.strip():
                        wrong.append(f"{where}: {role} cites no rule")
                    if role in need.after or set(need.after) - set(game.role_labels):
                        wrong.append(f"{where}: {role} waits on {need.after}")
                    if need.reads is None or role not in roles:
                        continue
                    columns = {k: r.support(game.depth(loaded.scenario)).columns for k, r in roles.items()}
                    rows = {k: {c: v[:1] for c, v in cols.items()} for k, cols in columns.items()}
                    reads = need.reads(game.resolve(loaded.scenario, target, Dice(rows), Silent()))
                    checked += 1
                    if reads.shape != (1,) or reads.dtype != np.bool_:
                        wrong.append(f"{where}: {role} reads {reads!r}")
    assert not wrong, "\n".join(wrong[:10])
    declares = type(game).needs is not System.needs
    assert checked or not declares, f"{game_id}: declares needs its bundled scenarios never read"
