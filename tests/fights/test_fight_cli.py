"""`tohit fight` (narrated, -n, --exact, --log) and `tohit replay` (rebuild, check, --until)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.fights.helpers import kaiser_combatant, kaiser_fight
from tohit.cli.app import app

DUEL = str(EXAMPLES / "fights" / "kaiser-duel.yaml")


class Ran:
    """A CLI run, its output with the terminal's line wrapping undone."""

    def __init__(self, args: list[str]) -> None:
        result = CliRunner().invoke(app, args)
        self.exit_code = result.exit_code
        self.raw = result.output
        self.output = result.output if args[-1] == "--json" else " ".join(result.output.split())


def invoke(*args: str) -> Ran:
    return Ran(list(args))


def test_fight_cli_narrates_round_by_round_with_each_rolls_trace() -> None:
    result = invoke("fight", DUEL, "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.output and "Round 2" in result.output
    assert "Offensive Roll: 2d6 (" in result.output and "[kaiser: Attacking and Defending" in result.output
    assert "Ceil wins after " in result.output or "Bandits win after " in result.output


def test_fight_cli_monte_carlo_json() -> None:
    result = invoke("fight", DUEL, "-n", "3000", "--seed", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.raw)
    assert data["n"] == 3000 and data["seed"] == 1
    assert abs(sum(s["p"] for s in data["sides"]) + data["draws"]["p"] - 1) < 1e-12
    assert {"mean", "sd", "percentiles"} <= set(data["rounds"])


def test_fight_cli_monte_carlo_table() -> None:
    result = invoke("fight", DUEL, "-n", "2000", "--seed", "1")
    assert result.exit_code == 0 and "95% CI" in result.output and "damage dealt" in result.output


def test_fight_cli_exact_json(tmp_path: Path) -> None:
    data = kaiser_fight([kaiser_combatant("A", target={"lp": 14})], [kaiser_combatant("B", target={"lp": 14})])
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump({**data, "options": {"open_rolls_and_fumbles": False}}))
    result = invoke("fight", str(path), "--exact", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.raw)
    assert "/" in out["sides"][0]["p"]["fraction"]
    assert out["expected_rounds"]["float"] > 1


def test_fight_cli_log_and_replay(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    result = invoke("fight", DUEL, "--seed", "4", "--log", str(log))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[0]["kind"] == "start" and events[-1]["kind"] == "end"
    assert [e["n"] for e in events] == list(range(len(events)))
    result = invoke("replay", str(log), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.raw)["matches_recorded_end"] is True
    # --until N: the state after event N (here the first damage, if any).
    hit = next(e for e in events if e["kind"] == "damage")
    result = invoke("replay", str(log), "--until", str(hit["n"]), "--json")
    state = json.loads(result.raw)["state"]
    change = hit["changes"][0]
    assert state["combatants"][change["who"]][change["stat"]] == change["to"]
    before = invoke("replay", str(log), "--until", str(hit["n"] - 1), "--json")
    assert json.loads(before.raw)["state"]["combatants"][change["who"]][change["stat"]] == change["from"]


def test_fight_cli_replay_catches_an_edited_log(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    invoke("fight", DUEL, "--seed", "4", "--log", str(log))
    events = [json.loads(line) for line in log.read_text().splitlines()]
    hit = next(e for e in events if e["kind"] == "damage")
    hit["changes"][0]["to"] += 1  # an edited change: the next event touching that stat no longer fits
    log.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    result = invoke("replay", str(log))
    assert result.exit_code in (1, 2)
    assert "edited" in result.output or "differs" in result.output
    # An edited end state is reported as a mismatch (exit 1).
    events = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    invoke("fight", DUEL, "--seed", "4", "--log", str(log))
    events = [json.loads(line) for line in log.read_text().splitlines()]
    first = next(iter(events[-1]["state"]["combatants"]))
    events[-1]["state"]["combatants"][first]["lp"] += 5
    log.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    result = invoke("replay", str(log))
    assert result.exit_code == 1 and "differs" in result.output


def test_fight_cli_replay_bad_logs_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"kind": "start"\n')
    result = invoke("replay", str(log))
    assert result.exit_code == 2 and "line 1" in result.output
    result = invoke("replay", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2 and "no such file" in result.output
    log.write_text(json.dumps({"kind": "attack"}) + "\n")
    result = invoke("replay", str(log))
    assert result.exit_code == 2 and "start event" in result.output


def test_fight_cli_exact_honours_the_fight_files_options_depth(tmp_path: Path) -> None:
    """issue 15: "`tohit fight --exact` honours the fight file's `options.depth`" (kaiser decisions 6: "Exact odds
    with open rolls are computed to a stated depth of re-rolls; the probability left beyond that depth is
    reported"). Depth 1 leaves more beyond than the default 8, and equals the chain at depth 1."""
    from fractions import Fraction

    from tests.fights.helpers import load
    from tohit.engine.fight.exact import exact_duel

    data = kaiser_fight([kaiser_combatant("A", target={"lp": 14})], [kaiser_combatant("B", target={"lp": 14})])
    shallow = {**data, "options": {**data["options"], "depth": 1}}
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(shallow))
    result = invoke("fight", str(path), "--exact", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.raw)
    assert out["depth"] == 1
    at_one = exact_duel(load(shallow))
    given = exact_duel(load(data), depth=1)
    assert at_one.depth == 1
    assert (at_one.wins, at_one.draw, at_one.beyond, at_one.expected_rounds) == (
        given.wins,
        given.draw,
        given.beyond,
        given.expected_rounds,
    )
    assert Fraction(out["beyond_depth"]["fraction"]) == at_one.beyond
    default = exact_duel(load(data))
    assert default.depth == 8
    assert at_one.beyond > default.beyond > 0
    assert sum(at_one.wins) + at_one.draw + at_one.beyond == 1
    text = invoke("fight", str(path), "--exact")
    assert text.exit_code == 0 and "beyond depth 1 of open rolls" in text.output
