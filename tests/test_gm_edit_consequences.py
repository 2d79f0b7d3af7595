"""A GM's edit is the game's own consequence (issue 36, items 1 and 2): a stat set by hand or a condition changed
goes through the game's `by_hand` (thresholds, what a heal ends, maxima, each stat's domain), and the encounter's
one end check runs after every action, so a fight whose last foe the GM downs is over, with its winner."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter


def encounter(name: str, seed: int = 1) -> Encounter:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return Encounter.create(data, seed=seed)


def stats(enc: Encounter, who: str) -> dict[str, int]:
    found: dict[str, int] = enc.state_json()["combatants"][who]
    return found


def test_a_gm_adjust_that_downs_the_last_foe_ends_the_fight_with_its_winner() -> None:
    """Kaiser duel: the Bandit chief set to 0 LP by hand is down, and the same action ends the fight: Ceil's side
    wins, nobody's turn is left pending and no preview is offered against the fallen."""
    enc = encounter("kaiser-duel")
    events = enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "value": 0})
    assert [e["kind"] for e in events][-1] == "end" and events[-1]["winner"] == "Ceil"
    assert enc.over and enc.next_turn() is None
    with pytest.raises(InputError, match="the fight is over"):
        enc.act({"kind": "attack", "attacker": "Ceil", "targets": ["Bandit chief"]})


@pytest.mark.parametrize(
    ("name", "who", "condition", "winner"),
    [
        ("kaiser-duel", "Bandit chief", "Knocked out", "Ceil"),
        ("rtw-bokoblin-camp", None, "Helpless", "Heroes"),
    ],
)
def test_a_condition_that_leaves_the_last_foe_unable_to_act_ends_the_fight(
    name: str, who: str | None, condition: str, winner: str
) -> None:
    """Knocked out (Kaiser, Critical) or Helpless (rtw, Falling in Battle) set on the last foe standing by hand: the
    fight is over with the other side's win."""
    enc = encounter(name)
    side = enc.fight.roster.side_names.index(winner) if winner in enc.fight.roster.side_names else 0
    foes = [n for n, s in zip(enc.fight.roster.names, enc.fight.roster.side, strict=True) if s != side]
    for foe in [who] if who else foes:
        events = enc.act({"kind": "condition", "combatant": foe, "condition": condition, "on": True})
    assert events[-1]["kind"] == "end" and events[-1]["winner"] == winner, [e["text"] for e in events]
    assert enc.next_turn() is None


def test_an_undo_of_the_gm_edit_that_ended_the_fight_gives_the_turn_back() -> None:
    """Undoing the adjust that ended the fight takes its end back too: the fight is on, with somebody's turn, and
    the preview offers odds again."""
    enc = encounter("kaiser-duel")
    turn = enc.next_turn()
    enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "value": 0})
    enc.act({"kind": "undo"})
    assert not enc.over and enc.next_turn() == turn
    assert stats(enc, "Bandit chief")["lp"] == 40
    assert enc.preview("Ceil", None, ["Bandit chief"])[0]["result"]


def test_rtw_restoring_any_health_to_a_helpless_creature_ends_their_helpless_state() -> None:
    """rtw, Falling in Battle: "Restoring any Health to a Helpless creature ends their Helpless state". Link at 0
    Health (fallen Helpless by the GM's hand) healed +3 is no longer Helpless and acts again; Peril stays while his
    Health is at or below his Hearts (4) and ends above them."""
    enc = encounter("rtw-bokoblin-camp")
    down = enc.act({"kind": "adjust", "combatant": "Link", "stat": "health", "value": 0})
    assert stats(enc, "Link")["helpless"] == 1 and stats(enc, "Link")["peril"] == 1
    assert "Helpless: no -> yes [rtw: Falling in Battle" in down[0]["text"], down[0]["text"]
    healed = enc.act({"kind": "adjust", "combatant": "Link", "stat": "health", "by": 3})
    assert stats(enc, "Link")["helpless"] == 0 and stats(enc, "Link")["peril"] == 1
    assert {"who": "Link", "stat": "helpless", "to": 0} in [
        {k: f[k] for k in ("who", "stat", "to")} for f in healed[0]["follows"]
    ]
    assert "Link" in enc.standing()
    enc.act({"kind": "adjust", "combatant": "Link", "stat": "health", "by": 2})
    assert stats(enc, "Link")["peril"] == 0


def test_rtw_a_foe_set_to_0_health_falls_helpless() -> None:
    """rtw, Falling in Battle: a creature brought to 0 Health falls Helpless; the GM's hand is a source without
    whims, so it is Helpless, never perished."""
    enc = encounter("rtw-bokoblin-camp")
    enc.act({"kind": "adjust", "combatant": "Moblin", "stat": "health", "value": 0})
    assert stats(enc, "Moblin")["helpless"] == 1 and stats(enc, "Moblin")["perished"] == 0
    assert "Moblin" not in enc.standing()


def test_healing_stops_at_the_maximum() -> None:
    """+30 LP by hand on a Bandit chief at 36 of 40 LP stops at 40 (it raised the maximum to 66 before); a value
    above the maximum is refused naming `value` and the range."""
    enc = encounter("kaiser-duel")
    enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "by": -4})
    healed = enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "by": 30})
    assert stats(enc, "Bandit chief")["lp"] == 40
    assert "stops at 40 (its maximum)" in healed[0]["text"], healed[0]["text"]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "lp", "value": 66})
    assert err.value.field == "value" and err.value.message == "LP takes 0 to 40; got 66"


def test_rtw_max_health_is_the_most_a_heal_restores() -> None:
    """rtw: Max Health is 4 x Hearts (docs/rtw.md#silent-peril): Link, 16 of 16, healed +5 stays at 16; harm past 0
    stops at 0."""
    enc = encounter("rtw-bokoblin-camp")
    enc.act({"kind": "adjust", "combatant": "Link", "stat": "health", "by": 5})
    assert stats(enc, "Link")["health"] == 16
    enc.act({"kind": "adjust", "combatant": "Link", "stat": "health", "by": -50})
    assert stats(enc, "Link")["health"] == 0 and stats(enc, "Link")["helpless"] == 1


def test_a_condition_is_on_or_off() -> None:
    """rtw Prone adjusted by -8 was "Prone: no -> -8", with a chip: a condition takes 0 or 1, and anything else is
    refused naming the field and the range in words."""
    enc = encounter("rtw-lizalfos-ambush")
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "Link", "stat": "prone", "by": -8})
    assert err.value.field == "by" and err.value.message == "Prone takes 0 or 1; got 0 -8 = -8"


def test_a_stat_the_fight_does_not_track_is_not_set_by_hand() -> None:
    """Link has no Magic pool in the file: setting his Magic (shown "—") by hand was "Link's Magic: — -> 2"; it is
    refused naming `stat`. Zelda's Magic is set as any stat."""
    enc = encounter("rtw-bokoblin-camp")
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "Link", "stat": "magic", "value": 2})
    assert err.value.field == "stat" and err.value.message == "Link has no Magic in this fight (its file gives none)"
    enc.act({"kind": "adjust", "combatant": "Zelda", "stat": "magic", "value": 2})
    assert stats(enc, "Zelda")["magic"] == 2


def test_last_odyssey_hp_brought_to_0_by_hand_removes_every_effect_but_poisoned_frostbitten_and_burned() -> None:
    """Last Odyssey, Death and Injury: a Downed character loses every effect but Poisoned, Frostbitten and Burned;
    the Imp (a status from the file) downed by hand loses it as a hit that downs it would."""
    enc = encounter("last-odyssey-ogre")
    before = stats(enc, "Imp")["statuses"]
    events = enc.act({"kind": "adjust", "combatant": "Imp", "stat": "hp", "value": 0})
    from tohit.systems.last_odyssey.consequences import KEPT_WHEN_DOWNED

    assert stats(enc, "Imp")["statuses"] == before & KEPT_WHEN_DOWNED
    assert before != before & KEPT_WHEN_DOWNED, "the example's status must be one Downed removes"
    assert any("Death and Injury" in f["clause"] for f in events[0]["follows"])


def test_wsswnn_whoever_holds_a_foe_that_falls_by_hand_lets_go() -> None:
    """WSSWNN, braces: whoever holds a foe that falls lets go; Oru grappling Ket, Ket set to 0 life by hand: Oru
    holds nobody."""
    enc = encounter("wsswnn-grapple-and-archer")
    names = enc.fight.roster.names
    enc.act({"kind": "adjust", "combatant": "Oru", "stat": "grappling", "value": names.index("Ket") + 1})
    enc.act({"kind": "adjust", "combatant": "Ket", "stat": "life", "value": 0})
    assert stats(enc, "Oru")["grappling"] == 0
