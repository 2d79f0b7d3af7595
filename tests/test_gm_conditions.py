"""Issue 36, item 3: every condition and status a game's page names is set and cleared from the table (the GM's
`condition` action, by its rulebook word in any case), whether or not an ability in the fight inflicts it; once
set, the rules read it."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine import gm_hand
from tohit.engine.encounter import Encounter


def encounter(name: str, seed: int = 1) -> Encounter:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
    return Encounter.create(data, seed=seed)


#: Per game, a fight whose abilities inflict none (or few) of them, a combatant, and every condition its page
#: names that a GM sets by a word: (fight, combatant, [(word, stat, bit)]).
NAMED = [
    # last-odyssey.md, Status-Inflicting Abilities: "they gain the status" (Statuses: the nine).
    (
        "last-odyssey-cops",
        "Cop 1",
        [
            ("Blinded", "statuses", 1),
            ("Paralyzed", "statuses", 2),
            ("Silenced", "statuses", 4),
            ("Petrified", "statuses", 8),
            ("Burned", "statuses", 16),
            ("Confused", "statuses", 32),
            ("Frostbitten", "statuses", 64),
            ("Fatigued", "statuses", 128),
            ("Poisoned", "statuses", 256),
            ("Incapacitated", "incapacitated", 1),
        ],
    ),
    # fullplate.txt, Circumstantial Modifiers: the target's conditions (Prone Stance, Kneeling Stance, Balance,
    # Condition) and Flatfooted.
    (
        "fullplate-skirmish",
        "Orc",
        [
            ("Prone", "prone", 1),
            ("Kneeling/Sitting", "kneeling", 1),
            ("Off-Balance", "off_balance", 1),
            ("Invisible", "invisible", 1),
            ("Stunned", "stunned", 1),
            ("Unaware", "unaware", 1),
            ("Helpless", "helpless", 1),
            ("Flatfooted", "flatfooted", 1),
        ],
    ),
    # reclaim-the-wild.md, Landing the Blow (Off-Balance, Blinded...), Peril, Falling in Battle (Helpless), and
    # Status Effects (sources-and-gaps.md): Prone, Halted, Dazzled, Invisibility.
    (
        "rtw-bokoblin-camp",
        "Bokoblin 1",
        [
            ("Off-Balance", "off_balance", 1),
            ("Prone", "prone", 1),
            ("Halted", "halted", 1),
            ("Blinded", "blinded", 1),
            ("Dazzled", "dazzled", 1),
            ("Invisible", "invisible", 1),
            ("Helpless", "helpless", 1),
            ("Peril", "peril", 1),
        ],
    ),
    # wsswnn.txt, Breaking and Disarming Arms: "the defending armament is disarmed".
    ("wsswnn-kulu-brute", "Kulu brute", [("Disarmed", "disarmed", 1)]),
    # kaiser.md with sources-and-gaps.md: Flat-Footed (a loss of AP at 0) and knocked out (Critical).
    ("kaiser-party-vs-bandits", "Ceil", [("Flat-Footed", "flat_footed", 1), ("Knocked out", "knocked_out", 1)]),
]
CASES = [(name, who, word, stat, bit) for name, who, words in NAMED for word, stat, bit in words]


@pytest.mark.parametrize(("name", "who", "word", "stat", "bit"), CASES)
def test_every_condition_the_page_names_is_set_and_cleared_from_the_table(
    name: str, who: str, word: str, stat: str, bit: int
) -> None:
    """Issue 36 item 3: "Every condition and status the game names can be set from the table, whether or not an
    ability in this fight inflicts it": set by its word (in any case) and cleared through `Encounter.act`, one
    `condition` event each (a status of a bitmask: its bit alone), undone like any other."""
    enc = encounter(name)
    before = enc.state_json()["combatants"][who][stat]
    assert not before & bit
    on = enc.act({"kind": "condition", "combatant": who, "condition": word.upper(), "on": True})
    assert [e["kind"] for e in on] == ["condition"] and on[0]["condition"] == word
    assert on[0]["changes"] == [{"who": who, "stat": stat, "from": before, "to": before | bit}]
    assert f"{who} is {word} (set by the GM)" == on[0]["text"]
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": who, "condition": word.lower(), "on": True})
    assert err.value.field == "on"
    off = enc.act({"kind": "condition", "combatant": who, "condition": word, "on": False})
    assert off[0]["changes"] == [{"who": who, "stat": stat, "from": before | bit, "to": before}]
    enc.act({"kind": "undo"})
    assert enc.state_json()["combatants"][who][stat] == before | bit


@pytest.mark.parametrize(("name", "who", "words"), NAMED)
def test_the_table_lists_every_condition_the_page_names(name: str, who: str, words: list[tuple[str, str, int]]) -> None:
    """The conditions a GM may set (the sheet's `gm_conditions`, the refusal's list) are every one the page names."""
    enc = encounter(name)
    listed = {word for _, word, _ in gm_hand.settable(enc)}
    assert {word for word, _, _ in words} <= listed
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": who, "condition": "Petrified by a gorgon", "on": True})
    assert all(word in err.value.message for word, _, _ in words)


def test_last_odyssey_statuses_one_status_set_keeps_the_others() -> None:
    """Statuses [last-odyssey.md, Status-Inflicting Abilities; Statuses]: a bitmask of the nine; setting one sets its
    bit alone, and clearing it leaves the others; the bitmask as a whole is not a condition a GM names."""
    enc = encounter("last-odyssey-cops")
    enc.act({"kind": "condition", "combatant": "Cop 1", "condition": "poisoned", "on": True})
    enc.act({"kind": "condition", "combatant": "Cop 1", "condition": "Blinded", "on": True})
    enc.act({"kind": "condition", "combatant": "Cop 1", "condition": "Poisoned", "on": False})
    assert enc.state_json()["combatants"]["Cop 1"]["statuses"] == 1
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": "Cop 1", "condition": "statuses", "on": True})
    assert err.value.field == "condition"


def test_last_odyssey_statuses_set_by_the_gm_are_read_by_the_next_attack() -> None:
    """Statuses (sources-and-gaps.md): "Petrified: base Evasion halved, rounded down", "Blinded: Physical ...
    Accuracy use half their base value", set from the table (no ability of this fight inflicts them): Cop 1's
    Baton on Mariana (Physical Accuracy 4, Evasion 2) hits on d10 - 4 + 2 <= 7 (9 in 10); Mariana Petrified
    (Evasion 1): 10 in 10; Cop 1 Blinded too (Accuracy 2): d10 - 2 + 1 <= 7, 8 in 10."""
    enc = encounter("last-odyssey-cops")
    assert enc.preview("Cop 1", None, ["Mariana"])[0]["result"]["hit"] == Fraction(9, 10)
    enc.act({"kind": "condition", "combatant": "Mariana", "condition": "Petrified", "on": True})
    assert enc.preview("Cop 1", None, ["Mariana"])[0]["result"]["hit"] == 1
    enc.act({"kind": "condition", "combatant": "Cop 1", "condition": "blinded", "on": True})
    assert enc.preview("Cop 1", None, ["Mariana"])[0]["result"]["hit"] == Fraction(8, 10)


def test_rtw_prone_set_by_the_gm_changes_a_melee_attacks_odds() -> None:
    """Status Effects, Prone (sources-and-gaps.md): "Prone target: no Evasion ... against Melee": set from the table
    on a foe that no effect of this fight knocks down, the next attack's preview reads it."""
    enc = encounter("rtw-bokoblin-camp")
    before = enc.preview("Link", None, ["Bokoblin 1"])[0]["result"]
    enc.act({"kind": "condition", "combatant": "Bokoblin 1", "condition": "prone", "on": True})
    after = enc.preview("Link", None, ["Bokoblin 1"])[0]["result"]
    assert after != before


def test_simulated_fights_keep_no_condition_their_file_cannot_need() -> None:
    """A fight the engine runs (not a live encounter) keeps only the statuses its file can need, so batch fights do
    no extra work per attack; the live encounter of the same file keeps every one."""
    from tohit.engine.fight.load import fight_from_dict
    from tohit.engine.fight.run import initial_state

    for name, stat in (("fullplate-skirmish", "prone"), ("rtw-bokoblin-camp", "halted")):
        data = yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text())
        assert stat not in initial_state(fight_from_dict(data), 1).per
        assert stat in encounter(name).state.per


def test_an_encounter_stored_before_its_game_kept_every_status_restores_after_a_join() -> None:
    """A live encounter stored before the game kept every status (its logged rows lack them) restores, a join
    included: a stat the game keeps now starts at its start value."""
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "rtw-bokoblin-camp.yaml").read_text())
    enc = Encounter.create(data, seed=1)
    block = {**copy.deepcopy(data["sides"][1]["combatants"][0]), "name": "Newcomer"}
    enc.act({"kind": "join", "side": enc.fight.roster.side_names[1], "combatant": block})
    old = copy.deepcopy(enc.events)
    for event in old:
        for row in event.get("state", {}).get("combatants", {}).values():
            row.pop("halted")
    again = Encounter.restore(data, old)
    assert again.state_json() == enc.state_json()
    again.act({"kind": "condition", "combatant": "Newcomer", "condition": "Halted", "on": True})


def test_rtw_distracted_in_a_live_encounter_is_set_by_its_sources() -> None:
    """Status Effects, Distracted (sources-and-gaps.md): "every foe except the source of the distraction counts as
    Hard to Hit": it has its sources, so a GM gives them by an adjust (one bit per source) in any live encounter;
    Link's attack on a foe that is not its source reads it, on the source not. The condition action, which names
    no source, refuses it."""
    enc = encounter("rtw-bokoblin-camp")
    names = enc.fight.roster.names
    other, source = (enc.preview("Link", None, [n])[0]["result"] for n in ("Bokoblin 1", "Bokoblin 2"))
    enc.act({"kind": "adjust", "combatant": "Link", "stat": "distracted", "value": 1 << names.index("Bokoblin 2")})
    assert enc.preview("Link", None, ["Bokoblin 1"])[0]["result"] != other
    assert enc.preview("Link", None, ["Bokoblin 2"])[0]["result"] == source
    with pytest.raises(InputError) as err:
        enc.act({"kind": "condition", "combatant": "Link", "condition": "Distracted", "on": True})
    assert err.value.field == "condition"
