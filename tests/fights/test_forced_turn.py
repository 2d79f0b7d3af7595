"""A turn chosen by hand (a live encounter's game master): the fight contract's `turn`, handed a `GMChoice`
that the engine's `choose_actions` returns, runs the same rules and consequences as a policy's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tohit.core.errors import InputError
from tohit.core.fight.gm_choice import GMChoice
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.modes import Narration
from tohit.engine.fight.run import initial_state

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "fights"
FILES = sorted(p.name for p in EXAMPLES.glob("*.yaml"))


def _turn(name: str, actor: int, attack: int, target: int, seed: int = 1) -> Narration:
    fight = load_fight(EXAMPLES / name)
    ctx = Narration(fight, initial_state(fight, 1), np.random.default_rng(seed), max_rounds=10)
    choice = GMChoice(actor, attack, target)
    fight.rules.turn(ctx, np.ones(1, dtype=bool), np.full(1, actor, dtype=np.int64), choice)
    return ctx


@pytest.mark.parametrize("name", FILES)
def test_forced_turn_attacks_the_chosen_foe_with_the_chosen_attack(name: str) -> None:
    fight = load_fight(EXAMPLES / name)
    foe = int(np.flatnonzero(fight.roster.foes()[0])[0])
    ctx = _turn(name, 0, 0, foe)
    attacks = [e for e in ctx.log if e["kind"] in ("attack", "ability")]
    assert attacks, [e["kind"] for e in ctx.log]
    assert fight.roster.names[0] in attacks[0]["text"]
    assert fight.roster.names[foe] in attacks[0]["text"]


@pytest.mark.parametrize("name", FILES)
def test_forced_turn_on_an_ally_is_refused_naming_what_is_allowed(name: str) -> None:
    with pytest.raises(InputError, match="allowed now") as err:
        _turn(name, 0, 0, 0)  # itself: never a foe
    assert err.value.field == "targets"


def test_forced_turn_unknown_attack_is_refused() -> None:
    with pytest.raises(InputError, match="no attack number 9"):
        _turn("kaiser-duel.yaml", 0, 9, 1)
