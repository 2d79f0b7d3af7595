"""Every kind of event a game words for the game master has the players' words too (issue 37 item 2;
docs/players.md): its own phrase (`FightRules.players_phrases`) or, holding no number, the game's words as written
(`players_same`), never the generic words of its changes ("X's Guard rises", "X: skip"). The games whose emitters
moved to data: FullPlate, RTW, WSSWNN."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES
from tests.fights.players_told import audience, told_of
from tohit.core.fight.audience import PHRASES
from tohit.core.fight.contract import FightRules
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import narrate
from tohit.systems.fullplate.fight import RULES as FULLPLATE
from tohit.systems.rtw.fight import RULES as RTW
from tohit.systems.wsswnn.fight import RULES as WSSWNN


@pytest.mark.parametrize("rules", [FULLPLATE, RTW, WSSWNN], ids=lambda r: r.system_id)
def test_every_kind_a_game_words_for_the_game_master_has_the_players_words(rules: FightRules) -> None:
    gm = set(rules.gm_phrases)
    told = set(rules.players_phrases) | rules.players_same | set(PHRASES)
    assert gm and not gm - told, sorted(gm - told)


#: What an event stored before its game handed data kept (issue 37 item 1): its words, its changes, who attacked.
STORED = ("kind", "text", "changes", "n", "attacker", "target", "attack", "outcome", "sides", "state")


@pytest.mark.parametrize(
    ("name", "seed"), [("fullplate-skirmish", 1), ("rtw-wizzrobe-trick", 1), ("wsswnn-wrestler-and-axe", 3)]
)
def test_an_event_stored_before_its_data_is_still_told_to_the_players(name: str, seed: int) -> None:
    """A stored encounter's events (the server keeps them as they were written) are told to the players without
    a fault: each phrase reads the data it needs where it is there, else the words as written or the changes."""
    fight = load_fight(EXAMPLES / "fights" / f"{name}.yaml")
    events = [{k: v for k, v in e.items() if k in STORED} for e in narrate(fight, seed=seed).events]
    foes = events[0]["sides"][list(events[0]["sides"])[1]]
    for who in ({"secret": foes}, {"absent": foes}, {}):
        seen = audience(fight, events, **who)
        told = [told_of(fight, e, seen) for e in events]
        assert all(t is None or isinstance(t, str) for t in told)
