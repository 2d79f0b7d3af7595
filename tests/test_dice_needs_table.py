"""The dice route answers from the games' declarations as it answered by probing (issue 36, item 6): every bundled
fight (each game's starter and examples/fights/), seed 3, at its start; every attack of every combatant standing
on every combatant, `when` each role is needed and, for the attacks the rules allow now, the roles still `needed`
after a spread of faces typed (none; each finite role's lowest and highest faces; all but the last role at their
lowest or highest).

tests/data/dice_needs_probed.jsonl holds the answers of the probing route (engine/dice_needs.py before it read
the declarations: the attack tried on copies of the encounter with probe faces), frozen before it was replaced.
The declarations give the very same answers, after the first auto action of each fight too (checked when the table
was made: 715 attacks, 1,180 typed spreads), but for the departures below, where the probes read the dice apart
while the page rolls them together.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter
from tohit.server import read_models
from tohit.server.examples import example

TABLE = Path(__file__).resolve().parent / "data" / "dice_needs_probed.jsonl"
ROWS: list[dict[str, Any]] = [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines()]

#: Where the declarations answer otherwise, and why. WSSWNN's Mighty Blow rolls the Attack die with an advantage die
#: and keeps the higher: the two are rolled together, so both are asked first ("always"); the probes, varying one
#: die while the other showed a high face, saw no change and called each "conditional" (the page then asked for
#: neither first). With an 8 typed on the advantage die the attack die is still asked: this fight has a shot into
#: a grapple, so its turn reads the kept attack roll (its parity).
MIGHTY_BLOW = {"when": {"attack": "always", "advantage": "always"}, "needed": {'{"advantage": [8]}': ["attack"]}}
DEPARTURES: dict[tuple[str, str, str, str], dict[str, Any]] = {
    ("file/wsswnn-grapple-and-archer", "Ket", "Mighty Blow", "Oru"): MIGHTY_BLOW,
    ("file/wsswnn-grapple-and-archer", "Ket", "Mighty Blow", "Sena"): MIGHTY_BLOW,
}


@cache
def started(fight: str) -> Encounter:
    """The bundled fight at its start (seed 3); the route changes nothing, so one encounter serves every row."""
    name, data = example(fight)
    return Encounter.create(data, source=name, seed=3)


def expected(row: dict[str, Any]) -> tuple[dict[str, str], list[tuple[str, Any]]]:
    """The row's frozen answers: `when`, and per spread of typed faces (as JSON) the roles still needed."""
    key = (row["fight"], row["attacker"], row["attack"], row["target"])
    departs = DEPARTURES.get(key, {"when": {}, "needed": {}})
    when = {**row["when"], **departs["when"]}
    needed = [(json.dumps(f), departs["needed"].get(json.dumps(f), old)) for f, old in row["needed"]]
    return when, needed


@pytest.mark.parametrize("fight", sorted({row["fight"] for row in ROWS}))
def test_the_dice_route_answers_every_bundled_attack_as_frozen(fight: str) -> None:
    enc = started(fight)
    seq = enc.seq
    for row in (r for r in ROWS if r["fight"] == fight):
        who, attack, target = row["attacker"], row["attack"], row["target"]
        when, needed = expected(row)
        roles = read_models.dice(enc, who, attack, target)
        assert {r["role"]: r["when"] for r in roles} == when, row
        for faces, old in needed:
            try:
                found: Any = read_models.dice_needed(enc, who, attack, [target], json.loads(faces))
            except InputError:
                found = "refused"
            assert found == old, (row, faces)
    assert enc.seq == seq  # nothing appended


def test_the_frozen_table_covers_every_bundled_fight_and_game() -> None:
    fights = {row["fight"] for row in ROWS}
    assert len(fights) == 20 and {f.split("/")[1].split("-")[0] for f in fights if f.startswith("starter/")} == {
        "fullplate",
        "kaiser",
        "last",
        "rtw",
        "wsswnn",
    }
    assert any(when == "conditional" for row in ROWS for when in row["when"].values())
    assert any(when == "never" for row in ROWS for when in row["when"].values())
