"""The contract every game passes (issue 14, item 6), run over every registered game and the toy sixth game.

A game is one package registered in the `tohit.systems` entry-point group. Through the registry alone it must:
roll with a trace citing its clauses; give exact odds that sampling agrees with (both samplers); refuse bad
input with an InputError naming the field; fight: narrate, log and replay to the same state, simulate, and
(for a duel) solve exactly what the simulation agrees with. The toy (tests/toy_game) proves that adding a game
touches nothing outside its package.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.contract.conftest import fight_examples, scenario_examples
from tests.test_consistency import chi_square, chi_square_critical
from tohit.cli.fight import write_log
from tohit.core.errors import InputError
from tohit.core.fight.contract import FightRules, rules_for
from tohit.core.fight.readings import label_of, reading_of, unread
from tohit.core.system import AnySystem, System
from tohit.engine.encounter import Encounter
from tohit.engine.fight.exact import exact_duel
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.fight.replay import replay
from tohit.engine.fight.run import narrate, simulate_fights
from tohit.engine.odds import odds
from tohit.engine.roll import roll
from tohit.engine.scenario import from_dict, load
from tohit.engine.simulate import simulate
from tohit.server import read_models

SAMPLES = 60_000
FIGHTS = 6_000


def test_contract_game_has_its_models_rules_and_examples(game: AnySystem) -> None:
    assert isinstance(game, System)
    assert game.scenario_model().model_json_schema()["title"]
    assert isinstance(rules_for(game), FightRules)
    assert scenario_examples(game), f"{game.id}: no bundled scenario"
    assert fight_examples(game), f"{game.id}: no bundled fight"


def test_contract_roll_traces_cite_a_clause_for_every_step(game: AnySystem) -> None:
    for path in scenario_examples(game):
        result = roll(load(path), seed=7)
        steps = result.to_json()["trace"]
        assert steps, path
        assert all(step["clause"] for step in steps), path


@pytest.mark.parametrize("method", ["table", "direct"])
def test_contract_sampled_attacks_agree_with_exact_odds(game: AnySystem, method: str) -> None:
    for path in scenario_examples(game):
        loaded = load(path)
        exact = odds(loaded)
        sim = simulate(loaded, SAMPLES, seed=20261124, method=method)  # type: ignore[arg-type]
        for t_exact, t_sim in zip(exact.targets, sim.targets, strict=True):
            expected = {v: p for v, p in t_exact.distribution("result") if p}
            observed = dict(t_sim.histograms["result"].items(t_sim.outcome))
            stat, dof = chi_square(expected, observed, SAMPLES)  # type: ignore[arg-type]
            assert stat < chi_square_critical(dof), f"{path.name} {t_exact.name}: chi2 {stat:.1f} on {dof} dof"


def test_contract_bad_input_is_an_input_error_naming_the_field(game: AnySystem) -> None:
    data = yaml.safe_load(scenario_examples(game)[0].read_text())
    unknown = copy.deepcopy(data)
    unknown["attacker"]["no_such_field"] = 1
    with pytest.raises(InputError) as err:
        from_dict(unknown, source="contract")
    assert err.value.field is not None and "no_such_field" in err.value.field
    none = {**copy.deepcopy(data), "targets": []}
    with pytest.raises(InputError) as err:
        from_dict(none, source="contract")
    assert err.value.field == "targets"
    fight = yaml.safe_load(fight_examples(game)[0].read_text())
    fight["sides"] = fight["sides"][:1]
    with pytest.raises(InputError) as err:
        fight_from_dict(fight, source="contract")
    assert err.value.field is not None and err.value.field.startswith("sides")


def test_contract_fight_narrates_replays_and_simulates(game: AnySystem, tmp_path: Path) -> None:
    for path in fight_examples(game):
        fight = load_fight(path)
        played = narrate(fight, seed=5)
        assert played.events[0]["kind"] == "start" and played.events[-1]["kind"] == "end"
        log = tmp_path / f"{path.stem}.jsonl"
        write_log(played, log)
        rebuilt = replay(log)
        assert rebuilt.matches, rebuilt.mismatches
        stats = simulate_fights(fight, 500, seed=1)
        assert stats.draws + sum(stats.wins(s) for s in range(len(fight.roster.side_names))) == 500


def test_contract_exact_duel_agrees_with_simulation(game: AnySystem) -> None:
    duels = [p for p in fight_examples(game) if load_fight(p).roster.size == 2]
    if not duels:
        pytest.skip(f"{game.id} bundles no duel")
    fight = load_fight(duels[0])
    exact = exact_duel(fight)
    stats = simulate_fights(fight, FIGHTS, seed=11)
    for side in range(2):
        p = float(exact.wins[side])
        sd = math.sqrt(max(p * (1 - p), 1e-12) / FIGHTS)
        assert abs(stats.wins(side) / FIGHTS - p) <= 5 * sd + float(exact.beyond) + 1e-9, (side, p)


def test_contract_every_stat_a_game_tracks_has_a_reading(game: AnySystem) -> None:
    """Issue 29, "Each game says how its state reads": every per-combatant stat of every bundled fight has a
    reading (a label in the game's words and a kind), its health reads as health, and no label is a state key
    of more than one word (`def_mod`, `ammo_hits`)."""
    rules = rules_for(game)
    assert rules.readings, f"{game.id}: no stat readings"
    health = reading_of(rules.readings, rules.health)
    assert health is not None and health.kind == "health"
    for path in fight_examples(game):
        fight = load_fight(path)
        played = narrate(fight, 1)
        stats = sorted(played.final.per)
        assert unread(rules.readings, stats) == [], f"{path.name}: stats without a reading"
        for stat in stats:
            assert "_" not in label_of(rules.readings, stat), f"{path.name}: {stat} reads as a key"


def test_contract_live_turn_order_is_read_without_dice_and_stats_start_in_range(
    game: AnySystem, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live table's part of the contract (issue 27): `next_actor` names, from the state alone, whose turn the
    game's `step` plays; the game's `end_turn` moves the order on; every stat starts within its declared range
    (`stat_range`; None: the rules keep it), or at the value that reads "not tracked" (a reading's `none`: rtw's
    Magic where the file gives no pool, which a GM's adjust refuses)."""
    for path in fight_examples(game):
        data = yaml.safe_load(path.read_text())
        enc = Encounter.create(data, source=path.name, seed=9)
        for stat, bounds in read_models.ranges(enc).items():
            reading = reading_of(enc.fight.rules.readings, stat)
            untracked = None if reading is None else reading.none
            for value in enc.state_json()["combatants"].values():
                if value[stat] == untracked:
                    continue
                assert bounds is None or bounds[0] <= value[stat] <= bounds[1], (path.name, stat, bounds)
        played = _spy_on_turns(monkeypatch, enc.fight.rules)
        for k in range(40):
            if enc.over:
                break
            named = enc.next_turn()
            assert named in enc.standing(), (path.name, k)
            played.clear()
            enc.act({"kind": "end_turn" if k % 5 == 4 else "auto"})
            if played:
                assert enc.fight.roster.names[played[0]] == named, (path.name, k)
        monkeypatch.undo()


def _spy_on_turns(monkeypatch: pytest.MonkeyPatch, rules: FightRules) -> list[int]:
    """The actors whose turns the game's `turn` plays, recorded as it plays them (the list is cleared by the
    caller)."""
    played: list[int] = []
    turn = type(rules).turn

    def spy(self: Any, ctx: Any, acting: Any, actor: Any, choice: Any = None, **more: Any) -> None:
        if bool(acting[0]):
            played.append(int(actor[0]))
        turn(self, ctx, acting, actor, choice, **more)  # a game's own keywords (Kaiser's `paid`) passed on

    monkeypatch.setattr(type(rules), "turn", spy)
    return played
