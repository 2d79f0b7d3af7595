"""Reclaim the Wild, Abstract Combat Ranges, in a fight with no map: the fight file's `abstract` block says the foes
are close together (an area attack "May hit 1 additional foe") and which foes are isolated ("they cannot be included
in an attack with other foes"); the foes a game master may name, and whom an area catches, follow it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

from tests.conftest import EXAMPLES
from tohit.core.errors import InputError
from tohit.engine.encounter import Encounter

FOES = ["Bokoblin 1", "Bokoblin 2", "Moblin"]
CAMP: dict[str, Any] = yaml.safe_load((EXAMPLES / "fights" / "rtw-bokoblin-camp.yaml").read_text())


def camp(rng: dict[str, Any] | None, abstract: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Bokoblin camp with Zelda's Fireball given `rng` (a range with its size) and no `area_size`."""
    data = copy.deepcopy(CAMP)
    fireball = data["sides"][0]["combatants"][1]["attacks"][0]
    if rng is not None:
        del fireball["area_size"]
        fireball["attack"]["range"] = rng
    if abstract is not None:
        data["abstract"] = abstract
    return data


def fireball(data: dict[str, Any], targets: list[str]) -> list[str]:
    """The foes Zelda's Fireball attacks when the game master names `targets`."""
    events = Encounter.create(data, seed=1).act(
        {"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": targets}
    )
    return [e["target"] for e in events if e["kind"] == "attack" and e.get("attacker") == "Zelda"]


def refusal(data: dict[str, Any], targets: list[str]) -> str:
    """The message of the InputError on `targets` when Zelda's Fireball names `targets`."""
    enc = Encounter.create(data, seed=1)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Fireball", "targets": targets})
    assert err.value.field == "targets", err.value
    return err.value.message


@pytest.mark.parametrize(
    ("rng", "most"),
    [({"type": "cone", "size": 3}, 2), ({"type": "burst", "size": 1}, 2), ({"type": "line", "size": 1}, 1)],
)
def test_may_hit_1_additional_foe_if_all_targeted_foes_are_described_as_being_close_together(
    rng: dict[str, Any], most: int
) -> None:
    """Burst and "Blast, Cone, Line, or Sweep": "May hit 1 additional foe if all targeted foes are described as being
    close together": the same range names one foe more with `abstract.close_together`, and the sheet says so."""
    apart, close = camp(rng), camp(rng, {"close_together": True})
    fights = [Encounter.create(data, seed=1).fight for data in (apart, close)]
    assert [fight.rules.max_targets(fight, 1, 0) for fight in fights] == [most, most + 1]  # Zelda's Fireball
    assert f"at most {most} " in refusal(apart, FOES[: most + 1])
    assert fireball(close, FOES[: most + 1]) == FOES[: most + 1]
    words = refusal(camp(rng, {"close_together": True}), [*FOES, "Link"][: most + 2])
    assert f"at most {most + 1} " in words and "the foes close together" in words, words


def test_close_together_leaves_melee_and_projectile_at_1_foe() -> None:
    """ "Melee, Projectile: Hit 1 foe": close together or not."""
    data = camp(None, {"close_together": True})
    assert "Magic Salvo is not an area attack: it hits 1 foe" in _refused_salvo(data)


def _refused_salvo(data: dict[str, Any]) -> str:
    enc = Encounter.create(data, seed=1)
    with pytest.raises(InputError) as err:
        enc.act({"kind": "attack", "attacker": "Zelda", "attack": "Magic Salvo", "targets": FOES[:2]})
    assert err.value.field == "targets"
    return err.value.message


def test_an_isolated_foe_cannot_be_included_in_an_attack_with_other_foes() -> None:
    """ "If a foe is up on a balcony, hiding behind cover, or ... separated themselves from the other foes, then they
    cannot be included in an attack with other foes": named with another, it is refused on `targets`; alone, it is
    attacked."""
    data = camp({"type": "burst", "size": 1}, {"isolated": ["Moblin"]})
    assert refusal(data, ["Bokoblin 1", "Moblin"]) == (
        "Moblin is isolated: it cannot be included in an attack with other foes"
    )
    assert fireball(data, ["Bokoblin 1", "Bokoblin 2"]) == ["Bokoblin 1", "Bokoblin 2"]


def test_an_area_aimed_at_one_foe_catches_no_isolated_foe_beside_it() -> None:
    """Named once, a Burst 1 catches 2 foes (the chosen one and the next standing): an isolated foe is passed by, and
    an isolated foe chosen is the one caught."""
    assert sorted(fireball(camp({"type": "burst", "size": 1}), ["Moblin"])) == ["Bokoblin 1", "Moblin"]
    lonely = camp({"type": "burst", "size": 1}, {"isolated": ["Bokoblin 1"]})
    assert sorted(fireball(lonely, ["Moblin"])) == ["Bokoblin 2", "Moblin"]
    assert fireball(lonely, ["Bokoblin 1"]) == ["Bokoblin 1"]


@pytest.mark.parametrize(
    ("rng", "words"),
    [
        ({"type": "burst", "size": 2}, "Fireball hits at most 4 foes in Abstract Combat (Burst 2)"),
        ({"type": "cone", "size": 1}, "Fireball hits at most 1 foe in Abstract Combat (Cone 1)"),
        (
            {"type": "targets_within", "count": 2, "within": 6},
            "Fireball hits at most 2 foes in Abstract Combat (2 Targets within 6 Squares)",
        ),
    ],
)
def test_the_count_refused_names_the_range_in_the_pages_words(rng: dict[str, Any], words: str) -> None:
    """The refusal says the range as the page writes it ("Burst 2", "X Targets within Y Squares"), never its key."""
    targets = [*FOES, "Link", "Zelda"][: int(words.split("at most ")[1].split()[0]) + 1]
    message = refusal(camp(rng), targets)
    assert message == f"{words}; got {len(targets)}", message
    assert "_" not in message


@pytest.mark.parametrize(
    ("abstract", "field", "words"),
    [
        ({"isolated": ["Ganon"]}, "abstract.isolated[0]", "'Ganon' is not a combatant"),
        ({"close_together": True}, "abstract", "Abstract Combat has no map"),
    ],
)
def test_the_abstract_block_is_checked(abstract: dict[str, Any], field: str, words: str) -> None:
    """An isolated foe is a combatant of the fight; Abstract Combat is a fight with no map."""
    data = camp(None, abstract)
    if field == "abstract":
        data["map"] = {"rows": ["...."]}
    with pytest.raises(InputError) as err:
        Encounter.create(data, seed=1)
    assert err.value.field == field and words in err.value.message, (err.value.field, err.value.message)
