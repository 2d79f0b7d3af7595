"""An encounter's writes: one action played on a fork of the encounter held in memory and appended in one
transaction; the store's own check of the seq decides between writers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tohit.engine.actions import AnyAction
from tohit.engine.encounter import Encounter
from tohit.server.cache import Lru
from tohit.server.errors import ApiError
from tohit.server.player_links import gate, marked
from tohit.server.players_view import PlayersView
from tohit.server.security import for_view
from tohit.store.db import StaleSeq, Store, StoredEncounter

#: How many times an action that names no `expected_seq` is played when other processes keep writing first:
#: each try reads the encounter afresh, and some writer lands every time, so only a
#: crowd of that many writers on one encounter could beat one action every time.
WRITE_ATTEMPTS = 50


@dataclass
class Writer:
    """The writes of one server: its encounters in memory, its store, and how a row is read and rebuilt."""

    cache: Lru[str, Encounter]
    store: Callable[[], Store]
    #: The encounter rebuilt from the store's events, and kept in memory.
    fresh: Callable[[StoredEncounter], Encounter]
    #: The encounter's row (a 404 when it is gone).
    stored: Callable[[str], StoredEncounter]

    def applied(
        self, row: StoredEncounter, action: AnyAction, expected: int | None, by: str | None = None
    ) -> dict[str, Any]:
        """One action: played on a fork of the encounter held in memory, its events appended in one transaction
        (which checks, inside it, that the store is still at the seq the fork started from), and the answer (the
        seq and state this action left). Run in a worker thread under the encounter's lock.

        The encounter in memory is not re-read before the write: the append's own check decides. Where another
        process wrote first, the action is played again on the encounter read afresh, up to WRITE_ATTEMPTS
        times in all (when the GM named the seq it acts on: a 409 at once). A refused action (bad input) or a
        failed append leaves the encounter in memory as it was. `by`: the combatant whose player plays it (checked
        against the encounter it is played on: server/player_links.py `gate`), None for the GM."""
        enc = self.cache.get(row.id)
        if enc is None or (expected is not None and expected != enc.seq):
            enc = self.fresh(row)
        for attempt in range(1, WRITE_ATTEMPTS + 1):
            try:
                return self.played(row, enc, action, expected, by)
            except StaleSeq as exc:
                if exc.current < 0:
                    self.stored(row.id)  # no events: deleted by another process (a 404)
                if expected is not None or attempt == WRITE_ATTEMPTS:
                    tries = "" if expected is not None else f" ({WRITE_ATTEMPTS} tries, each beaten by another writer)"
                    raise ApiError(409, f"{exc}{tries}", "expected_seq", seq=exc.current) from None
            enc = self.fresh(self.stored(row.id))
        raise AssertionError("unreachable")  # pragma: no cover

    def played(
        self, row: StoredEncounter, enc: Encounter, action: AnyAction, expected: int | None, by: str | None = None
    ) -> dict[str, Any]:
        """`action` played on a fork of `enc` and appended at enc's seq; the fork is kept once it is stored."""
        before = enc.seq
        if expected is not None and expected != before:
            raise ApiError(409, f"the encounter is at seq {before}, not {expected}", "expected_seq", seq=before)
        if by is not None:
            gate(enc, by, action)
        after = enc.fork()
        events = marked(after.act(action), by, after.fight.rules)
        try:
            self.store().append(row.id, before, events)
        except BaseException:
            self.cache.pop(row.id, None)  # the store may have moved on, or not answered: read it afresh next time
            raise
        self.cache[row.id] = after
        out = {
            "seq": after.seq,
            "events": events,
            "trace": [step for e in events for step in e.get("trace", [])],
            "state": after.state_json(),
        }
        if action.kind == "attack":
            out["out_of_turn"] = not after.in_turn
        return out if by is None else told_to_player(after, by, out, getattr(action, "dice", None))


def told_to_player(enc: Encounter, player: str, out: dict[str, Any], typed: Any = None) -> dict[str, Any]:
    """A player's action answered as that player reads the encounter (docs/players.md, "A link per player"): its
    events in their words (each marked as their player's), their trace, and the state with every hidden number a
    health word, as their stream and their GET tell it: never the GM's numbers of a foe the GM keeps. The dice the
    player typed stay on their attack (their own faces; a foe's roll is not told)."""
    view = PlayersView(enc, own=(player,))
    events = []
    for event in out["events"]:
        told = view.event(event)
        if told is None:
            continue
        if typed and isinstance(event.get("dice"), dict) and "dice" not in told:
            told["dice"] = {role: faces for role, faces in event["dice"].items() if role in typed}
        events.append({**told, "player": player})
    events = for_view(events)
    trace = [step for e in events for step in e.get("trace", [])]
    return {**out, "events": events, "trace": trace, "state": view.row(out["state"])}
