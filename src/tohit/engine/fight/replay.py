"""Replaying an event log: the state rebuilt from the events alone, checked against the recorded end.

The log is JSON lines, one event each (`tohit fight FILE --log events.jsonl`). The first event, `start`,
holds the sides and the starting state; every later event lists its changes as (who, stat, from, to);
the last, `end`, holds the final state. A log exported from a live encounter mid-fight has no end: it may close
with an `unfinished` event (the state then, and whose turn it is), and replay checks every event up to the last
and says where the fight stands. Each event also carries `prev`, the SHA-256 of the event before it
(`event_hash`: its canonical JSON, `prev` included; null on the first), so the events form a chain.

Replaying checks every line against the event model (`LoggedEvent`), the chain and the event numbers, then
applies the changes in order (each sets `stat` to `to`, as `state.apply` does), checking each `from`
against the rebuilt state. So any edited, reordered, removed or inserted event is caught with its line;
an edit of the last event's own content is caught by the recorded end state. The state after any event
can be shown (inspection and undo). A log is read only if it is a regular file of at most
`MAX_LOG_BYTES`, with at most `MAX_EVENTS` events.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tohit.core.errors import InputError, short_repr
from tohit.core.fight.gm_words import written
from tohit.core.fight.state import Roster, State
from tohit.core.loader import parse_json, read_text, validation_error

#: Largest event log read. Measured on the 2-vCPU machine: a narrated duel writes about 530 bytes an
#: event, and replay checks about 18,000 such events a second (a 21 MB log of 40,000 events: 2.2 s, 130 MB),
#: so a log at the cap (about 120,000 events) replays in about 7 s and 400 MB.
MAX_LOG_BYTES = 64_000_000
#: Most events in one log (short events: the cap on bytes alone would let through more).
MAX_EVENTS = 1_000_000

Int64 = Annotated[int, Field(strict=True, ge=-(2**63), le=2**63 - 1)]
Name = Annotated[str, Field(strict=True, max_length=200)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class LoggedChange(_Strict):
    """One change of an event: `who` (a combatant, or null for a fight-level value) has `stat` go from `from`
    to `to`."""

    who: Name | None
    stat: Name
    from_: Int64 = Field(alias="from")
    to: Int64


class LoggedState(_Strict):
    """A state as the start and end events record it: fight-level values, then each combatant's stats."""

    fight: dict[Name, Int64]
    combatants: dict[Name, dict[Name, Int64]]


class LoggedEvent(BaseModel):
    """One line of an event log. Events carry more (text, dice, trace, ...): kept, not checked here."""

    model_config = ConfigDict(extra="allow", strict=True)

    kind: Name
    n: Annotated[int, Field(strict=True, ge=0)] | None = None
    changes: list[LoggedChange] = []
    prev: Annotated[str, Field(strict=True, pattern="^[0-9a-f]{64}$")] | None
    sides: dict[Name, list[Name]] | None = None
    state: LoggedState | None = None


_KEPT = ("kind", "text", "n", "changes", "sides", "state", "winner", "rounds", "seed", "system", "source", "turn")
#: The kind of the event that closes a log exported mid-fight (`unfinished_event`).
UNFINISHED = "unfinished"


def event_hash(event: dict[str, Any]) -> str:
    """SHA-256 of an event's canonical JSON (sorted keys, no spaces): the `prev` of the event after it."""
    text = json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chained(events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The events as a log writes them: each with `prev`, the hash of the one before (null on the first)."""
    prev: str | None = None
    for event in events:
        linked = {**event, "prev": prev}
        prev = event_hash(linked)
        yield linked


def unfinished_event(n: int, round_: int | None, turn: str | None, state: dict[str, Any]) -> dict[str, Any]:
    """The event that closes a log exported before the fight's end (numbered n): where the fight stands (its
    round, whose turn it is) and its state then, which replay checks as it checks an end's."""
    event: dict[str, Any] = {"kind": UNFINISHED, "text": "", "turn": turn, "state": state, "changes": [], "n": n}
    return written(event | ({} if round_ is None else {"round": round_}), {})


@dataclass
class Replay:
    """A rebuilt fight: its roster, the events, the state after event `until` and at the end. `finished`: the log
    ends with the fight's end event; else `standing` says where the fight stands ("unfinished: round 3, Ceil's
    turn") and `matches` is whether every event checked (and a closing `unfinished` state, where there is one)."""

    roster: Roster
    events: list[dict[str, Any]]
    until: int
    state_at: State
    final: State
    recorded_end: dict[str, Any] | None
    matches: bool
    mismatches: list[str]
    finished: bool = True
    standing: str | None = None


#: The mark of a players' export (the view token's `events.jsonl`: docs/players.md), on its start event.
PLAYERS = "players"
PLAYERS_EXPORT = (
    "this is the players' export (read with the view token): it leaves out what the GM hides, so it is no log to"
    " replay; replay the GM's export (GET .../events.jsonl with the GM token)"
)


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The events of a JSON-lines log, each checked against `LoggedEvent`, the hash chain and its number;
    any problem is one InputError naming the file and line."""
    source = str(path)
    text = read_text(path, cap=MAX_LOG_BYTES, what="an event log")
    events: list[dict[str, Any]] = []
    prev: str | None = None
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"line {i}: "
        event = parse_json(line, source=source, where=where, shape=False)
        if not isinstance(event, dict) or "kind" not in event:
            raise InputError(f"{where}an event is a JSON object with a kind", source=source)
        if not events and event["kind"] != "start":
            raise InputError(f"{where}the log must begin with the fight's start event", source=source)
        if not events and event.get("told_to") == PLAYERS:
            raise InputError(f"{where}{PLAYERS_EXPORT}", source=source)
        if len(events) >= MAX_EVENTS:
            raise InputError(f"{where}more than {MAX_EVENTS:,} events (the cap)", source=source)
        if "prev" not in event:
            raise InputError(
                f"{where}the event has no prev (the hash of the event before it, which `tohit fight --log` writes)",
                source=source,
            )
        try:
            checked = LoggedEvent.model_validate(event)
        except ValidationError as exc:
            error = validation_error(exc, source=source)
            field = f"{error.field}: " if error.field else ""
            raise InputError(f"{where}{field}{error.message}", source=source) from None
        number = len(events)
        if events and events[-1]["kind"] == UNFINISHED:
            raise InputError(
                f"{where}an event after the log's closing `unfinished` event: the log was edited", source=source
            )
        if events and events[-1]["kind"] == "end" and event["kind"] != "undo":
            # A live encounter's log goes on past an end only where the game master takes the end back (an undo,
            # whose changes are checked as any event's are).
            raise InputError(f"{where}an event after the end event: the log was edited", source=source)
        if checked.prev != prev:
            what = (
                "has a null prev" if checked.prev is None else "has a prev that is not the hash of the event before it"
            )
            if prev is None:
                what = "is the first, so its prev must be null"
            raise InputError(
                f"{where}the event {what}: the log was edited, reordered or has events removed or inserted"
                " (each event carries the SHA-256 of the one before it)",
                source=source,
            )
        if checked.n is not None and checked.n != number:
            raise InputError(
                f"{where}event number {checked.n} where {number} was expected: the log was edited", source=source
            )
        try:
            prev = event_hash(event)
        except (RecursionError, ValueError):
            raise InputError(f"{where}the event is nested too deeply to hash", source=source) from None
        # Kept: what replay and its views read (a trace or dice are checked by the chain, then dropped).
        kept = {k: event[k] for k in _KEPT if k in event}
        kept["_line"] = i
        events.append(kept)
    if not events:
        raise InputError("line 1: the log must begin with the fight's start event", source=source)
    return events


def replay(path: str | Path, until: int | None = None) -> Replay:
    """Rebuild the state from the log at `path`; the state after event number `until` (default: the end)."""
    source = str(path)
    events = read_log(path)
    start = events[0]
    where = "line 1: "
    sides = start.get("sides")
    row = start.get("state")
    if not isinstance(sides, dict) or not isinstance(row, dict):
        raise InputError(f"{where}the start event lacks its sides or starting state", source=source)
    names = [n for members in sides.values() for n in members]
    order = list(row["combatants"])
    if sorted(names) != sorted(order) or len(set(names)) != len(names):
        raise InputError(f"{where}the sides and the starting state name different combatants", source=source)
    side_of = {n: i for i, members in enumerate(sides.values()) for n in members}
    roster = Roster(tuple(order), tuple(side_of[n] for n in order), tuple(sides))
    stats = _stats(roster, row, where, source)
    fight: dict[str, int] = dict(row["fight"])
    if not fight:
        raise InputError(f"{where}the starting state has no fight-level values", source=source)
    per: dict[str, list[int]] = {k: [row["combatants"][name][k] for name in roster.names] for k in stats}
    last = len(events) - 1
    if until is not None and not 0 <= until <= last:
        raise InputError(f"there are events 0 to {last}; got {until}", field="--until", source=source)
    target = last if until is None else until
    state_at, roster_at = _state(per, fight), roster
    index = {name: c for c, name in enumerate(roster.names)}
    for n, event in enumerate(events[1:], start=1):
        if event.get("sides") is not None:  # a combatant joined or left: the roster and state it leaves
            roster, per, fight = _roster_change(event, source)
            index = {name: c for c, name in enumerate(roster.names)}
        _apply_checked(fight, per, index, event, source)
        if n == target:
            state_at, roster_at = _state(per, fight), roster
    final = _state(per, fight)
    closing = events[-1]["kind"]
    if closing not in ("end", UNFINISHED):  # a log cut mid-fight: every event checked, and where it stands
        rounds = fight.get("round")
        standing = "unfinished" + (f": round {rounds:,}" if rounds is not None else "") + f" (after event {last})"
        return Replay(roster_at, events, target, state_at, final, None, True, [], False, standing)
    recorded = events[-1].get("state")
    if not isinstance(recorded, dict):
        raise InputError(f"line {events[-1]['_line']}: the {closing} event lacks its state", source=source)
    mismatches = _compare(roster, final, recorded)  # the roster at the end
    if closing == "end":
        return Replay(roster_at, events, target, state_at, final, recorded, not mismatches, mismatches)
    text = str(events[-1].get("text") or "unfinished")
    return Replay(roster_at, events, target, state_at, final, recorded, not mismatches, mismatches, False, text)


def _roster_change(event: dict[str, Any], source: str) -> tuple[Roster, dict[str, list[int]], dict[str, int]]:
    """The roster and values a `join` or `leave` event (or the undo of one) leaves: its sides and whole state."""
    where = f"line {event['_line']}: "
    sides, row = event.get("sides"), event.get("state")
    if not isinstance(sides, dict) or not isinstance(row, dict):
        raise InputError(f"{where}a change of the roster holds its sides and state", source=source)
    names = [n for members in sides.values() for n in members]
    if sorted(names) != sorted(row["combatants"]) or len(set(names)) != len(names):
        raise InputError(f"{where}the sides and the state name different combatants", source=source)
    side_of = {n: i for i, members in enumerate(sides.values()) for n in members}
    roster = Roster(tuple(names), tuple(side_of[n] for n in names), tuple(sides))
    stats = _stats(roster, row, where, source)
    return roster, {k: [row["combatants"][n][k] for n in names] for k in stats}, dict(row["fight"])


def _stats(roster: Roster, row: dict[str, Any], where: str, source: str) -> list[str]:
    """The combatants' stat names (the same for each), from a start or end state."""
    combatants = row["combatants"]
    stats = list(combatants[roster.names[0]]) if roster.names else []
    for name in roster.names:
        if sorted(combatants[name]) != sorted(stats):
            raise InputError(f"{where}the combatants in the state have different stats", source=source)
    return stats


def _state(per: dict[str, list[int]], fight: dict[str, int]) -> State:
    import numpy as np

    return State(
        {k: np.asarray([v], dtype=np.int64) for k, v in per.items()},
        {k: np.asarray([v], dtype=np.int64) for k, v in fight.items()},
    )


def _apply_checked(
    fight: dict[str, int], per: dict[str, list[int]], index: dict[str, int], event: dict[str, Any], source: str
) -> None:
    """Apply an event's changes in order (a later one sees the earlier ones), checking each `from`."""
    apply_changes(fight, per, index, event, f"line {event['_line']}", source)


def apply_changes(
    fight: dict[str, int],
    per: dict[str, list[int]],
    index: dict[str, int],
    event: dict[str, Any],
    line: str,
    source: str,
) -> None:
    """Fold one event's changes into plain values (fight-level values, per-stat lists by combatant index), in
    order, checking that each change starts `from` the value there: what replay and a live encounter's store
    both do with a logged event (`line` says where it is, for the error)."""
    for ch in event.get("changes", []):
        who, stat, before, after = ch["who"], ch["stat"], ch["from"], ch["to"]
        if who is None:
            if stat not in fight:
                raise InputError(f"{line}: unknown fight value {short_repr(stat)}", source=source)
            current = fight[stat]
        else:
            if who not in index or stat not in per:
                raise InputError(
                    f"{line}: unknown combatant or stat {short_repr(who)}.{short_repr(stat)}", source=source
                )
            current = per[stat][index[who]]
        if current != before:
            label = stat if who is None else f"{who}.{stat}"
            raise InputError(
                f"{line}: {label} is {current} after the events before it, but the event changes it from"
                f" {before}: the log was edited or is out of order",
                source=source,
            )
        if who is None:
            fight[stat] = after
        else:
            per[stat][index[who]] = after


def _compare(roster: Roster, state: State, recorded: dict[str, Any]) -> list[str]:
    try:
        expected = State.from_row(roster, recorded)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
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
