"""How fights end (issue 8): a side with nobody able to act loses; a draw at max_rounds; never a hang."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.cli.app import app
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


def harmless_party(per_side: int, max_rounds: int = 1_000) -> dict:
    sides = [[kaiser_combatant(f"{name}{i}", target=ARMOUR) for i in range(per_side)] for name in "AB"]
    return {**kaiser_fight(*sides), "options": {"open_rolls_and_fumbles": False}, "max_rounds": max_rounds}


def test_a_party_fight_nobody_can_hurt_anybody_ends_at_once_as_a_draw() -> None:
    """Issue 21, item 8: the stalemate check is for fights of any size, not duels only: two against two at
    max_rounds 1,000 end at the first check as draws, narrated (saying why) and simulated."""
    fight = load(harmless_party(2))
    stats = simulate_fights(fight, 300, seed=2)
    assert stats.draws == 300 and stats.rounds is not None and stats.rounds.max() < 32
    log = narrate(fight, seed=3)
    assert [e["kind"] for e in log.events][-2:] == ["stalemate", "end"] and log.rounds < 32


def test_a_party_fight_that_can_still_end_is_not_called_a_stalemate() -> None:
    """Sound for parties too: where a hit is possible the fight plays on past the check."""
    slow = {"armor": {"cut": 9}}
    sides = [[kaiser_combatant(f"{name}{i}", target=slow) for i in range(2)] for name in "AB"]
    log = narrate(load({**kaiser_fight(*sides), "max_rounds": 40}), seed=5)
    assert log.rounds > FIRST_STALL_CHECK  # the check ran
    assert "stalemate" not in [e["kind"] for e in log.events]


def test_can_end_answers_for_parties_from_the_rules_own_chain() -> None:
    """`can_end` explores the fight's own chain (any size): False only when it closes with no way to end; True at
    the first outcome that ends the fight (least healthy states first, so a party that can end is seen at once);
    None past its budgets."""
    from tohit.engine.fight.ending import initial_state
    from tohit.engine.fight.stalemate import can_end

    stuck = load(harmless_party(2))
    reached: list[bytes] = []
    assert can_end(stuck, initial_state(stuck, 1), limit=50_000, reached=reached) is False
    assert len(reached) > 1
    assert can_end(stuck, initial_state(stuck, 1), limit=10) is None
    sides = [[kaiser_combatant(f"{name}{i}") for i in range(3)] for name in "AB"]
    live = load(kaiser_fight(*sides))
    assert can_end(live, initial_state(live, 1), limit=50_000) is True


def test_fight_only_dice_past_the_depth_could_end_is_a_draw_at_once() -> None:
    """Issue 21, item 8, with Kaiser's open rolls on (its default): armour no roll within the depth gets through;
    only open-ended dice past depth 8 could end the duel (`fight --exact` says "stalemate at depth 8"). Narrated
    and simulated at max_rounds 100,000, it ends as a draw at the first stalemate check, saying why."""
    fight = load({**harmless(100_000), "options": {"open_rolls_and_fumbles": True}})
    log = narrate(fight, seed=3)
    assert [e["kind"] for e in log.events][-2:] == ["stalemate", "end"] and log.winner < 0 and log.rounds < 32
    assert "unless open-ended dice go past depth 8" in log.events[-2]["text"]
    stats = simulate_fights(fight, 500, seed=2)
    assert stats.draws == 500 and stats.rounds is not None and stats.rounds.max() < 32


def test_the_stalemate_check_counts_work_never_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27, item 5 ("the clock decides nothing"): the stalemate check's budgets count states and outcome rows,
    so the duel above ends at the same round with the same log however slow the machine. Here the clock jumps an
    hour at every reading (a machine as loaded as can be): narrated and simulated, the same bytes as on the real
    clock, the stalemate said at the first check (round 16), not after the budget ran out several times (it ended
    at round 16 on a quiet machine and at 64 beside three busy loops)."""
    import json
    import time

    data = {**harmless(200), "options": {"open_rolls_and_fumbles": True}}

    def played() -> tuple[str, str]:
        log = narrate(load(data), seed=3)
        stats = simulate_fights(load(data), 200, seed=2)
        return json.dumps(log.events), json.dumps(stats.to_json())

    quiet = played()
    clock = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    assert played() == quiet
    events = json.loads(quiet[0])
    assert events[-2]["kind"] == "stalemate" and events[-1]["rounds"] == FIRST_STALL_CHECK


def test_a_simulation_where_nothing_happens_is_refused_from_its_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, item 8 (64 combatants nobody can end, n=1,000 at 1,000 rounds, ran past 600 s): a batch in which,
    past the first stalemate check (here one that cannot tell), no fight is over and nobody is hurt is estimated
    at the worst and refused over MAX_FIGHT_SECONDS, naming the estimate and the cap. A batch where fights are
    hurt or end is never refused by it, however long its max_rounds."""
    from tohit.core.errors import InputError
    from tohit.engine.fight import run

    monkeypatch.setattr(run, "FIGHT_PROBE_SECONDS", 0.0)
    monkeypatch.setattr(run, "MAX_FIGHT_SECONDS", 1e-9)
    monkeypatch.setattr(run, "FIRST_STALL_CHECK", 2)
    monkeypatch.setattr(run, "never_ending", lambda fight, state, rows, **kw: np.zeros(len(rows), dtype=bool))
    with pytest.raises(InputError, match=r"estimated at [\d,]+ s at the worst, over the cap") as caught:
        simulate_fights(load(harmless(1_000)), 50, seed=1)
    assert caught.value.field == "max_rounds" and "none over and nobody hurt after" in caught.value.message
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")])
    stats = simulate_fights(load({**data, "max_rounds": 100_000}), 300, seed=1)
    assert stats.n == 300 and stats.draws < 300


def test_never_ending_gives_one_kind_per_row() -> None:
    """`never_ending(kinds=...)`: one entry per row, "never", "depth" or "" (several rows; a party whose rows were
    not all calm)."""
    from tohit.engine.fight.ending import initial_state
    from tohit.engine.fight.stalemate import never_ending

    fight = load(harmless(100))
    kinds: list[str] = []
    found = never_ending(fight, initial_state(fight, 3), np.arange(3), kinds=kinds)
    assert found.tolist() == [True] * 3 and kinds == ["never"] * 3
    team = [kaiser_combatant(f"A{i}", target=ARMOUR) for i in range(2)]
    party = load({**kaiser_fight(team, [kaiser_combatant("B", target=ARMOUR)]), "max_rounds": 100})
    state = initial_state(party, 3)
    since = party.rules.health_of(state).copy()
    since[1, 0] += 1  # row 1 was hurt since: not checked
    kinds = []
    found = never_ending(party, state, np.arange(3), since=since, kinds=kinds)
    assert len(kinds) == 3 and kinds[1] == "" and not found[1]


def test_fights_at_more_distinct_healths_than_the_check_takes_are_not_laid_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Health is a column of every state's key: fights at more than `most` distinct healths stand in more than `most`
    distinct states, so the check answers "not a stalemate" for each without copying and laying out their states
    (the first check of a simulated duel); at `most` or fewer healths it lays them out and checks them."""
    from tohit.engine.fight import stalemate
    from tohit.engine.fight.ending import initial_state

    fight = load(harmless(100))
    state = initial_state(fight, 6)
    health = fight.rules.health_of(state)
    health[:, 0] -= np.arange(6)  # six distinct healths, nobody down
    laid_out: list[int] = []
    real = stalemate.Layout

    def counted(fight: object, state: object) -> object:
        laid_out.append(state.n)  # type: ignore[attr-defined]
        return real(fight, state)  # type: ignore[arg-type]

    monkeypatch.setattr(stalemate, "Layout", counted)
    kinds: list[str] = []
    found = stalemate.never_ending(fight, state, np.arange(6), most=5, kinds=kinds)
    assert found.tolist() == [False] * 6 and kinds == [""] * 6 and laid_out == []
    found = stalemate.never_ending(fight, state, np.arange(6), most=6, kinds=kinds)
    assert found.all() and laid_out and laid_out[0] == 6


def test_the_stalemate_check_of_a_big_fight_takes_few_states_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """`can_end` explores at most CHUNK_CELLS // combatants states a step: a step's outcome rows hold every
    combatant's stats, so memory stays flat however many fight (64 combatants took 4.5 GB before)."""
    from tohit.engine.fight import stalemate
    from tohit.engine.fight.ending import initial_state

    sizes: list[int] = []
    real = stalemate.Exact

    def counted(fight: object, state: object, *args: object, **kwargs: object) -> object:
        sizes.append(state.n)  # type: ignore[attr-defined]
        return real(fight, state, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stalemate, "Exact", counted)
    team = [kaiser_combatant(f"A{i}", target=ARMOUR) for i in range(16)]
    foes = [kaiser_combatant(f"B{i}", target=ARMOUR) for i in range(16)]
    fight = load({**kaiser_fight(team, foes), "options": {"open_rolls_and_fumbles": False}})
    stalemate.can_end(fight, initial_state(fight, 1), limit=3_000, max_rows=10**9)
    assert sizes and max(sizes) <= stalemate.CHUNK_CELLS // 32 and len(sizes) > 3


def test_the_simulation_estimate_is_one_error_line_and_exit_2_on_the_cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Bad input is normal input: the refused simulation is one `error:` line naming the file and max_rounds."""
    from tohit.engine.fight import run

    monkeypatch.setattr(run, "FIGHT_PROBE_SECONDS", 0.0)
    monkeypatch.setattr(run, "MAX_FIGHT_SECONDS", 1e-9)
    monkeypatch.setattr(run, "FIRST_STALL_CHECK", 2)
    monkeypatch.setattr(run, "never_ending", lambda fight, state, rows, **kw: np.zeros(len(rows), dtype=bool))
    path = tmp_path / "stuck.yaml"
    path.write_text(yaml.safe_dump(harmless(1_000)))
    result = CliRunner().invoke(app, ["fight", str(path), "-n", "50"])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert lines[0].startswith(f"error: {path}: max_rounds: this simulation is estimated at")
