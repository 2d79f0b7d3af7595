"""The players' words of a narrated fight's events (core/fight/audience.py `told`, docs/players.md), for the tests
of a game's players' phrases: an audience built from the fight as the players' view builds it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from tohit.core.fight.audience import Audience, told
from tohit.core.fight.contract import LoadedFight


def audience(
    fight: LoadedFight, events: list[dict[str, Any]], secret: Iterable[str] = (), absent: Iterable[str] = ()
) -> Audience:
    """The players of `fight`: the numbers of `secret` kept from them, `absent` hidden entirely; each combatant's
    top health its health at the start (the start event's `state`)."""
    rules = fight.rules
    start = events[0]["state"]["combatants"]
    tops = {name: int(stats[rules.health]) for name, stats in start.items() if rules.health in stats}
    sides = {n: side for e in events if e["kind"] == "start" for side, members in e["sides"].items() for n in members}
    return Audience(
        secret=frozenset(secret) | frozenset(absent),
        absent=frozenset(absent),
        health=rules.health,
        readings=rules.readings,
        names=tuple(fight.roster.names),
        sides=sides,
        tops=tops,
        words=rules.health_words,
        named=rules.narrate_value,
        unseen_attack=rules.unseen_attack,
    )


def told_of(fight: LoadedFight, event: Mapping[str, Any], audience: Audience) -> str | None:
    """The players' words of `event`, by the fight's game."""
    return told(event, audience, fight.rules.players_phrases, fight.rules.players_same)


def numbers(text: str, names: Iterable[str] = ()) -> list[str]:
    """The numbers of `text` outside the combatants' names and the rule cited ("[...]")."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return re.findall(r"\d+", re.sub(r"\[[^\]]*\]", "", text))
