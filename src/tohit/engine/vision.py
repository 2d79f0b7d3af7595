"""The party's sight on an encounter's map (docs/maps.md, "Vision"): the squares the players' characters see now, and
the squares they have seen (explored), read from the encounter's events.

- The party: the combatants on the first side (of the start, or joining it), the side the players' view treats
  as the players' own (`gm_hand.hidden` hides every other side's stats). Each sees from every square of its
  footprint, standing or down (a fallen character's token still lies there, as on a virtual tabletop).
- What one square sees: `core.grid.sight` (the centre-to-centre path of a Projectile, through no wall, closed
  door or solid square; docs/maps.md, "Vision").
- Explored: every square the party saw after some event of the encounter, the events an undo took back (and the
  undo events themselves) left out, as `gm_hand.hidden` leaves out a reveal taken back: a move the GM takes back
  was never made, so nothing seen from it stays. Nothing is stored for it: positions (`x`, `y`) and doors
  (`door_<i>`) are read from the start event's state and each event's changes (an event that changes the roster
  carries the whole state). Undo is then exact, and a restored encounter explores as it did.

The work is bounded and counted: what a square sees is worked out once per board (each door state is its own
board) and kept (`sight.Sight`, `KEPT_BOARDS` boards); what the party sees after an event depends only on the
doors and the squares its characters stand on, so a fight of a thousand events with a hundred moves works out a
hundred and some squares' sight, each one line to every square of the map (`Work` counts them).
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from tohit.core.errors import InputError
from tohit.core.grid.battlefield import creature_from
from tohit.core.grid.models import CombatantSpec, MapSpec
from tohit.core.grid.sight import Sight
from tohit.core.grid.squares import Square
from tohit.core.grid.walls import wall_array
from tohit.engine.encounter import Encounter
from tohit.engine.gm_hand import undone
from tohit.engine.roster_change import blocks_of

BoolArray = npt.NDArray[np.bool_]
#: The boards (a map in one state of its doors) whose squares' sight is kept, the least recently used forgotten.
KEPT_BOARDS = 16
#: A square of `Vision.rows`: seen now, seen before (explored), never seen.
SEEN, EXPLORED, DARK = "2", "1", "0"


@dataclass(frozen=True)
class Moment:
    """What the party's sight depends on after one event: the doors (1 closed, 0 open) and the squares its
    characters stand on."""

    doors: tuple[int, ...]
    eyes: frozenset[Square]


@dataclass
class Work:
    """The work vision has done in this process: boards built, squares' sight worked out and lines tried."""

    boards: int = 0
    squares: int = 0
    lines: int = 0


@dataclass
class Vision:
    """The party's sight now and what it has explored, as (height, width) booleans."""

    party: list[str]
    seen: BoolArray
    explored: BoolArray

    def rows(self) -> list[str]:
        """One string per row of the map: SEEN, EXPLORED or DARK per square."""
        grid = np.where(self.seen, SEEN, np.where(self.explored, EXPLORED, DARK))
        return ["".join(row) for row in grid.tolist()]

    def to_json(self) -> dict[str, Any]:
        return {"party": self.party, "rows": self.rows()}

    def sees(self, squares: Iterable[Sequence[int]]) -> bool:
        """Some of `squares` ([x, y]) is seen now."""
        return any(self._at(self.seen, sq) for sq in squares)

    def knows(self, squares: Iterable[Sequence[int]]) -> bool:
        """Some of `squares` ([x, y]) is explored (seen now or before)."""
        return any(self._at(self.explored, sq) for sq in squares)

    @staticmethod
    def _at(grid: BoolArray, square: Sequence[int]) -> bool:
        x, y = int(square[0]), int(square[1])
        return 0 <= y < grid.shape[0] and 0 <= x < grid.shape[1] and bool(grid[y, x])


@dataclass
class _Memo:
    """The sights kept, per board (a map's digest and door state), and the work done."""

    boards: OrderedDict[tuple[str, tuple[int, ...]], Sight] = field(default_factory=OrderedDict)
    work: Work = field(default_factory=Work)
    lock: threading.Lock = field(default_factory=threading.Lock)


MEMO = _Memo()


def work() -> Work:
    """The work done so far in this process (the boards still kept included)."""
    with MEMO.lock:
        kept = list(MEMO.boards.values())
        done = MEMO.work
        return Work(done.boards, done.squares + sum(s.squares for s in kept), done.lines + sum(s.lines for s in kept))


def _map_of(enc: Encounter) -> MapSpec:
    found = getattr(enc.fight.spec, "map", None)
    if not isinstance(found, MapSpec):
        raise InputError("this encounter has no map (its game has no map rules, or its fight no map)", field="map")
    return found


def _digest(spec: MapSpec) -> str:
    """The map's squares, walls and door segments (not its picture, nor its doors' state), as a short digest."""
    shape = spec.model_dump(mode="json", exclude={"picture": True, "doors": {"__all__": {"closed"}}})
    return hashlib.sha256(json.dumps(shape, sort_keys=True).encode()).hexdigest()[:32]


def _sight(enc: Encounter, doors: tuple[int, ...]) -> Sight:
    """The sight of the encounter's map with its doors as `doors` says (1 closed), kept."""
    spec = _map_of(enc)
    key = (enc.fight.memo("vision_digest", lambda: _digest(spec)), doors)
    with MEMO.lock:
        found = MEMO.boards.get(key)
        if found is not None:
            MEMO.boards.move_to_end(key)
            return found
    segments = [*spec.walls, *(d.segment for d, closed in zip(spec.doors, doors, strict=True) if closed)]
    board = spec.model_copy(update={"walls": [], "doors": []}).board()
    made = Sight(board.with_walls(wall_array(segments)) if segments else board)
    with MEMO.lock:
        MEMO.work.boards += 1
        MEMO.boards[key] = made
        while len(MEMO.boards) > KEPT_BOARDS:
            _, gone = MEMO.boards.popitem(last=False)
            MEMO.work.squares += gone.squares
            MEMO.work.lines += gone.lines
    return made


def _footprint_side(block: Mapping[str, Any]) -> int:
    """The side of a combatant's footprint in squares, from its file block's `size` (and a Colossal's `squares`)."""
    given = {k: block[k] for k in ("size", "squares") if k in block}
    try:
        spec = CombatantSpec.model_validate({"name": "eye", "side": "0", "position": [0, 0], **given})
        return creature_from(spec).footprint.side
    except (ValueError, InputError):
        return 1


def _where(row: Mapping[str, Any], blocks: Mapping[str, Mapping[str, Any]]) -> dict[str, list[int]]:
    """Each combatant's square in a logged state row: its `x` and `y`, else where its file block places it."""
    found: dict[str, list[int]] = {}
    for name, stats in row.get("combatants", {}).items():
        x, y = (blocks.get(name) or {}).get("position") or (0, 0)
        found[name] = [int(stats.get("x", x)), int(stats.get("y", y))]
    return found


@dataclass(frozen=True)
class Step:
    """After one event of the log: whether it stands (neither taken back nor an undo), what the party's sight
    depends on then, the party, and the squares each combatant stands on."""

    kept: bool
    moment: Moment
    party: frozenset[str]
    squares: Mapping[str, tuple[Square, ...]]


class _Walk:
    """Where each combatant stands and the doors, event after event: read from the start event's state and each
    event's changes (an event that changes the roster carries the whole state)."""

    def __init__(self, enc: Encounter) -> None:
        events = enc.events
        sides = list(events[0].get("sides", {}).items())
        self.data, self.events = enc.data, events  # not the encounter: a walk kept must not keep it alive
        self.first = sides[0][0] if sides else None
        self.party: list[str] = list(sides[0][1]) if sides else []
        self.doors_n = len(_map_of(enc).doors)
        self._blocks()
        row = events[0].get("state", {})
        self.fight = dict(row.get("fight", {}))
        self.where = _where(row, self.blocks)

    def _blocks(self) -> None:
        self.blocks = blocks_of(self.data, self.events)
        self.size = {name: _footprint_side(block) for name, block in self.blocks.items()}

    def step(self, event: Mapping[str, Any], kept: bool) -> Step:
        """The step after `event`, the one after the last event walked."""
        if event.get("kind") != "start" and isinstance(event.get("sides"), Mapping):
            if any(n not in self.blocks for members in event["sides"].values() for n in members):
                self._blocks()  # a newcomer since the walk began
            self.party = list(event["sides"].get(self.first, []))
            row = event.get("state", {})
            self.fight = dict(row.get("fight", {}))
            self.where = _where(row, self.blocks)
        for ch in event.get("changes", []) if event.get("kind") != "start" else []:
            who, stat = ch.get("who"), str(ch.get("stat"))
            if who is None:
                self.fight[stat] = ch.get("to")
            elif stat in ("x", "y") and who in self.where:
                self.where[who]["xy".index(stat)] = int(ch["to"])
        side = self.size.get
        squares = {
            name: tuple((x + dx, y + dy) for dy in range(side(name, 1)) for dx in range(side(name, 1)))
            for name, (x, y) in self.where.items()
        }
        doors = tuple(int(self.fight.get(f"door_{i}", 1)) for i in range(self.doors_n))
        eyes = frozenset(sq for name in self.party if name in squares for sq in squares[name])
        return Step(kept, Moment(doors, eyes), frozenset(self.party), squares)


def moments(enc: Encounter) -> list[Moment]:
    """What the party's sight depends on after each event not taken back (the start first), in order."""
    back = undone(enc.events)
    walk = _Walk(enc)
    found = []
    for event in enc.events:
        kept = event.get("kind") != "undo" and int(event.get("action", event.get("n", 0))) not in back
        step = walk.step(event, kept)
        if kept:
            found.append(step.moment)
    return found


@dataclass
class Timeline:
    """After each event of the log (by its place, those taken back too): what the party's sight depends on
    (`moments`) and the combatants in its sight (`sighted`: standing on a square seen, and the party itself)."""

    enc: Encounter
    moments: list[Moment]
    sighted: list[frozenset[str]]
    _grids: OrderedDict[Moment, BoolArray] = field(default_factory=OrderedDict)

    def seen(self, at: int) -> BoolArray:
        """The squares seen after the event at place `at` (as `Vision.seen`; the last few moments' kept)."""
        moment = self.moments[at]
        found = self._grids.get(moment)
        if found is None:
            found = self._grids[moment] = _sight(self.enc, moment.doors).of_all(moment.eyes)
            while len(self._grids) > KEPT_BOARDS:
                self._grids.popitem(last=False)
        return found

    def square(self, at: int, x: int, y: int) -> bool:
        """Whether square (x, y) is seen after the event at place `at`."""
        return Vision._at(self.seen(at), (x, y))


@dataclass
class _Kept:
    """An encounter's timeline as far as its log was read, to go on from (`timeline`): the log only grows."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    walk: _Walk | None = None
    moments: list[Moment] = field(default_factory=list)
    sighted: list[frozenset[str]] = field(default_factory=list)
    last: object = None


#: Each live encounter's timeline as far as it was read, by the encounter's id (gone with the encounter).
_TIMELINES: dict[int, _Kept] = {}
_TIMELINES_LOCK = threading.Lock()


def _kept(enc: Encounter) -> _Kept:
    with _TIMELINES_LOCK:
        found = _TIMELINES.get(id(enc))
        if found is None:
            found = _TIMELINES[id(enc)] = _Kept()
            weakref.finalize(enc, _TIMELINES.pop, id(enc), None)
        return found


def timeline(enc: Encounter) -> Timeline:
    """The party's sight after each event of the log (`Timeline`). What was worked out for the encounter's log is
    kept while the encounter lives and gone on from as its log grows: a players' read works out the events since
    the last read, each distinct moment's sight once."""
    kept = _kept(enc)
    with kept.lock:
        done = len(kept.sighted)
        if kept.walk is None or kept.walk.events is not enc.events or done > len(enc.events) or (
            done and enc.events[done - 1] is not kept.last
        ):  # fmt: skip
            kept.walk, kept.moments, kept.sighted, done = _Walk(enc), [], [], 0
        grids: dict[Moment, BoolArray] = {}
        for event in enc.events[done:]:
            step = kept.walk.step(event, True)
            grid = grids.get(step.moment)
            if grid is None:
                grid = grids[step.moment] = _sight(enc, step.moment.doors).of_all(step.moment.eyes)
            in_sight = (n for n, squares in step.squares.items() if any(Vision._at(grid, sq) for sq in squares))
            kept.moments.append(step.moment)
            kept.sighted.append(step.party | frozenset(in_sight))
            kept.last = event
        return Timeline(enc, list(kept.moments), list(kept.sighted))


def party_of(enc: Encounter) -> list[str]:
    """The players' characters now: the first side's combatants."""
    roster = enc.fight.roster
    return [n for n, s in zip(roster.names, roster.side, strict=True) if s == 0]


def vision(enc: Encounter) -> Vision:
    """The party's sight after the encounter's last event, and every square it has seen (module docstring)."""
    found = moments(enc)
    explored: BoolArray | None = None
    for moment in dict.fromkeys(found):  # each distinct moment once, in order
        seen = _sight(enc, moment.doors).of_all(moment.eyes)
        explored = seen if explored is None else explored | seen
    now = _sight(enc, found[-1].doors).of_all(found[-1].eyes)
    return Vision(party_of(enc), now, now if explored is None else explored | now)
