"""Reclaim the Wild fights with no status in play and no weapon that wears read only each attack's damage (issue 42):
a hit then changes only Health, dealt, Peril and Falling in Battle, all from its damage (rtw: Damage,
docs/rtw.md#silent-health; Peril; Falling in Battle), so a hit of no damage changes nothing and the hits that change
anything are the rows of damage above 0. The same fights, results and events as when the fight reads the result
too (the general path: statuses, Weapon Durability)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fights.helpers import fight_file, load
from tests.fights.test_rtw_fight import creature
from tests.fights.test_rtw_status_fight import duel
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.systems.rtw.fight import RtwFight
from tohit.systems.rtw.fight_status import status_play

#: Defense 9 against a Strike of 9 damage: every hit deals 0 (rtw: Damage).
ARMOURED = {"target": {"defense": 9}}


def _read(data: dict[str, Any]) -> tuple[str, ...] | None:
    fight = load(data)
    return RtwFight()._read(fight, status_play(fight))


def test_a_fight_without_statuses_or_wear_reads_the_damage_alone() -> None:
    """No status in play and no weapon with a Durability: the damage alone; an effect (its status) or a weapon
    that wears (marked used on a hit of any damage) reads the result too."""
    plain = fight_file("rtw", [creature("A")], [creature("B")])
    sword = {"name": "sword", "attack_power": 6, "acc": 3, "damage_type": "sharp", "durability": 3}
    wears = {"attacker": {"weapon": sword}}
    worn = fight_file("rtw", [creature("A", **wears)], [creature("B")])
    status = duel("Prone")
    assert _read(plain) == ("damage",)
    assert "result" in (_read(worn) or ()) and "durability_used" in (_read(worn) or ())
    assert _read(status) is None  # every column: the effect landed too


def _both_paths(monkeypatch: pytest.MonkeyPatch, play: Any) -> tuple[Any, Any]:
    """`play()` as the fight plays it (damage only), then through the general path (the result read too)."""
    fast = play()
    monkeypatch.setattr(RtwFight, "_damage_only", lambda self, fight, play: False)
    return fast, play()


def test_a_batch_reading_damage_only_ends_as_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Monte Carlo batch (both samplers) of a 2-v-2 with Peril, falls and hits of no damage ends fight for fight
    as the general path does: the same winners, rounds and tallies."""
    data = fight_file(
        "rtw",
        [creature("A"), creature("B", target={"hero": True})],
        [creature("C", **ARMOURED), creature("D", target={"health": 12})],
    )
    fight = load(data)
    for method in ("table", "direct"):
        fast, full = _both_paths(monkeypatch, lambda m=method: simulate_fights(fight, 1500, seed=5, method=m))
        monkeypatch.undo()
        assert fast.to_json() == full.to_json(), method


def test_a_narrated_fight_and_the_exact_duel_reading_damage_only_are_the_general_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A narrated fight with hits of no damage tells the same events, words and changes either way; the exact chain
    gives the very same exact odds."""
    armoured = load(fight_file("rtw", [creature("A", **ARMOURED)], [creature("B")]))
    duel = load(fight_file("rtw", [creature("A")], [creature("B", target={"health": 9})]))

    def both() -> tuple[Any, Any, Any]:
        odds = exact_duel(duel)
        return narrate(armoured, seed=3).events, odds.wins, odds.draw

    fast, full = _both_paths(monkeypatch, both)
    assert fast == full
