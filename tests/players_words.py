"""Reading a game's narrated events as the players do (core/fight/audience.py; docs/players.md): the events of a
bundled fight (and variants of it) over some seeds, and an audience that keeps some combatants' numbers from the
players (`secret`), knows nothing of others (`absent`), or reads every number."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import yaml

from tests.conftest import EXAMPLES
from tohit.core.fight.audience import Audience, told
from tohit.core.fight.contract import LoadedFight
from tohit.core.fight.words import gm_told
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.fight.run import narrate


def fight_data(stem: str, change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """A bundled fight's file as data, changed by `change` (each combatant, for instance)."""
    data = yaml.safe_load((EXAMPLES / "fights" / f"{stem}.yaml").read_text())
    if change is not None:
        for side in data["sides"]:
            for combatant in side["combatants"]:
                change(combatant)
    return copy.deepcopy(data)


#: Each fight's narrated events by seed, narrated once (a test file's fights live as long as the run).
_NARRATED: dict[tuple[int, int], list[dict[str, Any]]] = {}


def events_of(fight: LoadedFight, kinds: Iterable[str], seeds: Iterable[int] = range(1, 9)) -> Iterator[dict[str, Any]]:
    """The narrated events of `kinds` of `fight` over `seeds` (each a copy)."""
    wanted = set(kinds)
    for seed in seeds:
        if (id(fight), seed) not in _NARRATED:
            _NARRATED[id(fight), seed] = narrate(fight, seed=seed).events
        yield from (copy.deepcopy(e) for e in _NARRATED[id(fight), seed] if e["kind"] in wanted)


def loaded(data: dict[str, Any]) -> LoadedFight:
    return fight_from_dict(data, source="fight.yaml")


def audience(fight: LoadedFight, secret: Iterable[str] = (), absent: Iterable[str] = ()) -> Audience:
    """The players' audience of `fight`: `secret` kept (a health word), `absent` hidden entirely."""
    rules = fight.rules
    tops = {c.name: int(getattr(c.target, rules.health)) for c in fight.combatants}
    return Audience(
        secret=frozenset(secret),
        absent=frozenset(absent),
        health=rules.health,
        readings=rules.readings,
        names=tuple(fight.roster.names),
        tops=tops,
        words=rules.health_words,
        named=rules.narrate_value,
        unseen_attack=rules.unseen_attack,
    )


def players_read(fight: LoadedFight, event: dict[str, Any], reader: Audience) -> str | None:
    """What `reader` is told of `event`, by the game's players' phrases."""
    rules = fight.rules
    return told(event, reader, rules.players_phrases, rules.players_same)


def gm_read(fight: LoadedFight, event: dict[str, Any]) -> str:
    """The game master's words of `event` written again from its data alone (its text left out)."""
    return gm_told({k: v for k, v in event.items() if k != "text"}, fight.rules.gm_phrases)
