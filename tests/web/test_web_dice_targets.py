"""Enter dice for an attack on several targets: a set per foe where the rules roll per foe (rtw's area in Abstract
Combat: "roll all To-Hit checks once for each foe"), one field where one roll serves every target (Last Odyssey's
Multi: one hit die). The faces typed reach each foe's roll: the events carry them and the result shows both."""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_encounter_targets import fight_data
from tests.web.conftest import ARTIFACTS, Table, bearer, shot
from tests.web.test_web_table import ready, seq

pytestmark = pytest.mark.browser

ROWS = "() => [...document.querySelectorAll('[data-preview] [data-target]')].map(r => r.dataset.target)"


def rolled(page: Any, table: Table, eid: str, gm: str, before: int, attacker: str) -> list[dict[str, Any]]:
    """Use these dice, wait for the attack's events, and return its attacks (by `attacker`)."""
    page.click("#roll-dice")
    page.wait_for_function(f"() => Number(document.getElementById('tracker').dataset.seq) > {before}")
    events = table.http.get(f"/v1/encounters/{eid}/events", headers=bearer(gm)).json()
    return [e for e in events if e["n"] > before and e["kind"] == "attack" and e.get("attacker") == attacker]


def test_web_enter_dice_asks_a_to_hit_check_for_each_rtw_foe(page: Any, table: Table) -> None:
    """Zelda's Fireball as a Basic Attack over a Blast, Moblin and Bokoblin 1 chosen: Enter dice asks a To-Hit
    check under each foe's name; a face off its die is refused at that foe's field; the faces typed for each foe
    are the faces its roll reads, and the result shows both rolls."""
    data = fight_data("rtw-bokoblin-camp")
    fireball = data["sides"][0]["combatants"][1]["attacks"][0]
    fireball["attack"] = {"kind": "basic", "range": "blast", "area": True, "damage": {"trait": "willpower"}}
    made = table.create(fight=data, seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.select_option("#attacker", "Zelda")
    page.select_option("#attack", "Fireball")
    for name in ("Moblin", "Bokoblin 1"):
        page.check(f'#targets input[value="{name}"]')
    page.wait_for_function(f"() => ({ROWS})().length === 2")
    page.click("#enter-dice")
    page.wait_for_selector("#dice-fields fieldset.dice-target")
    groups = page.eval_on_selector_all("#dice-fields fieldset.dice-target", "xs => xs.map(x => x.dataset.target)")
    assert sorted(groups) == ["Bokoblin 1", "Moblin"]
    assert page.locator("#dice-fields input").count() == 2
    assert "type the dice rolled for each" in page.inner_text("#dice-several")
    typed = {"Moblin": [1, 2], "Bokoblin 1": [6, 5]}
    before = seq(page)
    moblin = '#dice-fields input[data-target="Moblin"][name="to_hit"]'
    page.fill(moblin, "7 1")
    page.fill('#dice-fields input[data-target="Bokoblin 1"][name="to_hit"]', "6 5")
    page.click("#roll-dice")
    error = page.get_attribute(moblin, "aria-describedby")
    assert "is not on a d6" in page.inner_text(f"#{error}")
    assert seq(page) == before  # nothing sent
    page.fill(moblin, "1 2")
    shot(page, "web-dice-per-foe", full=False)
    page.locator("#action").screenshot(path=str(ARTIFACTS / "web-dice-per-foe-panel.png"))
    attacks = rolled(page, table, eid, gm, before, "Zelda")
    assert {e["target"]: e["dice"]["to_hit"] for e in attacks} == typed
    result = page.inner_text("[data-result]")
    assert all(e["text"] in result for e in attacks)
    shot(page, "web-dice-per-foe-rolled", full=False)


def test_web_enter_dice_asks_a_multi_ability_s_hit_die_once(page: Any, table: Table) -> None:
    """Fire Wave on Cop 1 reaches every cop: one hit die, typed once, is the face every cop's roll reads."""
    made = table.create(example="file/last-odyssey-cops", seed=5)
    eid, gm = made["id"], made["gm_token"]
    ready(page, table.url(eid, gm))
    page.select_option("#attacker", "Ilse")
    page.select_option("#attack", "Fire Wave")
    page.check('#targets input[value="Cop 1"]')
    page.wait_for_function(f"() => ({ROWS})().length === 3")
    page.click("#enter-dice")
    page.wait_for_selector("#dice-several")
    assert page.eval_on_selector_all("#dice-fields input", "xs => xs.map(x => x.name)") == ["hit"]
    assert "one roll for all" in page.inner_text("#dice-fields")
    assert "one roll serves them all" in page.inner_text("#dice-several")
    before = seq(page)
    page.fill("#dice-fields input[name=hit]", "7")
    shot(page, "web-dice-multi-once", full=False)
    attacks = rolled(page, table, eid, gm, before, "Ilse")
    assert sorted(e["target"] for e in attacks) == ["Cop 1", "Cop 2", "Cop 3"]
    assert [e["dice"] for e in attacks] == [{"hit": [7]}] * 3
