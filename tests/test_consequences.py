"""Each game's consequences, written once in its package's consequences.py (issue 14, item 1), tested where no
other test calls them directly: numbers in, numbers out, scalars and arrays alike; and core's itemised
consequences (each game's `consequences.apply` is tested as tables in its own test directory)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tohit.api import load_fight
from tohit.core.fight.consequence import ATTACKER, DEFENDER, OTHER, Item, changes, events, item
from tohit.core.fight.rows import stat_cells
from tohit.core.fight.state import Event, State, apply
from tohit.engine.fight.run import simulate_fights
from tohit.systems.fullplate.consequences import hp_after
from tohit.systems.kaiser.consequences import is_critical
from tohit.systems.rtw.consequences import HELPLESS, PERISHES, fall_outcome
from tohit.systems.wsswnn.consequences import worn

ROOT = Path(__file__).resolve().parents[1]


def test_rtw_falling_in_battle_heroes_and_mindless_sources_leave_helpless_else_the_attackers_choice() -> None:
    """rtw: Falling in Battle: Heroes always fall Helpless; a source with no whims (a trap) leaves Helpless; else
    the attacker chooses."""
    assert fall_outcome(hero=True, mindless=False, choice="perish") == HELPLESS
    assert fall_outcome(hero=False, mindless=True, choice="perish") == HELPLESS
    assert fall_outcome(hero=False, mindless=False, choice="helpless") == HELPLESS
    assert fall_outcome(hero=False, mindless=False, choice="perish") == PERISHES


def test_kaiser_critical_is_a_hit_costing_half_or_more_of_the_current_lp() -> None:
    """kaiser damage/critical.md: a single hit costing half or more of the current LP; no damage, no Critical."""
    assert bool(is_critical(20, 40)) and bool(is_critical(21, 40)) and not bool(is_critical(19, 40))
    assert bool(is_critical(1, 1)) and not bool(is_critical(0, 0))
    found = is_critical(np.array([5, 10, 0, 3]), np.array([10, 30, 1, 5]))
    assert found.tolist() == [True, False, False, True]
    damage = np.array([5, 10, 0, 3, -2])
    hurt = damage > 0  # the caller's own: the answer is made in it, the same as without it
    assert is_critical(damage, np.array([10, 30, 1, 5, -9]), hurt).tolist() == [True, False, False, True, False]
    assert hurt.tolist() == [True, False, False, True, False]


def test_wsswnn_stats_worn_never_below_0_and_negative_damage_takes_nothing() -> None:
    """wsswnn tracking-your-stats: life, guard and awareness lose the damage, never below 0."""
    assert int(worn(5, 3)) == 2 and int(worn(2, 7)) == 0 and int(worn(4, -2)) == 4
    assert worn(np.array([3, 3, 3]), np.array([0, 3, 9])).tolist() == [3, 0, 0]


def test_fullplate_hit_points_in_a_fight_never_below_0() -> None:
    """fullplate (a fight's choice, consequences.py): the creature struck loses the damage, never below 0 HP."""
    assert int(hp_after(10, 4)) == 6 and int(hp_after(3, 8)) == 0
    assert hp_after(np.array([7, 1]), np.array([7, 0])).tolist() == [0, 1]


def test_consequence_items_group_into_events_by_kind_and_part_and_map_to_fight_rows_and_combatants() -> None:
    """core consequence items (docs/architecture.md, "Outcomes are data, state changes are events": consequences.apply
    returns an itemised list): consecutive items of one kind and part are one event, an item of no rows still makes its
    event; `changes` maps positions to the fight's rows and whose stat it is to combatants (OTHER: the item's own
    combatant)."""
    items = (
        item("damage", "lp", [0, 2], [5, 0], DEFENDER),
        item("damage", "dealt", [2], 9, ATTACKER),
        item("falls", "helpless", [], [], DEFENDER, part=0),
        item("falls", "perished", [1], 1, DEFENDER, part=1),
        item("grapple_ends", "grappling", [1], 0, OTHER, combatant=3, part=4),
    )
    grouped = events(items)
    assert [(kind, len(group)) for kind, group in grouped] == [
        ("damage", 2),
        ("falls", 1),
        ("falls", 1),
        ("grapple_ends", 1),
    ]
    rows = np.array([10, 11, 12])
    who = {DEFENDER: np.array([1, 0, 1]), ATTACKER: np.array([0, 1, 0])}
    made = changes(items, rows, who)
    assert [(c.stat, c.rows.tolist(), c.to.tolist(), None if c.who is None else c.who.tolist()) for c in made] == [
        ("lp", [10, 12], [5, 0], [1, 1]),
        ("dealt", [12], [9], [0]),
        ("helpless", [], [], []),
        ("perished", [11], [1], [0]),
        ("grappling", [11], [0], [3]),
    ]


def test_items_of_every_bundled_fight_have_increasing_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """core consequence.Item: an item's positions are increasing (`changes` reads an item of as many positions as
    the rows as every row): every item each game's `apply` makes in the bundled example fights is checked."""
    made: list[Item] = []
    init = Item.__init__

    def checked(self: Item, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        made.append(self)
        assert bool(np.all(np.diff(self.rows) > 0)), (self.kind, self.stat, self.rows)

    monkeypatch.setattr(Item, "__init__", checked)
    for path in sorted((ROOT / "examples" / "fights").glob("*.yaml")):
        simulate_fights(load_fight(path), 300, seed=1)
    assert len(made) > 100, len(made)


def test_changes_maps_an_item_of_every_position_to_the_rows_themselves() -> None:
    """core consequence.changes: an item of every position sets the rows given; one of some positions, theirs."""
    rows, who = np.array([3, 5, 8]), {DEFENDER: np.array([1, 0, 1]), ATTACKER: np.array([0, 1, 0])}
    every, some = item("damage", "hp", [0, 1, 2], 4), item("damage", "dealt", [2], 7, ATTACKER)
    found = changes([every, some], rows, who)
    assert [(c.rows.tolist(), c.who.tolist() if c.who is not None else None) for c in found] == [
        ([3, 5, 8], [1, 0, 1]),
        ([8], [0]),
    ]


def test_changes_given_each_sides_cells_write_the_same_state_as_without() -> None:
    """core consequence.changes with `cells` (each position's cell of the defender and of the attacker, as the step
    read them): an item of every position writes through them, one of some positions through theirs at its
    positions, and the state is the one the changes without cells make."""
    per = {s: np.arange(20, dtype=np.int64).reshape(10, 2) * k for k, s in ((1, "hp"), (3, "dealt"))}
    rows, d, a = np.array([3, 5, 8]), np.array([1, 0, 1]), np.array([0, 1, 0])
    who = {DEFENDER: d, ATTACKER: a}
    items = [item("damage", "hp", [0, 1, 2], [4, 5, 6]), item("damage", "dealt", [0, 2], [7, 9], ATTACKER)]
    at = {DEFENDER: stat_cells(per, rows, d), ATTACKER: stat_cells(per, rows, a)}
    given = changes(items, rows, who, at)
    assert [c.cells.tolist() for c in given if c.cells is not None] == [[7, 10, 17], [6, 16]]
    plain = apply(State(per, {}), [Event("damage", tuple(changes(items, rows, who)))])
    assert all(np.array_equal(apply(State(per, {}), [Event("damage", tuple(given))]).per[s], plain.per[s]) for s in per)


def test_item_of_one_value_is_a_read_only_view_and_keeps_a_narrow_stats_values_as_they_are() -> None:
    """core consequence.item: one value for every position is a read-only view of it (no array of copies; the
    state writes it as one value), values worked from a batch's int32 stats stay int32 (written as they are), and
    any other integers are int64; each writes the state the int64 values of the same numbers write."""
    one = item("flat_footed", "flat_footed", [0, 2, 5], 1)
    assert one.to.tolist() == [1, 1, 1] and one.to.strides == (0,) and not one.to.flags.writeable
    narrow = item("ap_lost", "ap", [0, 1], np.array([5, 4], dtype=np.int32))
    assert narrow.to.dtype == np.int32
    assert item("damage", "lp", [0], np.array([3], dtype=np.int16)).to.dtype == np.int64
    per = {"flat_footed": np.zeros((6, 2), dtype=np.int32), "ap": np.full((6, 2), 6, dtype=np.int32)}
    rows, who = np.arange(6), {DEFENDER: np.ones(6, dtype=np.int64)}
    written = apply(State(per, {}), [Event("hit", tuple(changes([one, narrow], rows, who)))])
    wide = [item("flat_footed", "flat_footed", [0, 2, 5], [1, 1, 1]), item("ap_lost", "ap", [0, 1], [5, 4])]
    plain = apply(State(per, {}), [Event("hit", tuple(changes(wide, rows, who)))])
    assert all(np.array_equal(written.per[s], plain.per[s]) for s in per)
    assert written.per["flat_footed"][:, 1].tolist() == [1, 0, 1, 0, 0, 1]
    assert written.per["ap"][:, 1].tolist() == [5, 4, 6, 6, 6, 6]
