"""Every fight answers or refuses in bounded time and memory (issue 27, item 6): a narrated fight gets the
estimate at the worst that simulations get, counted in rounds (never seconds), and no command holds a whole fight's
events in memory to print them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight import run
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import MAX_NARRATED_WORK, NARRATED_PROBE_WORK, narrate

DEEP = {"armor": {"cut": 60}}


def deep_party(max_rounds: int = 100_000) -> dict[str, Any]:
    """The issue's repro: a Kaiser 3-v-3 only very deep open rolls could end (armour 60, open rolls); narrated at
    max_rounds 100,000 it ran past 7 minutes and 5 GB."""
    sides = [[kaiser_combatant(f"{name}{i}", target=DEEP) for i in range(3)] for name in "AB"]
    return {**kaiser_fight(*sides), "options": {"open_rolls_and_fumbles": True}, "max_rounds": max_rounds}


def test_a_narrated_fight_past_the_cap_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repro, through the CLI: one `error:` line naming the file, max_rounds, the estimate and the cap, and how
    to lower the work; exit 2. As JSON and with a log (whole or nothing) that line is all, and no log is written;
    narrated to the screen, the events played so far were shown as they came (issue 20: a long fight shows at
    once), and the line ends it. The round it is refused at is counted work (NARRATED_PROBE_WORK combatant-rounds),
    the same on any machine. Here with a probe of 120 combatant-rounds (round 20), which changes when, not how: at
    the real probe's 2,000 each of the three is seconds of narration."""
    path = tmp_path / "deep.yaml"
    path.write_text(yaml.safe_dump(deep_party()))
    log = tmp_path / "deep.jsonl"
    monkeypatch.setattr(run, "NARRATED_PROBE_WORK", 120)
    at = 20
    for extra in (["--json"], ["--log", str(log)], []):
        result = CliRunner().invoke(app, ["fight", str(path), "--seed", "1", *extra])
        lines = result.output.strip().splitlines()
        assert result.exit_code == 2 and (len(lines) == 1 or not extra), result.output[-2000:]
        assert lines[-1].startswith(f"error: {path}: max_rounds: this narrated fight is still on at round {at:,}")
        assert (
            f"600,000 combatant-rounds (6 combatants) at the worst, over the cap of {MAX_NARRATED_WORK:,}" in lines[-1]
        )
        assert lines[-1].endswith("lower max_rounds, or simulate it with -n")
    assert f"Round {at - 1}" in result.output and f"Round {at + 1}" not in result.output
    assert not log.exists() and list(tmp_path.iterdir()) == [path]


def test_a_narrated_fight_within_the_cap_is_never_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """max_rounds x combatants at most MAX_NARRATED_WORK: the fight plays to its end (here a draw at max_rounds,
    past the round a fight over the cap is refused at). At the cap itself, with a cap of 600 combatant-rounds and a
    probe of 120 (the real ones are 40,000 and 2,000: at their scale this is minutes of narration): 100 rounds of
    6 play whole, 101 are refused at round 20."""
    assert NARRATED_PROBE_WORK < MAX_NARRATED_WORK
    monkeypatch.setattr(run, "MAX_NARRATED_WORK", 600)
    monkeypatch.setattr(run, "NARRATED_PROBE_WORK", 120)
    rounds = 600 // 6
    played = narrate(load(deep_party(rounds)), seed=1, keep=False)
    assert played.events[-1]["kind"] == "end" and played.rounds == rounds > 120 // 6
    with pytest.raises(InputError, match="still on at round 20 and may play to max_rounds 101:"):
        narrate(load(deep_party(rounds + 1)), seed=1, keep=False)


def test_a_fight_over_the_cap_that_ends_in_time_is_played_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight that could pass the cap but ends before the probe is played whole, each event handed over as it
    happens; one still on at the probe is refused, naming max_rounds."""
    data = kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")], max_rounds=100_000)
    seen: list[dict[str, Any]] = []
    played = narrate(load(data), seed=4, on_event=seen.append)
    assert played.events[-1]["kind"] == "end" and seen == played.events
    monkeypatch.setattr(run, "NARRATED_PROBE_WORK", 2)
    monkeypatch.setattr(run, "FIRST_STALL_CHECK", 1)
    with pytest.raises(InputError, match="still on at round 2 ") as caught:
        narrate(load(data), seed=4)
    assert caught.value.field == "max_rounds" and caught.value.source == "fight.yaml"


def test_the_json_narration_is_streamed_and_the_same_bytes(tmp_path: Path) -> None:
    """`--json` and `--log` spool the events to a temporary file as they are made and print from it: the same
    bytes as the whole list dumped at once, and the log the same events."""
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")])))
    log = tmp_path / "duel.jsonl"
    result = CliRunner().invoke(app, ["fight", str(path), "--seed", "5", "--json", "--log", str(log)])
    assert result.exit_code == 0, result.output
    played = narrate(load_fight(path), seed=5)
    whole = {"seed": 5, "winner": played.winner_name, "rounds": played.rounds, "events": played.events}
    assert result.output == json.dumps(whole, indent=2) + "\n"
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert [{k: v for k, v in e.items() if k != "prev"} for e in logged] == json.loads(json.dumps(played.events))


@pytest.mark.parametrize("n", [0, -3, 2.5, True])
def test_simulate_fights_refuses_a_count_that_is_not_a_whole_number_from_1(n: Any) -> None:
    """`simulate_fights` (the engine's call, under `tohit.fight(n=...)`, which checks `n` itself): a count of no fights,
    a negative one or a fraction is one InputError naming `n`, not numpy's "need at least one array to
    concatenate"."""
    loaded = load(kaiser_fight([kaiser_combatant("A")], [kaiser_combatant("B")]))
    with pytest.raises(InputError) as raised:
        run.simulate_fights(loaded, n, seed=1)
    assert raised.value.field == "n" and "whole number from 1" in str(raised.value)
