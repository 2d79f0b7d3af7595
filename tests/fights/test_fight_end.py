"""How fights end (issue 8): a side with nobody able to act loses; a draw at max_rounds; never a hang."""

from __future__ import annotations

import numpy as np

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.run import FIRST_STALL_CHECK, narrate, simulate_fights

ARMOUR = {"armor": {"cut": 100}}


def harmless(max_rounds: int = 100) -> dict:
    data = kaiser_fight([kaiser_combatant("A", target=ARMOUR)], [kaiser_combatant("B", target=ARMOUR)])
    return {**data, "options": {"open_rolls_and_fumbles": False}, "max_rounds": max_rounds}


def test_fight_nobody_can_hurt_anybody_is_a_draw_at_max_rounds() -> None:
    log = narrate(load(harmless(5)), seed=3)
    end = log.events[-1]
    assert end["kind"] == "end" and end["winner"] is None and end["rounds"] == 5
    assert "draw" in end["text"]
    assert max(e.get("round") or 0 for e in log.events if e["kind"] == "round") == 5


def test_fight_nobody_can_hurt_anybody_never_hangs_in_simulation() -> None:
    """Issue 21, item 8: detected at the first stalemate check (round 16) and ended there as a draw, not
    played to max_rounds."""
    stats = simulate_fights(load(harmless()), 2_000, seed=1)
    assert stats.draws == 2_000
    assert stats.rounds is not None and stats.rounds.min() >= FIRST_STALL_CHECK and stats.rounds.max() < 32
    assert stats.to_json()["draws"]["p"] == 1.0


def test_fight_nobody_can_hurt_anybody_ends_at_once_even_at_100000_rounds() -> None:
    """Issue 21, item 8: a never-ending duel at max_rounds 100,000 (it narrated for 151 s and 1.5 GB) ends as a
    draw at the first stalemate check, saying why, narrated and simulated."""
    fight = load(harmless(100_000))
    log = narrate(fight, seed=3)
    kinds = [e["kind"] for e in log.events]
    assert kinds[-2:] == ["stalemate", "end"] and log.winner < 0 and log.rounds < 32
    assert "nobody can harm anybody" in log.events[-2]["text"]
    assert "still fighting" not in log.events[-1]["text"] and "a draw after" in log.events[-1]["text"]
    stats = simulate_fights(fight, 1_000, seed=2)
    assert stats.draws == 1_000 and stats.rounds is not None and stats.rounds.max() < 32


def test_fight_that_can_still_end_is_not_called_a_stalemate() -> None:
    """The check is sound: a duel where a hit is possible plays on past the check (here to max_rounds or a
    win; never a stalemate event)."""
    slow = {"armor": {"cut": 9}}
    data = kaiser_fight([kaiser_combatant("A", target=slow)], [kaiser_combatant("B", target=slow)])
    log = narrate(load({**data, "max_rounds": 40}), seed=5)
    assert log.rounds > FIRST_STALL_CHECK  # the check ran
    assert "stalemate" not in [e["kind"] for e in log.events]


def test_fight_three_sides_fight_until_one_is_left() -> None:
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")], [kaiser_combatant("C")])
    stats = simulate_fights(load(data), 3_000, seed=2)
    assert stats.draws + sum(stats.wins(s) for s in range(3)) == 3_000
    assert all(stats.wins(s) > 300 for s in range(3))
    # Exactly the winning side has someone standing at the end.
    won = stats.winner >= 0
    side = np.asarray(load(data).roster.side)
    for s in range(3):
        rows = stats.winner == s
        assert stats.standing[rows][:, side == s].any(axis=1).all()
        assert not stats.standing[rows][:, side != s].any()
    assert won.any()


def test_fight_simulation_reports_win_probability_rounds_survivors_and_damage() -> None:
    data = kaiser_fight([kaiser_combatant("A"), kaiser_combatant("A2")], [kaiser_combatant("B", target={"lp": 60})])
    out = simulate_fights(load(data), 5_000, seed=4).to_json()
    assert sum(s["count"] for s in out["sides"]) + out["draws"]["count"] == 5_000
    for s in out["sides"]:
        low, high = s["ci95"]
        assert low <= s["p"] <= high
    assert set(out["rounds"]["percentiles"]) == {"5", "25", "50", "75", "95"}
    names = [c["name"] for c in out["combatants"]]
    assert names == ["A", "A2", "B"]
    assert all(c["damage_dealt_mean"] > 0 for c in out["combatants"])
    b = out["combatants"][2]
    assert b["health_if_standing"] is None or b["health_if_standing"] > 0


def test_fight_simulation_is_repeatable_from_its_seed_and_independent_of_batch_size() -> None:
    fight = load(kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")]))
    one = simulate_fights(fight, 3_000, seed=9)
    two = simulate_fights(fight, 3_000, seed=9)
    assert (one.winner == two.winner).all() and (one.rounds == two.rounds).all()
    split = simulate_fights(fight, 3_000, seed=9, batch=1_000)
    assert split.n == 3_000 and abs(split.wins(0) - one.wins(0)) < 200


def test_simulation_work_is_capped_with_a_clear_error() -> None:
    """Issue 21, item 8: -n x max_rounds x combatants over MAX_WORK is refused at once, naming the product."""
    from tohit.core.errors import InputError
    from tohit.engine.fight.run import MAX_WORK

    fight = load(harmless(100_000))
    n = MAX_WORK // (100_000 * 2) + 1
    try:
        simulate_fights(fight, n, seed=1)
    except InputError as err:
        assert err.field == "n" and "combatant-rounds at the worst" in err.message and f"{MAX_WORK:,}" in err.message
    else:
        raise AssertionError("not refused")
