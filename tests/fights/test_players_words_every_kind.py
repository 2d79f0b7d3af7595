"""Every kind of event a game words for the game master has the players' words too (issue 37 item 2;
docs/players.md): its own phrase (`FightRules.players_phrases`) or, holding no number, the game's words as written
(`players_same`), never the generic words of its changes ("X's Guard rises", "X: skip"). The games whose emitters
moved to data: FullPlate, RTW, WSSWNN."""

from __future__ import annotations

import pytest

from tohit.core.fight.audience import PHRASES
from tohit.core.fight.contract import FightRules
from tohit.systems.fullplate.fight import RULES as FULLPLATE
from tohit.systems.rtw.fight import RULES as RTW
from tohit.systems.wsswnn.fight import RULES as WSSWNN


@pytest.mark.parametrize("rules", [FULLPLATE, RTW, WSSWNN], ids=lambda r: r.system_id)
def test_every_kind_a_game_words_for_the_game_master_has_the_players_words(rules: FightRules) -> None:
    gm = set(rules.gm_phrases)
    told = set(rules.players_phrases) | rules.players_same | set(PHRASES)
    assert gm and not gm - told, sorted(gm - told)
