"""`tohit replay` on bad logs (issue 21 item 5) and the hash chain that catches any reorder, deletion or edit
(issue 20 item 6): one `error:` line, exit 2, in seconds."""

from __future__ import annotations

import copy
import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine.fight import replay as replay_module
from tohit.engine.fight.replay import chained, event_hash, read_log, replay, unfinished_event

DUEL = str(EXAMPLES / "fights" / "kaiser-duel.yaml")


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("log") / "events.jsonl"
    result = CliRunner().invoke(app, ["fight", DUEL, "--seed", "4", "--log", str(path)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in path.read_text().splitlines()]


def write(tmp_path: Path, events: list[Any], name: str = "events.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in events))
    return path


def refused(path: Path, needle: str) -> str:
    result = CliRunner().invoke(app, ["replay", str(path)])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert needle in lines[0], lines[0]
    return lines[0]


def test_each_logged_event_carries_the_hash_of_the_one_before(logged: list[dict[str, Any]]) -> None:
    """Chain each event to the previous one by a hash: `prev` is the SHA-256 of the event before it."""
    assert logged[0]["prev"] is None
    for before, event in itertools.pairwise(logged):
        assert event["prev"] == event_hash(before)
    unchained = [{k: v for k, v in e.items() if k != "prev"} for e in logged]
    assert list(chained(unchained)) == logged


def test_the_chain_survives_reformatting(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """The hash is of the event's canonical JSON, so a log rewritten with other spacing still replays."""
    path = tmp_path / "spaced.jsonl"
    path.write_text("".join(json.dumps(e, indent=None, separators=(", ", ": ")) + "\n" for e in logged))
    assert replay(path).matches


def test_replay_catches_two_events_swapped(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """`tohit replay` accepts a log with two events swapped ... the docs say that a reordered log is caught."""
    events = copy.deepcopy(logged)
    events[3], events[4] = events[4], events[3]
    refused(write(tmp_path, events), "line 4: the event has a prev that is not the hash of the event before it")


def test_replay_catches_a_narrated_attack_deleted(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """... or a narrated attack deleted."""
    events = copy.deepcopy(logged)
    i = next(k for k, e in enumerate(events) if e["kind"] == "attack" and not e["changes"])
    del events[i]
    refused(write(tmp_path, events), f"line {i + 1}: the event has a prev")


def test_replay_catches_an_edit_with_no_state_change(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """An edit that no `from` check could see (an attack's text) is caught by the chain."""
    events = copy.deepcopy(logged)
    i = next(k for k, e in enumerate(events) if e["kind"] == "attack")
    events[i]["text"] = events[i]["text"].replace("attacks", "strokes")
    refused(write(tmp_path, events), f"line {i + 2}: the event has a prev")


def test_replay_catches_an_inserted_or_trailing_event(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(logged)
    events.append(copy.deepcopy(events[-1]))
    refused(write(tmp_path, events), f"line {len(events)}: an event after the end event")
    events = copy.deepcopy(logged)
    events.insert(2, copy.deepcopy(events[1]))
    refused(write(tmp_path, events), "line 3: the event has a prev")


def test_replay_refuses_a_log_without_the_chain(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    events = [{k: v for k, v in e.items() if k != "prev"} for e in logged]
    refused(write(tmp_path, events), "line 1: the event has no prev")


def test_replay_checks_event_numbers(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    events = copy.deepcopy(logged)
    events[1]["n"] = 7
    events = list(chained([{k: v for k, v in e.items() if k != "prev"} for e in events]))
    refused(write(tmp_path, events), "line 2: event number 7 where 1 was expected")


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda e: e.__setitem__("changes", 1.5), "changes: Input should be a valid list"),
        (lambda e: e["changes"][0].__setitem__("stat", ["lp"]), "changes[0].stat: Input should be a valid string"),
        (lambda e: e["changes"][0].__setitem__("from", True), "changes[0].from: Input should be a valid integer"),
        (lambda e: e["changes"][0].__setitem__("to", "5"), "changes[0].to: Input should be a valid integer"),
        (lambda e: e["changes"][0].__setitem__("to", 10**30), "changes[0].to: Input should be less than"),
        (lambda e: e["changes"][0].pop("who"), "changes[0].who: required field is missing"),
        (lambda e: e.__setitem__("kind", 3), "kind: Input should be a valid string"),
    ],
)
def test_replay_wrong_types_give_one_line(tmp_path: Path, logged: list[dict[str, Any]], edit: Any, needle: str) -> None:
    """`"changes": 1.5` and `"stat": ["lp"]` give TypeError: validate each line against an event model."""
    events = copy.deepcopy(logged)
    i = next(k for k, e in enumerate(events) if e["changes"])
    edit(events[i])
    refused(write(tmp_path, events), f"line {i + 1}: {needle}")


def test_replay_a_bad_start_event_gives_one_line(tmp_path: Path) -> None:
    refused(write(tmp_path, [{"kind": "start", "prev": None, "sides": [1], "state": 5}]), "line 1: sides")
    start = {"kind": "start", "prev": None, "sides": {"A": ["a"]}, "state": {"fight": {}, "combatants": {"b": {}}}}
    refused(write(tmp_path, [start]), "line 1: the sides and the starting state name different combatants")


def test_replay_a_line_nested_too_deep_gives_one_line(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """A line nested too deep gives a JSON RecursionError."""
    deep = '{"kind": "x", "prev": null, "a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    refused(write(tmp_path, [logged[0], deep]), "line 2: is nested more than")


def test_replay_an_integer_past_4300_digits_gives_one_line(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    refused(write(tmp_path, [logged[0], '{"kind": "x", "n": ' + "9" * 5000 + "}"]), "line 2: an integer")


def test_replay_unreadable_logs_give_one_line(tmp_path: Path) -> None:
    """Permission denied, a symlink loop and "not a directory" give tracebacks."""
    loop = tmp_path / "loop.jsonl"
    loop.symlink_to(tmp_path / "loop2.jsonl")
    (tmp_path / "loop2.jsonl").symlink_to(loop)
    refused(loop, "cannot be read (Too many levels of symbolic links)")
    plain = write(tmp_path, ["{}"])
    refused(plain / "x.jsonl", "cannot be read (Not a directory)")
    locked = write(tmp_path, ["{}"], name="locked.jsonl")
    locked.chmod(0)
    if os.geteuid() != 0:  # root reads it anyway
        refused(locked, "cannot be read (Permission denied)")


def test_replay_has_a_size_limit(tmp_path: Path, logged: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    """There is no size limit."""
    path = write(tmp_path, logged)
    monkeypatch.setattr(replay_module, "MAX_LOG_BYTES", 1000)
    with pytest.raises(InputError, match="file is larger than 1,000 bytes"):
        read_log(path)
    monkeypatch.setattr(replay_module, "MAX_LOG_BYTES", 10**8)
    monkeypatch.setattr(replay_module, "MAX_EVENTS", 5)
    with pytest.raises(InputError, match="line 6: more than 5 events"):
        read_log(path)


def test_replay_reads_a_log_cut_mid_fight_and_says_where_it_stands(
    tmp_path: Path, logged: list[dict[str, Any]]
) -> None:
    """An unfinished log (issue 27, item 4): every event up to the last is checked, replay says where the fight
    stands, and exits 0."""
    cut = copy.deepcopy(logged[:12])
    result = CliRunner().invoke(app, ["replay", str(write(tmp_path, cut)), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["finished"] is False and found["matches_recorded_end"] is True
    assert found["standing"].startswith("unfinished: round ") and "(after event 11)" in found["standing"]
    shown = CliRunner().invoke(app, ["replay", str(write(tmp_path, cut))])
    assert shown.exit_code == 0 and "unfinished: round" in shown.output


@pytest.mark.parametrize("tamper", ["reorder", "delete", "edit"])
def test_replay_an_unfinished_log_still_catches_tampering(
    tmp_path: Path, logged: list[dict[str, Any]], tamper: str
) -> None:
    """Cut mid-fight, a log with two events swapped, one deleted or one edited is still refused."""
    cut = copy.deepcopy(logged[:12])
    if tamper == "reorder":
        cut[4], cut[5] = cut[5], cut[4]
    elif tamper == "delete":
        del cut[5]
    else:
        i = next(k for k, e in enumerate(cut) if e["changes"] and k < 11)
        cut[i]["changes"][0]["to"] += 1
    refused(write(tmp_path, cut), "the event")


def test_replay_an_unfinished_log_closed_by_its_state(tmp_path: Path, logged: list[dict[str, Any]]) -> None:
    """A log exported mid-fight from a live encounter closes with an `unfinished` event (where the fight stands,
    its state): replay compares that state, and refuses any event after it."""
    cut = [{k: v for k, v in e.items() if k != "prev"} for e in logged[:12]]
    state = replay(write(tmp_path, list(chained(cut)))).final
    roster = replay(write(tmp_path, list(chained(cut)))).roster
    closed = [*cut, unfinished_event(12, 2, "Ceil", state.row(roster))]
    rebuilt = replay(write(tmp_path, list(chained(closed))))
    assert rebuilt.matches and not rebuilt.finished and rebuilt.standing == "unfinished: round 2, Ceil's turn"
    wrong = copy.deepcopy(closed)
    name = roster.names[0]
    wrong[-1]["state"]["combatants"][name]["lp"] += 1
    result = CliRunner().invoke(app, ["replay", str(write(tmp_path, list(chained(wrong))))])
    assert result.exit_code == 1 and "differs" in result.output
    after = [*closed, {"kind": "attack", "text": "x", "changes": [], "n": 13}]
    refused(write(tmp_path, list(chained(after))), "line 14: an event after the log's closing `unfinished` event")
