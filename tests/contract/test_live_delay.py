"""The live table's delay, part of every game's contract (issue 39, item 5): where the fight keeps its round's order
(a rolled Initiative, or the file's order a live encounter keeps as its own: `FightRules.keeps_order`), the turn that
comes moves after the next one and the game's own step plays the order as moved; an undo sets it back exactly. Where
a game keeps no order of its own (the toy: a third party's game that says nothing of delaying), a 422 in the game's
words names the action's kind, and nothing is written."""

from __future__ import annotations

import pytest
import yaml

from tests.contract.conftest import fight_examples
from tohit.core.errors import InputError
from tohit.core.system import AnySystem
from tohit.engine import turn_delay
from tohit.engine.encounter import Encounter
from tohit.server import read_models


def test_contract_a_delay_moves_the_turn_where_the_order_is_kept_else_is_refused_in_the_games_words(
    game: AnySystem,
) -> None:
    path = fight_examples(game)[0]
    enc = Encounter.create(yaml.safe_load(path.read_text()), source=path.name, seed=9)
    who, names, seq = enc.next_turn(), enc.fight.roster.names, enc.seq
    if turn_delay.order(enc) is None:
        assert not enc.fight.rules.keeps_order
        with pytest.raises(InputError) as err:
            enc.act({"kind": "delay", "combatant": who})
        assert "round goes in the file's order" in err.value.message and err.value.field == "kind"
        assert enc.seq == seq and read_models.cards(enc)["delay_after"] == []
        return
    state = enc.state_json()
    nxt = read_models.cards(enc)["delay_after"][0]
    (event,) = enc.act({"kind": "delay", "combatant": who})
    order = [names[c] for c in read_models.round_order(enc)]
    assert event["after"] == nxt == enc.next_turn() and order[order.index(nxt) + 1] == who
    played = enc.act({"kind": "auto"})  # the game's step plays the next one's turn, then the delayed one's comes
    assert any(e["kind"] == "turn" and e["text"].startswith(f"{nxt}'s turn") for e in played)
    acted = 2
    if not enc.over and enc.next_turn() == nxt:  # a turn of several actions (Last Odyssey's AP): ended
        enc.act({"kind": "end_turn"})
        acted += 1
    assert enc.over or enc.next_turn() == who or who not in enc.standing()
    for _ in range(acted):
        enc.act({"kind": "undo"})
    assert enc.state_json() == state and enc.next_turn() == who
