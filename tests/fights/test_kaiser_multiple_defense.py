"""Kaiser fights: the Multiple Defense Penalty (issue 15, item 7; the game's other pages, Kaiser, combat.json 200).

Three attackers (A, A2, A3) against one chief (B); dice forced with a script, one mapping per attack, in order.
"""

from __future__ import annotations

from typing import Any

from tests.fights.helpers import kaiser_combatant, kaiser_fight, load
from tohit.engine.fight.run import FightLog, narrate

#: 17 vs 17 with no penalty: a tie, nothing happens (a Counter needs the defender's DoS).
TIE = {"offense": [3, 4], "defense": [5, 4]}


def chief_fight(penalty: bool) -> dict[str, Any]:
    attackers = [kaiser_combatant(n) for n in ("A", "A2", "A3")]
    chief = kaiser_combatant("B", target={"lp": 200})
    return kaiser_fight(attackers, [chief], options={"multiple_defense_penalty": penalty})


def defensive_modifiers(log: FightLog, defender: str) -> list[str]:
    """The modifiers of each Defensive Roll against `defender`, as its trace shows them."""
    found = []
    for e in log.events:
        if e["kind"] == "attack" and e["target"] == defender:
            line = next(s["text"] for s in e["trace"] if s["text"].startswith("Defensive Roll"))
            found.append(line.split("modifiers ")[1].split(" ")[0])
    return found


def test_kaiser_multiple_defense_penalty_2_attacks_minus_2_3_attacks_minus_4() -> None:
    """combat.json 200: "Multiple defense penalty: 2 attacks -2, 3 attacks -4, 4 attacks -6, and so on": a chief
    defending three times in a round rolls at +0, -2 and -4."""
    log = narrate(load(chief_fight(True)), seed=1, script=[TIE] * 3)
    assert defensive_modifiers(log, "B")[:3] == ["+0", "-2", "-4"]
    said = [e["text"] for e in log.events if e["kind"] == "defense" and "B has defended" in e["text"]]
    assert said[1].startswith("B has defended 2 times this round: its next Defensive Roll this round is at -4")


def test_kaiser_multiple_defense_penalty_starts_again_each_round() -> None:
    """The penalty counts the defenses of one round: the chief's first defense of round 2 is at +0 again."""
    log = narrate(load(chief_fight(True)), seed=1, script=[TIE] * 12)
    restored = [e for e in log.events if e["kind"] == "defense_restored"]
    assert restored
    round_1 = log.events[: log.events.index(restored[0])]
    defenses = len([e for e in round_1 if e["kind"] == "attack" and e["target"] == "B"])
    assert defenses == 6  # three attackers, two attacks each (6 AP, 3 a sword blow)
    assert ("B", "def_mod", -2 * defenses, 0) in [
        (c["who"], c["stat"], c["from"], c["to"]) for c in restored[0]["changes"]
    ]
    first_of_round_2 = [e for e in log.events[log.events.index(restored[0]) :] if e["kind"] == "attack"]
    assert first_of_round_2[0]["target"] == "B"
    modifiers = next(s["text"] for s in first_of_round_2[0]["trace"] if s["text"].startswith("Defensive Roll"))
    assert "modifiers +0" in modifiers


def test_kaiser_multiple_defense_penalty_option_false_defends_at_plus_0() -> None:
    """Option `multiple_defense_penalty: false` restores the simpler reading: every defense at +0."""
    log = narrate(load(chief_fight(False)), seed=1, script=[TIE] * 3)
    assert defensive_modifiers(log, "B")[:3] == ["+0", "+0", "+0"]
    assert not [e for e in log.events if e["kind"] == "defense"]
