"""No event text shows a state key: over every bundled example fight, a seeded mix of auto turns, attacks, a game
master's adjusts (to a value and by an amount), conditions, a newcomer joining and leaving, then an adjust of every
stat a game master sets; no event's text holds a state key as a word unless it is a word of the stat's label (the
game's readings: `hp` may read "HP", `guard` never "guard 7 -> 6"), and an adjust of a condition, flag or
reference reads as words or names, never as 0 and 1."""

from __future__ import annotations

import contextlib
import copy
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import TohitError
from tohit.core.fight.readings import label_of, reading_of
from tohit.engine import gm_hand
from tohit.engine.encounter import Encounter

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: What the seeded driver does, in turn (each with its combatant, attack, stat or value drawn at random).
PLAN = ("auto", "attack", "adjust", "auto", "by", "condition", "join", "auto", "attack", "leave", "auto", "by")


def settable_stats(enc: Encounter) -> list[str]:
    """The per-combatant stats a game master may adjust (the game's `stat_range` is not None)."""
    return [s for s in enc.state.per if enc.fight.rules.stat_range(enc.fight, s) is not None]


def value_in(enc: Encounter, stat: str, c: int, rnd: random.Random) -> int:
    """A value the stat may take, within 5 of combatant c's."""
    bounds = enc.fight.rules.stat_range(enc.fight, stat)
    assert bounds is not None
    now = int(enc.state.per[stat][0, c])
    return rnd.randint(max(int(bounds[0]), now - 5), min(int(bounds[1]), now + 5))


def one(enc: Encounter, kind: str, data: dict[str, Any], rnd: random.Random) -> None:
    """One action of the plan (refused ones, e.g. an attack by a fallen combatant, change nothing)."""
    names = list(enc.fight.roster.names)
    c = rnd.randrange(len(names))
    if kind == "auto":
        action: dict[str, Any] = {"kind": "auto"}
    elif kind == "attack":
        attack = rnd.choice([a.name for a in enc.fight.combatants[c].attacks])
        action = {"kind": "attack", "attacker": names[c], "attack": attack, "targets": [rnd.choice(names)]}
    elif kind in ("adjust", "by"):
        stat = rnd.choice(settable_stats(enc))
        value = value_in(enc, stat, c, rnd)
        given = {"value": value} if kind == "adjust" else {"by": value - int(enc.state.per[stat][0, c])}
        action = {"kind": "adjust", "combatant": names[c], "stat": stat, **given}
    elif kind == "condition":
        kept = gm_hand.settable(enc)
        if not kept:
            return
        stat, word = rnd.choice(kept)
        action = {"kind": "condition", "combatant": names[c], "condition": word, "on": not enc.state.per[stat][0, c]}
    elif kind == "join":
        side = rnd.randrange(len(data["sides"]))
        block = {**copy.deepcopy(data["sides"][side]["combatants"][0]), "name": "Newcomer"}
        action = {"kind": "join", "side": enc.fight.roster.side_names[side], "combatant": block}
        for square in ([x, y] for y in range(12) for x in range(12)) if "position" in block else ():
            try:  # on a map: the first free square
                enc.act({**action, "combatant": {**block, "position": square}})
                return
            except TohitError:
                continue
    else:
        action = {"kind": "leave", "combatant": "Newcomer"}
    with contextlib.suppress(TohitError):
        enc.act(action)


def played(path: Path, seed: int = 5) -> Encounter:
    """An adjust of every stat a game master sets, then the fight driven by the plan (seeded)."""
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    enc = Encounter.create(data, seed=seed)
    rnd = random.Random(seed)
    for stat in settable_stats(enc):
        c = rnd.randrange(enc.fight.roster.size)
        now = int(enc.state.per[stat][0, c])
        reading = reading_of(enc.fight.rules.readings, stat)
        if reading is not None and reading.none is not None and now == reading.none:
            continue  # a stat this combatant's file does not track: refused
        bounds = enc.fight.rules.stat_range(enc.fight, stat)
        assert bounds is not None
        if stat == enc.fight.rules.health:  # health stops at the combatant's maximum
            bounds = (bounds[0], min(bounds[1], enc.fight.rules.health_maximum(enc.fight, c)))
        other = now + 1 if now < bounds[1] else now - 1  # a change, so a condition turns on or off
        enc.act({"kind": "adjust", "combatant": enc.fight.roster.names[c], "stat": stat, "value": other})
    for i in range(3 * len(PLAN)):
        if enc.over:  # the game master takes the end back, so the mix goes on
            enc.act({"kind": "undo"})
        one(enc, PLAN[i % len(PLAN)], data, rnd)
    return enc


def key_words(enc: Encounter) -> dict[str, set[str]]:
    """Each state key -> the words (casefolded) of its label in any combatant's reading of it (none: not a word of
    any label); a fight-level key the game gives no reading is left out when it is a plain word ("round")."""
    readings, fight = enc.fight.rules.readings, enc.fight
    out: dict[str, set[str]] = {}
    for stat in enc.state.per:
        labels = {
            label_of(readings, stat, [a.name for a in comb.attacks], fight.rules.item_names(fight, c))
            for c, comb in enumerate(fight.combatants)
        }
        out[stat] = {w.casefold() for label in labels for w in TOKEN.findall(label)}
    for stat in enc.state.fight:
        if reading_of(readings, stat) is not None or not stat.isalpha():
            out[stat] = set()
    return out


def offending(enc: Encounter, event: dict[str, Any]) -> list[str]:
    """The state keys an event's text shows: a key as a whole word that is no word of its label, a key before a
    number's change ("guard 7 -> 6"), and an adjust of a condition, flag or reference in digits."""
    text = str(event.get("text") or "")
    words = key_words(enc)
    found = [t for t in set(TOKEN.findall(text)) if t in words and t.casefold() not in words[t]]
    readings = enc.fight.rules.readings
    labels = sorted({label_of(readings, key) for key in words if reading_of(readings, key)}, key=len, reverse=True)
    rest = re.sub("|".join(re.escape(label) for label in labels), "", text) if labels else text  # "Fading penalty"
    for key in words:
        if re.search(rf"(?<![\w-]){re.escape(key)}:? [-+]?[\d,]+ -> ", rest):
            found.append(f"{key} (a change)")
    stat = next((ch["stat"] for ch in event.get("changes", [])), None)
    reading = reading_of(enc.fight.rules.readings, stat) if stat else None
    plain = reading is not None and not reading.named  # a named condition's bonuses are numbers ("+1")
    if event["kind"] == "adjust" and plain and reading.kind in ("condition", "flag", "reference"):
        names = "|".join(re.escape(n) for n in sorted(enc.fight.roster.names, key=len, reverse=True))
        if re.search(r"\d", re.sub(names, "", text.split("(")[0])):
            found.append(f"{stat} (in digits)")
    return found


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_no_event_text_shows_a_state_key(path: Path) -> None:
    enc = played(path)
    kinds = {e["kind"] for e in enc.events}
    assert {"adjust", "join"} <= kinds, kinds  # the mix reached the game master's actions
    assert any("by the GM" in str(e.get("text")) and "set" not in str(e.get("text")) for e in enc.events)
    bad = [(e["kind"], e["text"], offending(enc, e)) for e in enc.events if offending(enc, e)]
    assert not bad, bad


def test_the_check_finds_a_state_key_and_a_condition_in_digits() -> None:
    """The check itself: a text with `guard 7 -> 6`, `def_mod` or an adjust of a condition as 0 -> 1 is found."""
    enc = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / "wsswnn-kulu-brute.yaml").read_text()), seed=1)
    who = enc.fight.roster.names[0]
    assert offending(enc, {"kind": "damage", "text": f"{who}: life 10 -> 6, guard 7 -> 6", "changes": []})
    assert offending(enc, {"kind": "turn", "text": "max_guard is 3", "changes": []}) == ["max_guard"]
    condition = {"kind": "adjust", "text": f"{who}'s Disarmed: 0 -> 1 (set by the GM)"}
    assert offending(enc, {**condition, "changes": [{"who": who, "stat": "disarmed", "from": 0, "to": 1}]})
    fine = {"kind": "adjust", "text": f"{who}'s Disarmed: no -> yes (set by the GM)"}
    assert not offending(enc, {**fine, "changes": [{"who": who, "stat": "disarmed", "from": 0, "to": 1}]})


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_every_event_has_words(path: Path) -> None:
    """No bare kind word in a log (issue 36, item 7): every event of a narrated fight and of a live encounter
    driven by auto turns has a text, and a turn's says whose turn it is and the round ("Ceil's turn (round 1)")."""
    from tohit.api import fight, load_fight

    data: dict[str, Any] = yaml.safe_load(path.read_text())
    enc = Encounter.create(data, seed=1)
    for _ in range(6):
        if enc.over:
            break
        enc.act({"kind": "auto"})
    events = [*fight(load_fight(path), seed=1).events, *enc.events]
    bare = sorted({e["kind"] for e in events if not str(e.get("text") or "").strip()})
    assert not bare, bare
    names = "|".join(re.escape(n) for n in enc.fight.roster.names)
    turns = [e["text"] for e in events if e["kind"] == "turn"]
    assert turns and all(re.fullmatch(rf"(?:{names})'s turn \(round \d+\)", t) for t in turns), turns[:3]
