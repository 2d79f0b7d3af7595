"""How a game's state reads to a person.

A game declares, once on its `FightRules.readings`, a `StatReading` for every per-combatant stat it keeps: a
label in the rulebook's words and a kind. The command line's state table, the server's `shown` read-model and
the web table's cards all read a stat through `read_stat` / `read_combatant`, so none of them shows a state key.

Kinds:
- "health": the stat that is health; `maximum` names the stat holding its maximum (None: the starting value).
- "condition": a chip while not 0; `duration` names the stat holding the rounds it has left, where the rules
  give one; `named`: the rules' `narrate_value` names several (a bitmask of statuses, a tracker of buffs).
- "reference": another combatant, shown by name (`grappling: Kulu`): the value is its index + 1 (0: none), or,
  with `bits`, one bit per combatant (several at once: `Distracted: Link, Zelda`). Shown as a chip while set.
- "flag": yes / no.
- "number": the number (with `maximum`: "3 / 5"; with `words`: the word of each value).
- "internal": kept for the rules or the reports, never shown.

A stat named with a trailing number (one per weapon or per attack, e.g. `durability0`) reads as its stem's
reading, labelled with the name of the combatant's item it counts (`per="item"`: the game's
`FightRules.item_names`, e.g. "Durability (traveler's bow)"; `per="attack"`: its attack's name), else with the
number counted from 1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ReadingKind = Literal["health", "condition", "reference", "flag", "number", "internal"]
#: The kinds a card shows as chips (while set) rather than as a labelled value.
CHIP_KINDS: tuple[ReadingKind, ...] = ("condition", "reference")
NONE_TEXT = "—"


@dataclass(frozen=True)
class StatReading:
    """How one stat reads; see the module docstring for each kind's fields."""

    label: str
    kind: ReadingKind = "number"
    maximum: str | None = None
    duration: str | None = None
    #: The value that means "not tracked by this fight file" (shown "—"), e.g. -1 for no Magic pool.
    none: int | None = None
    named: bool = False
    bits: bool = False
    words: Mapping[int, str] = field(default_factory=dict)
    #: A stat per weapon or per attack (`durability0`): its label's suffix is the number, or the attack's name.
    per: Literal["item", "attack"] | None = None
    #: The values the stat takes (both ends included) where the rules bound it more tightly than any number, e.g.
    #: (0, 1) for a condition that is on or off: a game master's adjust is held to them (`FightRules.stat_range`).
    values: tuple[int, int] | None = None


def stem(stat: str) -> tuple[str, int | None]:
    """`durability1` -> ("durability", 1); `hp` -> ("hp", None)."""
    base = stat.rstrip("0123456789")
    if base and base != stat:
        return base, int(stat[len(base) :])
    return stat, None


def reading_of(readings: Mapping[str, StatReading], stat: str) -> StatReading | None:
    """The declared reading of `stat` (its own, else its stem's), or None when the game declares none."""
    found = readings.get(stat)
    if found is None:
        base, _ = stem(stat)
        found = readings.get(base)
    return found


def label_of(
    readings: Mapping[str, StatReading], stat: str, attacks: Sequence[str] = (), items: Sequence[str] = ()
) -> str:
    """The label a person reads for `stat`: a per-item or per-attack stat's is its stem's label with the name of
    the item (`items`, the combatant's `FightRules.item_names`) or attack (`attacks`) its number counts, else
    with the number counted from 1."""
    reading = reading_of(readings, stat)
    if reading is None:
        return stat.replace("_", " ")
    _, number = stem(stat)
    if number is None or stat in readings:
        return reading.label
    named = {"attack": attacks, "item": items}.get(reading.per or "", ())
    if number < len(named) and named[number]:
        return f"{reading.label} ({named[number]})"
    return f"{reading.label} {number + 1}"


def names_in(reading: StatReading, value: int, names: Sequence[str]) -> list[str]:
    """The combatants a reference's value names (index + 1, or one bit per combatant)."""
    if reading.bits:
        return [n for c, n in enumerate(names) if value >> c & 1]
    return [names[value - 1]] if 0 < value <= len(names) else []


def stat_text(
    readings: Mapping[str, StatReading],
    stat: str,
    value: int,
    names: Sequence[str] = (),
    stats: Mapping[str, int] | None = None,
    named: Callable[[str, int], Any] | None = None,
) -> str:
    """A stat's value as a person reads it: "yes"/"no" for a flag, "—" for a stat not tracked, a referenced
    combatant's name, a named condition's names (`named`: the rules' `narrate_value`), a number's word,
    "12 / 16" against its maximum, else the number."""
    reading = reading_of(readings, stat)
    if reading is None:
        return f"{value:,}"
    if reading.none is not None and value == reading.none:
        return NONE_TEXT
    if reading.named and named is not None:
        return ", ".join(chip_words(reading, stat, value, names, named)) or NONE_TEXT
    if reading.kind in ("flag", "condition") and value in (0, 1) and not reading.named:
        return "yes" if value else "no"
    if reading.kind == "reference":
        return ", ".join(names_in(reading, value, names)) or NONE_TEXT
    if value in reading.words:
        return reading.words[value]
    if reading.maximum is not None and stats is not None and reading.maximum in stats:
        return f"{value:,} / {stats[reading.maximum]:,}"
    return f"{value:,}"


def chip_words(
    reading: StatReading, stat: str, value: int, names: Sequence[str], named: Callable[[str, int], Any]
) -> list[str]:
    """The chips a condition or reference shows at `value` (none at 0): its label; a reference's
    `label: name`; a named condition's names (`named`, the rules' `narrate_value`: a list, or a mapping of
    bonuses shown `+2`), each with its rounds left where the reading has a duration."""
    if value == 0:
        return []
    if reading.kind == "reference":
        return [f"{reading.label}: {', '.join(names_in(reading, value, names)) or '?'}"]
    if reading.named:
        shown = named(stat, value)
        if isinstance(shown, Mapping):
            return [f"{_word(k)} {v:+}" for k, v in shown.items()]
        if isinstance(shown, list | tuple | set | frozenset):
            return [_word(k) for k in shown]
    return [reading.label]


def _word(key: object) -> str:
    """A named status's key as a word: "physical_accuracy" -> "Physical accuracy"."""
    text = str(key).replace("_", " ")
    return text[:1].upper() + text[1:]


def read_combatant(
    readings: Mapping[str, StatReading],
    stats: Mapping[str, int],
    names: Sequence[str],
    attacks: Sequence[str] = (),
    start: Mapping[str, int] | None = None,
    named: Callable[[str, int], Any] = lambda stat, value: value,
    items: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """One combatant's stats as a card shows them, in the game's declared order (then the state's): per stat
    not internal, `stat` (the state's key, for scripts), `label`, `kind`, `text`; health and a number with a
    maximum carry `value` and `max`; a condition or reference carries `chips` (empty while not set); a stat at
    its reading's `none` carries `tracked: false` (its text "—"). A per-item or per-attack stat's label names its
    item (`items`) or attack (`attacks`)."""
    order = {key: i for i, key in enumerate(readings)}
    keys = sorted(stats, key=lambda k: (order.get(stem(k)[0] if k not in order else k, len(order)), k))
    out: list[dict[str, Any]] = []
    for stat in keys:
        reading = reading_of(readings, stat)
        if reading is None or reading.kind == "internal":
            continue
        value = int(stats[stat])
        entry: dict[str, Any] = {
            "stat": stat,
            "label": label_of(readings, stat, attacks, items),
            "kind": reading.kind,
            "text": stat_text(readings, stat, value, names, stats, named),
        }
        if reading.none is not None and value == reading.none:
            entry["tracked"] = False  # not tracked by this fight file (e.g. no Magic pool): a card leaves it out
        if reading.kind == "health":
            top = stats.get(reading.maximum) if reading.maximum else (start or {}).get(stat)
            entry.update(value=value, max=max(int(top if top is not None else value), value))
            entry["text"] = f"{value:,} / {entry['max']:,}"
        elif reading.maximum is not None and reading.maximum in stats:
            entry.update(value=value, max=int(stats[reading.maximum]))
        if reading.kind in CHIP_KINDS:
            chips = chip_words(reading, stat, value, names, named)
            if chips and reading.duration is not None and stats.get(reading.duration):
                chips = [f"{c} ({stats[reading.duration]} rounds)" for c in chips]
            entry["chips"] = chips
        out.append(entry)
    return out


def unread(readings: Mapping[str, StatReading], stats: Sequence[str]) -> list[str]:
    """The stats of `stats` a game gives no reading (a registration check: each must have one)."""
    return [s for s in stats if reading_of(readings, s) is None]
