"""A stat the game keeps internal (its reading's kind `internal`: what the rules track for themselves, such as
whether a weapon was used; a position, which the map's move sets; a place in a rolled turn order) is not set by
hand: an adjust of it is refused naming `stat`, in words ("kept by the game's rules"), a condition naming it is
refused naming `condition`, nothing changes, and the sheet's range for it is null."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.core.fight.readings import reading_of
from tohit.engine.encounter import Encounter
from tohit.server import read_models

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def internal(enc: Encounter) -> list[str]:
    readings = enc.fight.rules.readings
    return [s for s in enc.state.per if (r := reading_of(readings, s)) is not None and r.kind == "internal"]


def test_every_game_keeps_some_stat_internal_in_its_examples() -> None:
    """The check below is not empty: rtw's weapon use and position, FullPlate's magic ammunition hits, Last
    Odyssey's statuses inflicted, WSSWNN's Guard at most, among those the bundled fights keep."""
    found = {s for path in FIGHTS for s in internal(Encounter.create(yaml.safe_load(path.read_text()), seed=1))}
    assert {"used0", "x", "y", "status_hits", "max_guard", "turn"} <= found, found
    assert any(s.startswith("ammo_hits") for s in found), found


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_an_internal_stat_is_not_adjusted_by_hand(path: Path) -> None:
    enc = Encounter.create(yaml.safe_load(path.read_text()), seed=1)
    who = enc.fight.roster.names[0]
    ranges = read_models.ranges(enc)
    for stat in internal(enc):
        assert enc.fight.rules.stat_range(enc.fight, stat) is None and ranges[stat] is None, stat
        seq, state = enc.seq, enc.state_json()
        now = state["combatants"][who][stat]
        for change in ({"value": now + 1}, {"by": 1}, {"value": now}):
            with pytest.raises(InputError) as err:
                enc.act({"kind": "adjust", "combatant": who, "stat": stat, **change})
            assert err.value.field == "stat" and "kept by the game's rules" in err.value.message, (stat, err.value)
        with pytest.raises(InputError) as err:
            enc.act({"kind": "condition", "combatant": who, "condition": stat, "on": True})
        assert err.value.field == "condition" and "kept by the game's rules" in err.value.message, (stat, err.value)
        label = reading_of(enc.fight.rules.readings, stat)
        assert label is not None and err.value.message.startswith(label.label)  # in the game's words
        assert enc.seq == seq and enc.state_json() == state
