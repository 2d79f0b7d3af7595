"""What the players are told of WSSWNN's own events (core/fight/audience.py; docs/players.md): each event's
game-master words where it is about nobody kept from them, else what a person at the table sees, from the
event's data: never a kept combatant's Life, Guard, Awareness or Stamina, nor its rolls; one hidden entirely is
"someone"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tohit.core.fight.audience import Audience, Phrase, attack_said
from tohit.core.fight.words import change_of
from tohit.systems.wsswnn import narrate
from tohit.systems.wsswnn.stat_readings import READINGS

#: What the players notice of an attack by a combatant hidden from them entirely (`FightRules.unseen_attack`):
#: a foe they have not noticed (the page's Awareness).
UNSEEN_ATTACK = "an unnoticed foe {verb} {target}"


def initiative_roll(event: Mapping[str, Any], audience: Audience) -> str:
    """A Maneuver roll for the players: the roll of a combatant whose numbers they do not read is not said, nor the
    foes' highest Awareness when one of those foes is such a combatant (it is that foe's Awareness); the players'
    own highest Awareness, against a hidden roller, they know: not said either."""
    name = str(event.get("combatant"))
    side = audience.sides.get(name)
    foes = [n for n, s in audience.sides.items() if s != side]
    told = not audience.unseen(name)
    awareness = event.get("awareness") if told and not any(audience.unseen(f) for f in foes) else None
    return narrate.maneuver(name, event.get("roll"), bool(event.get("beats")), awareness, told)


def initiative(event: Mapping[str, Any], audience: Audience) -> str:
    """The turn order for the players: the game's words, or, where one in it is hidden entirely from them, the
    order of the others (read from each one's place in it: its `turn` change)."""
    text = str(event.get("text") or "")
    places = {ch["who"]: ch.get("to", 0) for ch in event.get("changes", []) if ch.get("stat") == "turn"}
    if not any(audience.gone(n) for n in places):
        return text
    return narrate.order(sorted((n for n in places if not audience.gone(n)), key=lambda n: places[n]))


def _text(event: Mapping[str, Any]) -> str:
    return str(event.get("text") or "")


def stand_fast(event: Mapping[str, Any], audience: Audience) -> str:
    """Stand Fast, for the players: of a kept combatant, that it Stands Fast, never its Guard; its Brace roll (an
    attack line of the same kind), told as an attack."""
    if "attacker" in event:
        return attack_said(event, audience) if audience.touches(event) else _text(event)
    who = event.get("combatant")
    return f"{who} Stands Fast" if audience.unseen(who) else _text(event)


def mighty_blow(event: Mapping[str, Any], audience: Audience) -> str:
    """A Mighty Blow's cost, for the players: of a kept combatant, that it strikes a Mighty Blow, never its
    Stamina."""
    who = event.get("combatant")
    return f"{who} strikes a Mighty Blow" if audience.unseen(who) else _text(event)


def skip(event: Mapping[str, Any], audience: Audience) -> str:
    """A skipped action, for the players: of a kept combatant, what it skips for (its Guard or Awareness), never the
    values."""
    who, changes = event.get("combatant"), event.get("changes") or [{}]
    if not audience.unseen(who):
        return _text(event)
    reading = READINGS.get(str(changes[0].get("stat")))
    return f"{who} skips its action" + (f" to regain {reading.label}" if reading is not None else "")


def resist(event: Mapping[str, Any], audience: Audience) -> str:
    """Stamina paid to resist a brace, for the players: of a kept combatant, that it resists, never its Stamina."""
    who = event.get("combatant")
    return f"{who} resists the {event.get('brace', 'brace')}" if audience.unseen(who) else _text(event)


def damage(event: Mapping[str, Any], audience: Audience) -> str:
    """Life, Guard and Awareness lost, for the players: of a kept combatant, its health word ("out of the fight"
    at 0 Life) and which of Guard and Awareness fall, never a value."""
    life = change_of(event, "life")
    who = event.get("combatant", life.get("who") if life else None)
    if not audience.unseen(who):
        return _text(event)
    parts = []
    if life is not None and life.get("who") == who:
        after = int(life["to"])
        parts.append("out of the fight" if after <= 0 else audience.word(str(who), after))
    for stat in ("guard", "awareness"):
        ch = change_of(event, stat, who)
        if ch is not None and ch.get("from") != ch.get("to"):
            parts.append(f"{READINGS[stat].label} falls")
    return f"{who}: " + ", ".join(parts)


def fall(event: Mapping[str, Any], audience: Audience) -> str:
    """A jump-attack's fall, for the players: of a kept combatant, that it falls and its health word, never the
    life and guard it loses."""
    who = event.get("combatant")
    life = change_of(event, "life", who)
    if not audience.unseen(who):
        return _text(event)
    return f"{who} falls" + (f": {audience.word(str(who), int(life['to']))}" if life is not None else "")


def into_grapple(event: Mapping[str, Any], audience: Audience) -> str:
    """A shot into a grapple that hits the other grappler, for the players: where one in it is kept from them, that
    it rolled an odd number, never the roll; one hidden entirely is "someone" ("a shot" when it is the shooter)."""
    shooter, struck, target = (event.get(k) for k in ("attacker", "struck", "target"))
    if not audience.touches(event) or None in (shooter, struck, target):
        return _text(event)
    by = "a shot" if audience.gone(shooter) else f"{shooter}'s shot"
    return (
        f"{by} into the grapple rolled an odd number: it hits the other grappler, {audience.called(struck)},"
        f" not {target}"
    )


def _named(event: Mapping[str, Any], audience: Audience) -> str:
    """A brace's words without a number (grapple, shove, a grapple that ends), where one in it is hidden entirely
    from the players: written again from its data, that one "someone"."""
    names = [event.get(k) for k in ("combatant", "foe") if event.get(k) is not None]
    if not any(audience.gone(n) for n in names) or "combatant" not in event:
        return _text(event)
    again = {**event, **{k: audience.called(event[k]) for k in ("combatant", "foe") if k in event}}
    return narrate.PHRASES[str(event["kind"])](again)


PHRASES: Mapping[str, Phrase] = {
    "initiative_roll": initiative_roll,
    "initiative": initiative,
    "stand_fast": stand_fast,
    "mighty_blow": mighty_blow,
    "skip": skip,
    "resist": resist,
    "damage": damage,
    "fall": fall,
    "into_grapple": into_grapple,
    "grapple": _named,
    "grapple_ends": _named,
    "shove": _named,
}
#: WSSWNN's events whose words hold no number: told to the players as written.
SAME = frozenset({"disarm"})
