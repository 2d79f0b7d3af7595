"""A live encounter's turns and undos (engine/encounter.py, issue 16): a game master's attack on the turn the game's
order gives plays that turn as the game's own step would (a new round first where the last one is done), and an
undo of any action, however many of a stat's values it changed, is an event that replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine import gm_hand
from tohit.engine.encounter import Encounter
from tohit.engine.fight.replay import chained, replay
from tohit.server import read_models

FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))


def duel() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text())
    return data


def test_encounter_attack_on_the_next_turn_begins_the_round_it_falls_in() -> None:
    """Every combatant out of AP: the round is done, whose turn is next is the first of the next round, and the GM's
    attack for that combatant is played after the round begins (AP restored: kaiser action_points.md), as auto
    would play it, never refused for the AP of the round before."""
    enc = Encounter.create(duel(), seed=1)
    for name in ("Ceil", "Bandit chief"):
        enc.act({"kind": "adjust", "combatant": name, "stat": "ap", "value": 0})
    turn = enc.next_turn()
    assert turn == "Ceil"
    events = enc.act({"kind": "attack", "attacker": turn, "targets": ["Bandit chief"]})
    kinds = [e["kind"] for e in events]
    assert "round" in kinds and kinds.index("round") < kinds.index("attack")
    assert enc.state_json()["fight"]["round"] == 2 and enc.in_turn is True


def test_encounter_attack_out_of_turn_is_the_attackers_turn_alone() -> None:
    enc = Encounter.create(duel(), seed=1)
    assert enc.next_turn() == "Ceil"
    events = enc.act({"kind": "attack", "attacker": "Bandit chief", "targets": ["Ceil"]})
    assert events[0]["kind"] == "ap_spent" and "round" not in [e["kind"] for e in events]
    assert enc.state_json()["fight"]["cursor"] == 0  # the order did not move: Ceil's turn is still to come
    assert enc.in_turn is False


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_encounter_undos_between_steps_replay_and_restore(path: Path, tmp_path: Path) -> None:
    """Auto steps (each may change one stat several times: a round's start, a counterattack...) with every third
    one taken back: each undo gives back the state before its action, and the log replays and restores."""
    data = yaml.safe_load(path.read_text())
    enc = Encounter.create(data, seed=4)
    for k in range(1, 600):
        if enc.over:
            break
        before = enc.state_json()
        enc.act({"kind": "auto"})
        if k % 3 == 0:
            enc.act({"kind": "undo"})
            assert enc.state_json() == before
    assert enc.over
    assert Encounter.restore(data, enc.events).state_json() == enc.state_json()
    log = tmp_path / "evening.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.events)))
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


def test_encounter_the_end_taken_back_and_played_again_replays(tmp_path: Path) -> None:
    """The GM takes back the blow that ended the fight: the log goes on past that end with the undo, play
    resumes, and `tohit replay` accepts the evening (any other event after an end is still refused)."""
    enc = Encounter.create(duel(), seed=2)
    while not enc.over:
        enc.act({"kind": "auto"})
    enc.act({"kind": "undo"})
    assert not enc.over and enc.next_turn() is not None
    while not enc.over:
        enc.act({"kind": "auto"})
    assert [e["kind"] for e in enc.events].count("end") == 2
    log = tmp_path / "evening.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in chained(enc.events)))
    rebuilt = replay(log)
    assert rebuilt.matches, rebuilt.mismatches


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_encounter_preview_is_exact_odds_in_the_current_state_and_changes_nothing(path: Path) -> None:
    enc = Encounter.create(yaml.safe_load(path.read_text()), seed=1)
    roster = enc.fight.roster
    foes = [n for n, s in zip(roster.names, roster.side, strict=True) if s != roster.side[0]]
    before, seq = enc.state_json(), enc.seq
    found = enc.preview(roster.names[0], None, foes)
    assert [t["name"] for t in found] == foes
    for t in found:  # odds for a foe the attack rolls against, else the game's words for why not
        assert sum(t["result"].values()) + t["beyond_depth"] == 1 if "result" in t else t["reach"]
    assert enc.state_json() == before and enc.seq == seq


def test_encounter_preview_follows_the_state() -> None:
    """The defender's Defensive Rolls already at -4 this round (its `def_mod`, as two defenses leave it: kaiser
    combat.json 200): Ceil's next attack is likelier to hit than at the round's start."""
    enc = Encounter.create(duel(), seed=1)

    def hit() -> Any:
        return enc.preview("Ceil", None, ["Bandit chief"])[0]["result"]["hit"]

    fresh = hit()
    enc.act({"kind": "adjust", "combatant": "Bandit chief", "stat": "def_mod", "value": -4})
    assert hit() > fresh


def test_encounter_round_order_follows_the_games_own_order() -> None:
    """The turn order a table shows is the game's: Last Odyssey's round goes by Initiative, highest first
    [Starting-Battles.md], so a Cop with Initiative 9 stands first and acts first; a game of file order keeps
    the file's order."""
    data = yaml.safe_load((EXAMPLES / "fights" / "last-odyssey-cops.yaml").read_text())
    data["sides"][1]["combatants"][-1]["initiative"] = 9
    enc = Encounter.create(data, source="cops", seed=1)
    assert read_models.sheet(enc)["order"] == ["Cop 3", "Mariana", "Cop 1", "Ilse", "Cop 2"]
    assert enc.next_turn() == "Cop 3"
    duel = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / "kaiser-duel.yaml").read_text()), source="d")
    assert read_models.sheet(duel)["order"] == [duel.fight.roster.names[c] for c in duel.fight.file_order]


@pytest.mark.parametrize("path", FIGHTS, ids=[p.stem for p in FIGHTS])
def test_encounter_next_turn_is_read_without_dice_and_is_whose_turn_the_step_plays(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn-order contract answers `next_actor` from the state alone (issue 27, item 1): over a whole fight of
    auto steps, with a GM's end of turn now and then, whose turn it names is whose turn the game's step plays
    next, mid-round, at a new round, after a move or a combatant holding its ground."""
    enc = Encounter.create(yaml.safe_load(path.read_text()), seed=6)
    rules = enc.fight.rules
    played: list[int] = []
    turn = type(rules).turn

    def spy(self: Any, ctx: Any, acting: Any, actor: Any, choice: Any = None, **more: Any) -> None:
        if bool(acting[0]):
            played.append(int(actor[0]))
        turn(self, ctx, acting, actor, choice, **more)  # a game's own keywords (Kaiser's `paid`) passed on

    monkeypatch.setattr(type(rules), "turn", spy)
    for k in range(120):
        if enc.over:
            break
        named = enc.next_turn()
        assert named in enc.standing(), (k, named)
        if k % 7 == 3:
            enc.act({"kind": "end_turn"})
            continue
        played.clear()
        enc.act({"kind": "auto"})
        if played:
            assert enc.fight.roster.names[played[0]] == named, k


def test_encounter_end_turn_never_leaves_the_order_in_kaiser() -> None:
    """Kaiser: End turn once per combatant, many times over, used to push the cursor past the turn order (an
    IndexError on every later read). The cursor stays in the order, and play goes on."""
    enc = Encounter.create(duel(), seed=1)
    size = enc.fight.roster.size
    for _ in range(3 * size + 1):
        enc.act({"kind": "end_turn"})
        assert 0 <= enc.state_json()["fight"]["cursor"] < size
        assert enc.next_turn() in enc.standing()
    enc.act({"kind": "auto"})


def test_encounter_end_turn_on_the_last_combatant_starts_the_next_round_at_once() -> None:
    """A round of one turn each (Full Plate): the GM ends the last combatant's turn, and the next round starts
    there (its round counter with it), its first turn named."""
    data = yaml.safe_load((EXAMPLES / "fights" / "fullplate-skirmish.yaml").read_text())
    enc = Encounter.create(data, seed=1)
    size = enc.fight.roster.size
    for _ in range(size):
        assert enc.state_json()["fight"]["round"] == 1
        enc.act({"kind": "end_turn"})
    assert enc.state_json()["fight"]["round"] == 2 and enc.state_json()["fight"]["cursor"] == 0
    assert enc.next_turn() == enc.fight.roster.names[enc.fight.file_order[0]]


def test_encounter_initiative_is_rolled_at_the_start_so_the_first_turn_is_known() -> None:
    """WSSWNN rolls initiative once, before the first turn: an encounter rolls it at its start (part of the start,
    which undo never takes back), so whose turn it is is known before anyone acts."""
    data = yaml.safe_load((EXAMPLES / "fights" / "wsswnn-kulu-brute.yaml").read_text())
    enc = Encounter.create(data, seed=2)
    assert [e["kind"] for e in enc.events][-1] == "initiative" and set(enc.actions) == {0}
    first = enc.next_turn()
    assert first in enc.standing()
    with pytest.raises(InputError, match="nothing to undo"):
        enc.act({"kind": "undo"})
    assert Encounter.restore(data, enc.events).next_turn() == first


@pytest.mark.parametrize(
    ("name", "who", "stat", "value", "field"),
    [
        ("last-odyssey-cops", "Mariana", "turn", 1000, "stat"),
        ("last-odyssey-cops", "Mariana", "turn", -1000, "stat"),
        ("last-odyssey-cops", "Mariana", "statuses", -1, "value"),
        ("wsswnn-grapple-and-archer", None, "grappling", 5, "value"),
        ("kaiser-duel", "Ceil", "flat_footed", 2, "value"),
        ("kaiser-duel", "Ceil", "ap", -1, "value"),
    ],
)
def test_encounter_adjust_beyond_a_stats_range_is_refused_naming_it(
    name: str, who: str | None, stat: str, value: int, field: str
) -> None:
    """A stat's range comes from its game's declaration (`stat_range`): an adjust beyond it is refused naming the
    stat and its range in the game's words, never its state key (issue 36: "mdp takes 0 to 1,000,000,000"), or
    that the rules keep it, and nothing changes (before issue 27: a later 500)."""
    enc = Encounter.create(yaml.safe_load((EXAMPLES / "fights" / f"{name}.yaml").read_text()), seed=1)
    who = who or enc.fight.roster.names[0]
    before = enc.state_json()
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": who, "stat": stat, "value": value})
    c = enc.fight.roster.names.index(who)
    assert err.value.field == field and gm_hand.label(enc, c, stat) in err.value.message
    if field == "value":
        low, high = read_models.ranges(enc)[stat] or [0, 0]
        assert err.value.message.endswith(f"takes {gm_hand.range_words((low, high))}; got {value:,}")
        assert f"{stat} takes" not in err.value.message
    assert enc.state_json() == before
    enc.act({"kind": "auto"})


def test_encounter_actions_are_typed_and_strict() -> None:
    """The actions an encounter takes are one union on `kind` (engine.actions): a field not named is refused, and
    so is true for a number."""
    enc = Encounter.create(duel(), seed=1)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "auto", "speed": 2})
    assert err.value.field == "speed"
    with pytest.raises(InputError) as err:
        enc.act({"kind": "adjust", "combatant": "Ceil", "stat": "lp", "value": True})
    assert err.value.field == "value"
