"""FullPlate fights whose every shot strikes its target and none fires magical ammunition read only each attack's
damage (issue 42): a hit costs the creature struck its damage in hit points, never below 0, and the attacker's
dealt grows by what it lost (fullplate: Damage, docs/fullplate.md#silent-damage). The same fights, results and
events as when the fight reads every outcome column (the general path: Firing Into Melee, magical ammunition)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.fights.helpers import fight_file, load, merged
from tests.fights.test_fullplate_fight import fighter as combatant
from tohit.core.fight.consequence import table
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.systems.fullplate.consequences import Before, Outcome, apply
from tohit.systems.fullplate.fight import FullPlateFight


def _a(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def fighter(name: str, **over: Any) -> dict[str, Any]:
    """A FullPlate combatant (THAC0 15, 1d8 + 1, AC 5) of 12 HP, unless `over` says otherwise."""
    return merged(combatant(name, target={"hp": 12}), over)


def test_hits_given_alone_cost_hit_points_never_below_0_and_count_as_dealt() -> None:
    """fullplate: Damage, on rows that are all hits (`Outcome.result` None) of a fight with no shot into melee and
    no magical ammunition (`struck`, `magic` None): HP never below 0; a creature already at 0 HP or a hit of no
    damage changes nothing; nothing is stray."""
    before = Before(hp=_a(10, 3, 0, 5), struck=None, dealt=_a(2, 0, 4, 1), magic=None, attack=None)
    applied = apply(before, Outcome(result=None, damage=_a(4, 7, 5, 0)))
    assert table(applied.items) == [
        ("damage", "defender", "hp", [0, 1], [6, 0]),
        ("damage", "attacker", "dealt", [0, 1], [6, 3]),
    ]
    assert applied.stray.tolist() == []


def test_hits_given_alone_that_all_land_change_every_row() -> None:
    """fullplate: Damage: when every hit lands, each row's HP and dealt change (the damage, capped at the HP
    left)."""
    before = Before(hp=_a(10, 8), struck=None, dealt=_a(0, 5), magic=None, attack=None)
    applied = apply(before, Outcome(result=None, damage=_a(3, 9)))
    assert table(applied.items) == [
        ("damage", "defender", "hp", [0, 1], [7, 0]),
        ("damage", "attacker", "dealt", [0, 1], [3, 13]),
    ]


def test_hits_given_alone_and_with_their_results_change_the_same() -> None:
    """The same rows read both ways (hits alone; every row with its result) give the same items."""
    hp, dealt, damage = _a(10, 3, 0, 5, 6), _a(2, 0, 4, 1, 0), _a(4, 7, 5, 1, 6)
    alone = apply(Before(hp, None, dealt, None, None), Outcome(None, damage))
    full = apply(
        Before(hp, np.ones(5, dtype=bool), dealt, np.zeros(5, dtype=bool), _a(0, 0, 0, 0, 0), _a(0, 0, 0, 0, 0)),
        Outcome(_a(0, 0, 0, 0, 0), damage),
    )
    assert table(alone.items) == table(full.items)


def _both_paths(monkeypatch: pytest.MonkeyPatch, play: Any) -> tuple[Any, Any]:
    """`play()` as the fight plays it (damage only), then through the general path (every outcome column)."""
    fast = play()
    monkeypatch.setattr(FullPlateFight, "_sure_shots", lambda self, fight: False)
    return fast, play()


def test_a_batch_reading_damage_only_ends_as_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Monte Carlo batch (both samplers) of a 2-v-2 with damage that halves on natural 20s ends fight for fight
    as the general path does: the same winners, rounds and tallies."""
    data = fight_file(
        "fullplate",
        [fighter("A"), fighter("B", attacker={"thac0": 19})],
        [fighter("C", target={"ac": 0}), fighter("D", attacker={"weapon": {"damage": "2d4"}})],
    )
    fight = load(data)
    for method in ("table", "direct"):
        fast, full = _both_paths(monkeypatch, lambda m=method: simulate_fights(fight, 1500, seed=5, method=m))
        monkeypatch.undo()
        assert fast.to_json() == full.to_json(), method


def test_a_narrated_fight_reading_damage_only_tells_the_same_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """A narrated fight: the same events, words and changes either way."""
    fight = load(fight_file("fullplate", [fighter("A")], [fighter("B")]))
    fast, full = _both_paths(monkeypatch, lambda: narrate(fight, seed=3).events)
    assert fast == full


def test_the_exact_duel_reading_damage_only_is_the_general_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact chain (its outcomes of equal damage merged) gives the very same exact odds."""
    fight = load(fight_file("fullplate", [fighter("A")], [fighter("B", target={"hp": 9})]))
    fast, full = _both_paths(monkeypatch, lambda: exact_duel(fight))
    assert (fast.wins, fast.draw) == (full.wins, full.draw)


def test_a_fight_with_magical_ammunition_or_a_melee_reads_every_column() -> None:
    """Firing Into Melee (an `engaged_with` entry) or magical ammunition: the fight reads the result and the
    creature struck (the general path)."""
    rules = FullPlateFight()
    plain = load(fight_file("fullplate", [fighter("A")], [fighter("B")]))
    engaged = load(fight_file("fullplate", [fighter("A")], [fighter("B", target={"engaged_with": [{"name": "Ox"}]})]))
    arrows = {"weapon": {"damage": "1d6", "kind": "bow_like"}, "ammunition": {"enhancement": 1}}
    magic = load(fight_file("fullplate", [fighter("A", attacker=arrows)], [fighter("B")]))
    assert [rules._sure_shots(f) for f in (plain, engaged, magic)] == [True, False, False]
