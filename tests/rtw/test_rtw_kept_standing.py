"""Who is standing after a turn's attack (Falling in Battle), handed to the step's context for the state it left
(`FightContext.keep_standing`; issue 42: the play loop's end check reads it instead of three stats of every fight
again): it is always what the stats say."""

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
from tohit.engine.fight.modes import TableSample
from tohit.engine.fight.modes.base import StepContext
from tohit.engine.fight.run import simulate_fights

FIGHTS = sorted((EXAMPLES / "fights").glob("rtw-*.yaml"))


def _from_stats(state: State) -> np.ndarray:
    per = state.per
    return (per["health"] > 0) & (per["helpless"] == 0) & (per["perished"] == 0)


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_the_standing_kept_is_what_the_stats_say(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bundled rtw fight (statuses, areas, a map, moves): each standing an attack hands over is the stats' own
    (above 0 Health, neither Helpless nor perished) in the state it leaves; and attacks do hand it over."""
    fight = load_fight(path)
    original = StepContext.keep_standing
    kept = [0]

    def checked(self: StepContext, standing: np.ndarray) -> None:
        kept[0] += 1
        assert np.array_equal(standing, _from_stats(self.state))
        original(self, standing)

    monkeypatch.setattr(StepContext, "keep_standing", checked)
    simulate_fights(fight, 300, seed=1)
    simulate_fights(fight, 100, seed=2, method="direct")
    assert kept[0] > 0


def test_an_event_after_the_standing_kept_drops_it() -> None:
    """The standing kept holds for the state it was kept in: the next event that writes Health (a stat `standing`
    reads) drops it, and `standing()` reads the stats again."""
    fight = load_fight(FIGHTS[0])
    ctx = TableSample(fight, initial_state(fight, 2), np.random.default_rng(1))
    wrong = np.zeros((2, fight.roster.size), dtype=bool)
    ctx.keep_standing(wrong)
    assert ctx.standing() is wrong
    ctx.emit("damage", [ctx.set("health", np.arange(2), 1, np.zeros(2, dtype=np.int64))])
    assert ctx.known_standing is None
    assert np.array_equal(ctx.standing(), _from_stats(ctx.state))
    assert _from_stats(ctx.state).any()


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
    monkeypatch.setattr(StepContext, "keep_standing", lambda self, standing: None)
    computed = exact_duel(_duel())
    assert kept.to_json() == computed.to_json()
