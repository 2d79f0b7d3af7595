"""Who is standing after a turn's attack (Falling in Battle), kept for the state it left (issue 42: the play loop's
end check reads it instead of three stats of every fight again): it is always what the stats say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.state import State
from tohit.engine.fight.ending import initial_state
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.fight.run import simulate_fights
from tohit.systems.rtw.fight import RtwFight
from tohit.systems.rtw.fight_tables import KeptStanding

FIGHTS = sorted((EXAMPLES / "fights").glob("rtw-*.yaml"))


def _from_stats(state: State) -> np.ndarray:
    per = state.per
    return (per["health"] > 0) & (per["helpless"] == 0) & (per["perished"] == 0)


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_the_standing_kept_is_what_the_stats_say(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bundled rtw fight (statuses, areas, a map, moves): each time `standing` answers from what an attack
    kept, the answer is the stats' own (above 0 Health, neither Helpless nor perished); and it does answer so."""
    fight = load_fight(path)
    original = RtwFight.standing
    kept_answers = [0]

    def checked(self: RtwFight, fight_: object, state: State) -> np.ndarray:
        found = original(self, fight_, state)  # type: ignore[arg-type]
        if self.kept_standing(fight_).of(state) is not None:  # type: ignore[arg-type]
            kept_answers[0] += 1
            assert np.array_equal(found, _from_stats(state))
        return found

    monkeypatch.setattr(RtwFight, "standing", checked)
    simulate_fights(fight, 300, seed=1)
    simulate_fights(fight, 100, seed=2, method="direct")
    assert kept_answers[0] > 0


def test_a_later_state_is_not_answered_from_what_an_earlier_one_kept() -> None:
    """Only the very state kept is answered from it: another (a later event's, a copy of its arrays) is computed
    from its stats."""
    fight = load_fight(FIGHTS[0])
    rules = fight.rules
    assert isinstance(rules, RtwFight)
    state = initial_state(fight, 2)
    wrong = np.zeros((2, fight.roster.size), dtype=bool)
    rules.kept_standing(fight).keep(state, wrong)
    assert rules.standing(fight, state) is wrong
    other = State(dict(state.per), dict(state.fight))
    assert np.array_equal(rules.standing(fight, other), _from_stats(other))
    assert _from_stats(other).any()


def _duel() -> LoadedFight:
    def side(name: str, accuracy: int, hero: bool) -> dict[str, Any]:
        attacker = {
            "accuracy": accuracy,
            "combat": 3,
            "weapon": {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp"},
        }
        target = {"evasion": 12, "defense": 2, "health": 16, "hearts": 4, "hero": hero}
        return {
            "name": name,
            "combatants": [{"name": name, "attacker": attacker, "target": target, "attacks": [{"name": "Strike"}]}],
        }

    return fight_from_dict({"system": "rtw", "sides": [side("Link", 3, True), side("Moblin", 4, False)]}, source="duel")


def test_the_exact_chain_gives_the_same_distribution_with_the_standing_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact chain's steps read the standing kept too: the duel's exact distribution is the one computed from
    the stats at every step."""
    kept = exact_duel(_duel())
    monkeypatch.setattr(KeptStanding, "of", lambda self, state: None)
    computed = exact_duel(_duel())
    assert kept.to_json() == computed.to_json()
