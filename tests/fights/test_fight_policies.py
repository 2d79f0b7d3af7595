"""Policies (issue 8): first, weakest, random, best; and a combatant's focus."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.modes import Exact, TableSample
from tohit.engine.fight.policy import choose_actions
from tohit.engine.fight.run import initial_state, narrate

TIE = {"offense": [3, 4], "defense": [5, 4]}


def first_target(data: dict, seed: int = 1) -> tuple[str, str]:
    log = narrate(load(data), seed=seed, script=[TIE])
    attack = next(e for e in log.events if e["kind"] == "attack")
    return attack["target"], attack["attack"]


def one_vs_two(side_policy: str, **over: object) -> dict:
    return kaiser_fight(
        [kaiser_combatant("A", **over)],
        [kaiser_combatant("B1", target={"lp": 40}), kaiser_combatant("B2", target={"lp": 20, "armor": {"cut": 1}})],
        policy=side_policy,
    )


def test_fight_policy_first_attacks_the_first_living_foe() -> None:
    assert first_target(one_vs_two("first")) == ("B1", "sword")


def test_fight_policy_weakest_attacks_the_foe_with_the_lowest_health() -> None:
    assert first_target(one_vs_two("weakest")) == ("B2", "sword")


def test_fight_policy_best_picks_the_attack_and_target_with_the_highest_expected_damage() -> None:
    """Best: exact mean damage; B1 has no armour (B2 has AV 1), the great axe hits harder than the dagger."""
    attacks = [
        {
            "name": "dagger",
            "attack": {"range": "hand_to_hand"},
            "attacker": {"weapon": {"damage": 1, "damage_type": "cut"}},
        },
        {
            "name": "great axe",
            "attack": {"range": "hand_to_hand"},
            "attacker": {"weapon": {"damage": 9, "damage_type": "cut"}},
        },
    ]
    assert first_target(one_vs_two("best", attacks=attacks)) == ("B1", "great axe")
    assert first_target(one_vs_two("first", attacks=attacks)) == ("B1", "dagger")


def test_fight_policy_focus_attacks_the_named_foe_while_it_stands() -> None:
    assert first_target(one_vs_two("first", focus="B2")) == ("B2", "sword")


def test_fight_policy_of_a_combatant_overrides_its_side() -> None:
    assert first_target(one_vs_two("first", policy="weakest")) == ("B2", "sword")


def test_fight_policy_random_picks_each_foe_uniformly() -> None:
    fight = load(one_vs_two("random"))
    n = 20_000
    ctx = TableSample(fight, initial_state(fight, n), np.random.default_rng(5))
    options = np.zeros((n, fight.max_attacks, 3), dtype=bool)
    options[:, 0, 1:] = True
    actor = np.zeros(n, dtype=np.int64)
    _, attack, target = choose_actions(ctx, np.ones(n, dtype=bool), actor, options)
    assert set(attack.tolist()) == {0}
    share = float((target == 1).mean())
    assert abs(share - 0.5) < 4 * (0.25 / n) ** 0.5


def test_fight_policy_random_in_the_exact_chain_weighs_each_foe_equally() -> None:
    fight = load(one_vs_two("random"))
    ctx = Exact(fight, initial_state(fight, 1))
    options = np.zeros((1, fight.max_attacks, 3), dtype=bool)
    options[0, 0, 1:] = True
    idx, _, target = choose_actions(ctx, np.ones(1, dtype=bool), np.zeros(1, dtype=np.int64), options)
    assert ctx.weight is not None
    assert idx.tolist() == [0, 0] and sorted(target.tolist()) == [1, 2]
    assert [Fraction(int(w), ctx.denominator) for w in ctx.weight] == [Fraction(1, 2)] * 2


def _best_pick(data: dict, stat: str, foe: int, value: int) -> tuple[int, int]:
    """(attack, target) policy `best` picks for combatant 0 on every foe, in the fight's start state with one
    foe's `stat` set to `value` (as the fight has changed it)."""
    fight = load(data)
    state = initial_state(fight, 1)
    state.per[stat][0, foe] = value
    options = np.zeros((1, fight.max_attacks, fight.roster.size), dtype=bool)
    options[0, : len(fight.combatants[0].attacks), 1:] = True
    _, attack, target = choose_actions(Exact(fight, state), np.ones(1, dtype=bool), np.zeros(1, np.int64), options)
    return int(attack[0]), int(target[0])


def test_fight_policy_best_kaiser_reads_the_defenders_current_defensive_modifiers() -> None:
    """Best reads the Defensive Roll's current modifiers (`def_mod`): a foe that already defended twice this
    round (Multiple Defense Penalty: "2 attacks -2, 3 attacks -4") is the easier one to hurt."""
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B1"), kaiser_combatant("B2")], policy="best")
    data["options"] = {"multiple_defense_penalty": True}
    assert _best_pick(data, "def_mod", 2, 0) == (0, 1)  # the same foes: file order
    assert _best_pick(data, "def_mod", 2, -4) == (0, 2)


@pytest.mark.parametrize("first_side", ["first", "weakest"])
def test_fight_policy_first_and_weakest_on_their_own_pick_as_the_general_path(
    monkeypatch: object, first_side: str
) -> None:
    """A fight whose every combatant picks by `first` or `weakest` (no focus) takes a shorter path
    (policy._plain decides, policy._first_or_weakest picks, reading the health only on the rows of a `weakest` actor
    with a choice to make): the same attack and target as the general path, row for row, with two attacks each,
    foes down or out of reach, health ties and rows not acting; one side `weakest` and the other `first`, or both
    `weakest`."""
    from tohit.engine.fight import policy

    two = {"attacks": [{"name": "sword", "attack": {"range": "hand_to_hand"}}, {"name": "axe"}]}
    first = [kaiser_combatant(f"A{i}", **two) for i in range(3)]
    weakest = [kaiser_combatant(f"B{i}", **two) for i in range(4)]
    data = kaiser_fight(first, weakest)
    data["sides"][0]["policy"] = first_side
    data["sides"][1]["policy"] = "weakest"
    fight = load(data)
    rng = np.random.default_rng(42)
    n, size = 2_000, fight.roster.size
    state = initial_state(fight, n)
    health = rng.integers(0, 4, (n, size))
    state = type(state)({**state.per, fight.rules.health: health}, dict(state.fight))
    ctx = TableSample(fight, state, rng)
    actor = rng.integers(0, size, n)
    options = (rng.random((n, 2, size)) < 0.4) & fight.roster.foes()[actor][:, None, :]
    acting = rng.random(n) < 0.9
    assert policy._plain(fight)
    fast = choose_actions(ctx, acting, actor, options)
    monkeypatch.setattr(policy, "_plain", lambda fight: False)  # type: ignore[attr-defined]
    general = choose_actions(ctx, acting, actor, options)
    assert np.array_equal(fast[1], general[1]) and np.array_equal(fast[2], general[2])
    assert (fast[2] >= 0).sum() > n // 2  # most rows had a pick to make


def test_fight_policy_any_policy_with_one_pair_to_pick_picks_as_the_general_path(monkeypatch: object) -> None:
    """A duel of one attack each (policy._one_pair) takes the shorter path whatever the policies (`best`, `random`,
    `weakest`): a row has one pair at most, on which every policy agrees. The same attack and target as the general
    path, row for row, with the foe down, no AP and rows not acting."""
    from tohit.engine.fight import policy

    for policies in (("best", "first"), ("random", "weakest"), ("best", "random")):
        data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")])
        for side, name in zip(data["sides"], policies, strict=True):
            side["policy"] = name
        fight = load(data)
        rng = np.random.default_rng(7)
        n = 2_000
        ctx = TableSample(fight, initial_state(fight, n), rng)
        actor = rng.integers(0, 2, n)
        options = (rng.random((n, 1, 2)) < 0.8) & fight.roster.foes()[actor][:, None, :]
        acting = rng.random(n) < 0.9
        assert policy._one_pair(fight) and not policy._plain(fight)
        fast = choose_actions(ctx, acting, actor, options)
        monkeypatch.setattr(policy, "_one_pair", lambda fight: False)  # type: ignore[attr-defined]
        general = choose_actions(ctx, acting, actor, options)
        monkeypatch.undo()  # type: ignore[attr-defined]
        assert fast[0] is general[0]
        assert np.array_equal(fast[1], general[1]) and np.array_equal(fast[2], general[2])
        assert 0 < (fast[2] >= 0).sum() < n  # some rows had the pair, some none
