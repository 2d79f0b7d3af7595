"""Replaying an event log: the state rebuilt from the events alone, checked against the recorded end.

The log is JSON lines, one event each (`tohit fight FILE --log events.jsonl`). The first event, `start`,
holds the sides and the starting state; every later event lists its changes as (who, stat, from, to);
the last, `end`, holds the final state. Replaying applies the changes in order with the same pure
`apply` a fight uses, checking each `from` against the rebuilt state, so an edited, reordered or
truncated log is caught; the state after any event can be shown (inspection and undo).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tohit.core.errors import InputError, short_repr
from tohit.engine.fight.state import Event, Roster, State, apply, change


@dataclass
class Replay:
    """A rebuilt fight: its roster, the events, the state after event `until` and at the end."""

    roster: Roster
    events: list[dict[str, Any]]
    until: int
    state_at: State
    final: State
    recorded_end: dict[str, Any] | None
    matches: bool
    mismatches: list[str]


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The events of a JSON-lines log; any problem is one InputError naming the file and line."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", source=source) from None
    except IsADirectoryError:
        raise InputError("is a directory, not an event log", source=source) from None
    except UnicodeDecodeError:
        raise InputError("is not UTF-8 text", source=source) from None
    events = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {i}: not valid JSON ({exc.msg})", source=source) from None
        if not isinstance(event, dict) or "kind" not in event:
            raise InputError(f"line {i}: an event is a JSON object with a kind", source=source)
        event["_line"] = i
        events.append(event)
    if not events or events[0]["kind"] != "start":
        raise InputError("line 1: the log must begin with the fight's start event", source=source)
    return events


def replay(path: str | Path, until: int | None = None) -> Replay:
    """Rebuild the state from the log at `path`; the state after event number `until` (default: the end)."""
    source = str(path)
    events = read_log(path)
    start = events[0]
    try:
        sides: dict[str, list[str]] = start["sides"]
        names = [n for members in sides.values() for n in members]
        order = list(start["state"]["combatants"])
        side_of = {n: i for i, members in enumerate(sides.values()) for n in members}
        roster = Roster(tuple(order), tuple(side_of[n] for n in order), tuple(sides))
        state = State.from_row(roster, start["state"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise InputError("line 1: the start event lacks its sides or starting state", source=source) from None
    if sorted(names) != sorted(order):
        raise InputError("line 1: the sides and the starting state name different combatants", source=source)
    last = len(events) - 1
    if until is not None and not 0 <= until <= last:
        raise InputError(f"there are events 0 to {last}; got {until}", field="--until", source=source)
    target = last if until is None else until
    state_at = state
    for n, event in enumerate(events[1:], start=1):
        state = _apply_checked(state, roster, event, source)
        if n == target:
            state_at = state
    recorded = events[-1].get("state") if events[-1]["kind"] == "end" else None
    mismatches = _compare(roster, state, recorded) if recorded is not None else ["the log has no end event"]
    return Replay(roster, events, target, state_at, state, recorded, not mismatches, mismatches)


def _apply_checked(state: State, roster: Roster, event: dict[str, Any], source: str) -> State:
    line = event.get("_line")
    changes = []
    for ch in event.get("changes", []):
        try:
            who, stat, before, after = ch["who"], ch["stat"], int(ch["from"]), int(ch["to"])
        except (KeyError, TypeError, ValueError):
            raise InputError(f"line {line}: a change needs who, stat, from and to", source=source) from None
        if who is None:
            if stat not in state.fight:
                raise InputError(f"line {line}: unknown fight value {short_repr(stat)}", source=source)
            current = int(state.fight[stat][0])
            c = None
        else:
            if who not in roster.names or stat not in state.per:
                raise InputError(f"line {line}: unknown combatant or stat {short_repr(who)}.{stat}", source=source)
            c = roster.index(who)
            current = int(state.per[stat][0, c])
        if current != before:
            label = stat if who is None else f"{who}.{stat}"
            raise InputError(
                f"line {line}: {label} is {current} after the events before it, but the event changes it from"
                f" {before}: the log was edited or is out of order",
                source=source,
            )
        changes.append(change(stat, [0], after, None if c is None else [c]))
        # Changes within one event apply in order: a later one sees the earlier ones.
        state = apply(state, [Event(event["kind"], (changes[-1],))])
    return state


def _compare(roster: Roster, state: State, recorded: dict[str, Any]) -> list[str]:
    try:
        expected = State.from_row(roster, recorded)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ["the recorded end state cannot be read"]
    out = []
    for k, v in expected.fight.items():
        got = state.fight.get(k)
        if got is None or int(got[0]) != int(v[0]):
            out.append(f"{k}: rebuilt {None if got is None else int(got[0])}, recorded {int(v[0])}")
    for k, v in expected.per.items():
        got_per = state.per.get(k)
        for c, name in enumerate(roster.names):
            g = None if got_per is None else int(got_per[0, c])
            if g != int(v[0, c]):
                out.append(f"{name}.{k}: rebuilt {g}, recorded {int(v[0, c])}")
    return out


def state_rows(roster: Roster, state: State) -> list[dict[str, Any]]:
    """Each combatant's stats as a dict (for display)."""
    return [
        {"name": name, "side": roster.side_names[roster.side[c]], **{k: int(v[0, c]) for k, v in state.per.items()}}
        for c, name in enumerate(roster.names)
    ]
